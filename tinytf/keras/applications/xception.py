"""keras.applications.Xception (Chollet 2016) as Keras 3 builds it: an entry flow of strided separable
convolutions with 1x1 projected residuals, eight 728-channel middle blocks, an exit flow; inputs in "tf" mode,
at least 71x71."""

from __future__ import annotations

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/xception/"


def _sepconv_bn(x, filters, name, channel_axis):
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=channel_axis, name=f"{name}_bn")(x)


def _projection(x, filters, channel_axis):
    """The strided 1x1 shortcut of a downsampling block (unnamed in Keras: conv2d_N, batch_normalization_N)."""
    residual = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    return layers.BatchNormalization(axis=channel_axis)(residual)


def _entry_block(x, block, filters, channel_axis, first_relu=True):
    residual = _projection(x, filters, channel_axis)
    if first_relu:
        x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sepconv_bn(x, filters, f"block{block}_sepconv1", channel_axis)
    x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sepconv_bn(x, filters, f"block{block}_sepconv2", channel_axis)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
             classes=1000, classifier_activation="softmax", name="xception"):
    """Xception (default input 299x299, at least 71x71)."""
    builder.check_weights_argument(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=71,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = layers.BatchNormalization(axis=channel_axis, name="block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = layers.BatchNormalization(axis=channel_axis, name="block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    x = _entry_block(x, 2, 128, channel_axis, first_relu=False)
    x = _entry_block(x, 3, 256, channel_axis)
    x = _entry_block(x, 4, 728, channel_axis)
    for i in range(8):
        residual = x
        prefix = f"block{i + 5}"
        for conv in (1, 2, 3):
            x = layers.Activation("relu", name=f"{prefix}_sepconv{conv}_act")(x)
            x = _sepconv_bn(x, 728, f"{prefix}_sepconv{conv}", channel_axis)
        x = layers.add([x, residual])
    residual = _projection(x, 1024, channel_axis)
    x = layers.Activation("relu", name="block13_sepconv1_act")(x)
    x = _sepconv_bn(x, 728, "block13_sepconv1", channel_axis)
    x = layers.Activation("relu", name="block13_sepconv2_act")(x)
    x = _sepconv_bn(x, 1024, "block13_sepconv2", channel_axis)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name="block13_pool")(x)
    x = layers.add([x, residual])
    x = _sepconv_bn(x, 1536, "block14_sepconv1", channel_axis)
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sepconv_bn(x, 2048, "block14_sepconv2", channel_axis)
    x = layers.Activation("relu", name="block14_sepconv2_act")(x)
    x = builder.classifier_or_pooled(x, include_top, classes, classifier_activation, weights, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name)
    file_name = f"xception_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    file_hash = "0a58e3b7378bc2990ea3b43d5981f1f6" if include_top else "b0042744bf5b25fce3cb969f33bebb97"
    return builder.load_weights(model, weights, file_name, _BASE + file_name, file_hash)


def preprocess_input(x, data_format=None):
    """Xception inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
