"""keras.applications.MobileNetV2 (Sandler et al. 2018) as Keras 3 builds it: inverted residual blocks
(1x1 expansion, 3x3 depthwise, linear 1x1 projection) with ReLU6; inputs scaled to -1..1 ("tf" mode)."""

from __future__ import annotations

import warnings

from .. import layers
from ..backend import is_keras_tensor
from ..config import image_data_format
from . import builder, imagenet_utils

BASE_WEIGHT_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
_SIZES = [96, 128, 160, 192, 224]
# (filters, stride, expansion) of blocks 0..16
_BLOCKS = [(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6), (64, 1, 6),
           (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6),
           (320, 1, 6)]


def _default_size(input_shape, input_tensor):
    """The weights' resolution the input implies: its square size when ImageNet weights exist for it, else 224."""
    if input_shape is None and input_tensor is not None and is_keras_tensor(input_tensor):
        rows, cols = _spatial(input_tensor.shape, batched=True)
    elif input_shape is None:
        return 224
    else:
        rows, cols = _spatial(input_shape, batched=False)
    return rows if rows == cols and rows in _SIZES else 224


def _spatial(shape, batched):
    first = 1 + batched if image_data_format() == "channels_first" else batched
    return shape[first], shape[first + 1]


def _check_input_tensor(input_tensor, input_shape):
    if input_shape is None or input_tensor is None:
        return
    if not is_keras_tensor(input_tensor):
        raise ValueError(f"input_tensor is not a Keras tensor; Received `input_tensor={input_tensor}`")
    if image_data_format() == "channels_first":
        if input_tensor.shape[1] != input_shape[1]:
            raise ValueError("input_shape[1] must equal shape(input_tensor)[1] when `image_data_format` is "
                             f"`channels_first`; Received `input_tensor.shape={input_tensor.shape}`, "
                             f"`input_shape={input_shape}`")
    elif input_tensor.shape[2] != input_shape[1]:
        raise ValueError("input_tensor.shape[2] must equal input_shape[1]; Received "
                         f"`input_tensor.shape={input_tensor.shape}`, `input_shape={input_shape}`")


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name=None):
    """MobileNetV2 with width multiplier `alpha`; named mobilenetv2_{alpha:.2f}_{rows} unless `name` is given."""
    builder.check_weights_argument(weights, include_top, classes)
    _check_input_tensor(input_tensor, input_shape)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=_default_size(input_shape,
                                                                                            input_tensor),
                                                    min_size=32, data_format=image_data_format(),
                                                    require_flatten=include_top, weights=weights)
    rows, cols = _spatial(input_shape, batched=False)
    if weights == "imagenet":
        if alpha not in [0.35, 0.50, 0.75, 1.0, 1.3, 1.4]:
            raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, `0.75`, "
                             f"`1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, 160, 192, "
                          "224]. Weights for input shape (224, 224) will be loaded as the default.", stacklevel=2)
    img_input = builder.image_input(input_tensor, input_shape)
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    x = layers.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same",
                      use_bias=False, name="Conv1")(img_input)
    x = layers.BatchNormalization(axis=channel_axis, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride, expansion=expansion,
                                block_id=block_id)
    # the last convolution widens with alpha > 1 only, as the paper says
    last_block_filters = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last_block_filters, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(axis=channel_axis, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pooled(x, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name or f"mobilenetv2_{alpha:0.2f}_{rows}")
    file_name = (f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}.h5" if include_top
                 else f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}_no_top.h5")
    return builder.load_weights(model, weights, file_name, BASE_WEIGHT_PATH + file_name)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    channel_axis = 1 if image_data_format() == "channels_first" else -1
    in_channels = inputs.shape[channel_axis]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False, activation=None,
                          name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(axis=channel_axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                               padding="same" if stride == 1 else "valid", name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(axis=channel_axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, activation=None,
                      name=f"{prefix}project")(x)
    x = layers.BatchNormalization(axis=channel_axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _make_divisible(v, divisor, min_value=None):
    """v rounded to a multiple of divisor, never below min_value nor more than 10% below v."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def preprocess_input(x, data_format=None):
    """MobileNetV2 inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
