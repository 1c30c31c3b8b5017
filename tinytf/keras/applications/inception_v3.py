"""keras.applications.InceptionV3 (Szegedy et al. 2015) as Keras 3 builds it: a convolution stem, then the
"mixed0".."mixed10" inception modules of parallel 1x1, factorized 5x5/7x7/3x3 and pooling branches (their
convolutions unnamed, so Keras numbers them conv2d_N in creation order); inputs in "tf" mode, at least 75x75."""

from __future__ import annotations

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """Convolution without bias, batch norm without scale, relu."""
    bn_axis = 1 if image_data_format() == "channels_first" else 3
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, scale=False, name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)


def _pool_branch(x, filters):
    return conv2d_bn(layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x), filters, 1, 1)


def _module_35(x, pool_filters, name, channel_axis):
    branch1x1 = conv2d_bn(x, 64, 1, 1)
    branch5x5 = conv2d_bn(conv2d_bn(x, 48, 1, 1), 64, 5, 5)
    branch3x3dbl = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    branch_pool = _pool_branch(x, pool_filters)
    return layers.concatenate([branch1x1, branch5x5, branch3x3dbl, branch_pool], axis=channel_axis, name=name)


def _module_17(x, width, name, channel_axis):
    branch1x1 = conv2d_bn(x, 192, 1, 1)
    branch7x7 = conv2d_bn(x, width, 1, 1)
    branch7x7 = conv2d_bn(branch7x7, width, 1, 7)
    branch7x7 = conv2d_bn(branch7x7, 192, 7, 1)
    branch7x7dbl = conv2d_bn(x, width, 1, 1)
    branch7x7dbl = conv2d_bn(branch7x7dbl, width, 7, 1)
    branch7x7dbl = conv2d_bn(branch7x7dbl, width, 1, 7)
    branch7x7dbl = conv2d_bn(branch7x7dbl, width, 7, 1)
    branch7x7dbl = conv2d_bn(branch7x7dbl, 192, 1, 7)
    branch_pool = _pool_branch(x, 192)
    return layers.concatenate([branch1x1, branch7x7, branch7x7dbl, branch_pool], axis=channel_axis, name=name)


def _module_8(x, i, channel_axis):
    branch1x1 = conv2d_bn(x, 320, 1, 1)
    branch3x3 = conv2d_bn(x, 384, 1, 1)
    branch3x3_1 = conv2d_bn(branch3x3, 384, 1, 3)
    branch3x3_2 = conv2d_bn(branch3x3, 384, 3, 1)
    branch3x3 = layers.concatenate([branch3x3_1, branch3x3_2], axis=channel_axis, name=f"mixed9_{i}")
    branch3x3dbl = conv2d_bn(conv2d_bn(x, 448, 1, 1), 384, 3, 3)
    branch3x3dbl_1 = conv2d_bn(branch3x3dbl, 384, 1, 3)
    branch3x3dbl_2 = conv2d_bn(branch3x3dbl, 384, 3, 1)
    branch3x3dbl = layers.concatenate([branch3x3dbl_1, branch3x3dbl_2], axis=channel_axis)
    branch_pool = _pool_branch(x, 192)
    return layers.concatenate([branch1x1, branch3x3, branch3x3dbl, branch_pool], axis=channel_axis,
                              name=f"mixed{9 + i}")


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="inception_v3"):
    """InceptionV3 (default input 299x299, at least 75x75)."""
    builder.check_weights_argument(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else 3
    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _module_35(x, 32, "mixed0", channel_axis)
    x = _module_35(x, 64, "mixed1", channel_axis)
    x = _module_35(x, 64, "mixed2", channel_axis)
    branch3x3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    branch3x3dbl = conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2), padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = layers.concatenate([branch3x3, branch3x3dbl, branch_pool], axis=channel_axis, name="mixed3")
    x = _module_17(x, 128, "mixed4", channel_axis)
    x = _module_17(x, 160, "mixed5", channel_axis)
    x = _module_17(x, 160, "mixed6", channel_axis)
    x = _module_17(x, 192, "mixed7", channel_axis)
    branch3x3 = conv2d_bn(conv2d_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    branch7x7x3 = conv2d_bn(x, 192, 1, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 1, 7)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 7, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = layers.concatenate([branch3x3, branch7x7x3, branch_pool], axis=channel_axis, name="mixed8")
    for i in range(2):
        x = _module_8(x, i, channel_axis)
    x = builder.classifier_or_pooled(x, include_top, classes, classifier_activation, weights, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name)
    file_name = f"inception_v3_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    file_hash = "9a0d58056eeedaa3f26cb7ebd46da564" if include_top else "bcbd6486424b2319ff4ef7d526e38f63"
    return builder.load_weights(model, weights, file_name, _BASE + file_name, file_hash)


def preprocess_input(x, data_format=None):
    """InceptionV3 inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
