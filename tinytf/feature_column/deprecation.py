"""TF 2.21 marks every tf.feature_column function deprecated: the first call of each logs TF's notice (its
module and "Instructions for updating" text), naming the caller's line, as TF's deprecation decorator does."""

from __future__ import annotations

import functools

from ..deprecation_warning import warn_once

KERAS_INSTEAD = ("Use Keras preprocessing layers instead, either directly or via the `tf.keras.utils.FeatureSpace` "
                 "utility. Each of `tf.feature_column.*` has a functional equivalent in `tf.keras.layers` for feature "
                 "preprocessing when training a Keras model.")
HASHED_CROSSING_INSTEAD = ("Use `tf.keras.layers.experimental.preprocessing.HashedCrossing` instead for feature "
                           "crossing when preprocessing data to train a Keras model.")
V2_MODULE = "tensorflow.python.feature_column.feature_column_v2"
SEQUENCE_MODULE = "tensorflow.python.feature_column.sequence_feature_column"


def deprecated(fn, module: str = V2_MODULE, instructions: str = KERAS_INSTEAD):
    """`fn` logging TF's deprecation notice on its first call."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        warn_once(fn.__name__, module, instructions)  # depth 2: the frame that called the wrapper
        return fn(*args, **kwargs)

    return wrapper
