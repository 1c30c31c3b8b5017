"""keras.applications.MobileNet (Howard et al. 2017) as Keras 3 builds it: a 3x3 convolution, then 13
depthwise-separable blocks with ReLU6, and a 1x1 convolution as classifier; inputs in "tf" mode."""

from __future__ import annotations

import warnings

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
_SIZES = [128, 160, 192, 224]
# (pointwise filters, strides) of blocks 1..13
_BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (512, 1),
           (512, 1), (1024, 2), (1024, 1)]
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.50: "5_0"}


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True, weights="imagenet",
              input_tensor=None, pooling=None, classes=1000, classifier_activation="softmax", name=None):
    """MobileNet with width multiplier `alpha`; named mobilenet_{alpha:.2f}_{rows} unless `name` is given."""
    builder.check_weights_argument(weights, include_top, classes)
    channels_first = image_data_format() == "channels_first"
    default_size = 224
    if input_shape is not None:
        rows, cols = (input_shape[1], input_shape[2]) if channels_first else (input_shape[0], input_shape[1])
        if rows == cols and rows in _SIZES:
            default_size = rows
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    rows, cols = (input_shape[1], input_shape[2]) if channels_first else (input_shape[0], input_shape[1])
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1.  "
                             f"Received depth_multiplier={depth_multiplier}")
        if alpha not in [0.25, 0.50, 0.75, 1.0]:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, `0.75` or "
                             f"`1.0` only.  Received alpha={alpha}")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [128, 160, 192, 224]. "
                          "Weights for input shape (224, 224) will be loaded as the default.", stacklevel=2)
    img_input = builder.image_input(input_tensor, input_shape)
    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier, strides=(stride, stride), block_id=block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pooled(x, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name or f"mobilenet_{alpha:0.2f}_{rows}")
    alpha_text = _ALPHA_TEXT.get(alpha, "2_5")
    file_name = (f"mobilenet_{alpha_text}_{rows}_tf.h5" if include_top
                 else f"mobilenet_{alpha_text}_{rows}_tf_no_top.h5")
    return builder.load_weights(model, weights, file_name, BASE_WEIGHT_PATH + file_name)


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = layers.Conv2D(int(filters * alpha), kernel, padding="same", use_bias=False, strides=strides,
                      name="conv1")(inputs)
    x = layers.BatchNormalization(axis=channel_axis, name="conv1_bn")(x)
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha, depth_multiplier=1, strides=(1, 1), block_id=1):
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = inputs
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(inputs)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                               depth_multiplier=depth_multiplier, strides=strides, use_bias=False,
                               name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=channel_axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(pointwise_conv_filters * alpha), (1, 1), padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=channel_axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def preprocess_input(x, data_format=None):
    """MobileNet inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
