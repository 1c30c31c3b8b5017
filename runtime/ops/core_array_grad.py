"""Gradient rules of core_array.py's ops, written with ops (so they work eagerly and in graphs, and can be
differentiated again): repeat's copies summed back, ensure_shape passing through, reverse_sequence reversing
back, dynamic_partition stitched back and dynamic_stitch gathered, space_to_batch_nd and batch_to_space_nd each
the other's adjoint."""

from __future__ import annotations

from ..dispatch import apply
from ..registry import gradient
from . import array as a
from . import indexing
from .core_array import (
    batch_to_space_nd_op,
    dynamic_partition_op,
    dynamic_stitch_op,
    ensure_shape_op,
    repeat_grad_op,
    repeat_op,
    reverse_sequence_op,
    space_to_batch_nd_op,
)


@gradient(repeat_op)
def _repeat_grad(record, g):
    x, repeats = record.inputs
    return apply(repeat_grad_op, (g, repeats, x), record.attrs), None


@gradient(repeat_grad_op)
def _repeat_grad_grad(record, dy):
    repeats = record.inputs[1]
    return apply(repeat_op, (dy, repeats), record.attrs), None, None


@gradient(ensure_shape_op)
def _ensure_shape_grad(record, g):
    return g


@gradient(reverse_sequence_op)
def _reverse_sequence_grad(record, g):
    return apply(reverse_sequence_op, (g, record.inputs[1]), record.attrs), None


@gradient(dynamic_partition_op)
def _dynamic_partition_grad(record, *grads):
    """TF's rule: partition the positions of the rows the same way, and stitch the gradients back to them."""
    data, partitions = record.inputs
    positions = a.reshape(a.range(a.size(partitions)), a.shape(partitions))
    parts = apply(dynamic_partition_op, (positions, partitions), record.attrs)
    parts = parts if isinstance(parts, tuple) else (parts,)
    stitched = apply(dynamic_stitch_op, tuple(parts) + tuple(grads))
    return a.reshape(stitched, a.shape(data)), None


@gradient(dynamic_stitch_op)
def _dynamic_stitch_grad(record, g):
    n = len(record.inputs) // 2
    indices = record.inputs[:n]
    return (None,) * n + tuple(indexing.gather(g, i) for i in indices)


@gradient(space_to_batch_nd_op)
def _space_to_batch_grad(record, g):
    attrs = record.attrs
    return apply(batch_to_space_nd_op, (g,), {"block_shape": attrs["block_shape"], "crops": attrs["paddings"]})


@gradient(batch_to_space_nd_op)
def _batch_to_space_grad(record, g):
    attrs = record.attrs
    return apply(space_to_batch_nd_op, (g,), {"block_shape": attrs["block_shape"], "paddings": attrs["crops"]})
