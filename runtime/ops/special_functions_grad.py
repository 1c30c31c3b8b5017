"""Gradient rules of tf.math.special's functions (special_functions.py), TF's (math_grad.py): J0' = -J1,
J1' = J0 - J1/x (1/2 at 0), Y0' = -Y1, Y1' = Y0 - Y1/x, K0' = -K1, K1' = -K0 - K1/x, the scaled forms with
their exp(x) factor's term, dawsn' = 1 - 2x dawsn(x), Ei' = e^x / x, the Fresnel integrands cos/sin(pi x^2/2),
spence' = ln x / (1 - x) (-1 at x = 1)."""

from __future__ import annotations

import math

import numpy as np

from ..dispatch import apply, convert_to_tensor
from ..registry import gradient
from . import special_functions as sf
from .indexing import where
from .math import cos, equal, exp, log, sin


def _const(value, like):
    return convert_to_tensor(np.asarray(value, like.dtype.np))


def _rule(op, derivative):
    @gradient(op)
    def rule(record, g):
        return g * derivative(record.inputs[0], record.outputs[0])
    return rule


def _of(op, x):
    return apply(op, (x,))


_rule(sf.bessel_j0_op, lambda x, y: -_of(sf.bessel_j1_op, x))
_rule(sf.bessel_j1_op, lambda x, y: where(equal(x, 0), _const(0.5, x), _of(sf.bessel_j0_op, x) - y / x))
_rule(sf.bessel_y0_op, lambda x, y: -_of(sf.bessel_y1_op, x))
_rule(sf.bessel_y1_op, lambda x, y: _of(sf.bessel_y0_op, x) - y / x)
_rule(sf.bessel_k0_op, lambda x, y: -_of(sf.bessel_k1_op, x))
_rule(sf.bessel_k0e_op, lambda x, y: y - _of(sf.bessel_k1e_op, x))
_rule(sf.bessel_k1_op, lambda x, y: -_of(sf.bessel_k0_op, x) - y / x)
_rule(sf.bessel_k1e_op, lambda x, y: -_of(sf.bessel_k0e_op, x) - (1.0 / x - 1.0) * y)
_rule(sf.dawsn_op, lambda x, y: 1.0 - 2.0 * x * y)
_rule(sf.expint_op, lambda x, y: exp(x) / x)
_rule(sf.fresnel_cos_op, lambda x, y: cos(math.pi / 2.0 * x * x))
_rule(sf.fresnel_sin_op, lambda x, y: sin(math.pi / 2.0 * x * x))
_rule(sf.spence_op, lambda x, y: where(equal(x, 1.0), _const(-1.0, x), log(x) / (1.0 - x)))
