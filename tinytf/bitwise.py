"""`tf.bitwise`: and, or, xor, invert and the two shifts of integer tensors (broadcasting, one dtype)."""

from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops import bitwise as _shifts
from tinytf.runtime.ops import math as _m


def bitwise_and(x, y, name=None):
    """x & y elementwise."""
    return _m.binary(_m.bitwise_and_op, x, y, name)


def bitwise_or(x, y, name=None):
    """x | y elementwise."""
    return _m.binary(_m.bitwise_or_op, x, y, name)


def bitwise_xor(x, y, name=None):
    """x ^ y elementwise."""
    return _m.binary(_m.bitwise_xor_op, x, y, name)


def invert(x, name=None):
    """~x elementwise (every bit flipped)."""
    return apply(_m.invert_op, (_m.convert_to_tensor(x),), name=name)


def left_shift(x, y, name=None):
    """x << y elementwise; y is clamped into [0, bits - 1] as TF's CPU kernel does."""
    return _m.binary(_shifts.left_shift_op, x, y, name)


def right_shift(x, y, name=None):
    """x >> y elementwise (arithmetic for signed types); y is clamped into [0, bits - 1] as TF's CPU kernel does."""
    return _m.binary(_shifts.right_shift_op, x, y, name)
