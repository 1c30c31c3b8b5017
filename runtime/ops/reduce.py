"""Reductions over axes: sum, mean, max, min, prod, any, all, variance, logsumexp (axis=None reduces
everything); and their relatives argmax/argmin, cumsum/cumprod, count_nonzero, add_n, clip_by_value."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_inputs, convert_to_tensor
from ..registry import OpDef, register
from ..tensor import Tensor
from .common import broadcast, normalize_axis, require, same_dtype, same_shape


def reduced_shape(shape, axis, keepdims):
    """The shape after reducing `axis` (None: all axes; an int or a tuple of ints)."""
    if shape is None:
        return None
    rank = len(shape)
    if axis is None:
        axes = set(range(rank))
    else:
        axes = {normalize_axis(a, rank) for a in ((axis,) if isinstance(axis, int) else axis)}
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def canonical_axis(axis):
    """Axis attributes are None, an int, or a tuple of ints (tensors and lists are converted)."""
    if axis is None:
        return None
    if hasattr(axis, "numpy"):
        axis = axis.numpy()
    if isinstance(axis, (np.ndarray, np.generic)):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis)
    return int(axis)


def _reduction(name, kernel, allowed, out_dtype=None, differentiable=True, render=None):
    def infer(x, *, axis, keepdims):
        require(x.dtype, allowed, f"reduce_{name}")
        return (out_dtype or x.dtype), reduced_shape(x._shape, axis, keepdims)

    op = register(OpDef(f"reduce_{name}", kernel, infer, differentiable=differentiable, render=render))

    def wrapper(input_tensor, axis=None, keepdims=False, name=None):
        x = convert_to_tensor(input_tensor)
        return apply(op, (x,), {"axis": canonical_axis(axis), "keepdims": bool(keepdims)}, name)

    wrapper.__name__ = f"reduce_{name}"
    return op, wrapper


# A float sum over leading axes that leaves few values per row (a conv's bias gradient: (64, 26, 26, 16) summed
# to 16) is numpy's slowest reduction: it adds 16-wide rows one after another, 1.0 ms for 692k floats. Summing
# rows of about 4096 elements first and then the small remainder takes 0.1-0.15 ms, and is more accurate (each
# column adds 1/256 as many terms in a row: max error 0.007 against 0.14 over that array, against float64).
_WIDE_ROW = 4096
_WIDE_MIN_SIZE = 1 << 15
_WIDE_MAX_INNER = 512


def leading_axes(axis, rank):
    """k when `axis` is exactly the leading axes 0..k-1 of a rank-`rank` value and leaves some axes, else 0."""
    if axis is None or rank < 2:
        return 0
    axes = sorted(normalize_axis(a, rank) for a in ((axis,) if isinstance(axis, int) else axis))
    return len(axes) if axes == list(range(len(axes))) and len(axes) < rank else 0


def _sum_in_wide_rows(x, inner: int):
    """x (C-contiguous, float) summed down to its last `inner` values per row, through rows of ~_WIDE_ROW."""
    width = inner * max(1, _WIDE_ROW // inner)
    flat = x.reshape(-1)
    rows = flat.size // width
    total = flat[:rows * width].reshape(rows, width).sum(axis=0, dtype=x.dtype)
    total = total.reshape(-1, inner).sum(axis=0, dtype=x.dtype)
    rest = flat[rows * width:]
    if rest.size:
        total += rest.reshape(-1, inner).sum(axis=0, dtype=x.dtype)
    return total


def _sum(x, *, axis, keepdims):
    lead = leading_axes(axis, np.ndim(x))
    if lead and x.dtype.kind == "f" and x.dtype.itemsize >= 4 and x.size >= _WIDE_MIN_SIZE \
            and x.flags.c_contiguous and 0 < math.prod(x.shape[lead:]) <= _WIDE_MAX_INNER:
        total = _sum_in_wide_rows(x, math.prod(x.shape[lead:]))
        return total.reshape((1,) * lead + x.shape[lead:] if keepdims else x.shape[lead:])
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


# np.add.reduce is what np.sum runs for an array (the same bits), without np.sum's Python layer
# (_wrapreduction): about 1 us against 3 for a small array, which a small model's step pays per reduction.
_SUM_CODE = "np.add.reduce({0}, axis={axis}, keepdims={keepdims}, dtype={0}.dtype)"


def _render_sum(node):
    """Inline np.add.reduce, as the generated code reads best, unless the static shape says the kernel's wide-row
    sum applies: eager and graph runs of known shapes then both take the kernel and give the same bits. (With a
    dimension unknown, the code stays inline: it may differ from an eager wide-row sum in the last bits.)"""
    shape = node.inputs[0]._shape
    if shape is None or None in shape:
        return _SUM_CODE
    lead = leading_axes(node.attrs["axis"], len(shape))
    if lead and node.inputs[0].dtype.np.kind == "f" and math.prod(shape) >= _WIDE_MIN_SIZE \
            and 0 < math.prod(shape[lead:]) <= _WIDE_MAX_INNER:
        return None
    return _SUM_CODE


def _mean(x, *, axis, keepdims):
    if x.dtype.kind in "iu":  # integer mean truncates toward zero, as TF
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        count = np.size(x) // max(np.size(total), 1)
        return (np.trunc(total / count) if count else total).astype(x.dtype)
    total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    if not x.size:  # nan, as TF; np.mean would warn "Mean of empty slice", which no error state silences
        return (total / x.dtype.type(0)).astype(x.dtype) if np.ndim(total) else x.dtype.type(total / 0)
    count = x.size // total.size
    if count <= _EXACT_COUNT.get(x.dtype.type, 0):
        # np.mean's bits (it divides by its count in float64 and rounds once, as a division in the dtype
        # rounds: both are the correctly rounded quotient), without its Python layer: 2 us against 6
        return total / x.dtype.type(count)
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


# the largest count each float type holds exactly (a division by it is then the correctly rounded quotient)
_EXACT_COUNT = {np.float16: 1 << 11, np.float32: 1 << 24, np.float64: 1 << 53}


def _render_mean(node):
    """The kernel's fast case inline when the reduced dimensions are known (the others may not be): the sum,
    divided by the count written as a Python number (a weak scalar: the division stays in the dtype); a count
    of 1 divides by nothing. Otherwise the kernel, which handles empty inputs, integers and huge counts."""
    shape, axis, kind = node.inputs[0]._shape, node.attrs["axis"], node.inputs[0].dtype.np.type
    if shape is None or kind not in _EXACT_COUNT:
        return None
    axes = range(len(shape)) if axis is None else [normalize_axis(a, len(shape)) for a in
                                                   ((axis,) if isinstance(axis, int) else axis)]
    reduced = [shape[a] for a in axes]
    count = 0 if None in reduced else math.prod(reduced)
    if not 0 < count <= _EXACT_COUNT[kind]:
        return None
    return _SUM_CODE if count == 1 else f"({_SUM_CODE} / {float(count)!r})"


def _prod(x, *, axis, keepdims):
    return np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _empty_extreme(dtype, largest):
    """What TF's max (min) of no elements gives: -inf (inf) for floats, the smallest (largest) integer."""
    if dtype.kind == "f":
        return np.inf if largest else -np.inf
    info = np.iinfo(dtype)
    return info.max if largest else info.min


def _max(x, *, axis, keepdims):
    if x.size == 0:
        return np.max(x, axis=axis, keepdims=keepdims, initial=_empty_extreme(x.dtype, False))
    return np.max(x, axis=axis, keepdims=keepdims)


def _min(x, *, axis, keepdims):
    if x.size == 0:
        return np.min(x, axis=axis, keepdims=keepdims, initial=_empty_extreme(x.dtype, True))
    return np.min(x, axis=axis, keepdims=keepdims)


def _any(x, *, axis, keepdims):
    return np.any(x, axis=axis, keepdims=keepdims)


def _all(x, *, axis, keepdims):
    return np.all(x, axis=axis, keepdims=keepdims)


reduce_sum_op, reduce_sum = _reduction("sum", _sum, "number", render=_render_sum)
reduce_mean_op, reduce_mean = _reduction("mean", _mean, "number", render=_render_mean)
reduce_prod_op, reduce_prod = _reduction("prod", _prod, "number")
# no render: generated code calls the kernel, which handles empty inputs
reduce_max_op, reduce_max = _reduction("max", _max, "numeric")
reduce_min_op, reduce_min = _reduction("min", _min, "numeric")
reduce_any_op, reduce_any = _reduction("any", _any, "bool", dtypes.bool_, differentiable=False)
reduce_all_op, reduce_all = _reduction("all", _all, "bool", dtypes.bool_, differentiable=False)


__all__ = ["reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min", "reduce_any", "reduce_all"]


# --- statistics and norms over axes ---------------------------------------------------------------------
def _variance(x, *, axis, keepdims):
    return np.var(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _std(x, *, axis, keepdims):
    return np.std(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _squeeze_reduced(value, axis, keepdims):
    """Undo keepdims=True of a reduction computed that way."""
    if not keepdims:
        value = np.squeeze(value, axis=axis)
    return value[()] if value.ndim == 0 else value


def _logsumexp(x, *, axis, keepdims):
    # shift by the maximum so exp never overflows; a non-finite maximum (all -inf, or an inf) shifts by 0
    peak = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    peak = np.where(np.isfinite(peak), peak, 0)
    total = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True)) + peak  # log(0) = -inf when all are -inf
    return _squeeze_reduced(total, axis, keepdims)


def _euclidean_norm(x, *, axis, keepdims):
    if x.dtype.kind in "iu":  # TF's integer norm: the square root of the integer sum, truncated
        squares = np.sum(np.square(x.astype(np.int64)), axis=axis, keepdims=keepdims)
        return np.sqrt(squares).astype(x.dtype)
    return np.sqrt(np.sum(np.square(x), axis=axis, keepdims=keepdims, dtype=x.dtype))


reduce_variance_op, reduce_variance = _reduction("variance", _variance, "float")
reduce_std_op, reduce_std = _reduction("std", _std, "float")
reduce_logsumexp_op, reduce_logsumexp = _reduction("logsumexp", _logsumexp, "float")
reduce_euclidean_norm_op, reduce_euclidean_norm = _reduction("euclidean_norm", _euclidean_norm, "numeric")


def _count_nonzero(x, *, axis, keepdims, dtype):
    return np.sum(x != 0, axis=axis, keepdims=keepdims, dtype=dtype.np)


def _infer_count_nonzero(x, *, axis, keepdims, dtype):
    if not dtype.is_numeric:
        raise TypeError(f"the result dtype must be numeric, got {dtype.name}")
    return dtype, reduced_shape(x._shape, axis, keepdims)


count_nonzero_op = register(OpDef("count_nonzero", _count_nonzero, _infer_count_nonzero, differentiable=False,
                                  render="np.sum({0} != 0, axis={axis}, keepdims={keepdims}, dtype={dtype}.np)"))


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002 - TF's name
    """The number of non-zero (or True) elements along `axis`, as int64 by default."""
    x = convert_to_tensor(input)
    attrs = {"axis": canonical_axis(axis), "keepdims": bool(keepdims), "dtype": dtypes.as_dtype(dtype)}
    return apply(count_nonzero_op, (x,), attrs, name=name)


# --- argmax / argmin ------------------------------------------------------------------------------------
def _index_reduction(name, numpy_fn):
    def kernel(x, *, axis, output_type):
        return numpy_fn(x, axis=axis).astype(output_type.np)

    def infer(x, *, axis, output_type):
        if x.dtype != dtypes.bool_:  # TF's ArgMax/ArgMin take bool too (the image tutorial's one-hot labels)
            require(x.dtype, "numeric", name)
        if output_type not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"output_type must be int32 or int64, got {output_type.name}")
        if x._shape is not None and not x._shape:
            raise ValueError(f"{name} needs a tensor of rank >= 1, got a scalar")
        return output_type, reduced_shape(x._shape, axis, False)

    op = register(OpDef(name, kernel, infer, differentiable=False,
                        render=f"np.{name}({{0}}, axis={{axis}}).astype({{output_type}}.np)"))

    def wrapper(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002 - TF's name
        axis = 0 if axis is None else canonical_axis(axis)
        if not isinstance(axis, int):
            raise TypeError(f"tf.math.{op.name}: axis must be one integer, got {axis!r}")
        attrs = {"axis": axis, "output_type": dtypes.as_dtype(output_type)}
        return apply(op, (convert_to_tensor(input),), attrs, name=name)

    wrapper.__name__ = name
    wrapper.__doc__ = f"The index of the {name[3:]}imum along `axis` (default 0), as int64 unless output_type."
    return op, wrapper


argmax_op, argmax = _index_reduction("argmax", np.argmax)
argmin_op, argmin = _index_reduction("argmin", np.argmin)


# --- cumulative sums and products -----------------------------------------------------------------------
def _cumulative(name, ufunc, identity):
    def kernel(x, *, axis, exclusive, reverse):
        moved = np.moveaxis(x, axis, -1)
        if reverse:
            moved = moved[..., ::-1]
        out = ufunc.accumulate(moved, axis=-1, dtype=x.dtype)
        if exclusive:  # shift by one: each element sees only those before it
            shifted = np.empty_like(out)
            shifted[..., 0] = identity
            shifted[..., 1:] = out[..., :-1]
            out = shifted
        if reverse:
            out = out[..., ::-1]
        return np.moveaxis(out, -1, axis)

    def infer(x, *, axis, exclusive, reverse):
        require(x.dtype, "number", name)
        if x._shape is not None:
            if not x._shape:
                raise ValueError(f"{name} needs a tensor of rank >= 1, got a scalar")
            normalize_axis(axis, len(x._shape))
        return x.dtype, x._shape

    def render(node):
        # the plain case reads as numpy; exclusive/reverse call the kernel
        if node.attrs["exclusive"] or node.attrs["reverse"]:
            return None
        return f"np.{name}({{0}}, axis={{axis}}, dtype={{0}}.dtype)"

    kernel.__name__ = kernel.__qualname__ = f"_{name}"
    op = register(OpDef(name, kernel, infer, render=render))

    def wrapper(x, axis=0, exclusive=False, reverse=False, name=None):
        axis = canonical_axis(axis)
        if not isinstance(axis, int):
            raise TypeError(f"tf.math.{op.name}: axis must be one integer, got {axis!r}")
        attrs = {"axis": axis, "exclusive": bool(exclusive), "reverse": bool(reverse)}
        return apply(op, (convert_to_tensor(x),), attrs, name=name)

    wrapper.__name__ = name
    wrapper.__doc__ = f"The running {name[3:]} along `axis`; `exclusive` leaves out each element itself."
    return op, wrapper


cumsum_op, cumsum = _cumulative("cumsum", np.add, 0)
cumprod_op, cumprod = _cumulative("cumprod", np.multiply, 1)


# --- n-ary: add_n and clip_by_value ---------------------------------------------------------------------
def _add_n_kernel(*values):
    total = values[0]
    for value in values[1:]:
        total = total + value
    return total


def _infer_add_n(*values):
    dtype = same_dtype(*values)
    require(dtype, "number", "add_n")
    return dtype, same_shape(*values, note=" (add_n does not broadcast)")


def _render_add_n(node):
    return " + ".join(f"{{{i}}}" for i in range(len(node.inputs)))


add_n_op = register(OpDef("add_n", _add_n_kernel, _infer_add_n, render=_render_add_n))


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype."""
    if isinstance(inputs, Tensor) or not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("tf.math.add_n: inputs must be a non-empty list of tensors")
    # each converts as it is (TF: tf.add_n([tensor_f32, 1]) is a dtype mismatch, [tensor_f32, [1., 2.]] is not)
    return apply(add_n_op, convert_inputs(list(inputs), False), name=name)


def _clip_kernel(x, low, high):
    # TF's order: the lower bound wins when the bounds cross
    return np.maximum(np.minimum(x, high), low)


def _infer_clip(x, low, high):
    dtype = same_dtype(x, low, high)
    require(dtype, "numeric", "clip_by_value")
    shape = broadcast(x, low, high)
    if x._shape is not None and shape is not None:
        fits = len(shape) == len(x._shape) and all(
            a is None or b is None or a == b for a, b in zip(x._shape, shape))
        if not fits:
            raise ValueError(f"the clip bounds must broadcast to the shape of t {shapes.fmt(x._shape)}, "
                             f"but together they give {shapes.fmt(shape)}")
    return dtype, shape


clip_by_value_op = register(OpDef("clip_by_value", _clip_kernel, _infer_clip,
                                  render="np.maximum(np.minimum({0}, {2}), {1})"))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """`t` with values below `clip_value_min` raised to it and above `clip_value_max` lowered to it."""
    return apply(clip_by_value_op, convert_inputs((t, clip_value_min, clip_value_max), True), name=name)


__all__ += [
    "add_n", "argmax", "argmin", "clip_by_value", "count_nonzero", "cumprod", "cumsum", "reduce_euclidean_norm",
    "reduce_logsumexp", "reduce_std", "reduce_variance",
]
