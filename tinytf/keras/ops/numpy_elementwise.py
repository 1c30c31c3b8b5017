"""keras.ops.numpy's elementwise functions: arithmetic, powers and logarithms, trigonometry, rounding,
comparisons and logic, floating-point classification, complex parts, with Keras 3's dtype rules."""

from __future__ import annotations

import math as _math

import numpy as np

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import dtype_of, result_type, standardize_dtype
from .numpy_promotion import _binary, _float_input, _operand, _promote, _unary_float

sin = _unary_float("sin", lambda x: tf.sin(x), "Elementwise sine.")


cos = _unary_float("cos", lambda x: tf.cos(x), "Elementwise cosine.")


tan = _unary_float("tan", lambda x: tf.tan(x), "Elementwise tangent.")


arcsin = _unary_float("arcsin", lambda x: tf.asin(x), "Elementwise inverse sine.")


arccos = _unary_float("arccos", lambda x: tf.acos(x), "Elementwise inverse cosine.")


arctan = _unary_float("arctan", lambda x: tf.atan(x), "Elementwise inverse tangent.")


sinh = _unary_float("sinh", lambda x: tf.sinh(x), "Elementwise hyperbolic sine.")


cosh = _unary_float("cosh", lambda x: tf.cosh(x), "Elementwise hyperbolic cosine.")


tanh = _unary_float("tanh", lambda x: tf.tanh(x), "Elementwise hyperbolic tangent.")


arcsinh = _unary_float("arcsinh", lambda x: tf.asinh(x), "Elementwise inverse hyperbolic sine.")


arccosh = _unary_float("arccosh", lambda x: tf.acosh(x), "Elementwise inverse hyperbolic cosine.")


arctanh = _unary_float("arctanh", lambda x: tf.atanh(x), "Elementwise inverse hyperbolic tangent.")


sqrt = _unary_float("sqrt", lambda x: tf.sqrt(x), "Elementwise square root.")


log = _unary_float("log", lambda x: tf.math.log(x), "Elementwise natural logarithm.")


log1p = _unary_float("log1p", lambda x: tf.math.log1p(x), "log(1 + x), accurate for small x.")


log2 = _unary_float("log2", lambda x: tf.math.log(x) / tf.math.log(tf.constant(2.0, x.dtype)), "Base-2 logarithm.")


log10 = _unary_float("log10", lambda x: tf.math.log(x) / tf.math.log(tf.constant(10.0, x.dtype)),
                     "Base-10 logarithm.")


floor = _unary_float("floor", lambda x: tf.floor(x), "Elementwise floor (a float result, as in Keras).")


ceil = _unary_float("ceil", lambda x: tf.math.ceil(x), "Elementwise ceiling (a float result, as in Keras).")


arctan2 = _binary("arctan2", lambda a, b: tf.atan2(a, b),
                  "Elementwise arc tangent of x1 / x2, by quadrant.", extra=(float,),
                  weak=False)


add = _binary("add", lambda a, b: tf.add(a, b), "x1 + x2 with broadcasting.")


subtract = _binary("subtract", lambda a, b: tf.subtract(a, b), "x1 - x2 with broadcasting.")


multiply = _binary("multiply", lambda a, b: tf.multiply(a, b), "x1 * x2 with broadcasting.")


divide = _binary("divide", lambda a, b: tf.divide(a, b), "x1 / x2: true division, a float result.", extra=(float,))


true_divide = _binary("true_divide", lambda a, b: tf.divide(a, b),
                      "x1 / x2: true division, a float result.", extra=(float,))


maximum = _binary("maximum", lambda a, b: tf.maximum(a, b), "The elementwise maximum.")


minimum = _binary("minimum", lambda a, b: tf.minimum(a, b), "The elementwise minimum.")


floor_divide = _binary("floor_divide", lambda a, b: tf.math.floordiv(a, b),
                       "x1 // x2 (rounding toward minus infinity).")


equal = _binary("equal", lambda a, b: tf.equal(a, b), "x1 == x2, elementwise (bool).")


not_equal = _binary("not_equal", lambda a, b: tf.not_equal(a, b), "x1 != x2, elementwise (bool).")


greater = _binary("greater", lambda a, b: tf.greater(a, b), "x1 > x2, elementwise (bool).")


greater_equal = _binary("greater_equal", lambda a, b: tf.greater_equal(a, b), "x1 >= x2, elementwise (bool).")


less = _binary("less", lambda a, b: tf.less(a, b), "x1 < x2, elementwise (bool).")


less_equal = _binary("less_equal", lambda a, b: tf.less_equal(a, b), "x1 <= x2, elementwise (bool).")


def exp(x):
    """e ** x; integer and bool inputs compute in floatx."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) in ("bool",) or "int" in standardize_dtype(x.dtype):
        x = cast(x, config.floatx())
    return tf.exp(x)


def expm1(x):
    """exp(x) - 1, accurate for small x."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) == "bool" or "int" in standardize_dtype(x.dtype):
        x = cast(x, config.floatx())
    return tf.math.expm1(x)


def exp2(x):
    """2 ** x."""
    x = _float_input(x)
    return tf.pow(tf.constant(2.0, x.dtype), x)


def power(x1, x2):
    """x1 ** x2 with Keras' promotion (int ** int stays int)."""
    (a, b), dtype = _promote(x1, x2)
    if "uint" in dtype:
        return cast(tf.pow(cast(a, "int32"), cast(b, "int32")), dtype)
    return tf.pow(a, b)


def mod(x1, x2):
    """The remainder of floor division (sign of x2); bools compute as int32."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(x1.dtype, x2.dtype)
    dtype = "int32" if dtype == "bool" else dtype
    return tf.math.floormod(cast(x1, dtype), cast(x2, dtype))


def fmod(x1, x2):
    """The remainder of truncated division (sign of x1), as C's fmod."""
    (a, b), dtype = _promote(x1, x2, weak=False)
    if "float" not in dtype and tf.executing_eagerly() and bool(tf.reduce_any(tf.equal(b, 0))):
        raise tf.errors.InvalidArgumentError("keras.ops.fmod: Integer division by zero")
    return tf.math.truncatemod(a, b)


def hypot(x1, x2):
    """sqrt(x1**2 + x2**2)."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(x1.dtype, x2.dtype)
    if dtype == "bool":
        raise tf.errors.InvalidArgumentError("keras.ops.hypot: TensorFlow has no Abs kernel for bool inputs.")
    dtype = config.floatx() if dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32") else (
        "float64" if dtype == "int64" else dtype)
    a, b = cast(x1, dtype), cast(x2, dtype)
    return tf.sqrt(tf.square(a) + tf.square(b))


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)), computed without overflow."""
    (a, b), _ = _promote(x1, x2, extra=(float,), weak=False)
    big = tf.maximum(a, b)
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b)))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2)."""
    (a, b), _ = _promote(x1, x2, extra=(float,), weak=False)
    ln2 = tf.constant(_math.log(2.0), a.dtype)
    big = tf.maximum(a, b)
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b) * ln2)) / ln2


def absolute(x):
    """|x|; unsigned and bool inputs are returned as they are."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) == "bool" or "uint" in standardize_dtype(x.dtype):
        return x
    return tf.abs(x)


abs = absolute  # noqa: A001 - Keras' name


def fabs(x):
    """|x| as a float."""
    return tf.abs(_float_input(x))


def negative(x):
    x = convert_to_tensor(x)
    if x.dtype.is_unsigned or x.dtype == tf.bool:
        raise tf.errors.InvalidArgumentError(f"keras.ops.negative: TensorFlow has no Neg kernel for {x.dtype.name}.")
    return tf.negative(x)


def reciprocal(x):
    """1 / x for float tensors (TensorFlow has no integer reciprocal kernel, so ints raise)."""
    x = convert_to_tensor(x)
    if x.dtype == tf.bool or x.dtype.is_unsigned:
        raise tf.errors.InvalidArgumentError(f"keras.ops.reciprocal: no Reciprocal kernel for {x.dtype.name}.")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise tf.errors.NotFoundError(f"keras.ops.reciprocal: TensorFlow has no Reciprocal kernel for "
                                      f"{x.dtype.name} inputs; cast them to a float dtype first.")
    return tf.math.reciprocal(x)


def square(x):
    """x * x; bools compute as int32."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    return tf.square(x)


def sign(x):
    """-1, 0 or 1 by the sign of x (the same dtype)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if name in ("uint8", "uint16", "uint32"):
        return cast(tf.sign(cast(x, "int32")), name)
    return tf.sign(x)


def signbit(x):
    """Whether the sign bit is set (True for -0.0 and negative numbers)."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) == "bool":
        return tf.fill(tf.shape(x), False)
    if "int" in standardize_dtype(x.dtype):
        return x < 0
    return tf.math.logical_or(x < 0, tf.equal(tf.math.reciprocal(x), tf.constant(-np.inf, x.dtype)))


def cbrt(x):
    """The real cube root."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if name == "int64":
        x = cast(x, "float64")
    elif name not in ("bfloat16", "float16", "float64"):
        x = cast(x, config.floatx())
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1.0 / 3.0, x.dtype))


def trunc(x):
    """Rounds toward zero, keeping the dtype."""
    x = convert_to_tensor(x)
    if "float" not in standardize_dtype(x.dtype):
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


def round(x, decimals=0):  # noqa: A001 - Keras' name
    """Half-to-even rounding to `decimals` places (negative decimals round integers to tens, hundreds...)."""
    x = convert_to_tensor(x)
    if decimals == 0:
        return tf.round(x)
    if x.dtype.is_integer:
        if decimals > 0:
            return x
        factor = tf.constant(10.0 ** decimals, config.floatx())
        return cast(tf.round(cast(x, config.floatx()) * factor) / factor, x.dtype)
    factor = tf.constant(10.0 ** decimals, x.dtype)
    return tf.round(x * factor) / factor


def clip(x, x_min, x_max):
    """x limited to [x_min, x_max]; bools compute as int32."""
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    return tf.clip_by_value(x, tf.cast(x_min, x.dtype), tf.cast(x_max, x.dtype))


def heaviside(x1, x2):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0."""
    (a, b), dtype = _promote(x1, x2, weak=False)
    if dtype == "bool":
        raise TypeError("keras.ops.heaviside: bool inputs are not supported.")
    if dtype in ("int8", "int16", "int32", "uint8", "uint16", "uint32"):
        dtype = config.floatx()
    elif dtype == "int64":
        dtype = "float64"
    a, b = cast(a, dtype), cast(b, dtype)
    return tf.where(a < 0, tf.zeros_like(a), tf.where(a > 0, tf.ones_like(a), b + tf.zeros_like(a)))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default: the dtype's max), -inf -> neginf (the dtype's lowest)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(x.dtype.as_numpy_dtype)
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    x = tf.where(tf.equal(x, np.inf), tf.constant(info.max if posinf is None else posinf, x.dtype), x)
    return tf.where(tf.equal(x, -np.inf), tf.constant(info.min if neginf is None else neginf, x.dtype), x)


def isnan(x):
    x = convert_to_tensor(x)
    return tf.math.is_nan(x) if x.dtype.is_floating else tf.zeros(tf.shape(x), "bool")


def isinf(x):
    x = convert_to_tensor(x)
    return tf.math.is_inf(x) if x.dtype.is_floating else tf.zeros(tf.shape(x), "bool")


def isfinite(x):
    x = convert_to_tensor(x)
    return tf.math.is_finite(x) if x.dtype.is_floating else tf.ones(tf.shape(x), "bool")


def isposinf(x):
    x = convert_to_tensor(x)
    return tf.equal(x, np.inf) if x.dtype.is_floating else tf.zeros(tf.shape(x), "bool")


def isneginf(x):
    x = convert_to_tensor(x)
    return tf.equal(x, -np.inf) if x.dtype.is_floating else tf.zeros(tf.shape(x), "bool")


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """|x1 - x2| <= atol + rtol * |x2|, elementwise; infinities equal only themselves."""
    (a, b), dtype = _promote(x1, x2)
    if "float" not in dtype:
        return tf.equal(a, b)
    close = tf.abs(a - b) <= (atol + rtol * tf.abs(b))
    close = tf.logical_or(close, tf.equal(a, b))
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return tf.reduce_all(isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def logical_and(x1, x2):
    return tf.logical_and(cast(x1, "bool"), cast(x2, "bool"))


def logical_or(x1, x2):
    return tf.logical_or(cast(x1, "bool"), cast(x2, "bool"))


def logical_xor(x1, x2):
    return tf.math.logical_xor(cast(x1, "bool"), cast(x2, "bool"))


def logical_not(x):
    return tf.logical_not(cast(x, "bool"))


def view_as_real(x):
    """A complex tensor as real pairs: shape (..., 2) holding (real, imag)."""
    x = convert_to_tensor(x)
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


def view_as_complex(x):
    """Real pairs of shape (..., 2) as one complex tensor."""
    x = convert_to_tensor(x)
    if x.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). Received shape: {x.shape}")
    return tf.complex(x[..., 0], x[..., 1])


def _no_bool(x, name):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        raise TypeError(f"keras.ops.{name}: bool input is not supported (a numeric or complex tensor is).")
    return x


def real(x):
    x = _no_bool(x, "real")
    return tf.math.real(x) if x.dtype.is_complex else x


def imag(x):
    x = convert_to_tensor(x)
    return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)


def conjugate(x):
    x = _no_bool(x, "conjugate")
    return tf.math.conj(x) if x.dtype.is_complex else x


conj = conjugate


def angle(x):
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return tf.math.angle(x)
    x = _float_input(x)
    return tf.where(x < 0, tf.constant(np.pi, x.dtype), tf.zeros_like(x))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _float_input(x)
    px = x * tf.constant(np.pi, x.dtype)
    safe = tf.where(tf.equal(x, 0), tf.ones_like(px), px)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(safe) / safe)


def _degree_input(x):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    return cast(x, "float64" if name == "int64" else (config.floatx() if not x.dtype.is_floating else name))


def deg2rad(x):
    x = _degree_input(x)
    return x * tf.constant(np.pi / 180.0, x.dtype)


def rad2deg(x):
    x = _degree_input(x)
    return x * tf.constant(180.0 / np.pi, x.dtype)


def gcd(x1, x2):
    """The greatest common divisor (integers), by Euclid's loop."""
    (a, b), _ = _promote(x1, x2)
    a, b = tf.abs(a), tf.abs(b)

    def body(a, b):
        safe = tf.where(tf.equal(b, 0), tf.ones_like(b), b)
        return tf.where(tf.equal(b, 0), a, b), tf.where(tf.equal(b, 0), b, tf.math.floormod(a, safe))

    a, b = tf.broadcast_to(a, tf.shape(a + b)), tf.broadcast_to(b, tf.shape(a + b))
    return tf.while_loop(lambda a, b: tf.reduce_any(tf.not_equal(b, 0)), body, (a, b))[0]


def lcm(x1, x2):
    (a, b), _ = _promote(x1, x2)
    g = gcd(a, b)
    safe = tf.where(tf.equal(g, 0), tf.ones_like(g), g)
    return tf.where(tf.equal(g, 0), tf.zeros_like(g), tf.abs(a * b) // safe)


def ldexp(x1, x2):
    """x1 * 2 ** x2 (x2 an integer)."""
    x1 = _operand(x1)
    dtype = result_type(dtype_of(x1), float)
    return convert_to_tensor(x1, dtype) * tf.pow(tf.constant(2.0, dtype), cast(x2, dtype))


def fmax(x1, x2):
    """The elementwise maximum, ignoring NaN where only one side is NaN."""
    (a, b), _ = _promote(x1, x2)
    if not a.dtype.is_floating:
        return tf.maximum(a, b)
    return tf.where(tf.math.is_nan(a), b, tf.where(tf.math.is_nan(b), a, tf.maximum(a, b)))


def fmin(x1, x2):
    (a, b), _ = _promote(x1, x2)
    if not a.dtype.is_floating:
        return tf.minimum(a, b)
    return tf.where(tf.math.is_nan(a), b, tf.where(tf.math.is_nan(b), a, tf.minimum(a, b)))


def divide_no_nan(x1, x2):
    """x1 / x2, with 0 where x2 is 0."""
    (a, b), _ = _promote(x1, x2, extra=(float,))
    return tf.math.divide_no_nan(a, b)


def isreal(x):
    """True where the imaginary part is zero (everywhere for real dtypes)."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return tf.equal(tf.math.imag(x), 0)
    return tf.ones(tf.shape(x), "bool")


_NO_TENSOR_ARGUMENTS = ("ndim", "vectorize", "bartlett", "blackman", "hamming", "hanning", "kaiser", "eye",
                        "identity", "tri", "zeros", "ones", "empty", "full", "arange", "linspace", "logspace",
                        "geomspace")


__all__ = ["abs", "absolute", "add", "allclose", "angle", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
           "arctanh", "cbrt", "ceil", "clip", "conj", "conjugate", "cos", "cosh", "deg2rad", "divide", "divide_no_nan",
           "equal", "exp", "exp2", "expm1", "fabs", "floor", "floor_divide", "fmax", "fmin", "fmod", "gcd", "greater",
           "greater_equal", "heaviside", "hypot", "imag", "isclose", "isfinite", "isinf", "isnan", "isneginf",
           "isposinf", "isreal", "lcm", "ldexp", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp",
           "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod",
           "multiply", "nan_to_num", "negative", "not_equal", "power", "rad2deg", "real", "reciprocal", "round", "sign",
           "signbit", "sin", "sinc", "sinh", "sqrt", "square", "subtract", "tan", "tanh", "true_divide", "trunc",
           "view_as_complex", "view_as_real"]
