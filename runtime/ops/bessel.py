"""The modified Bessel functions of the first kind of tf.math: bessel_i0, bessel_i1 and their exponentially
scaled forms bessel_i0e = exp(-|x|) I0(x), bessel_i1e = exp(-|x|) I1(x), computed in float64 (no scipy) and
rounded to the input's dtype:

- |x| < 30: the power series I_n(x) = sum_k (x/2)^(2k+n) / (k! (k+n)!), whose terms are all positive (no
  cancellation; ~60 terms at most);
- |x| >= 30: the asymptotic expansion e^-x I_n(x) ~ (2 pi x)^-1/2 sum_k (-1)^k a_k(n) / x^k, a_k(n) =
  prod_{j<=k} (4n^2 - (2j - 1)^2) / (k! 8^k), summed while its terms shrink (to ~1e-26 relative at x = 30).

I1 is odd, I0 even. Gradients are TF's (math_grad.py): I0' = I1, I0e' = I1e - sign(x) I0e, I1' = I0 - I1 / x,
I1e' = I0e - I1e (sign(x) + 1 / x), imputed at x = 0 as TF does (1 for I1, 0.5 for I1e)."""

from __future__ import annotations

import math

import numpy as np

from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, gradient, register
from .common import unary_infer
from .indexing import where
from .math import equal, reciprocal, sign

_SERIES_LIMIT = 30.0


def _series(x, order):
    """I_order(x) by its power series (x >= 0, float64 arrays)."""
    half = x / 2.0
    term = half ** order / math.factorial(order)
    total = term.copy()
    square = half * half
    for k in range(1, 200):
        term = term * square / (k * (k + order))
        total += term
        if np.all(term <= total * 1e-17):
            break
    return total


def _scaled_asymptotic(x, order):
    """e^-x I_order(x) for x >= 30 by the asymptotic expansion, stopped at its smallest term."""
    mu = 4.0 * order * order
    term = np.ones_like(x)
    total = np.ones_like(x)
    for k in range(1, 120):
        nxt = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        if np.all(np.abs(nxt) >= np.abs(term)) or np.all(np.abs(nxt) <= 1e-18 * np.abs(total)):
            total += nxt
            break
        term = nxt
        total += term
    return total / np.sqrt(2.0 * math.pi * x)


def _magnitude(ax, order, scaled):
    """I_order(ax), or e^-ax I_order(ax) when scaled, for a float64 array ax >= 0 (NaN passes through)."""
    out = np.empty_like(ax)
    small = ax < _SERIES_LIMIT
    if small.any():
        out[small] = _series(ax[small], order) * (np.exp(-ax[small]) if scaled else 1.0)
    big = ax[~small]
    if big.size:
        finite = np.where(np.isinf(big), _SERIES_LIMIT, big)
        value = _scaled_asymptotic(finite, order)
        if not scaled:
            value = value * np.exp(finite)  # overflows to inf past ~713, as TF's
        # at infinity TF computes e^|x| * I_e(x) = inf * 0: NaN unscaled, 0 scaled
        out[~small] = np.where(np.isinf(big), 0.0 if scaled else np.nan, value)
    return out


def _kernel(order, scaled):
    def kernel(x):
        values = np.asarray(x, np.float64)
        flat = values.reshape(-1)
        out = _magnitude(np.abs(np.where(np.isnan(flat), 0.0, flat)), order, scaled)
        if order == 1:  # I1 is odd
            out = np.where(flat < 0, -out, out)
        out = np.where(np.isnan(flat), np.nan, out).reshape(values.shape)
        dtype = np.asarray(x).dtype
        return out.astype(dtype) if out.ndim else dtype.type(out)
    return kernel


def _op(name, order, scaled, doc):
    return register(OpDef(name, _kernel(order, scaled), unary_infer("float"), elementwise=True, doc=doc))


bessel_i0_op = _op("bessel_i0", 0, False, "I0(x), the modified Bessel function of the first kind of order 0")
bessel_i0e_op = _op("bessel_i0e", 0, True, "exp(-|x|) I0(x)")
bessel_i1_op = _op("bessel_i1", 1, False, "I1(x), the modified Bessel function of the first kind of order 1")
bessel_i1e_op = _op("bessel_i1e", 1, True, "exp(-|x|) I1(x)")


@gradient(bessel_i0_op)
def _i0_grad(record, g):
    return g * apply(bessel_i1_op, (record.inputs[0],))


@gradient(bessel_i0e_op)
def _i0e_grad(record, g):
    x, y = record.inputs[0], record.outputs[0]
    return g * (apply(bessel_i1e_op, (x,)) - sign(x) * y)


@gradient(bessel_i1_op)
def _i1_grad(record, g):
    """TF imputes 1 at x = 0 (the derivative there is 1/2; TF 2.21 says 1, and so does tinytf, for its numbers)."""
    x, y = record.inputs[0], record.outputs[0]
    one = convert_to_tensor(np.asarray(1.0, x.dtype.np))
    return g * where(equal(x, 0), one, apply(bessel_i0_op, (x,)) - y / x)


@gradient(bessel_i1e_op)
def _i1e_grad(record, g):
    x, y = record.inputs[0], record.outputs[0]
    half = convert_to_tensor(np.asarray(0.5, x.dtype.np))
    return g * where(equal(x, 0), half, apply(bessel_i0e_op, (x,)) - y * (sign(x) + reciprocal(x)))


def _float_input(x, what):
    return convert_to_tensor(x)


def bessel_i0(x, name=None):
    """`tf.math.bessel_i0`: the modified Bessel function of the first kind of order 0."""
    return apply(bessel_i0_op, (_float_input(x, "bessel_i0"),), name=name)


def bessel_i0e(x, name=None):
    """`tf.math.bessel_i0e`: exp(-|x|) I0(x), finite for every x."""
    return apply(bessel_i0e_op, (_float_input(x, "bessel_i0e"),), name=name)


def bessel_i1(x, name=None):
    """`tf.math.bessel_i1`: the modified Bessel function of the first kind of order 1."""
    return apply(bessel_i1_op, (_float_input(x, "bessel_i1"),), name=name)


def bessel_i1e(x, name=None):
    """`tf.math.bessel_i1e`: exp(-|x|) I1(x), finite for every x."""
    return apply(bessel_i1e_op, (_float_input(x, "bessel_i1e"),), name=name)
