"""tf.nn.isotonic_regression: the non-increasing sequence closest (least squares) to each vector along the last
axis, by pool-adjacent-violators, as TF's IsotonicRegression kernel (a block merges into the one before it when
its mean is strictly larger), and the int32 ids of the constant blocks. The gradient of an output element is the
mean of the upstream gradients over its block (TF's _MeanAggregator)."""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register
from .array import range as _range
from .array import reshape, shape, transpose
from .indexing import gather
from .math import add, multiply
from .segment import unsorted_segment_mean

IsotonicRegression = collections.namedtuple("IsotonicRegression", ["output", "segments"])


def _pav(row):
    """(fit, segment ids) of one vector: blocks (sum, count) on a stack, merged while a block's mean exceeds
    the mean of the block before it."""
    sums, counts = [], []
    for value in row:
        sums.append(float(value))
        counts.append(1)
        while len(sums) > 1 and sums[-1] / counts[-1] > sums[-2] / counts[-2]:
            s, c = sums.pop(), counts.pop()
            sums[-1] += s
            counts[-1] += c
    fit = np.repeat([s / c for s, c in zip(sums, counts)], counts)
    return fit, np.repeat(np.arange(len(counts), dtype=np.int32), counts)


def _isotonic_kernel(x, *, output_dtype):
    rows = np.asarray(x, np.float64).reshape(-1, x.shape[-1]) if x.ndim else np.asarray(x, np.float64).reshape(1, 1)
    fits, ids = zip(*(_pav(row) for row in rows)) if rows.shape[0] and rows.shape[1] else ((), ())
    fit = np.array(fits, np.float64).reshape(x.shape) if fits else np.zeros(x.shape)
    seg = np.array(ids, np.int32).reshape(x.shape) if ids else np.zeros(x.shape, np.int32)
    return fit.astype(output_dtype.np), seg


def _infer_isotonic(x, *, output_dtype):
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"isotonic_regression: inputs must be real, got {x.dtype.name}")
    return [(output_dtype, x._shape), (dtypes.int32, x._shape)]


isotonic_regression_op = register(OpDef(
    "isotonic_regression", _isotonic_kernel, _infer_isotonic,
    doc="TF's IsotonicRegression: non-increasing least-squares fit along the last axis, and its blocks"))


@gradient(isotonic_regression_op)
def _isotonic_grad(record, g, g_segments):
    """Each element's gradient: the mean of g over its block (the blocks of all rows numbered apart)."""
    segments = record.outputs[1]
    dims = shape(segments)
    length = dims[-1]
    flat = reshape(segments, [-1, length])
    rows = shape(flat)[0]
    offsets = reshape(multiply(_range(0, rows), length), [-1, 1])
    ids = reshape(add(flat, offsets), [-1])
    means = unsorted_segment_mean(reshape(g, [-1]), ids, multiply(rows, length))
    grad = reshape(gather(means, ids), dims)
    x = record.inputs[0]
    return grad if x.dtype is grad.dtype else None


def _output_dtype(dtype):
    """TF's promotion: float types keep theirs, int8 / int16 become float32, everything else float64."""
    if dtype in (dtypes.float32, dtypes.float16) or dtype.name == "bfloat16":
        return dtype
    if dtype in (dtypes.int8, dtypes.int16):
        return dtypes.float32
    return dtypes.float64


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """`tf.nn.isotonic_regression`: (y, segments) with y the least-squares fit of `inputs` along `axis` that is
    non-increasing (or, with decreasing=False, non-decreasing), and segments its constant blocks' ids."""
    x = convert_to_tensor(inputs)
    rank = None if x._shape is None else len(x._shape)
    if rank is None:
        raise ValueError("isotonic_regression needs inputs of known rank")
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of "
                                   f"dimensions in the input. Received: dim={axis}")
    axis = axis + rank if axis < 0 else axis
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = x if axis == rank - 1 else transpose(x, perm)
    attrs = {"output_dtype": _output_dtype(x.dtype)}
    if decreasing:
        output, segments = apply(isotonic_regression_op, (moved,), attrs)
    else:
        output, segments = apply(isotonic_regression_op, (-moved,), attrs)
        output = -output
    if axis != rank - 1:  # TF's _wrap_2d_function: a plain tuple once transposed back
        return transpose(output, perm), transpose(segments, perm)
    return IsotonicRegression(output, segments) if decreasing else (output, segments)


__all__ = ["isotonic_regression"]
