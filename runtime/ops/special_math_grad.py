"""Gradient rules of the special functions (special_math.py), TF's: lgamma' = digamma, digamma' = polygamma(1, x),
d polygamma(n, x) / dx = polygamma(n + 1, x), d zeta(s, q) / dq = -s zeta(s + 1, q); none for n or s (TF
registers none for them either)."""

from __future__ import annotations

from ..dispatch import apply
from ..registry import gradient
from . import array as a
from .gradient_helpers import sum_to_like
from .special_math import digamma_op, lgamma_op, polygamma_op, zeta_op


@gradient(lgamma_op)
def _lgamma_grad(record, g):
    return g * apply(digamma_op, (record.inputs[0],))


@gradient(digamma_op)
def _digamma_grad(record, g):
    x = record.inputs[0]
    return g * apply(polygamma_op, (a.ones_like(x), x))


@gradient(polygamma_op)
def _polygamma_grad(record, g):
    n, x = record.inputs
    return None, sum_to_like(g * apply(polygamma_op, (n + 1.0, x)), x)


@gradient(zeta_op)
def _zeta_grad(record, g):
    s, q = record.inputs
    return None, sum_to_like(g * -s * apply(zeta_op, (s + 1.0, q)), q)
