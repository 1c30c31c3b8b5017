"""tf.bitwise's shifts (the and/or/xor/invert ops are in math.py, as the Tensor operators use them). TF's CPU
kernels clamp the shift amount into [0, bits - 1], so a shift by the width or more, or by a negative amount, is
well defined here as there; right shifts of signed integers are arithmetic (the sign is kept)."""

from __future__ import annotations

import numpy as np

from ..registry import OpDef, register
from .common import binary_infer


def _clamped(x, y):
    bits = np.dtype(np.asarray(x).dtype).itemsize * 8
    return np.clip(y, 0, bits - 1).astype(np.asarray(x).dtype)


def _left_shift_kernel(x, y):
    return np.left_shift(x, _clamped(x, y))


def _right_shift_kernel(x, y):
    return np.right_shift(x, _clamped(x, y))


left_shift_op = register(OpDef("left_shift", _left_shift_kernel, binary_infer("int"), elementwise=True,
                               differentiable=False, doc="x << y, the shift clamped into [0, bits - 1]"))
right_shift_op = register(OpDef("right_shift", _right_shift_kernel, binary_infer("int"), elementwise=True,
                                differentiable=False, doc="x >> y (arithmetic), the shift clamped into [0, bits - 1]"))
