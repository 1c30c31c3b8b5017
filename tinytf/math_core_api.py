"""tf.math names of the core API built from other ops (gradients follow) or from core_math.py's kernels:
xlog1py, cumulative_logsumexp, invert_permutation, is_non_decreasing, is_strictly_increasing, polyval, nextafter,
accumulate_n, zero_fraction, and tf.math's softmax / log_softmax (tf.nn's)."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import core_math as _ops
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops import special_inverse as _inverse
from tinytf.runtime.ops import special_math as _special
from tinytf.runtime.ops.nn import log_softmax, softmax  # noqa: F401 - tf.math's names for them
from tinytf.runtime.ops.select import select_op
from tinytf.runtime.shapes import TensorShape

from .nn_core_api import zero_fraction  # noqa: F401 - tf.math.zero_fraction is tf.nn.zero_fraction


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x == 0 (whatever y is), with the matching gradient."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    zero = _a.zeros_like(x * y)
    is_zero = _m.equal(x + zero, zero)
    safe_y = apply(select_op, (is_zero, zero, y + zero))  # no log1p(-1) * 0 = nan, in values or gradients
    return apply(select_op, (is_zero, zero, x * _m.log1p(safe_y)))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, accumulated in log space (no overflow, no underflow to -inf)."""
    if not isinstance(axis, int):
        axis = int(axis.numpy()) if hasattr(axis, "numpy") else int(axis)
    return apply(_ops.cumulative_logsumexp_op, (convert_to_tensor(x),),
                 {"axis": axis, "exclusive": bool(exclusive), "reverse": bool(reverse)}, name=name)


def invert_permutation(x, name=None):
    """The inverse permutation: y[x[i]] = i."""
    return apply(_ops.invert_permutation_op, (convert_to_tensor(x),), name=name)


def nextafter(x1, x2, name=None):
    """The next representable floating value after x1 in the direction of x2, elementwise."""
    x1 = convert_to_tensor(x1)
    return apply(_ops.nextafter_op, (x1, convert_to_tensor(x2, dtype=x1.dtype)), name=name)


def _pairs(x, op_name):
    x = convert_to_tensor(x)
    if not x.dtype.is_numeric:
        raise TypeError(f"Expected x to be numeric, got {x.dtype.name} ({op_name})")
    flat = _a.reshape(x, [-1])
    return flat[:-1], flat[1:]


def is_non_decreasing(x, name=None):
    """True when each element of the flattened x is >= the one before (always for fewer than two)."""
    before, after = _pairs(x, "is_non_decreasing")
    return _r.reduce_all(_m.less_equal(before, after))


def is_strictly_increasing(x, name=None):
    """True when each element of the flattened x is > the one before (always for fewer than two)."""
    before, after = _pairs(x, "is_strictly_increasing")
    return _r.reduce_all(_m.less(before, after))


def polyval(coeffs, x, name=None):
    """coeffs[0] * x^(n-1) + ... + coeffs[n-1], by Horner's rule; coeffs a list of tensors (highest first)."""
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    x = convert_to_tensor(x)
    if not coeffs:
        return _a.zeros_like(x)
    p = convert_to_tensor(coeffs[0], dtype=x.dtype)
    for c in coeffs[1:]:
        p = convert_to_tensor(c, dtype=x.dtype) + p * x
    return p


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of `inputs` (TF 2's accumulate_n is add_n, with optional checks of shape and dtype)."""
    tensors = [convert_to_tensor(t) for t in inputs]
    if not tensors:
        raise ValueError("inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape")
    if tensor_dtype is not None and any(t.dtype.name != convert_to_tensor(0, dtype=tensor_dtype).dtype.name
                                        for t in tensors):
        raise TypeError(f"accumulate_n: expected dtype {tensor_dtype}, got {[t.dtype.name for t in tensors]}")
    if shape is not None:
        want = TensorShape(shape)
        for t in tensors:
            if not TensorShape(t._shape).is_compatible_with(want):
                raise ValueError(f"Shape {TensorShape(t._shape)} is incompatible with expected shape {want}")
    return _r.add_n(tensors)


# --- special functions (runtime/ops/special_math.py) -----------------------------------------------------------
def lgamma(x, name=None):
    """log |Gamma(x)| elementwise (inf at 0, -1, -2, ...)."""
    return apply(_special.lgamma_op, (convert_to_tensor(x),), name=name)


def digamma(x, name=None):
    """The derivative of lgamma, psi(x)."""
    return apply(_special.digamma_op, (convert_to_tensor(x),), name=name)


def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x (a a non-negative integer, given as a float tensor like x)."""
    x = convert_to_tensor(x)
    return apply(_special.polygamma_op, (convert_to_tensor(a, dtype=x.dtype), x), name=name)


def zeta(x, q, name=None):
    """The Hurwitz zeta function sum over k >= 0 of (k + q)^-x."""
    x = convert_to_tensor(x)
    return apply(_special.zeta_op, (x, convert_to_tensor(q, dtype=x.dtype)), name=name)


def lbeta(x, name=None):
    """log |Beta(x)| of the last axis: sum(lgamma(x)) - lgamma(sum(x)); for an empty last axis, 0."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        x = _m.cast(x, convert_to_tensor(0.0).dtype)
    return _r.reduce_sum(lgamma(x), -1) - lgamma(_r.reduce_sum(x, -1))


def ndtri(x, name=None):
    """The standard normal quantile: the z with P(Z <= z) = x (Wichura's AS 241)."""
    return apply(_inverse.ndtri_op, (convert_to_tensor(x),), name=name)


def erfinv(x, name=None):
    """The inverse error function on [-1, 1]."""
    return apply(_inverse.erfinv_op, (convert_to_tensor(x),), name=name)


def erfcinv(x, name=None):
    """The inverse complementary error function on [0, 2]."""
    return apply(_inverse.erfcinv_op, (convert_to_tensor(x),), name=name)
