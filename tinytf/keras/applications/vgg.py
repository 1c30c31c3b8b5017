"""keras.applications.VGG16 and VGG19 (Simonyan & Zisserman 2014) as Keras 3 builds them: blocks of 3x3
convolutions and 2x2 max pooling, then two 4096-unit dense layers; inputs preprocessed in "caffe" mode."""

from __future__ import annotations

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/"
_HASHES = {"vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
           "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")}


def _vgg(family, convs_per_block, include_top, weights, input_tensor, input_shape, pooling, classes,
         classifier_activation, name):
    builder.check_weights_argument(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), start=1):
        for conv in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same",
                              name=f"block{block}_conv{conv}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pooled(x, pooling)
    model = builder.functional_model(input_tensor, img_input, x, name)
    file_name = f"{family}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return builder.load_weights(model, weights, file_name, f"{_BASE}{family}/{file_name}",
                                _HASHES[family][0 if include_top else 1])


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg16"):
    """The VGG16 model (13 convolutions, 3 dense layers): a Functional model named `name`."""
    return _vgg("vgg16", (2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape, pooling, classes,
                classifier_activation, name)


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg19"):
    """The VGG19 model (16 convolutions, 3 dense layers): a Functional model named `name`."""
    return _vgg("vgg19", (2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape, pooling, classes,
                classifier_activation, name)


def preprocess_input(x, data_format=None):
    """Images (0..255, RGB) to BGR minus ImageNet's channel means ("caffe" mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
