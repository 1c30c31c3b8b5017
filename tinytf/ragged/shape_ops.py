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

    dense_broadcast_to = root.broadcast_to

    def broadcast_to(input, shape, name=None):
        if isinstance(input, RaggedTensor):
            raise ValueError("tf.broadcast_to: tinytf broadcasts a dense tensor to a DynamicRaggedShape, not a "
                             "RaggedTensor (add it to tf.zeros(shape) instead)")
        from tinytf.runtime.dispatch import convert_to_tensor

        from .broadcast import dense_against_ragged

        input = convert_to_tensor(input)
        template = with_partitions(dense_zeros(shape.inner_shape, dtype="bool"), shape)
        if not isinstance(template, RaggedTensor):
            return dense_broadcast_to(input, shape.inner_shape)
        per_value = dense_against_ragged(template, input)
        return template.with_flat_values(dense_broadcast_to(per_value, shape.inner_shape))

    root.broadcast_to = _dispatch(dense_broadcast_to, broadcast_to)
    root.reshape = _dispatch(dense_reshape, reshape)
    root.zeros = _dispatch(dense_zeros, zeros)
    root.ones = _dispatch(dense_ones, ones)
    root.fill = _dispatch(dense_fill, fill)
