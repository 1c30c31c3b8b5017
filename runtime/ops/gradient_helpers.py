"""Ops that gradient rules need and that users call: stop_gradient, and shape-polymorphic helpers that
undo broadcasting and reductions (they read the target shape from a tensor, so partial shapes work)."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from .array import reshape
from .reduce import reduce_sum


def _scalar_or_array(value):
    """Rank-0 results as numpy scalars (cheap to compute with), like every other kernel."""
    return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value


# --- stop_gradient -------------------------------------------------------------------------------------
stop_gradient_op = register(OpDef(
    "stop_gradient", lambda x: x, lambda x: (x.dtype, x._shape), render="{0}", differentiable=False,
    doc="identity whose output no gradient flows through"))


def stop_gradient(input, name=None):
    """`tf.stop_gradient`: the value of `input`, treated as a constant by gradients."""
    return apply(stop_gradient_op, (convert_to_tensor(input),), name=name)


# The helpers below take the target shape as a static attribute `shape` when it is fully known (so the
# backward graph does not keep the forward value alive just for its shape), and otherwise read it at run
# time from a second input `like`.
def _static(like):
    shape = like._shape
    return shape if shape is not None and None not in shape else None


def _apply_shaped(op, x, like, attrs=None):
    shape = _static(like)
    if shape is not None:
        return apply(op, (x,), {"shape": shape, **(attrs or {})})
    return apply(op, (x, like), {"shape": None, **(attrs or {})})


def _target_shape(like, shape):
    return shape if shape is not None else np.shape(like)


def _infer_target(what):
    def infer(x, like=None, *, shape, **attrs):
        if like is not None and x.dtype is not like.dtype:
            raise TypeError(f"{what}: the value has dtype {x.dtype.name} but its target has {like.dtype.name}")
        return x.dtype, (shape if like is None else like._shape)

    return infer


# --- sum_to_like: undo broadcasting -----------------------------------------------------------------------
def sum_to_shape(grad, shape):
    """Sum `grad` over the axes that broadcasting expanded, so that it gets `shape`."""
    if np.shape(grad) == shape:
        return grad
    lead = np.ndim(grad) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and grad.shape[i + lead] != 1)
    total = np.sum(grad, axis=axes, dtype=grad.dtype) if axes else grad
    return _scalar_or_array(np.reshape(total, shape))


sum_to_like_op = register(OpDef(
    "sum_to_like", lambda grad, like=None, *, shape: sum_to_shape(grad, _target_shape(like, shape)),
    _infer_target("sum_to_like"), doc="sum a broadcast gradient back down to a shape (undo broadcasting)"))


def sum_to_like(grad, like):
    """`grad` reduced to the shape of `like` (the inverse of broadcasting `like` up to grad's shape)."""
    if grad is None:
        return None
    target = _static(like)
    if target is not None and grad._shape == target:
        return grad
    source = grad._shape
    if target is not None and source is not None and None not in source:
        # both shapes known now: an ordinary reduce_sum (and reshape), which the passes and the code
        # generator know how to render and fuse
        lead = len(source) - len(target)
        axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(target) if d == 1 and source[i + lead] != 1)
        total = reduce_sum(grad, axes) if axes else grad
        return total if total._shape == target else reshape(total, target)
    return _apply_shaped(sum_to_like_op, grad, like)


# --- broadcast_to_like: the transpose of sum_to_like -------------------------------------------------------
def _broadcast_kernel(x, like=None, *, shape):
    shape = _target_shape(like, shape)
    if np.shape(x) == shape:
        return x
    return _scalar_or_array(np.array(np.broadcast_to(x, shape)))


broadcast_to_like_op = register(OpDef(
    "broadcast_to_like", _broadcast_kernel, _infer_target("broadcast_to_like"),
    doc="broadcast x up to a shape (a copy, never a read-only view)"))


def broadcast_to_like(x, like):
    if x._shape == like._shape and _static(like) is not None:
        return x
    return _apply_shaped(broadcast_to_like_op, x, like)


# --- reshape_like: reshape to a shape only known at run time ------------------------------------------------
def _reshape_like_kernel(x, like):
    return _scalar_or_array(np.reshape(x, np.shape(like)))


def _infer_reshape_like(x, like):
    known_x, known_like = shapes.num_elements(x._shape), shapes.num_elements(like._shape)
    if known_x is not None and known_like is not None and known_x != known_like:
        raise ValueError(f"cannot reshape {shapes.fmt(x._shape)} to {shapes.fmt(like._shape)}")
    return x.dtype, like._shape


reshape_like_op = register(OpDef(
    "reshape_like", _reshape_like_kernel, _infer_reshape_like, doc="reshape x to the shape of `like`"))


def reshape_like(x, like):
    """`x` reshaped to the shape of `like`: a static reshape when that shape is known."""
    target = _static(like)
    if target is not None:
        if x._shape == target:
            return x
        return reshape(x, target)
    return apply(reshape_like_op, (x, like))


# --- broadcast_reduced: the gradient of a reduction -------------------------------------------------------
def _reduced_axes(rank, axis):
    if axis is None:
        return tuple(range(rank))
    axes = (axis,) if isinstance(axis, int) else axis
    return tuple(sorted(a % rank if rank else 0 for a in axes))


def _broadcast_reduced_kernel(grad, like=None, *, shape, axis, keepdims, mean):
    shape = _target_shape(like, shape)
    axes = _reduced_axes(len(shape), axis)
    dtype = np.asarray(grad).dtype
    if mean:
        count = 1
        for a in axes:
            count *= shape[a]
        grad = grad / np.asarray(max(count, 1), dtype)
    if not keepdims:
        grad = np.reshape(grad, [1 if i in axes else d for i, d in enumerate(shape)])
    return _scalar_or_array(np.array(np.broadcast_to(grad, shape), dtype=dtype))


broadcast_reduced_op = register(OpDef(
    "broadcast_reduced", _broadcast_reduced_kernel, _infer_target("broadcast_reduced"),
    doc="spread the gradient of a sum (or mean) back over the reduced axes"))


def broadcast_reduced(grad, like, axis, keepdims, mean=False):
    """The gradient of reduce_sum / reduce_mean(like, axis, keepdims) given the gradient of its result."""
    return _apply_shaped(broadcast_reduced_op, grad, like, {"axis": axis, "keepdims": keepdims, "mean": mean})


# --- mirror_pad_grad: the gradient of REFLECT / SYMMETRIC padding -----------------------------------------------
def _mirror_pad_grad_kernel(g, *, paddings, mode):
    """Fold each padded border back onto the elements it mirrors (REFLECT skips the edge, SYMMETRIC repeats it)."""
    out = np.asarray(g)
    skip = 1 if mode == "REFLECT" else 0
    for axis, (before, after) in enumerate(paddings):
        n = out.shape[axis] - before - after
        moved = np.moveaxis(out, axis, 0)
        core = moved[before:before + n].copy()
        if before:
            core[skip:skip + before] += moved[:before][::-1]
        if after:
            core[n - skip - after:n - skip] += moved[before + n:][::-1]
        out = np.moveaxis(core, 0, axis)
    return _scalar_or_array(np.ascontiguousarray(out))


def _infer_mirror_pad_grad(g, *, paddings, mode):
    if g._shape is None:
        return g.dtype, None
    return g.dtype, tuple(None if d is None else d - b - a for d, (b, a) in zip(g._shape, paddings))


mirror_pad_grad_op = register(OpDef(
    "mirror_pad_grad", _mirror_pad_grad_kernel, _infer_mirror_pad_grad,
    doc="the gradient of REFLECT / SYMMETRIC tf.pad: borders folded back onto what they mirror"))


def mirror_pad_grad(g, x, paddings, mode):
    return apply(mirror_pad_grad_op, (g,), {"paddings": paddings, "mode": mode})


def _mirror_pad_grad_dynamic_kernel(g, paddings, *, mode):
    pairs = tuple((int(a), int(b)) for a, b in np.asarray(paddings, np.int64).reshape(-1, 2))
    return _mirror_pad_grad_kernel(g, paddings=pairs, mode=mode)


def _infer_mirror_pad_grad_dynamic(g, paddings, *, mode):
    return g.dtype, None if g._shape is None else (None,) * len(g._shape)


mirror_pad_grad_dynamic_op = register(OpDef(
    "mirror_pad_grad_dynamic", _mirror_pad_grad_dynamic_kernel, _infer_mirror_pad_grad_dynamic,
    doc="the gradient of REFLECT / SYMMETRIC tf.pad with paddings given as a tensor"))


def mirror_pad_grad_dynamic(g, paddings, mode):
    return apply(mirror_pad_grad_dynamic_op, (g, paddings), {"mode": mode})


__all__ = ["stop_gradient"]
