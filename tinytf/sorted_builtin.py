"""`sorted(t)` of a tensor in code AutoGraph converts, as TensorFlow registers it: tf.sort of a 1-D tensor, or
with `key` the tensor gathered in the order of tf.argsort(vectorized_map(key, t)). As TF's override reads it,
giving `reverse` at all (even `reverse=False`) sorts in DESCENDING order."""

from __future__ import annotations

from tinytf.autograph.ops_builtins import UNSPECIFIED, register_override
from tinytf.runtime.tensor import Tensor


def sorted_tensor(tensor, key, reverse):
    import tinytf as tf

    direction = "ASCENDING" if reverse is UNSPECIFIED else "DESCENDING"
    values = tensor if key is UNSPECIFIED else tf.vectorized_map(key, tensor)
    if values.shape.rank is not None and values.shape.rank != 1:
        raise ValueError("sort only supports only 1D tensors")
    with tf.control_dependencies([tf.debugging.assert_rank(values, 1, "sort only supports only 1D tensors")]):
        if key is UNSPECIFIED:
            return tf.sort(values, direction=direction)
        return tf.gather(tensor, tf.argsort(values, direction=direction))


register_override("sorted", Tensor, sorted_tensor)
