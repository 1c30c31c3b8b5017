"""keras.applications.EfficientNetV2B0..B3, S, M and L (Tan & Le 2021) as Keras 3 builds them: input scaling
inside the model, a stem, Fused-MBConv blocks (one full convolution in place of expansion plus depthwise) in the
early stages and MBConv blocks with squeeze-and-excitation later, each variant its own stage table."""

from __future__ import annotations

import copy
import math
import os

from .. import initializers, layers
from ..config import image_data_format
from . import builder, imagenet_utils

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}


def _stages(rows):
    """Keras' block arguments from rows (kernel, repeats, filters in, filters out, expansion, SE ratio, strides,
    conv type: 0 MBConv, 1 Fused-MBConv)."""
    keys = ("kernel_size", "num_repeat", "input_filters", "output_filters", "expand_ratio", "se_ratio", "strides",
            "conv_type")
    return [dict(zip(keys, row)) for row in rows]


_B_STAGES = [(3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1), (3, 2, 32, 48, 4, 0, 2, 1),
             (3, 3, 48, 96, 4, 0.25, 2, 0), (3, 5, 96, 112, 6, 0.25, 1, 0), (3, 8, 112, 192, 6, 0.25, 2, 0)]
DEFAULT_BLOCKS_ARGS = {
    "efficientnetv2-s": _stages([(3, 2, 24, 24, 1, 0.0, 1, 1), (3, 4, 24, 48, 4, 0.0, 2, 1),
                                 (3, 4, 48, 64, 4, 0, 2, 1), (3, 6, 64, 128, 4, 0.25, 2, 0),
                                 (3, 9, 128, 160, 6, 0.25, 1, 0), (3, 15, 160, 256, 6, 0.25, 2, 0)]),
    "efficientnetv2-m": _stages([(3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1), (3, 5, 48, 80, 4, 0, 2, 1),
                                 (3, 7, 80, 160, 4, 0.25, 2, 0), (3, 14, 160, 176, 6, 0.25, 1, 0),
                                 (3, 18, 176, 304, 6, 0.25, 2, 0), (3, 5, 304, 512, 6, 0.25, 1, 0)]),
    "efficientnetv2-l": _stages([(3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1), (3, 7, 64, 96, 4, 0, 2, 1),
                                 (3, 10, 96, 192, 4, 0.25, 2, 0), (3, 19, 192, 224, 6, 0.25, 1, 0),
                                 (3, 25, 224, 384, 6, 0.25, 2, 0), (3, 7, 384, 640, 6, 0.25, 1, 0)]),
    **{f"efficientnetv2-b{i}": _stages(_B_STAGES) for i in range(4)},
}
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """`filters` scaled by the width coefficient, rounded to a multiple of depth_divisor."""
    filters *= width_coefficient
    minimum_depth = min_depth or depth_divisor
    return int(max(minimum_depth, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    return int(math.ceil(depth_coefficient * repeats))


def _squeeze_excite(x, filters, input_filters, se_ratio, activation, name, bn_axis):
    filters_se = max(1, int(input_filters * se_ratio))
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((filters, 1, 1) if bn_axis == 1 else (1, 1, filters), name=f"{name}se_reshape")(se)
    se = layers.Conv2D(filters_se, 1, padding="same", activation=activation,
                       kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_expand")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name):
    """The skip connection where shapes allow it; Keras drops the branch with its survival probability as
    the rate (its own quirk, kept for the same layers)."""
    if strides == 1 and input_filters == output_filters:
        if survival_probability:
            x = layers.Dropout(survival_probability, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3, strides=1, se_ratio=0.0,
                bn_momentum=0.9, activation="swish", survival_probability=0.8, name=None):
    """Mobile inverted residual bottleneck: 1x1 expansion, depthwise convolution, squeeze-and-excitation, 1x1
    projection."""
    bn_axis = 3 if image_data_format() == "channels_last" else 1

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = layers.Conv2D(filters=filters, kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                              padding="same", data_format=image_data_format(), use_bias=False,
                              name=f"{name}expand_conv")(inputs)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        x = layers.DepthwiseConv2D(kernel_size=kernel_size, strides=strides,
                                   depthwise_initializer=CONV_KERNEL_INITIALIZER, padding="same",
                                   data_format=image_data_format(), use_bias=False, name=f"{name}dwconv2")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}bn")(x)
        x = layers.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, filters, input_filters, se_ratio, activation, name, bn_axis)
        x = layers.Conv2D(filters=output_filters, kernel_size=1, strides=1,
                          kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same",
                          data_format=image_data_format(), use_bias=False, name=f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)

    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3, strides=1, se_ratio=0.0,
                     bn_momentum=0.9, activation="swish", survival_probability=0.8, name=None):
    """The expansion and depthwise convolution of MBConv fused into one full convolution."""
    bn_axis = 3 if image_data_format() == "channels_last" else 1

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = layers.Conv2D(filters, kernel_size=kernel_size, strides=strides,
                              kernel_initializer=CONV_KERNEL_INITIALIZER, data_format=image_data_format(),
                              padding="same", use_bias=False, name=f"{name}expand_conv")(inputs)
            x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}expand_bn")(x)
            x = layers.Activation(activation=activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, filters, input_filters, se_ratio, activation, name, bn_axis)
        x = layers.Conv2D(output_filters, kernel_size=1 if expand_ratio != 1 else kernel_size,
                          strides=1 if expand_ratio != 1 else strides, kernel_initializer=CONV_KERNEL_INITIALIZER,
                          padding="same", use_bias=False, name=f"{name}project_conv")(x)
        x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name=f"{name}project_bn")(x)
        if expand_ratio == 1:
            x = layers.Activation(activation=activation, name=f"{name}project_activation")(x)
        return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)

    return apply


def EfficientNetV2(width_coefficient, depth_coefficient, default_size, dropout_rate=0.2, drop_connect_rate=0.2,
                   depth_divisor=8, min_depth=8, bn_momentum=0.9, activation="swish", blocks_args="default",
                   name="efficientnetv2", include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax", include_preprocessing=True,
                   weights_name=None, variant=None):
    """An EfficientNetV2 of `blocks_args` stages scaled by the width and depth coefficients."""
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS[variant or name]
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         f"(pre-training on ImageNet), or the path to the weights file to be loaded.Received: "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    bn_axis = 3 if image_data_format() == "channels_last" else 1
    x = img_input
    if include_preprocessing:
        if (variant or name).split("-")[-1].startswith("b") and input_shape[bn_axis - 1] == 3:
            # the B variants keep EfficientNet (V1)'s normalization
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229**2, 0.224**2, 0.225**2],
                                     axis=bn_axis)(x)
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)

    def filters_of(count):
        return round_filters(filters=count, width_coefficient=width_coefficient, min_depth=min_depth,
                             depth_divisor=depth_divisor)

    x = layers.Conv2D(filters=filters_of(blocks_args[0]["input_filters"]), kernel_size=3, strides=2,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    blocks_args = copy.deepcopy(blocks_args)
    b = 0
    blocks = float(sum(args["num_repeat"] for args in blocks_args))
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError(f"The number of repeats in `EfficientNetV2` must be > 0. Received: "
                             f"num_repeat={args['num_repeat']}")
        args["input_filters"] = filters_of(args["input_filters"])
        args["output_filters"] = filters_of(args["output_filters"])
        block = {0: MBConvBlock, 1: FusedMBConvBlock}[args.pop("conv_type")]
        for j in range(round_repeats(repeats=args.pop("num_repeat"), depth_coefficient=depth_coefficient)):
            if j > 0:  # only a stage's first block changes the stride and the width
                args["strides"] = 1
                args["input_filters"] = args["output_filters"]
            x = block(activation=activation, bn_momentum=bn_momentum,
                      survival_probability=drop_connect_rate * b / blocks, name=f"block{i + 1}{chr(j + 97)}_",
                      **args)(x)
            b += 1
    x = layers.Conv2D(filters=filters_of(1280), kernel_size=1, strides=1,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", data_format=image_data_format(),
                      use_bias=False, name="top_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, momentum=bn_momentum, name="top_bn")(x)
    x = layers.Activation(activation=activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_KERNEL_INITIALIZER,
                         bias_initializer=initializers.Constant(0.0), name="predictions")(x)
    else:
        x = builder.pooled(x, pooling, avg_name="avg_pool", max_name="max_pool")
    model = builder.functional_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        file_name = name + (".h5" if include_top else "_notop.h5")
        file_hash = WEIGHTS_HASHES[weights_name][0 if include_top else 1]
        return builder.load_weights(model, weights, file_name, BASE_WEIGHTS_PATH + file_name, file_hash)
    return builder.load_weights(model, weights)


# (width, depth, default resolution, Keras' weights key) of each variant
_VARIANTS = {"b0": (1.0, 1.0, 224, "b0"), "b1": (1.0, 1.1, 240, "b1"), "b2": (1.1, 1.2, 260, "b2"),
             "b3": (1.2, 1.4, 300, "b3"), "s": (1.0, 1.0, 384, "-s"), "m": (1.0, 1.0, 480, "-m"),
             "l": (1.0, 1.0, 480, "-l")}


def _variant(key):
    width, depth, size, weights_name = _VARIANTS[key]

    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
              classes=1000, classifier_activation="softmax", include_preprocessing=True,
              name=f"efficientnetv2-{key}"):
        return EfficientNetV2(width_coefficient=width, depth_coefficient=depth, default_size=size, name=name,
                              include_top=include_top, weights=weights, input_tensor=input_tensor,
                              input_shape=input_shape, pooling=pooling, classes=classes,
                              classifier_activation=classifier_activation,
                              include_preprocessing=include_preprocessing, weights_name=weights_name,
                              variant=f"efficientnetv2-{key}")

    build.__name__ = build.__qualname__ = f"EfficientNetV2{key.upper()}"
    build.__doc__ = (f"EfficientNetV2{key.upper()}: width x{width}, depth x{depth}, default input {size}x{size}; "
                     "inputs are pixels in 0..255 (the model scales them).")
    return build


EfficientNetV2B0 = _variant("b0")
EfficientNetV2B1 = _variant("b1")
EfficientNetV2B2 = _variant("b2")
EfficientNetV2B3 = _variant("b3")
EfficientNetV2S = _variant("s")
EfficientNetV2M = _variant("m")
EfficientNetV2L = _variant("l")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNetV2 scales its inputs itself (Keras keeps this function for compatibility)."""
    return x


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
