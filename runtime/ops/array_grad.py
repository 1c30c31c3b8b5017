"""Gradient rules of the array, indexing and sorting ops: reshaping, joining and splitting, slicing,
gathering and sorting. Rules that put a gradient back where an op read from use the scatter ops of
ops/indexing_grad_ops.py, whose own gradients read again (so second derivatives work)."""

from __future__ import annotations

import numpy as np

from ..dispatch import apply, convert_to_tensor
from ..registry import gradient
from . import array as a
from . import indexing
from .array import (
    broadcast_to_op,
    concat_op,
    expand_dims_op,
    fill_op,
    linspace_op,
    pad_op,
    reshape_op,
    reverse_op,
    split_op,
    squeeze_op,
    tile_op,
    transpose_op,
    unstack_op,
)
from .common import normalize_axis
from .core import (
    identity_op,
    stack_op,
)
from .gradient_helpers import mirror_pad_grad, reshape_like, sum_to_like
from .indexed_rows import gather_gradient
from .indexing import (
    boolean_mask_op,
    gather_nd_op,
    gather_op,
    select_op,
    slice_op,
    strided_slice_op,
)
from .indexing_grad_ops import (
    boolean_mask_grad,
    gather_grad,
    gather_nd_grad,
    scatter_along_axis,
    strided_slice_grad,
)
from .reduce import reduce_sum
from .sorting import (
    argsort,
    sort_op,
    top_k_op,
)


def _static(t):
    shape = t._shape
    return shape if shape is not None and None not in shape else None


# --- creation and shape edits -----------------------------------------------------------------------------
@gradient(identity_op)
def _identity_grad(record, g):
    return g


@gradient(reshape_op)
def _reshape_grad(record, g):
    return reshape_like(g, record.inputs[0])


@gradient(squeeze_op)
def _squeeze_grad(record, g):
    return reshape_like(g, record.inputs[0])


@gradient(expand_dims_op)
def _expand_dims_grad(record, g):
    return reshape_like(g, record.inputs[0])


@gradient(fill_op)
def _fill_grad(record, g):
    return reduce_sum(g)


@gradient(broadcast_to_op)
def _broadcast_to_grad(record, g):
    return sum_to_like(g, record.inputs[0])


@gradient(transpose_op)
def _transpose_grad(record, g):
    perm = record.attrs["perm"]
    if perm is None:
        return a.transpose(g)
    return a.transpose(g, tuple(int(i) for i in np.argsort(perm)))


@gradient(reverse_op)
def _reverse_grad(record, g):
    return a.reverse(g, record.attrs["axis"])


@gradient(tile_op)
def _tile_grad(record, g):
    return sum_tiles(g, record.inputs[0], record.attrs["multiples"])


def sum_tiles(g, x, multiples):
    """Sum the tiles of g (x tiled `multiples` times) back into x's shape: view each dimension d*m as
    (m, d) and reduce the m axes. Dimensions unknown when tracing are read when the graph runs."""
    shape = x._shape
    if shape is None:
        raise ValueError("the gradient of tile needs the input's rank to be known")
    unknown = [k for k, d in enumerate(shape) if d is None]
    if len(unknown) <= 1:  # reshape infers one dimension
        interleaved = tuple(v for m, d in zip(multiples, shape) for v in (m, -1 if d is None else d))
    else:
        dims = a.shape(x)
        interleaved = a.stack([v for k, (m, d) in enumerate(zip(multiples, shape))
                               for v in (m, dims[k] if d is None else d)])
    return reduce_sum(a.reshape(g, interleaved), tuple(range(0, 2 * len(shape), 2)))


@gradient(pad_op)
def _pad_grad(record, g):
    x, constant = record.inputs
    paddings, mode = record.attrs["paddings"], record.attrs["mode"]
    if mode != "CONSTANT":
        return mirror_pad_grad(g, x, paddings, mode), None
    inner = g[tuple(slice(before, -after if after else None) for before, after in paddings)] if paddings else g
    return inner, reduce_sum(g) - reduce_sum(inner)


@gradient(linspace_op)
def _linspace_grad(record, g):
    start, stop = record.inputs
    num, axis = record.attrs["num"], record.attrs["axis"]
    out = record.outputs[0]
    rank = len(out._shape)
    axis = normalize_axis(axis, rank)
    fractions = np.arange(num) / (num - 1) if num > 1 else np.zeros(num)
    t = convert_to_tensor(fractions.reshape((num,) + (1,) * (rank - 1 - axis)).astype(g.dtype.np))
    return sum_to_like(reduce_sum(g * (1 - t), axis), start), sum_to_like(reduce_sum(g * t, axis), stop)


# --- joining and splitting -----------------------------------------------------------------------------------
@gradient(stack_op)
def _stack_grad(record, g):
    return tuple(a.unstack(g, num=len(record.inputs), axis=record.attrs["axis"]))


@gradient(unstack_op)
def _unstack_grad(record, *grads):
    return a.stack(list(grads), axis=record.attrs["axis"])


@gradient(concat_op)
def _concat_grad(record, g):
    axis = record.attrs["axis"]
    if len(record.inputs) == 1:
        return g
    rank = next((len(x._shape) for x in record.inputs if x._shape is not None), None)
    if rank is None:
        raise ValueError("the gradient of concat needs the rank of its inputs to be known")
    axis = normalize_axis(axis, rank)
    sizes = [None if x._shape is None else x._shape[axis] for x in record.inputs]
    if None not in sizes:
        return tuple(a.split(g, sizes, axis=axis))
    # sizes known only at run time: slice g between running offsets read from the inputs' shapes
    grads, start = [], 0
    for x, size in zip(record.inputs, sizes):
        size = a.shape(x)[axis] if size is None else size
        grads.append(g[(slice(None),) * axis + (slice(start, start + size),)])
        start = start + size
    return tuple(grads)


@gradient(split_op)
def _split_grad(record, *grads):
    return a.concat(list(grads), axis=record.attrs["axis"])


# --- indexing ---------------------------------------------------------------------------------------------------
@gradient(strided_slice_op)
def _strided_slice_grad(record, g):
    x, *dynamic = record.inputs
    return (strided_slice_grad(g, x, dynamic, record.attrs["spec"]),) + (None,) * len(dynamic)


@gradient(slice_op)
def _slice_grad(record, g):
    begin, size = record.attrs["begin"], record.attrs["size"]
    spec = tuple((b, None if s == -1 else b + s, None) for b, s in zip(begin, size))
    return strided_slice_grad(g, record.inputs[0], [], spec)


@gradient(gather_op)
def _gather_grad(record, g):
    if record.attrs["axis"] == 0 and record.attrs["batch_dims"] == 0:  # rows, as TF: its IndexedSlices
        return gather_gradient(g, record.inputs[0], record.inputs[1]), None
    params, indices = record.inputs
    return gather_grad(g, indices, params, record.attrs["axis"], record.attrs["batch_dims"]), None


@gradient(gather_nd_op)
def _gather_nd_grad(record, g):
    params, indices = record.inputs
    return gather_nd_grad(g, indices, params, record.attrs["batch_dims"]), None


@gradient(select_op)
def _select_grad(record, g):
    condition, x, y = record.inputs
    zero = convert_to_tensor(np.zeros((), g.dtype.np)[()])
    return (None,
            sum_to_like(apply(indexing.select_op, (condition, g, zero)), x),
            sum_to_like(apply(indexing.select_op, (condition, zero, g)), y))


@gradient(boolean_mask_op)
def _boolean_mask_grad(record, g):
    tensor, mask = record.inputs
    return boolean_mask_grad(g, mask, tensor, record.attrs["axis"]), None


# --- sorting ------------------------------------------------------------------------------------------------------
@gradient(sort_op)
def _sort_grad(record, g):
    x = record.inputs[0]
    axis, direction = record.attrs["axis"], record.attrs["direction"]
    order = argsort(x, axis=axis, direction=direction)
    return scatter_along_axis(g, order, x, axis)


@gradient(top_k_op)
def _top_k_grad(record, g_values, g_indices):
    x = record.inputs[0]
    indices = record.outputs[1]
    return scatter_along_axis(g_values, indices, x, -1)
