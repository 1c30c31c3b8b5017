"""The regularized incomplete gamma and beta functions of tf.math: igamma P(a, x), igammac Q(a, x) = 1 - P(a, x),
betainc I_x(a, b), and igamma_grad_a (dP/da, the op TF's gradient of igamma calls), computed in float64 and
rounded to the input dtype, written from the published algorithms (no scipy):

- P(a, x) by its power series x^a e^-x sum_n x^n / Gamma(a + n + 1) when x < a + 1, else Q(a, x) by Legendre's
  continued fraction evaluated with the modified Lentz method (Numerical Recipes, 3rd ed., 6.2);
- I_x(a, b) by its continued fraction (Lentz), on x < (a + 1) / (a + b + 2), else 1 - I_{1-x}(b, a) (6.4);
- dP/da by the complex step: both the series and the continued fraction are analytic in a, so evaluating them
  at a + ih (h = 1e-20) gives dP/da = Im P(a + ih) / h to rounding, with no cancellation (Squire & Trapp 1998).

Domains as TF's Cephes kernels: a <= 0, x < 0 (igamma) or x outside [0, 1], a or b <= 0 (betainc) give NaN."""

from __future__ import annotations

import numpy as np

from ..registry import OpDef, register
from .common import broadcast, require
from .special_math import digamma, lgamma

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITERATIONS = 100000
_STEP = 1e-20  # the complex step: h^2 vanishes next to 1 in float64, so Re and Im parts are exact to rounding


def _small_against(part, whole):
    """Whether `part` no longer changes `whole` (complex: real and imaginary parts each, since the derivative,
    the imaginary part, can converge more slowly than the value)."""
    if np.iscomplexobj(part):
        return (np.abs(part.real) <= np.abs(whole.real) * _EPS) & (np.abs(part.imag) <= np.abs(whole.imag) * _EPS)
    return np.abs(part) <= np.abs(whole) * _EPS


def _log_prefactor(a, x):
    """x^a e^-x / Gamma(a) in logs, for complex a = a0 + ih: lgamma(a0 + ih) = lgamma(a0) + ih digamma(a0)."""
    real = a.real
    log_gamma = lgamma(real) + 1j * a.imag * digamma(real) if np.iscomplexobj(a) else lgamma(real)
    return a * np.log(x) - x - log_gamma


def _series(a, x):
    """sum_n x^n / (a (a+1) ... (a+n)): P(a, x) = x^a e^-x / Gamma(a) times this (all terms positive)."""
    term = 1.0 / a
    total = term.copy()
    active = np.arange(a.size)
    n = 0
    while active.size and n < _MAX_ITERATIONS:
        n += 1
        term[active] = term[active] * x[active] / (a[active] + n)
        total[active] += term[active]
        active = active[~_small_against(term[active], total[active])]
    return total


def _continued_fraction(a, x):
    """Legendre's continued fraction of Gamma(a, x) e^x x^-a (modified Lentz): Q(a, x) = prefactor times this."""
    b = x + 1.0 - a
    c = np.full(a.shape, 1.0 / _TINY, dtype=a.dtype)
    d = 1.0 / b
    h = d.copy()
    active = np.arange(a.size)
    i = 0
    while active.size and i < _MAX_ITERATIONS:
        i += 1
        an = -i * (i - a[active])
        b[active] += 2.0
        dd = an * d[active] + b[active]
        dd = np.where(np.abs(dd) < _TINY, _TINY, dd)
        cc = b[active] + an / c[active]
        cc = np.where(np.abs(cc) < _TINY, _TINY, cc)
        d[active] = 1.0 / dd
        c[active] = cc
        delta = d[active] * cc
        h[active] *= delta
        active = active[~_small_against(delta - 1.0, np.ones_like(delta) * (1.0 + 1j * _STEP))]
    return h


def _gamma_pq(a, x):
    """(P, Q) for valid a > 0, x >= 0 (flat arrays; a may be complex a0 + ih)."""
    p = np.zeros(a.shape, dtype=a.dtype)
    q = np.ones(a.shape, dtype=a.dtype)
    positive = x > 0
    low = positive & (x < a.real + 1.0)
    high = positive & ~low & np.isfinite(x)
    if low.any():
        p[low] = np.exp(_log_prefactor(a[low], x[low])) * _series(a[low], x[low])
        q[low] = 1.0 - p[low]
    if high.any():
        q[high] = np.exp(_log_prefactor(a[high], x[high])) * _continued_fraction(a[high], x[high])
        p[high] = 1.0 - q[high]
    infinite = x == np.inf
    p[infinite], q[infinite] = 1.0, 0.0
    return p, q


def _prepare(a, x):
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    shape = a.shape
    a, x = a.reshape(-1).copy(), x.reshape(-1).copy()
    invalid = ~(a > 0) | ~(x >= 0)  # NaN inputs are invalid too
    return shape, a, x, invalid


def incomplete_gamma(a, x, upper: bool) -> np.ndarray:
    shape, a, x, invalid = _prepare(a, x)
    p, q = _gamma_pq(np.where(invalid, 1.0, a), np.where(invalid, 1.0, x))
    out = q if upper else p
    return np.where(invalid, np.nan, out).reshape(shape)


def incomplete_gamma_grad_a(a, x) -> np.ndarray:
    """dP(a, x)/da, by the complex step."""
    shape, a, x, invalid = _prepare(a, x)
    p, _ = _gamma_pq(np.where(invalid, 1.0, a) + 1j * _STEP, np.where(invalid, 1.0, x))
    out = p.imag / _STEP
    out = np.where((x == 0) | (x == np.inf), 0.0, out)
    return np.where(invalid, np.nan, out).reshape(shape)


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (modified Lentz), for x < (a + 1) / (a + b + 2)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    active = np.arange(x.size)
    m = 0
    while active.size and m < _MAX_ITERATIONS:
        m += 1
        aa_, bb_, xx = a[active], b[active], x[active]
        for numerator in (m * (bb_ - m) * xx / ((qam[active] + 2 * m) * (aa_ + 2 * m)),
                          -(aa_ + m) * (qab[active] + m) * xx / ((aa_ + 2 * m) * (qap[active] + 2 * m))):
            dd = 1.0 + numerator * d[active]
            dd = 1.0 / np.where(np.abs(dd) < _TINY, _TINY, dd)
            cc = 1.0 + numerator / c[active]
            cc = np.where(np.abs(cc) < _TINY, _TINY, cc)
            d[active], c[active] = dd, cc
            delta = dd * cc
            h[active] *= delta
        active = active[np.abs(delta - 1.0) > _EPS]
    return h


def incomplete_beta(a, b, x) -> np.ndarray:
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    shape = a.shape
    a, b, x = (v.reshape(-1).copy() for v in (a, b, x))
    invalid = ~(a > 0) | ~(b > 0) | ~(x >= 0) | ~(x <= 1)
    out = np.where(x == 1, 1.0, 0.0)
    inside = ~invalid & (x > 0) & (x < 1)
    if inside.any():
        ai, bi, xi = a[inside], b[inside], x[inside]
        log_front = lgamma(ai + bi) - lgamma(ai) - lgamma(bi) + ai * np.log(xi) + bi * np.log1p(-xi)
        front = np.exp(log_front)
        direct = xi < (ai + 1.0) / (ai + bi + 2.0)
        value = np.empty_like(xi)
        if direct.any():
            value[direct] = front[direct] * _beta_fraction(ai[direct], bi[direct], xi[direct]) / ai[direct]
        if (~direct).any():
            flip = ~direct
            value[flip] = 1.0 - front[flip] * _beta_fraction(bi[flip], ai[flip], 1.0 - xi[flip]) / bi[flip]
        out[inside] = value
    return np.where(invalid, np.nan, out).reshape(shape)


def _out(result, *inputs):
    dtype = np.result_type(*(np.asarray(v).dtype for v in inputs))
    return result.astype(dtype) if np.ndim(result) else dtype.type(result)


def _same_float(op_name, count):
    def infer(*tensors):
        require(tensors[0].dtype, "float", op_name)
        if tensors[0].dtype.name not in ("float32", "float64"):
            raise TypeError(f"{op_name}: expected float32 or float64, got {tensors[0].dtype.name}")
        for t in tensors[1:]:
            if t.dtype is not tensors[0].dtype:
                raise TypeError(f"{op_name}: every input must have one dtype, got "
                                f"{', '.join(t.dtype.name for t in tensors)}")
        shape = tensors[0]._shape
        for t in tensors[1:]:
            shape = broadcast(_Shaped(shape), t)
        return tensors[0].dtype, shape
    return infer


class _Shaped:
    """A stand-in with a `_shape`, to fold broadcast() over three inputs."""

    def __init__(self, shape):
        self._shape = shape


igamma_op = register(OpDef("igamma", lambda a, x: _out(incomplete_gamma(a, x, False), a, x),
                           _same_float("igamma", 2), elementwise=True,
                           doc="the regularized lower incomplete gamma function P(a, x)"))
igammac_op = register(OpDef("igammac", lambda a, x: _out(incomplete_gamma(a, x, True), a, x),
                            _same_float("igammac", 2), elementwise=True,
                            doc="the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)"))
igamma_grad_a_op = register(OpDef("igamma_grad_a", lambda a, x: _out(incomplete_gamma_grad_a(a, x), a, x),
                                  _same_float("igamma_grad_a", 2), elementwise=True, differentiable=False,
                                  doc="dP(a, x)/da (TF's IgammaGradA, which has no gradient itself)"))
betainc_op = register(OpDef("betainc", lambda a, b, x: _out(incomplete_beta(a, b, x), a, b, x),
                            _same_float("betainc", 3), elementwise=True,
                            doc="the regularized incomplete beta function I_x(a, b)"))
