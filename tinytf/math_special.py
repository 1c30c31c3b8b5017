"""tf.math's incomplete gamma and beta functions (igamma, igammac, betainc) and the tf.math.special namespace's
functions, each a wrapper over one op of runtime/ops/special_gamma_beta.py or special_functions.py. A Python number
takes the dtype of the tensor beside it, as TF's generated ops do."""

from __future__ import annotations

import sys
import types

from tinytf.runtime.dispatch import apply, convert_inputs, convert_to_tensor
from tinytf.runtime.ops import bessel as _bessel
from tinytf.runtime.ops import special_functions as _sf
from tinytf.runtime.ops import special_gamma_beta as _gb


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a); NaN for a <= 0, x < 0."""
    return apply(_gb.igamma_op, convert_inputs((a, x), True), name=name)


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return apply(_gb.igammac_op, convert_inputs((a, x), True), name=name)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b); NaN for a or b <= 0 or x outside [0, 1]."""
    return apply(_gb.betainc_op, convert_inputs((a, b, x), True), name=name)


def _unary(op, doc):
    def fn(x, name=None):
        return apply(op, (convert_to_tensor(x),), name=name)
    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = doc
    return fn


bessel_j0 = _unary(_sf.bessel_j0_op, "J0(x), the Bessel function of the first kind of order 0.")
bessel_j1 = _unary(_sf.bessel_j1_op, "J1(x), the Bessel function of the first kind of order 1.")
bessel_y0 = _unary(_sf.bessel_y0_op, "Y0(x), the Bessel function of the second kind of order 0 (-inf for x <= 0).")
bessel_y1 = _unary(_sf.bessel_y1_op, "Y1(x), the Bessel function of the second kind of order 1 (-inf for x <= 0).")
bessel_k0 = _unary(_sf.bessel_k0_op, "K0(x), the modified Bessel function of the second kind of order 0.")
bessel_k0e = _unary(_sf.bessel_k0e_op, "exp(x) K0(x), finite where K0 underflows.")
bessel_k1 = _unary(_sf.bessel_k1_op, "K1(x), the modified Bessel function of the second kind of order 1.")
bessel_k1e = _unary(_sf.bessel_k1e_op, "exp(x) K1(x), finite where K1 underflows.")
dawsn = _unary(_sf.dawsn_op, "Dawson's integral exp(-x^2) int_0^x exp(t^2) dt.")
expint = _unary(_sf.expint_op, "The exponential integral Ei(x) = int_-inf^x e^t / t dt (NaN below 0, as in TF).")
fresnel_cos = _unary(_sf.fresnel_cos_op, "The Fresnel integral C(x) = int_0^x cos(pi t^2 / 2) dt.")
fresnel_sin = _unary(_sf.fresnel_sin_op, "The Fresnel integral S(x) = int_0^x sin(pi t^2 / 2) dt.")
spence = _unary(_sf.spence_op, "Spence's function int_1^x ln t / (1 - t) dt (NaN below 0).")

SPECIAL_NAMES = ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
                 "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint",
                 "fresnel_cos", "fresnel_sin", "spence")

# tf.math.special: a module of its own (importable as tinytf.math.special), the modified Bessel functions of the
# first kind being tf.math's own
special = types.ModuleType("tinytf.math.special", "tf.math.special: Bessel functions, Dawson's, exponential and "
                                                  "Fresnel integrals, Spence's function.")
for _name in SPECIAL_NAMES:
    setattr(special, _name, getattr(_bessel, _name, None) or globals()[_name])
special.__all__ = list(SPECIAL_NAMES)
sys.modules[special.__name__] = special
del _name

__all__ = ["betainc", "igamma", "igammac", "special"]
