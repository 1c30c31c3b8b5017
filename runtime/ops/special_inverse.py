"""Inverses of the normal distribution and the error function: tf.math.ndtri, erfinv, erfcinv, by Wichura's
algorithm AS 241 (PPND16, Applied Statistics 37, 1988): rational approximations in q = p - 1/2 near the centre
and in sqrt(-log(tail)) in the tails, relative error about 1e-16. Each function hands the algorithm its q and its
tail probability computed directly from the argument (erfinv(x) uses q = x / 2 and tail = (1 - |x|) / 2), so no
argument is rounded through p = (x + 1) / 2 first: erfinv(1e-12) keeps all its digits, where TF 2.21's float64
kernel (via ndtri) loses about four and its float32 kernel returns 0. Computed in float64, rounded to the input's
dtype. Gradients (special_inverse_grad rules below) are closed forms in the output."""

from __future__ import annotations

import math

import numpy as np

from ..registry import OpDef, gradient, register
from . import math as m
from .common import unary_infer

_A = (3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3, 1.3731693765509461125e+4,
      4.5921953931549871457e+4, 6.7265770927008700853e+4, 3.3430575583588128105e+4, 2.5090809287301226727e+3)
_B = (1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2, 5.3941960214247511077e+3, 2.1213794301586595867e+4,
      3.9307895800092710610e+4, 2.8729085735721942674e+4, 5.2264952788528545610e+3)
_C = (1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0, 3.64784832476320460504e0,
      1.27045825245236838258e0, 2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4)
_D = (1.0, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
      1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4, 1.05075007164441684324e-9)
_E = (6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0, 2.96560571828504891230e-1,
      2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7)
_F = (1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
      7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7, 2.04426310338993978564e-15)
_SQRT2 = math.sqrt(2.0)


def _poly(c, x):
    out = np.full_like(x, c[-1])
    for k in reversed(c[:-1]):
        out = out * x + k
    return out


def _ppnd16(q, tail):
    """The standard normal quantile of p, given q = p - 1/2 and tail = min(p, 1 - p)."""
    q, tail = np.broadcast_arrays(np.asarray(q, np.float64), np.asarray(tail, np.float64))
    central = np.abs(q) <= 0.425
    r = 0.180625 - q * q
    inner = q * _poly(_A, r) / _poly(_B, r)
    s = np.sqrt(-np.log(np.where(central | (tail <= 0), 0.5, tail)))
    outer = np.where(s <= 5.0, _poly(_C, s - 1.6) / _poly(_D, s - 1.6), _poly(_E, s - 5.0) / _poly(_F, s - 5.0))
    return np.where(central, inner, np.where(q < 0, -outer, outer))


def _out(result, like):
    dtype = np.asarray(like).dtype
    return result.astype(dtype) if np.ndim(result) else dtype.type(result)


def ndtri(p):
    p = np.asarray(p, np.float64)
    out = _ppnd16(p - 0.5, np.minimum(p, 1.0 - p))
    out = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, out))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, out)


def erfinv(x):
    x = np.asarray(x, np.float64)
    out = _ppnd16(x / 2.0, (1.0 - np.abs(x)) / 2.0) / _SQRT2
    out = np.where(x == -1, -np.inf, np.where(x == 1, np.inf, out))
    return np.where((x < -1) | (x > 1) | np.isnan(x), np.nan, out)


def erfcinv(y):
    y = np.asarray(y, np.float64)
    out = -_ppnd16(y / 2.0 - 0.5, np.minimum(y, 2.0 - y) / 2.0) / _SQRT2  # erfc^-1(y) = -ndtri(y / 2) / sqrt 2
    out = np.where(y == 0, np.inf, np.where(y == 2, -np.inf, out))
    return np.where((y < 0) | (y > 2) | np.isnan(y), np.nan, out)


ndtri_op = register(OpDef("ndtri", lambda p: _out(ndtri(p), p), unary_infer("float"), elementwise=True,
                          doc="the standard normal quantile (Wichura's AS 241)"))
erfinv_op = register(OpDef("erfinv", lambda x: _out(erfinv(x), x), unary_infer("float"), elementwise=True,
                           doc="the inverse error function (AS 241 on q = x / 2)"))
erfcinv_op = register(OpDef("erfcinv", lambda y: _out(erfcinv(y), y), unary_infer("float"), elementwise=True,
                            doc="the inverse complementary error function (AS 241)"))


# The derivatives are closed forms in the output y: (erf^-1)'(x) = sqrt(pi)/2 exp(y^2), (ndtri)'(p) =
# sqrt(2 pi) exp(y^2 / 2), (erfc^-1)'(x) = -sqrt(pi)/2 exp(y^2); written with ops, so differentiable again.
@gradient(erfinv_op)
def _erfinv_grad(record, g):
    y = record.outputs[0]
    return g * (math.sqrt(math.pi) / 2) * m.exp(m.square(y))


@gradient(erfcinv_op)
def _erfcinv_grad(record, g):
    y = record.outputs[0]
    return g * (-math.sqrt(math.pi) / 2) * m.exp(m.square(y))


@gradient(ndtri_op)
def _ndtri_grad(record, g):
    y = record.outputs[0]
    return g * math.sqrt(2 * math.pi) * m.exp(m.square(y) / 2)
