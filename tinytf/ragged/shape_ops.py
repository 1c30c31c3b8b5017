"""tf.reshape, tf.zeros, tf.ones and tf.fill given a `tf.experimental.DynamicRaggedShape`: the dense op builds the
flat values of the shape's inner shape, and the shape's row partitions cut them into a RaggedTensor."""

from __future__ import annotations

import functools

from tinytf.runtime.ops import array as _a

from .dynamic_shape import DynamicRaggedShape
from .ragged_tensor import RaggedTensor


def with_partitions(flat, shape: DynamicRaggedShape):
    """`flat` (the values of shape.inner_shape) cut by the row partitions of `shape`, innermost first."""
    result = flat
    for partition in reversed(shape.row_partitions):
        result = RaggedTensor._from_row_partition(result, partition)
    return result


def _dispatch(fn, build):
    """fn, but given a DynamicRaggedShape as `shape_arg` (by position or keyword), `build` makes the result."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, DynamicRaggedShape)]
        if ragged:
            return build(*args, **kwargs)
        return fn(*args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper


def install(root) -> None:
    dense_reshape, dense_zeros, dense_ones, dense_fill = root.reshape, root.zeros, root.ones, root.fill

    def reshape(tensor, shape, name=None):
        flat = tensor.flat_values if isinstance(tensor, RaggedTensor) else tensor
        if isinstance(tensor, RaggedTensor):
            flat = _a.reshape(flat, [-1])
        return with_partitions(dense_reshape(flat, shape.inner_shape), shape)

    def zeros(shape, dtype=None, name=None, layout=None):
        return with_partitions(dense_zeros(shape.inner_shape, **({} if dtype is None else {"dtype": dtype})), shape)

    def ones(shape, dtype=None, name=None, layout=None):
        return with_partitions(dense_ones(shape.inner_shape, **({} if dtype is None else {"dtype": dtype})), shape)

    def fill(dims, value, name=None, layout=None):
        return with_partitions(dense_fill(dims.inner_shape, value), shape=dims)

    root.reshape = _dispatch(dense_reshape, reshape)
    root.zeros = _dispatch(dense_zeros, zeros)
    root.ones = _dispatch(dense_ones, ones)
    root.fill = _dispatch(dense_fill, fill)
