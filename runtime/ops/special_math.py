"""Special functions of tf.math that numpy lacks: lgamma, digamma, polygamma and the Hurwitz zeta function, written
from published algorithms (no scipy), each computed in float64 and rounded to the input's dtype.

- lgamma: the Lanczos approximation (g = 7, the nine coefficients Godfrey published, as in Numerical Recipes'
  3rd edition), with Euler's reflection log(pi / |sin(pi x)|) - lgamma(1 - x) below 0.5. Relative error ~1e-15.
- digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series in 1/x^2 with
  Bernoulli numbers; reflection psi(1 - x) - pi / tan(pi x) below 0 (Abramowitz & Stegun 6.3.7, 6.3.18).
- zeta(s, q) = sum_k (k + q)^-s: the Euler-Maclaurin formula, a direct sum of the first N terms then the integral
  and Bernoulli corrections (the method of Cephes' zeta.c, written anew here).
- polygamma(n, x) = (-1)^(n + 1) n! zeta(n + 1, x) for n >= 1, digamma for n = 0.

Poles give what TF gives: lgamma(0, -1, ...) = inf, digamma(0) = nan... as checked against TF 2.21 in
tests/conformance/core_api_special.py. Gradients (special_math_grad.py) are these same functions."""

from __future__ import annotations

import math

import numpy as np

from ..registry import OpDef, register
from .common import broadcast, require, unary_infer

_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
            12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7)
# B_2k / (2k) for the digamma series, and B_2k / (2k)! for Euler-Maclaurin
_BERNOULLI = (1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6, -3617.0 / 510,
              43867.0 / 798, -174611.0 / 330, 854513.0 / 138, -236364091.0 / 2730)


def _as_float64(x):
    return np.asarray(x, dtype=np.float64)


def _out(result, like):
    dtype = np.asarray(like).dtype
    return result.astype(dtype) if np.ndim(result) else dtype.type(result)


def _lgamma_positive(x):
    """log Gamma(x) for x >= 0.5 (Lanczos)."""
    z = x - 1.0
    total = np.full_like(z, _LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], 1):
        total += c / (z + i)
    t = z + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (z + 0.5) * np.log(t) - t + np.log(total)


def lgamma(x):
    x = _as_float64(x)
    out = np.empty_like(x)
    small = x < 0.5
    out[~small] = _lgamma_positive(x[~small])
    xs = x[small]
    sin = np.abs(np.sin(math.pi * xs))
    with np.errstate(divide="ignore"):
        out[small] = np.log(math.pi / sin) - _lgamma_positive(1.0 - xs)
    out[small & (x == np.floor(x))] = np.inf  # the poles 0, -1, -2, ...
    out[np.isinf(x)] = np.inf
    out[np.isnan(x)] = np.nan
    return out


def _digamma_large(x):
    """psi(x) for x >= 10: log x - 1/(2x) - sum_k B_2k / (2k x^2k)."""
    inv2 = 1.0 / (x * x)
    series = np.zeros_like(x)
    power = np.ones_like(x)
    for k, b in enumerate(_BERNOULLI[:8], 1):
        power = power * inv2
        series += b / (2 * k) * power
    return np.log(x) - 0.5 / x - series


def digamma(x):
    x = _as_float64(x)
    out = np.empty_like(x)
    negative = x < 0
    y = np.where(negative, 1.0 - x, x)  # reflection: psi(x) = psi(1 - x) - pi / tan(pi x)
    shift = np.zeros_like(y)
    while True:
        low = y < 10.0
        if not low.any():
            break
        shift = np.where(low, shift - 1.0 / np.where(low, y, 1.0), shift)
        y = np.where(low, y + 1.0, y)
    out[...] = _digamma_large(y) + shift
    with np.errstate(divide="ignore", invalid="ignore"):
        reflected = out - math.pi / np.tan(math.pi * x)
    out = np.where(negative, reflected, out)
    out = np.where((x <= 0) & (x == np.floor(x)), np.nan, out)  # poles: TF gives nan (0 and the negatives)
    out = np.where(x == np.inf, np.inf, out)
    return np.where(np.isnan(x), np.nan, out)


def zeta(s, q):
    """Hurwitz zeta(s, q) for s > 1 (Euler-Maclaurin with N = 9 direct terms and 12 Bernoulli corrections)."""
    s, q = np.broadcast_arrays(_as_float64(s), _as_float64(q))
    total = np.zeros(s.shape)
    n = 9
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for k in range(n):
            total += (q + k) ** -s
        a = q + n
        total += a ** (1.0 - s) / (s - 1.0) + 0.5 * a ** -s
        factor = s * a ** (-s - 1.0)  # s (s+1) ... (s + 2j - 2) a^(-s - 2j + 1), built up term by term
        fact = 2.0
        for j, b in enumerate(_BERNOULLI, 1):
            total += b / fact * factor
            factor = factor * (s + 2 * j - 1) * (s + 2 * j) / (a * a)
            fact *= (2 * j + 1) * (2 * j + 2)
    total = np.where(s == 1.0, np.inf, total)
    total = np.where(s < 1.0, np.nan, total)
    # q a non-positive integer: a pole (inf); q negative otherwise: defined for integer s only ((k + q)^-s), as
    # in Cephes, whose kernel TF runs
    total = np.where((q <= 0) & (q == np.floor(q)) & (s > 1), np.inf, total)
    total = np.where((q < 0) & (q != np.floor(q)) & (s != np.floor(s)), np.nan, total)
    return total


def polygamma(n, x):
    n, x = np.broadcast_arrays(_as_float64(n), _as_float64(x))
    order = np.where(n >= 1, n, 1.0)
    sign = np.where(np.mod(order, 2) == 1, 1.0, -1.0)  # (-1)^(n + 1)
    factorial = np.exp(lgamma(order + 1.0))
    out = sign * factorial * zeta(order + 1.0, x)
    out = np.where(n == 0, digamma(x), out)
    return np.where((n < 0) | (n != np.floor(n)), np.nan, out)


lgamma_op = register(OpDef("lgamma", lambda x: _out(lgamma(x), x), unary_infer("float"), elementwise=True,
                           doc="log |Gamma(x)| (Lanczos, reflection below 0.5)"))
digamma_op = register(OpDef("digamma", lambda x: _out(digamma(x), x), unary_infer("float"), elementwise=True,
                            doc="the derivative of lgamma (recurrence, asymptotic series, reflection)"))


def _binary_float(op_name):
    def infer(a, b):
        require(a.dtype, "float", op_name)
        if a.dtype is not b.dtype:
            raise TypeError(f"{op_name}: both inputs must have one dtype, got {a.dtype.name} and {b.dtype.name}")
        return a.dtype, broadcast(a, b)

    return infer


zeta_op = register(OpDef("zeta", lambda s, q: _out(zeta(s, q), np.asarray(s) + np.asarray(q)),
                         _binary_float("zeta"), elementwise=True,
                         doc="the Hurwitz zeta function sum_k (k + q)^-x (Euler-Maclaurin)"))
polygamma_op = register(OpDef("polygamma", lambda n, x: _out(polygamma(n, x), np.asarray(n) + np.asarray(x)),
                              _binary_float("polygamma"), elementwise=True,
                              doc="the n-th derivative of digamma: (-1)^(n+1) n! zeta(n + 1, x)"))
