"""Gradient rules of igamma, igammac and betainc, TF's (math_grad.py): dP/da is the igamma_grad_a op, dP/dx =
x^(a-1) e^-x / Gamma(a) in logs; igammac's are their negatives; betainc has a gradient for x only,
x^(a-1) (1-x)^(b-1) / B(a, b), and None for a and b, as in TF. xlogy/xlog1py forms make the tails 0, not NaN,
where a or b is 1."""

from __future__ import annotations

from ..dispatch import apply
from ..registry import gradient
from . import array as arr
from .gradient_helpers import sum_to_like
from .indexing import where
from .math import equal, exp, log1p, xlogy
from .special_gamma_beta import betainc_op, igamma_grad_a_op, igamma_op, igammac_op
from .special_math import lgamma_op


def _lgamma(x):
    return apply(lgamma_op, (x,))


def _igamma_partials(record, g):
    a, x = record.inputs
    partial_a = apply(igamma_grad_a_op, (a, x))
    partial_x = exp(-x + xlogy(a - 1.0, x) - _lgamma(a))
    return sum_to_like(g * partial_a, a), sum_to_like(g * partial_x, x)


@gradient(igamma_op)
def _igamma_grad(record, g):
    return _igamma_partials(record, g)


@gradient(igammac_op)
def _igammac_grad(record, g):
    grad_a, grad_x = _igamma_partials(record, g)
    return -grad_a, -grad_x


def _xlog1py(x, y):
    zero = arr.zeros_like(x * y)
    is_zero = equal(x + zero, zero)
    return where(is_zero, zero, x * log1p(where(is_zero, zero, y + zero)))


@gradient(betainc_op)
def _betainc_grad(record, g):
    a, b, x = record.inputs
    log_beta = _lgamma(a) + _lgamma(b) - _lgamma(a + b)
    partial_x = exp(_xlog1py(b - 1.0, -x) + xlogy(a - 1.0, x) - log_beta)
    return None, None, sum_to_like(g * partial_x, x)


