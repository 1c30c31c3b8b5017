"""Gradient rule of cumulative_logsumexp (core_math.py), TF's: the incoming gradient split by sign, each part
accumulated in log space the other way round, so nothing overflows where the forward did not."""

from __future__ import annotations

import numpy as np

from ..dispatch import apply
from ..registry import gradient
from . import array as a
from . import math as m
from .core_math import cumulative_logsumexp_op
from .select import select_op


@gradient(cumulative_logsumexp_op)
def _cumulative_logsumexp_grad(record, g):
    (x,) = record.inputs
    result = record.outputs[0]
    attrs = dict(record.attrs, reverse=not record.attrs["reverse"])
    zero = a.zeros_like(g)
    lowest = zero - np.inf
    # log of each sign's part; where the other sign holds, -inf (log(0) of the clipped value, never selected)
    log_positive = apply(select_op, (m.greater(g, zero), m.log(m.maximum(g, zero)), lowest))
    log_negative = apply(select_op, (m.less(g, zero), m.log(m.maximum(-g, zero)), lowest))
    positive = m.exp(apply(cumulative_logsumexp_op, (log_positive - result,), attrs) + x)
    negative = m.exp(apply(cumulative_logsumexp_op, (log_negative - result,), attrs) + x)
    return positive - negative
