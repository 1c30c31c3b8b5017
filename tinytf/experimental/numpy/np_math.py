"""tnp's elementwise math: binary functions promote both arguments to their NumPy result type first (bool
arguments get NumPy's meaning: add is or, multiply is and); unary float functions turn integers and bools into
float64 (NumPy's sqrt of an int array is float64), the rest keep the dtype."""

from __future__ import annotations

import builtins

import numpy as np

import tinytf as tf

from .np_arrays import array, asarray, promote, promote_float
from .np_dtypes import is_inexact

_builtin_abs = builtins.abs


def _binary(fn, x1, x2):
    a, b = promote(x1, x2)
    return fn(a, b)


def _bool_as(fn_bool, fn):
    return lambda a, b: fn_bool(a, b) if a.dtype == tf.bool else fn(a, b)


def add(x1, x2):
    return _binary(_bool_as(tf.logical_or, tf.add), x1, x2)


def subtract(x1, x2):
    return _binary(tf.subtract, x1, x2)


def multiply(x1, x2):
    return _binary(_bool_as(tf.logical_and, tf.multiply), x1, x2)


def true_divide(x1, x2):
    """x1 / x2 in floats: integers divide to float64 (int8/int16 to float32, TF's truediv), bools to float64."""
    def divide_(a, b):
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
        return tf.math.truediv(a, b)
    return _binary(divide_, x1, x2)


divide = true_divide


def _as_int8_when_bool(fn):
    def apply_(a, b):
        if a.dtype == tf.bool:
            a, b = tf.cast(a, tf.int8), tf.cast(b, tf.int8)
        return fn(a, b)
    return apply_


def floor_divide(x1, x2):
    return _binary(_as_int8_when_bool(tf.math.floordiv), x1, x2)


def mod(x1, x2):
    return _binary(_as_int8_when_bool(tf.math.floormod), x1, x2)


remainder = mod


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    return floor_divide(x1, x2), mod(x1, x2)


def maximum(x1, x2):
    return _binary(_bool_as(tf.logical_or, tf.maximum), x1, x2)


def minimum(x1, x2):
    return _binary(_bool_as(tf.logical_and, tf.minimum), x1, x2)


def clip(a, a_min, a_max):
    """`tnp.clip`: a limited to [a_min, a_max] (one bound may be None), all three promoted together."""
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    a, low, high = promote(a, a_min, a_max)
    shape = tf.broadcast_dynamic_shape(tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(low)), tf.shape(high))
    return tf.clip_by_value(tf.broadcast_to(a, shape), low, high)


def power(x1, x2):
    return _binary(tf.pow, x1, x2)


float_power = power


def arctan2(x1, x2):
    return _binary(tf.math.atan2, x1, x2)


def nextafter(x1, x2):
    return _binary(tf.math.nextafter, x1, x2)


def heaviside(x1, x2):
    """0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0; float64 unless the inputs are floats."""
    a, b = promote(x1, x2)
    y = tf.where(a < 0, tf.zeros([], b.dtype), tf.where(a > 0, tf.ones([], b.dtype), b))
    return y if is_inexact(y.dtype) else tf.cast(y, tf.float64)


def hypot(x1, x2):
    return sqrt(add(square(x1), square(x2)))


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow."""
    x1, x2 = promote_float(x1, x2)
    amax = tf.maximum(x1, x2)
    delta = x1 - x2
    return tf.where(tf.math.is_nan(delta), x1 + x2, amax + tf.math.log1p(tf.exp(-tf.abs(delta))))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2) without overflow."""
    x1, x2 = promote_float(x1, x2)
    amax = tf.maximum(x1, x2)
    delta = x1 - x2
    two = tf.constant(2, x1.dtype)
    return tf.where(tf.math.is_nan(delta), x1 + x2, amax + tf.math.log1p(tf.pow(two, -tf.abs(delta))) / np.log(2))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b| for floats; equality for integers."""
    a, b = promote(a, b)
    if not is_inexact(a.dtype):
        return tf.equal(a, b)
    real = a.dtype.real_dtype
    result = tf.abs(a - b) <= tf.constant(atol, real) + tf.constant(rtol, real) * tf.abs(b)
    if equal_nan:
        result = tf.logical_or(result, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return tf.reduce_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _gcd(a, b):
    if not (a.dtype.is_integer and b.dtype.is_integer):
        raise ValueError("Arguments to gcd must be integers.")
    shape = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
    a, b = tf.abs(tf.broadcast_to(a, shape)), tf.abs(tf.broadcast_to(b, shape))

    def body(x, y):  # Euclid's step where y != 0 (a zero y is replaced by 1 so that mod never divides by zero)
        nonzero = tf.not_equal(y, 0)
        y_safe = tf.where(nonzero, y, tf.ones_like(y))
        x, y = tf.where(nonzero, y, x), tf.where(nonzero, tf.math.floormod(x, y_safe), tf.zeros_like(y))
        return tf.where(x < y, y, x), tf.where(x < y, x, y)

    value, _ = tf.while_loop(lambda x, y: tf.reduce_any(tf.not_equal(y, 0)), body, (a, b))
    return value


def gcd(x1, x2):
    return _binary(_gcd, x1, x2)


def lcm(x1, x2):
    def lcm_(a, b):
        d = _gcd(a, b)
        d_safe = tf.where(tf.equal(d, 0), tf.ones_like(d), d)
        return tf.where(tf.equal(d, 0), tf.zeros_like(d), tf.abs(a) * tf.math.floordiv(tf.abs(b), d_safe))
    return _binary(lcm_, x1, x2)


def _bitwise(fn):
    def apply_(a, b):
        if a.dtype == tf.bool:
            return tf.cast(fn(tf.cast(a, tf.int8), tf.cast(b, tf.int8)), tf.bool)
        return fn(a, b)
    return apply_


def bitwise_and(x1, x2):
    return _binary(_bitwise(tf.bitwise.bitwise_and), x1, x2)


def bitwise_or(x1, x2):
    return _binary(_bitwise(tf.bitwise.bitwise_or), x1, x2)


def bitwise_xor(x1, x2):
    return _binary(_bitwise(tf.bitwise.bitwise_xor), x1, x2)


def bitwise_not(x):
    x = asarray(x)
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


# --- unary ------------------------------------------------------------------------------------------------
def _float(x):
    """x as a tensor, in float64 unless already inexact (TF's `_scalar(..., promote_to_float=True)`)."""
    x = asarray(x)
    return x if is_inexact(x.dtype) else tf.cast(x, tf.float64)


def _float_unary(fn):
    def apply_(x):
        return fn(_float(x))
    return apply_


log = _float_unary(tf.math.log)
exp = _float_unary(tf.exp)
sqrt = _float_unary(tf.sqrt)
ceil = _float_unary(tf.math.ceil)
floor = _float_unary(tf.math.floor)
sin = _float_unary(tf.sin)
cos = _float_unary(tf.cos)
tan = _float_unary(tf.tan)
sinh = _float_unary(tf.sinh)
cosh = _float_unary(tf.cosh)
tanh = _float_unary(tf.tanh)
arcsin = _float_unary(tf.asin)
arccos = _float_unary(tf.acos)
arctan = _float_unary(tf.atan)
arcsinh = _float_unary(tf.asinh)
arccosh = _float_unary(tf.acosh)
arctanh = _float_unary(tf.atanh)
expm1 = _float_unary(tf.math.expm1)
log1p = _float_unary(tf.math.log1p)
isnan = _float_unary(tf.math.is_nan)
isfinite = _float_unary(tf.math.is_finite)
isinf = _float_unary(tf.math.is_inf)


def log2(x):
    # divided by a numpy float64, which NumPy's promotion makes float64 even for float32 x (as TF's tnp does)
    return true_divide(tf.math.log(_float(x)), np.log(2))


def log10(x):
    return true_divide(tf.math.log(_float(x)), np.log(10))


def exp2(x):
    x = _float(x)
    return tf.pow(tf.constant(2, x.dtype), x)


def deg2rad(x):
    return _float(x) * (np.pi / 180.0)


def rad2deg(x):
    return multiply(x, 180.0 / np.pi)


def cbrt(x):
    x = _float(x)
    root = tf.pow(tf.abs(x), tf.constant(1.0 / 3, x.dtype))
    return tf.where(x < 0, -root, root)


def fix(x):
    x = _float(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _float(x)
    pi_x = x * np.pi
    safe = tf.where(tf.equal(x, 0), tf.ones_like(pi_x), pi_x)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(safe) / safe)


def isneginf(x):
    x = _float(x)
    return tf.logical_and(tf.math.is_inf(x), x < 0)


def isposinf(x):
    x = _float(x)
    return tf.logical_and(tf.math.is_inf(x), x > 0)


def abs(x):  # noqa: A001 - NumPy's name
    return tf.abs(asarray(x))


absolute = abs
fabs = abs


def conj(x):
    return tf.math.conj(asarray(x))


conjugate = conj


def negative(x):
    return tf.negative(asarray(x))


def positive(x):
    return asarray(x)


def reciprocal(x):
    return tf.math.reciprocal(asarray(x))


def square(x):
    return tf.square(asarray(x))


def sign(x):
    """-1, 0 or 1 (bool input: its own values, as NumPy, via int)."""
    x = asarray(x)
    if x.dtype.is_complex:
        return tf.math.divide_no_nan(x, tf.cast(tf.abs(x), x.dtype))
    return tf.sign(x)


def signbit(x):
    x = asarray(x)
    if x.dtype == tf.bool:
        return tf.fill(tf.shape(x), False)
    return x < 0


def angle(z, deg=False):
    """The argument of complex z (0 or pi for reals), in degrees with deg."""
    z = _float(z)
    # TF's tnp gives float32 for real input of any width (where(z < 0, pi, 0) of Python floats)
    y = tf.where(z < 0, tf.constant(np.pi, tf.float32), tf.constant(0.0)) if z.dtype.is_floating else tf.math.angle(z)
    return rad2deg(y) if deg else y


def real(val):
    val = asarray(val)
    return tf.math.real(val)


def imag(val):
    val = asarray(val)
    return tf.math.imag(val)


def iscomplex(x):
    return imag(x) != 0


def isreal(x):
    return imag(x) == 0


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


def around(a, decimals=0):
    """Round half to even at `decimals` places: a * 10**decimals rounded, divided back (integers through
    float64, back to their dtype)."""
    a = asarray(a)
    dtype = a.dtype
    work = a if is_inexact(dtype) else tf.cast(a, tf.float64)
    factor = tf.constant(10.0 ** decimals, work.dtype)
    return tf.cast(tf.round(work * factor) / factor, dtype)


round = around  # noqa: A001 - NumPy's name


# --- comparisons and logic ---------------------------------------------------------------------------------
def _comparison(fn, x1, x2, bool_as_int=False):
    a, b = promote(x1, x2)
    if bool_as_int and a.dtype == tf.bool:
        a, b = tf.cast(a, tf.int32), tf.cast(b, tf.int32)
    return fn(a, b)


def equal(x1, x2):
    return _comparison(tf.equal, x1, x2)


def not_equal(x1, x2):
    return _comparison(tf.not_equal, x1, x2)


def greater(x1, x2):
    return _comparison(tf.greater, x1, x2, True)


def greater_equal(x1, x2):
    return _comparison(tf.greater_equal, x1, x2, True)


def less(x1, x2):
    return _comparison(tf.less, x1, x2, True)


def less_equal(x1, x2):
    return _comparison(tf.less_equal, x1, x2, True)


def array_equal(a1, a2):
    """True when a1 and a2 have one shape and equal values."""
    a, b = promote(a1, a2)
    if a.shape.rank is not None and b.shape.rank is not None and (
            a.shape.rank != b.shape.rank or (a.shape.is_fully_defined() and b.shape.is_fully_defined()
                                             and a.shape != b.shape)):
        return tf.constant(False)
    return tf.reduce_all(tf.equal(a, b))


def _logical(fn, x1, x2):
    return fn(array(x1, tf.bool), array(x2, tf.bool))


def logical_and(x1, x2):
    return _logical(tf.logical_and, x1, x2)


def logical_or(x1, x2):
    return _logical(tf.logical_or, x1, x2)


def logical_xor(x1, x2):
    return _logical(tf.math.logical_xor, x1, x2)


def logical_not(x):
    return tf.logical_not(array(x, tf.bool))


__all__ = ["add", "subtract", "multiply", "true_divide", "divide", "floor_divide", "mod", "remainder", "divmod",
           "maximum", "minimum", "clip", "power", "float_power", "arctan2", "nextafter", "heaviside", "hypot",
           "logaddexp", "logaddexp2", "isclose", "allclose", "gcd", "lcm", "bitwise_and", "bitwise_or",
           "bitwise_xor", "bitwise_not", "log", "exp", "sqrt", "ceil", "floor", "sin", "cos", "tan", "sinh",
           "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "expm1", "log1p",
           "isnan", "isfinite", "isinf", "log2", "log10", "exp2", "deg2rad", "rad2deg", "cbrt", "fix", "sinc",
           "isneginf", "isposinf", "abs", "absolute", "fabs", "conj", "conjugate", "negative", "positive",
           "reciprocal", "square", "sign", "signbit", "angle", "real", "imag", "iscomplex", "isreal",
           "iscomplexobj", "isrealobj", "around", "round", "equal", "not_equal", "greater", "greater_equal",
           "less", "less_equal", "array_equal", "logical_and", "logical_or", "logical_xor", "logical_not"]
