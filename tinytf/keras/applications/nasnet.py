"""keras.applications.NASNetMobile and NASNetLarge (Zoph et al. 2018) as Keras 3 builds them: the NASNet-A cells
found by architecture search, normal cells (keep the size) and reduction cells (halve it), each mixing separable
convolutions and poolings of the current and the previous cell's output; "tf" mode inputs (-1..1)."""

from __future__ import annotations

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
# (default size, include_top) -> (file name, URL, md5)
_WEIGHTS = {
    (224, True): ("nasnet_mobile.h5", f"{BASE_WEIGHTS_PATH}NASNet-mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
    (224, False): ("nasnet_mobile_no_top.h5", f"{BASE_WEIGHTS_PATH}NASNet-mobile-no-top.h5",
                   "1ed92395b5b598bdda52abe5c0dbfd63"),
    (331, True): ("nasnet_large.h5", f"{BASE_WEIGHTS_PATH}NASNet-large.h5", "11577c9a518f0070763c2b964a382f17"),
    (331, False): ("nasnet_large_no_top.h5", f"{BASE_WEIGHTS_PATH}NASNet-large-no-top.h5",
                   "d81d89dc07e6e56530c4e77faddd61b5"),
}
_BN = {"momentum": 0.9997, "epsilon": 1e-3}


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6, stem_block_filters=96, skip_reduction=True,
           filter_multiplier=2, include_top=True, weights="imagenet", input_tensor=None, pooling=None, classes=1000,
           default_size=None, classifier_activation="softmax", name="NASNet"):
    """A NASNet-A: a stem, two stem reduction cells, then three groups of `num_blocks` normal cells with a
    reduction cell between groups."""
    if image_data_format() == "channels_first":
        raise ValueError("NASNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    builder.check_weights_argument(weights, include_top, classes)
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
                         f"input_shape argument must be static (no None entries). Got: `input_shape={input_shape}`.")
    default_size = 331 if default_size is None else default_size
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    if penultimate_filters % (24 * (filter_multiplier**2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of 24 * "
                         f"(`filter_multiplier` ** 2). Current value: {penultimate_filters}")
    filters = penultimate_filters // 24
    x = layers.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False, name="stem_conv1",
                      kernel_initializer="he_normal")(img_input)
    x = layers.BatchNormalization(axis=-1, name="stem_bn1", **_BN)(x)
    p = None
    x, p = _reduction_a_cell(x, p, filters // (filter_multiplier**2), block_id="stem_1")
    x, p = _reduction_a_cell(x, p, filters // filter_multiplier, block_id="stem_2")
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters, block_id=f"{i}")
    x, p0 = _reduction_a_cell(x, p, filters * filter_multiplier, block_id=f"reduce_{num_blocks}")
    p = p0 if not skip_reduction else p
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters * filter_multiplier, block_id=f"{num_blocks + i + 1}")
    x, p0 = _reduction_a_cell(x, p, filters * filter_multiplier**2, block_id=f"reduce_{2 * num_blocks}")
    p = p0 if not skip_reduction else p
    for i in range(num_blocks):
        x, p = _normal_a_cell(x, p, filters * filter_multiplier**2, block_id=f"{2 * num_blocks + i + 1}")
    x = layers.Activation("relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pooled(x, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        if default_size not in (224, 331):
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or NASNetMobile")
        file_name, origin, file_hash = _WEIGHTS[(default_size, bool(include_top))]
        return builder.load_weights(model, weights, file_name, origin, file_hash)
    return builder.load_weights(model, weights)


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                 classes=1000, classifier_activation="softmax", name="nasnet_mobile"):
    """NASNet-A (4 @ 1056) for 224x224 inputs."""
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32, skip_reduction=False,
                  filter_multiplier=2, include_top=include_top, weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=224, classifier_activation=classifier_activation,
                  name=name)


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="nasnet_large"):
    """NASNet-A (6 @ 4032) for 331x331 inputs."""
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96, skip_reduction=True,
                  filter_multiplier=2, include_top=include_top, weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=331, classifier_activation=classifier_activation,
                  name=name)


def _separable_conv_block(ip, filters, kernel_size=(3, 3), strides=(1, 1), block_id=None):
    """relu, separable convolution (padded first when strided), batch norm, twice."""
    x = layers.Activation("relu")(ip)
    if strides == (2, 2):
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                 name=f"separable_conv_1_pad_{block_id}")(x)
        conv_pad = "valid"
    else:
        conv_pad = "same"
    x = layers.SeparableConv2D(filters, kernel_size, strides=strides, name=f"separable_conv_1_{block_id}",
                               padding=conv_pad, use_bias=False)(x)
    x = layers.BatchNormalization(axis=-1, name=f"separable_conv_1_bn_{block_id}", **_BN)(x)
    x = layers.Activation("relu")(x)
    x = layers.SeparableConv2D(filters, kernel_size, name=f"separable_conv_2_{block_id}", padding="same",
                               use_bias=False)(x)
    return layers.BatchNormalization(axis=-1, name=f"separable_conv_2_bn_{block_id}", **_BN)(x)


def _adjust_block(p, ip, filters, block_id=None):
    """The previous cell's output `p` brought to the size and width of `ip`."""
    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:  # halve p's size: two offset 1x1 poolings with convolutions, concatenated
        p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False, name=f"adjust_conv_1_{block_id}",
                           kernel_initializer="he_normal")(p1)
        p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
        p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
        p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False, name=f"adjust_conv_2_{block_id}",
                           kernel_initializer="he_normal")(p2)
        p = layers.concatenate([p1, p2], axis=-1)
        return layers.BatchNormalization(axis=-1, name=f"adjust_bn_{block_id}", **_BN)(p)
    if p.shape[-1] != filters:  # project p to `filters` channels
        p = layers.Activation("relu")(p)
        p = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"adjust_conv_projection_{block_id}",
                          use_bias=False, kernel_initializer="he_normal")(p)
        return layers.BatchNormalization(axis=-1, name=f"adjust_bn_{block_id}", **_BN)(p)
    return p


def _cell_input(ip, filters, kind, block_id):
    h = layers.Activation("relu")(ip)
    h = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"{kind}_conv_1_{block_id}",
                      use_bias=False, kernel_initializer="he_normal")(h)
    return layers.BatchNormalization(axis=-1, name=f"{kind}_bn_1_{block_id}", **_BN)(h)


def _normal_a_cell(ip, p, filters, block_id=None):
    """A normal cell: five branch pairs added, concatenated with the adjusted previous output."""
    p = _adjust_block(p, ip, filters, block_id)
    h = _cell_input(ip, filters, "normal", block_id)
    x1_1 = _separable_conv_block(h, filters, kernel_size=(5, 5), block_id=f"normal_left1_{block_id}")
    x1_2 = _separable_conv_block(p, filters, block_id=f"normal_right1_{block_id}")
    x1 = layers.add([x1_1, x1_2], name=f"normal_add_1_{block_id}")
    x2_1 = _separable_conv_block(p, filters, (5, 5), block_id=f"normal_left2_{block_id}")
    x2_2 = _separable_conv_block(p, filters, (3, 3), block_id=f"normal_right2_{block_id}")
    x2 = layers.add([x2_1, x2_2], name=f"normal_add_2_{block_id}")
    x3 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same", name=f"normal_left3_{block_id}")(h)
    x3 = layers.add([x3, p], name=f"normal_add_3_{block_id}")
    x4_1 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same", name=f"normal_left4_{block_id}")(p)
    x4_2 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same", name=f"normal_right4_{block_id}")(p)
    x4 = layers.add([x4_1, x4_2], name=f"normal_add_4_{block_id}")
    x5 = _separable_conv_block(h, filters, block_id=f"normal_left5_{block_id}")
    x5 = layers.add([x5, h], name=f"normal_add_5_{block_id}")
    x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip, p, filters, block_id=None):
    """A reduction cell: strided separable convolutions and poolings, half the size."""
    p = _adjust_block(p, ip, filters, block_id)
    h = _cell_input(ip, filters, "reduction", block_id)
    h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
    x1_1 = _separable_conv_block(h, filters, (5, 5), strides=(2, 2), block_id=f"reduction_left1_{block_id}")
    x1_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right1_{block_id}")
    x1 = layers.add([x1_1, x1_2], name=f"reduction_add_1_{block_id}")
    x2_1 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_left2_{block_id}")(h3)
    x2_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right2_{block_id}")
    x2 = layers.add([x2_1, x2_2], name=f"reduction_add_2_{block_id}")
    x3_1 = layers.AveragePooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_left3_{block_id}")(h3)
    x3_2 = _separable_conv_block(p, filters, (5, 5), strides=(2, 2), block_id=f"reduction_right3_{block_id}")
    x3 = layers.add([x3_1, x3_2], name=f"reduction_add3_{block_id}")
    x4 = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same", name=f"reduction_left4_{block_id}")(x1)
    x4 = layers.add([x2, x4])
    x5_1 = _separable_conv_block(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
    x5_2 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_right5_{block_id}")(h3)
    x5 = layers.add([x5_1, x5_2], name=f"reduction_add4_{block_id}")
    x = layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}")
    return x, ip


def preprocess_input(x, data_format=None):
    """NASNet inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
