"""tf.math ops of the core-API names that need kernels: cumulative_logsumexp (numpy's logaddexp.accumulate, exact
where a max-shifted cumsum would underflow), invert_permutation and nextafter. The gradient of
cumulative_logsumexp is in core_math_grad.py."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .common import broadcast, normalize_axis, require


def _cumulative_logsumexp_kernel(x, *, axis, exclusive, reverse):
    moved = np.moveaxis(np.asarray(x), axis, -1)
    if reverse:
        moved = moved[..., ::-1]
    if exclusive:
        lowest = np.full(moved.shape[:-1] + (1,), -np.inf, moved.dtype)
        moved = np.concatenate([lowest, moved[..., :-1]], axis=-1)
    out = np.logaddexp.accumulate(moved, axis=-1) if moved.shape[-1] else moved.copy()
    if reverse:
        out = out[..., ::-1]
    return np.ascontiguousarray(np.moveaxis(out, -1, axis)).astype(np.asarray(x).dtype, copy=False)


def _cumulative_logsumexp_infer(x, *, axis, exclusive, reverse):
    require(x.dtype, "float", "cumulative_logsumexp")
    if x._shape is not None:
        if not x._shape:
            raise ValueError("cumulative_logsumexp needs a tensor of rank >= 1, got a scalar")
        normalize_axis(axis, len(x._shape))
    return x.dtype, x._shape


cumulative_logsumexp_op = register(OpDef(
    "cumulative_logsumexp", _cumulative_logsumexp_kernel, _cumulative_logsumexp_infer,
    doc="log(cumsum(exp(x))) along an axis, accumulated pairwise in log space"))


def _invert_permutation_kernel(x):
    x = np.asarray(x)
    n = x.size
    if x.size and (x.min() < 0 or x.max() >= n or np.unique(x).size != n):
        raise InvalidArgumentError(f"invert_permutation: {x.tolist()} is not a permutation of 0..{n - 1}")
    out = np.empty_like(x)
    out[x] = np.arange(n, dtype=x.dtype)
    return out


def _invert_permutation_infer(x):
    require(x.dtype, "int", "invert_permutation")
    if x.dtype.name not in ("int32", "int64"):
        raise TypeError(f"invert_permutation: x must be int32 or int64, got {x.dtype.name}")
    if x._shape is not None and len(x._shape) != 1:
        raise ValueError(f"invert_permutation: x must be a vector, got shape {shapes.fmt(x._shape)}")
    return x.dtype, x._shape


invert_permutation_op = register(OpDef("invert_permutation", _invert_permutation_kernel, _invert_permutation_infer,
                                       differentiable=False, doc="y[x[i]] = i"))


def _nextafter_infer(x1, x2):
    if x1.dtype is not x2.dtype or x1.dtype.name not in ("float32", "float64"):
        raise TypeError(f"nextafter: x1 and x2 must both be float32 or both float64, got {x1.dtype.name} and "
                        f"{x2.dtype.name}")
    return x1.dtype, broadcast(x1, x2)


nextafter_op = register(OpDef("nextafter", np.nextafter, _nextafter_infer, differentiable=False, elementwise=True,
                              doc="the next representable value after x1 towards x2"))
