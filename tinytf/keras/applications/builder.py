"""What every keras.applications builder does around its layers, as Keras 3 does it: check the `weights`
argument, make the image input (or adopt `input_tensor`), wrap the graph in a Functional model, and load
weights, the ImageNet ones through keras.utils.get_file (cache_subdir "models", with the file's hash when
Keras gives one) and a legacy .h5 file."""

from __future__ import annotations

import os

from .. import layers
from ..backend import is_keras_tensor
from ..models.functional_model import Functional
from ..utils.dataset_utils import get_source_inputs
from ..utils.file_utils import get_file
from . import imagenet_utils


def check_weights_argument(weights, include_top, classes) -> None:
    """`weights` must be None, "imagenet" or an existing file; ImageNet's top classifies 1000 classes."""
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), 'imagenet' "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.  Received: "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  "
                         f"Received classes={classes}")


def image_input(input_tensor, input_shape):
    """The model's input: a new keras.Input, or `input_tensor` itself when it is a Keras tensor already."""
    if input_tensor is None:
        return layers.Input(shape=input_shape)
    if not is_keras_tensor(input_tensor):
        return layers.Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def functional_model(input_tensor, img_input, outputs, name):
    """The Functional model from the graph's true inputs (those behind `input_tensor`, when one was given)."""
    inputs = get_source_inputs(input_tensor) if input_tensor is not None else img_input
    return Functional(inputs, outputs, name=name)


def load_weights(model, weights, file_name=None, origin=None, file_hash=None):
    """ImageNet weights from Keras' cache (downloaded when missing or when their hash differs), or the user's
    weights file."""
    if weights == "imagenet":
        model.load_weights(get_file(file_name, origin, cache_subdir="models", file_hash=file_hash))
    elif weights is not None:
        model.load_weights(weights)
    return model


def pooled(x, pooling, avg_name=None, max_name=None):
    """The top of a headless model: the feature map, or its global average or max (`pooling`)."""
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=max_name)(x)
    return x


def classifier_or_pooled(x, include_top, classes, classifier_activation, weights, pooling, pool_names=False):
    """The top most families share: global average pooling ("avg_pool") and the "predictions" Dense layer, or
    for a headless model `pooled` (named "avg_pool"/"max_pool" where the family names them)."""
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pool_names:
        return pooled(x, pooling, avg_name="avg_pool", max_name="max_pool")
    return pooled(x, pooling)
