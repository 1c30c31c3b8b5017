"""keras.ops' bitwise functions (bitwise_and/or/xor/invert/not, left and right shifts) with Keras 3's TF-backend
rules: both operands promoted to their result_type first (a Python int shift amount is left as it is), then
TF's bitwise ops, which take integer tensors only (TF's error otherwise)."""

from __future__ import annotations

import tinytf as tf

from .core import cast, convert_to_tensor
from .dtype_rules import result_type


def _promoted(x, y):
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    dtype = result_type(x.dtype, y.dtype)
    return cast(x, dtype), cast(y, dtype)


def bitwise_and(x, y):
    return tf.bitwise.bitwise_and(*_promoted(x, y))


def bitwise_or(x, y):
    return tf.bitwise.bitwise_or(*_promoted(x, y))


def bitwise_xor(x, y):
    return tf.bitwise.bitwise_xor(*_promoted(x, y))


def bitwise_invert(x):
    return tf.bitwise.invert(convert_to_tensor(x))


def bitwise_not(x):
    return bitwise_invert(x)


def bitwise_left_shift(x, y):
    x = convert_to_tensor(x)
    if not isinstance(y, int):
        x, y = _promoted(x, y)
    return tf.bitwise.left_shift(x, y)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    x = convert_to_tensor(x)
    if not isinstance(y, int):
        x, y = _promoted(x, y)
    return tf.bitwise.right_shift(x, y)


def right_shift(x, y):
    return bitwise_right_shift(x, y)


__all__ = ["bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
           "bitwise_xor", "left_shift", "right_shift"]
