"""Keras' encoding of integer category indices (numerical_utils.encode_categorical_inputs with TF's bincount fast
path): one_hot, multi_hot and count vectors of `depth` entries, shared by CategoryEncoding and the lookup layers.
Indices at or past `depth` are dropped, as TF's bincount with maxlength drops them."""

from __future__ import annotations

from tinytf import _ops as tf_ops
from tinytf.math import bincount
from tinytf.runtime import dtypes


def encode_categorical_inputs(inputs, output_mode: str, depth: int, dtype, count_weights=None):
    dtype = dtypes.as_dtype(dtype)
    if output_mode == "int":
        return tf_ops.identity(tf_ops.cast(inputs, dtype))
    shape = inputs.shape
    if shape.rank == 0:
        inputs = tf_ops.expand_dims(inputs, -1)
    rank = inputs.shape.rank
    if rank <= 2 and output_mode in ("multi_hot", "count"):  # Keras' bincount path (rank 1: one sample)
        counts = bincount(inputs, weights=count_weights, minlength=depth, maxlength=depth,
                          dtype=dtype if count_weights is None else count_weights.dtype, axis=-1,
                          binary_output=output_mode == "multi_hot")
        return tf_ops.cast(counts, dtype)
    if output_mode == "multi_hot":
        return tf_ops.reduce_max(tf_ops.one_hot(inputs, depth, dtype=dtype), axis=-2)
    if output_mode == "one_hot":
        if rank > 1 and inputs.shape[-1] == 1:
            inputs = tf_ops.squeeze(inputs, -1)
        return tf_ops.one_hot(inputs, depth, dtype=dtype)
    encoded = tf_ops.one_hot(inputs, depth, dtype=dtype if count_weights is None else count_weights.dtype)
    if count_weights is not None:
        encoded = encoded * tf_ops.expand_dims(count_weights, -1)
    return tf_ops.reduce_sum(encoded, axis=1 if rank > 1 else 0)
