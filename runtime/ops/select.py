"""tf.where(condition, x, y)'s op: x where the condition holds, else y, the three broadcast together. Its own
module, below array.py and indexing.py, because both build on it (indexing's `where`, and the run-time-num
linspace of array.py, which indexing's imports would otherwise close into a circle)."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..registry import OpDef, register
from .common import same_dtype


def _infer_select(condition, x, y):
    if not condition.dtype.is_bool:
        raise TypeError(f"the condition must be a bool tensor, got {condition.dtype.name}")
    dtype = same_dtype(x, y)
    try:
        shape = shapes.broadcast(shapes.broadcast(condition._shape, x._shape), y._shape)
    except ValueError:
        raise ValueError(f"condition {shapes.fmt(condition._shape)}, x {shapes.fmt(x._shape)} and y "
                         f"{shapes.fmt(y._shape)} cannot be broadcast together") from None
    return dtype, shape


select_op = register(OpDef("select", np.where, _infer_select, render="np.where({0}, {1}, {2})",
                           doc="x where condition is true, else y, with broadcasting"))
