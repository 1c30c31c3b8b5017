"""keras.ops.numpy: NumPy's names and broadcasting with Keras 3's dtype rules (result_type: Python scalars are
weak, integer inputs of float functions become floatx, int64 inputs of them floatx too), composed of tinytf's
public functions so that every op works eagerly, in tf.function, in layers, and has tinytf's gradients."""

from __future__ import annotations

import builtins
import math as _math

import numpy as np

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import dtype_of, result_type, standardize_dtype
from .symbolic import export_all

_abs, _max, _min, _sum, _round = builtins.abs, builtins.max, builtins.min, builtins.sum, builtins.round


# --- dtype helpers -------------------------------------------------------------------------------------------
def _operand(x):
    """Python scalars stay (they are weak for result_type); everything else becomes a tensor."""
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else convert_to_tensor(x)


def _promote(*xs, extra=(), weak=True):
    """The operands as tensors of their Keras result type (with `extra` dtypes, e.g. float, in the promotion).
    weak=False converts Python scalars to tensors first (int32, float32), as the Keras functions that call
    convert_to_tensor before promoting do."""
    xs = [_operand(x) if weak else convert_to_tensor(x) for x in xs]
    dtype = result_type(*(dtype_of(x) for x in xs), *extra)
    return [convert_to_tensor(x, dtype) for x in xs], dtype


def _float_input(x):
    """x as the float dtype Keras' float functions compute in: int64 -> floatx, else result_type(x, float)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    dtype = config.floatx() if name == "int64" else result_type(name, float)
    return cast(x, dtype)


def _unary_float(name, fn, doc):
    def op(x):
        return fn(_float_input(x))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _binary(name, fn, doc, extra=(), weak=True):
    def op(x1, x2):
        (a, b), _ = _promote(x1, x2, extra=extra, weak=weak)
        return fn(a, b)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


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


# --- creation ------------------------------------------------------------------------------------------------
def _shape_arg(shape):
    return [shape] if isinstance(shape, int) else shape


def zeros(shape, dtype=None):
    return tf.zeros(_shape_arg(shape), standardize_dtype(dtype))


def ones(shape, dtype=None):
    return tf.ones(_shape_arg(shape), standardize_dtype(dtype))


def empty(shape, dtype=None):
    """Keras' empty is zeros (backends give no uninitialized memory)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    dtype = standardize_dtype(dtype)  # None is floatx, whatever fill_value is
    return tf.broadcast_to(convert_to_tensor(fill_value, dtype), _shape_arg(shape))


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.zeros(tf.shape(x), standardize_dtype(dtype or x.dtype))


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.ones(tf.shape(x), standardize_dtype(dtype or x.dtype))


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    dtype = standardize_dtype(dtype or x.dtype)
    return tf.broadcast_to(convert_to_tensor(fill_value, dtype), tf.shape(x))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - NumPy's names
    """An N x M matrix with ones on the k-th diagonal."""
    M = N if M is None else M
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return cast(tf.equal(cols - rows, k), standardize_dtype(dtype))


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """Ones at and below the k-th diagonal."""
    M = N if M is None else M
    return cast(tf.range(M)[None, :] <= tf.range(N)[:, None] + k, standardize_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop); the dtype from Keras' promotion of the arguments."""
    if dtype is None:
        dtype = result_type(*(dtype_of(a) for a in (start, stop, step) if a is not None))
    dtype = standardize_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    return tf.range(start, stop, step, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """num evenly spaced values from start to stop (with or without stop); retstep adds the spacing."""
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    compute = "float64" if dtype in ("float64", "int64") else "float32"
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    divisions = (num - 1) if endpoint else num
    step = (stop - start) / tf.constant(divisions if divisions > 0 else 1, compute)
    steps = tf.range(num, dtype=compute)
    steps = tf.reshape(steps, [-1] + [1] * len(start.shape))
    result = start[None] + steps * step[None]
    if endpoint and num > 1:
        result = tf.concat([result[:-1], stop[None]], axis=0)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    if dtype != compute:
        result = cast(tf.floor(result) if "int" in dtype else result, dtype)
    if retstep:
        return result, cast(step if divisions > 0 else tf.constant(np.nan, compute), dtype)
    return result


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """base ** linspace(start, stop)."""
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    exponents = linspace(start, stop, num, endpoint=endpoint, dtype="float64" if dtype == "float64" else "float32",
                         axis=axis)
    return cast(tf.pow(tf.constant(float(base), exponents.dtype), exponents), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale from start to stop."""
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    compute = "float64" if dtype == "float64" else "float32"
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    exps = linspace(tf.math.log(tf.abs(start)), tf.math.log(tf.abs(stop)), num, endpoint=endpoint, dtype=compute)
    result = tf.sign(start) * tf.exp(exps)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return cast(result, dtype)


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def copy(x):
    return tf.identity(convert_to_tensor(x))


def meshgrid(*x, indexing="xy"):
    return tf.meshgrid(*[convert_to_tensor(v) for v in x], indexing=indexing)


# --- reductions ----------------------------------------------------------------------------------------------
def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def sum(x, axis=None, keepdims=False):  # noqa: A001
    """The sum; bool and small ints accumulate in int32, small unsigned in uint32 (as jax)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if name in ("bool", "int8", "int16"):
        x = cast(x, "int32")
    elif name in ("uint8", "uint16"):
        x = cast(x, "uint32")
    return tf.reduce_sum(x, axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    if dtype is None:
        name = standardize_dtype(x.dtype)
        dtype = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(
            name, name)
    return tf.reduce_prod(cast(x, dtype), axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """The mean, in float (integers average as floatx, float16 accumulates in float32)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    out_dtype = config.floatx() if name == "int64" else result_type(name, float)
    compute = result_type(out_dtype, "float32")
    return cast(tf.reduce_mean(cast(x, compute), axis=_axis(axis), keepdims=keepdims), out_dtype)


def var(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    compute, out = result_type(x.dtype, "float32"), result_type(x.dtype, float)
    return cast(tf.math.reduce_variance(cast(x, compute), axis=_axis(axis), keepdims=keepdims), out)


def std(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if "int" in name or name == "bool":
        x = cast(x, config.floatx())
    return tf.math.reduce_std(x, axis=_axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    """The maximum; `initial` joins the comparison; an empty reduction without it is an error."""
    x = convert_to_tensor(x)
    if initial is None and 0 in [d for d in x.shape if d is not None] and axis is None:
        raise tf.errors.InvalidArgumentError("Cannot compute the max of an empty tensor.")
    if x.dtype == tf.bool:
        out = tf.reduce_any(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else tf.logical_or(out, bool(initial))
    out = tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else tf.maximum(out, tf.cast(initial, out.dtype))


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = convert_to_tensor(x)
    if initial is None and 0 in [d for d in x.shape if d is not None] and axis is None:
        raise tf.errors.InvalidArgumentError("Cannot compute the min of an empty tensor.")
    if x.dtype == tf.bool:
        out = tf.reduce_all(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else tf.logical_and(out, bool(initial))
    out = tf.reduce_min(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else tf.minimum(out, tf.cast(initial, out.dtype))


amax, amin = max, min


def all(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_all(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_any(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def ptp(x, axis=None, keepdims=False):
    """max - min along axis."""
    x = convert_to_tensor(x)
    return tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims) - tf.reduce_min(x, axis=_axis(axis),
                                                                                 keepdims=keepdims)


def average(x, axis=None, weights=None):
    """The (weighted) mean along axis; 1-D weights apply along that axis."""
    x = convert_to_tensor(x)
    if weights is None:
        x = cast(x, result_type(x.dtype, float))
        return tf.reduce_mean(x, axis=axis)
    weights = convert_to_tensor(weights)
    dtype = result_type(x.dtype, weights.dtype, float)
    x, weights = cast(x, dtype), cast(weights, dtype)
    if axis is None or len(weights.shape) == len(x.shape):
        return tf.reduce_sum(x * weights, axis=axis) / tf.reduce_sum(weights, axis=axis)
    shape = [1] * len(x.shape)
    shape[axis] = -1
    return tf.reduce_sum(x * tf.reshape(weights, shape), axis=axis) / tf.reduce_sum(weights)


def count_nonzero(x, axis=None):
    """The number of non-zero elements (int32, as Keras' TF backend)."""
    return cast(tf.math.count_nonzero(convert_to_tensor(x), axis=_axis(axis)), "int32")


def argmax(x, axis=None, keepdims=False):
    """Index of the (first) maximum, int32; axis None searches the flattened tensor."""
    return _arg_reduce(tf.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_reduce(tf.argmin, x, axis, keepdims)


def _arg_reduce(fn, x, axis, keepdims):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        x = cast(x, "int32")
    if axis is None:
        out = fn(tf.reshape(x, [-1]), axis=0, output_type="int32")
        return tf.reshape(out, [1] * len(x.shape)) if keepdims else out
    out = fn(x, axis=axis, output_type="int32")
    return tf.expand_dims(out, axis) if keepdims else out


def cumsum(x, axis=None, dtype=None):
    x = convert_to_tensor(x, dtype=dtype)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=None, dtype=None):
    x = convert_to_tensor(x, dtype=dtype)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.math.cumprod(x, axis=axis)


def _nan_masked(x, fill):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return x
    return tf.where(tf.math.is_nan(x), tf.constant(fill, x.dtype), x)


def nansum(x, axis=None, keepdims=False):
    return sum(_nan_masked(x, 0.0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(_nan_masked(x, 1.0), axis=axis, keepdims=keepdims)


def nanmax(x, axis=None, keepdims=False):
    """The maximum ignoring NaN (NaN where a slice is all NaN)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return max(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_max(_nan_masked(x, -np.inf), axis=_axis(axis), keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(np.nan, x.dtype), out)


def nanmin(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return min(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_min(_nan_masked(x, np.inf), axis=_axis(axis), keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(np.nan, x.dtype), out)


def nanmean(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return mean(x, axis=axis, keepdims=keepdims)
    valid = cast(tf.logical_not(tf.math.is_nan(x)), x.dtype)
    return tf.reduce_sum(_nan_masked(x, 0.0), axis=_axis(axis), keepdims=keepdims) / tf.reduce_sum(
        valid, axis=_axis(axis), keepdims=keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return var(x, axis=axis, keepdims=keepdims)
    centered = x - nanmean(x, axis=axis, keepdims=True)
    return nanmean(centered * centered, axis=axis, keepdims=keepdims)


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def nancumsum(x, axis=None, dtype=None):
    return cumsum(_nan_masked(x, 0.0), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(_nan_masked(x, 1.0), axis=axis, dtype=dtype)


# --- shapes and indexing -------------------------------------------------------------------------------------
def reshape(x, newshape):
    return tf.reshape(convert_to_tensor(x), [newshape] if isinstance(newshape, int) else newshape)


def ravel(x):
    return tf.reshape(convert_to_tensor(x), [-1])


def transpose(x, axes=None):
    return tf.transpose(convert_to_tensor(x), perm=axes)


def swapaxes(x, axis1, axis2):
    x = convert_to_tensor(x)
    perm = list(range(len(x.shape)))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(x, perm)


def moveaxis(x, source, destination):
    """x with the axes `source` moved to `destination`, the others in their order."""
    x = convert_to_tensor(x)
    rank = len(x.shape)
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    source, destination = [s % rank for s in source], [d % rank for d in destination]
    order = [a for a in range(rank) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return tf.transpose(x, order)


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    for a in sorted([axis] if isinstance(axis, int) else [a % (len(x.shape) + len(axis)) for a in axis]):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if isinstance(axis, int):
        axis = [axis]
    if axis is not None:
        for a in axis:
            if x.shape[a] is not None and x.shape[a] != 1:
                raise ValueError(f"Cannot squeeze axis {a}, because the dimension is not 1.")
    return tf.squeeze(x, axis=axis)


def broadcast_to(x, shape):
    return tf.broadcast_to(convert_to_tensor(x), shape)


def concatenate(xs, axis=0):
    xs = [convert_to_tensor(x) for x in xs]
    dtype = result_type(*(x.dtype for x in xs))
    if axis is None:
        xs, axis = [tf.reshape(x, [-1]) for x in xs], 0
    return tf.concat([cast(x, dtype) for x in xs], axis=axis)


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    xs = [convert_to_tensor(v) for v in x]
    dtype = result_type(*(v.dtype for v in xs))
    return tf.stack([cast(v, dtype) for v in xs], axis=axis)


def hstack(xs):
    xs = [convert_to_tensor(x) for x in xs]
    return concatenate(xs, axis=0 if len(xs[0].shape) == 1 else 1)


def vstack(xs):
    """The tensors joined along axis 0 (1-D ones stay 1-D: Keras' TensorFlow backend concatenates them)."""
    return concatenate(xs, axis=0)


def dstack(xs):
    def at_least_3d(x):
        x = convert_to_tensor(x)
        if len(x.shape) == 1:
            return tf.reshape(x, [1, -1, 1])
        if len(x.shape) == 2:
            return tf.expand_dims(x, -1)
        return x
    return concatenate([at_least_3d(x) for x in xs], axis=2)


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int that must divide the axis) or pieces cut at the given indices."""
    x = convert_to_tensor(x)
    if isinstance(indices_or_sections, int):
        return tf.split(x, indices_or_sections, axis=axis)
    n = x.shape[axis]
    bounds = [0, *indices_or_sections, n]
    return tf.split(x, [b - a for a, b in zip(bounds[:-1], bounds[1:])], axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Like split with an int, but the sections may differ by one (the first ones longer)."""
    x = convert_to_tensor(x)
    n = x.shape[axis]
    k = indices_or_sections
    sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    return tf.split(x, sizes, axis=axis)


def hsplit(x, indices_or_sections):
    x = convert_to_tensor(x)
    return split(x, indices_or_sections, axis=0 if len(x.shape) == 1 else 1)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=2)


def tile(x, repeats):
    x = convert_to_tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    if len(repeats) < len(x.shape):
        repeats = [1] * (len(x.shape) - len(repeats)) + repeats
    elif len(repeats) > len(x.shape):
        x = tf.reshape(x, tf.concat([tf.ones([len(repeats) - len(x.shape)], "int32"), tf.shape(x)], 0))
    return tf.tile(x, repeats)


def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times (an int, or one count per element) along axis."""
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    axis = axis % len(x.shape)
    n = x.shape[axis] if x.shape[axis] is not None else tf.shape(x)[axis]
    counts = tf.broadcast_to(convert_to_tensor(repeats, "int32"), [n])
    ends = tf.cumsum(counts)
    positions = tf.range(ends[-1])
    index = tf.searchsorted(ends, positions, side="right")
    return tf.gather(x, index, axis=axis)


def flip(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        axis = list(range(len(x.shape)))
    return tf.reverse(x, [axis] if isinstance(axis, int) else list(axis))


def fliplr(x):
    return flip(x, 1)


def flipud(x):
    return flip(x, 0)


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def rot90(array, k=1, axes=(0, 1)):
    """array rotated by 90 degrees k times in the plane of `axes` (counter-clockwise from axes[0] to axes[1])."""
    x = convert_to_tensor(array)
    k = k % 4
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, axes[0]), axes[1])
    perm = list(range(len(x.shape)))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return tf.transpose(flip(x, axes[1]), perm)
    return flip(tf.transpose(x, perm), axes[1])


def take(x, indices, axis=None):
    """Elements of x at indices (negative ones count from the end); axis None takes from the flattened x."""
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        indices = cast(indices, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    n = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + n, indices)
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    """x's elements at indices along axis, the other axes broadcast (numpy's take_along_axis)."""
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    rank = len(x.shape)
    axis = axis % rank
    n = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + n, indices)
    x_shape, i_shape = list(x.shape), list(indices.shape)
    out_shape = [i_shape[a] if a == axis else (_max(x_shape[a], i_shape[a])) for a in range(rank)]
    x = tf.broadcast_to(x, [x_shape[a] if a == axis else out_shape[a] for a in range(rank)])
    indices = tf.broadcast_to(indices, out_shape)
    grids = tf.meshgrid(*[tf.range(d) for d in out_shape], indexing="ij")
    coords = [cast(indices, "int32") if a == axis else grids[a] for a in range(rank)]
    return tf.gather_nd(x, tf.stack(coords, axis=-1))


def get_item(x, key):
    return convert_to_tensor(x)[key]


def where(condition, x1=None, x2=None):
    """x1 where condition else x2 (promoted as Keras does); with only condition, the indices of its true
    elements, one int64... (int32 here as TF's backend returns) vector per axis."""
    condition = cast(condition, "bool")
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have non-None value.")
    (a, b), _ = _promote(x1, x2)
    return tf.where(condition, a, b)


def nonzero(x):
    """One int32 index vector per axis for the non-zero elements of x (row-major order)."""
    x = convert_to_tensor(x)
    found = tf.where(cast(x, "bool"))
    return [cast(found[:, i], "int32") for i in range(len(x.shape))]


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else default."""
    choices = [convert_to_tensor(c) for c in choicelist]
    dtype = result_type(*(c.dtype for c in choices), dtype_of(default))
    out = tf.broadcast_to(convert_to_tensor(default, dtype), tf.shape(choices[0]))
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = tf.where(cast(cond, "bool"), cast(choice, dtype), out)
    return out


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The offset diagonal of the (axis1, axis2) planes, as the last axis."""
    x = moveaxis(convert_to_tensor(x), [axis1, axis2], [-2, -1])
    rows, cols = x.shape[-2], x.shape[-1]
    start_r, start_c = _max(0, -offset), _max(0, offset)
    length = _max(0, _min(rows - start_r, cols - start_c))
    idx = tf.range(length)
    coords = tf.stack([idx + start_r, idx + start_c], axis=-1)
    lead = len(x.shape) - 2
    x = moveaxis(x, [-2, -1], [0, 1])
    out = tf.gather_nd(x, coords)
    return moveaxis(out, 0, -1) if lead else out


def diag(x, k=0):
    """A 1-D x as the k-th diagonal of a square matrix; a 2-D x's k-th diagonal."""
    x = convert_to_tensor(x)
    if len(x.shape) == 1:
        n = x.shape[0] + _abs(k)
        rows = tf.range(x.shape[0]) + _max(0, -k)
        cols = tf.range(x.shape[0]) + _max(0, k)
        return tf.scatter_nd(tf.stack([rows, cols], axis=-1), x, [n, n])
    if len(x.shape) == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"`x` must be 1-D or 2-D. Received: x.shape={tuple(x.shape)}")


def diagflat(x, k=0):
    return diag(ravel(x), k)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    out_dtype = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(
        name, name)
    return tf.reduce_sum(cast(diagonal(x, offset, axis1, axis2), out_dtype), axis=-1)


def tril(x, k=0):
    """x with the elements above the k-th diagonal zeroed."""
    x = convert_to_tensor(x)
    rows, cols = tf.shape(x)[-2], tf.shape(x)[-1]
    keep = tf.range(cols)[None, :] <= tf.range(rows)[:, None] + k
    return tf.where(keep, x, tf.zeros_like(x))


def triu(x, k=0):
    x = convert_to_tensor(x)
    rows, cols = tf.shape(x)[-2], tf.shape(x)[-1]
    keep = tf.range(cols)[None, :] >= tf.range(rows)[:, None] + k
    return tf.where(keep, x, tf.zeros_like(x))


def pad(x, pad_width, mode="constant", constant_values=None):
    """numpy.pad's constant, reflect and symmetric modes."""
    x = convert_to_tensor(x)
    widths = np.broadcast_to(np.asarray(pad_width), (len(x.shape), 2)).tolist()
    if mode != "constant" and constant_values is not None:
        raise ValueError("Argument `constant_values` can only be provided when `mode == 'constant'`. "
                         f"Received: mode={mode}")
    kwargs = {"constant_values": constant_values} if constant_values is not None else {}
    return tf.pad(x, widths, mode=mode.upper(), **kwargs)


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        return cast(tf.sort(cast(x, "int32"), axis=axis), "bool")
    return tf.sort(x, axis=axis)


def argsort(x, axis=-1):
    """The indices that sort x (stable), int32."""
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "uint8")
    return tf.argsort(x, axis=axis, stable=True)


def argpartition(x, kth, axis=-1):
    """Indices that put the kth element where a sort would, smaller ones before it (here: a full stable sort,
    which is one valid partition)."""
    return argsort(x, axis=axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = convert_to_tensor(sorted_sequence), convert_to_tensor(values)
    dtype = result_type(sorted_sequence.dtype, values.dtype)
    return tf.searchsorted(cast(sorted_sequence, dtype), cast(values, dtype), side=side, out_type="int32")


def digitize(x, bins):
    """The index of the bin each x falls in (bins increasing: bins[i-1] <= x < bins[i])."""
    x, bins = convert_to_tensor(x), convert_to_tensor(bins)
    dtype = result_type(x.dtype, bins.dtype)
    flat = tf.reshape(cast(x, dtype), [-1])
    out = tf.searchsorted(cast(bins, dtype), flat, side="right", out_type="int32")
    return tf.reshape(out, tf.shape(x))


def unravel_index(indices, shape):
    """Flat indices as one coordinate tensor per dimension of `shape`."""
    indices = convert_to_tensor(indices)
    coords = []
    for dim in reversed(shape):
        coords.append(indices % dim)
        indices = indices // dim
    return tuple(reversed(coords))


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts of each non-negative int in x (weighted sums with weights)."""
    x = convert_to_tensor(x)
    dtype = "int32" if weights is None else result_type(convert_to_tensor(weights).dtype)
    if weights is not None:
        weights = convert_to_tensor(weights, dtype)
    return tf.math.bincount(cast(x, "int32"), weights=weights, minlength=minlength, dtype=dtype)


def unique(x, sorted=True, return_inverse=False, return_counts=False, axis=None, size=None,  # noqa: A002
           fill_value=None):
    """The distinct values of the flattened x, sorted (with the inverse map and counts if asked)."""
    x = tf.reshape(convert_to_tensor(x), [-1])
    values, idx, counts = tf.unique_with_counts(x)
    if sorted:
        order = tf.argsort(values, stable=True)
        rank = tf.scatter_nd(order[:, None], tf.range(tf.size(order)), tf.shape(order))
        values, counts, idx = tf.gather(values, order), tf.gather(counts, order), tf.gather(rank, idx)
    out = [values] + ([idx] if return_inverse else []) + ([counts] if return_counts else [])
    return out[0] if len(out) == 1 else tuple(out)


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each element of x1 occurs in x2."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(x1.dtype, x2.dtype)
    found = tf.reduce_any(tf.equal(cast(x1, dtype)[..., None], tf.reshape(cast(x2, dtype), [-1])), axis=-1)
    return tf.logical_not(found) if invert else found


def histogram(x, bins=10, range=None):  # noqa: A002
    """Counts of x in `bins` equal-width bins over range (default: x's min and max); returns (counts, edges)."""
    x = convert_to_tensor(x)
    if len(x.shape) != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(x.shape)}")
    if range is None:
        lo, hi = tf.reduce_min(x), tf.reduce_max(x)
    else:
        lo, hi = tf.constant(range[0], x.dtype), tf.constant(range[1], x.dtype)
    edges = linspace(lo, hi, bins + 1, dtype=standardize_dtype(x.dtype))
    inside = tf.logical_and(x >= lo, x <= hi)
    index = tf.searchsorted(edges, tf.boolean_mask(x, inside), side="right") - 1
    index = tf.clip_by_value(index, 0, bins - 1)
    counts = tf.math.bincount(cast(index, "int32"), minlength=bins, maxlength=bins)
    return cast(counts, x.dtype), edges


# --- linear algebra in numpy's names -------------------------------------------------------------------------
def matmul(x1, x2):
    """Matrix product with numpy's rules (1-D operands are vectors; ints and bools promote as Keras does)."""
    a, b = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(a.dtype, b.dtype)
    if standardize_dtype(a.dtype) == "int8" and standardize_dtype(b.dtype) == "int8" and len(a.shape) != 1 and \
            len(b.shape) != 1:
        dtype = "int32"  # Keras' int8 x int8 -> int32 matmul
    compute = result_type(dtype, float)
    a, b = cast(a, compute), cast(b, compute)
    squeeze_a, squeeze_b = len(a.shape) == 1, len(b.shape) == 1
    if squeeze_a:
        a = a[None, :]
    if squeeze_b:
        b = b[:, None]
    out = tf.matmul(a, b)
    if squeeze_a:
        out = tf.squeeze(out, -2)
    if squeeze_b:
        out = tf.squeeze(out, -1)
    return cast(tf.round(out) if "float" not in dtype and dtype != "bool" else out, dtype)


def dot(x1, x2):
    """numpy.dot: a product for scalars, matmul for matrices, a sum over the last axis of x1 and the
    second-to-last of x2 otherwise."""
    a, b, dtype = _float_compute(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        out = a * b
    elif len(b.shape) == 1:
        out = tf.tensordot(a, b, [[len(a.shape) - 1], [0]])
    else:
        out = tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])
    return _back(out, dtype)


def _float_compute(x1, x2):
    """Both operands in the float type Keras computes products in, and the result type to cast back to."""
    a, b = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(a.dtype, b.dtype)
    compute = result_type(dtype, float)
    return cast(a, compute), cast(b, compute), dtype


def _back(out, dtype):
    if dtype == "bool":
        return tf.not_equal(out, 0)
    return cast(out if "float" in dtype else tf.round(out), dtype)


def vdot(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.reduce_sum(tf.reshape(a, [-1]) * tf.reshape(b, [-1])), dtype)


def inner(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return _back(a * b, dtype)
    return _back(tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]]), dtype)


def outer(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1]), dtype)


def tensordot(x1, x2, axes=2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.tensordot(a, b, axes), dtype)


def einsum(subscripts, *operands, **kwargs):
    operands = [convert_to_tensor(o) for o in operands]
    dtype = result_type(*(o.dtype for o in operands))
    return tf.einsum(subscripts, *[cast(o, dtype) for o in operands])


def kron(x1, x2):
    """The Kronecker product."""
    (a, b), _ = _promote(x1, x2)
    rank = _max(len(a.shape), len(b.shape))
    a = tf.reshape(a, [1] * (rank - len(a.shape)) + list(a.shape))
    b = tf.reshape(b, [1] * (rank - len(b.shape)) + list(b.shape))
    a_exp = tf.reshape(a, [d for s in a.shape for d in (s, 1)])
    b_exp = tf.reshape(b, [d for s in b.shape for d in (1, s)])
    return tf.reshape(a_exp * b_exp, [p * q for p, q in zip(a.shape, b.shape)])


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors count as z = 0)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    (a, b), _ = _promote(x1, x2)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] == 2:
        a = tf.pad(a, [[0, 0]] * (len(a.shape) - 1) + [[0, 1]])
    if b.shape[-1] == 2:
        b = tf.pad(b, [[0, 0]] * (len(b.shape) - 1) + [[0, 1]])
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(out, -1, axisc)


def vander(x, N=None, increasing=False):  # noqa: N803
    x = convert_to_tensor(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n, dtype=x.dtype)
    if not increasing:
        powers = tf.reverse(powers, [0])
    return tf.pow(x[:, None], powers[None, :])


def diff(a, n=1, axis=-1):
    """The n-th discrete difference along axis."""
    x = convert_to_tensor(a)
    for _ in builtins.range(n):
        rank = len(x.shape)
        ax = axis % rank
        head = [slice(None)] * rank
        tail = [slice(None)] * rank
        head[ax], tail[ax] = slice(1, None), slice(None, -1)
        x = x[tuple(head)] - x[tuple(tail)]
    return x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y by the trapezoidal rule."""
    y = _float_input(y)
    rank = len(y.shape)
    ax = axis % rank
    lo = [slice(None)] * rank
    hi = [slice(None)] * rank
    lo[ax], hi[ax] = slice(None, -1), slice(1, None)
    avg = (y[tuple(lo)] + y[tuple(hi)]) / 2.0
    if x is None:
        return tf.reduce_sum(avg, axis=ax) * tf.constant(dx, y.dtype)
    x = cast(x, y.dtype)
    spacing = diff(x, axis=axis if len(x.shape) > 1 else 0)
    if len(x.shape) == 1 and rank > 1:
        shape = [1] * rank
        shape[ax] = -1
        spacing = tf.reshape(spacing, shape)
    return tf.reduce_sum(avg * spacing, axis=ax)


def correlate(x1, x2, mode="valid"):
    """The cross-correlation of two 1-D sequences (numpy's modes valid, same, full)."""
    (a, b), dtype = _promote(x1, x2)
    dtype = config.floatx() if "int" in dtype or dtype == "bool" else dtype
    a, b = cast(a, dtype), cast(b, dtype)
    n, m = a.shape[0], b.shape[0]
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of ['full', 'same', 'valid'], got {mode!r}")
    padded = tf.pad(a, [[m - 1, m - 1]])
    length = n + m - 1
    full = tf.reduce_sum(tf.stack([padded[i:i + length] for i in builtins.range(m)], axis=0) * b[:, None], axis=0)
    if mode == "full":
        return full
    keep = _max(n, m) if mode == "same" else _max(n, m) - _min(n, m) + 1
    start = (length - keep) // 2
    return full[start:start + keep]


def corrcoef(x):
    """The Pearson correlation coefficients of the rows of x."""
    x = convert_to_tensor(x)
    x = cast(x, config.floatx() if not x.dtype.is_floating else x.dtype)
    centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
    cov = tf.matmul(centered, centered, transpose_b=True)
    d = tf.sqrt(tf.linalg.diag_part(cov))
    return tf.clip_by_value(cov / d[:, None] / d[None, :], -1.0, 1.0)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) along axis, with numpy's interpolation methods."""
    return _quantile(x, q, axis, method, keepdims, ignore_nan=False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """quantile over the non-NaN values of each slice (NaN where a slice has none)."""
    return _quantile(x, q, axis, method, keepdims, ignore_nan=True)


def _quantile(x, q, axis, method, keepdims, ignore_nan):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    dtype = config.floatx() if name == "int64" else result_type(name, float)
    x = cast(x, dtype)
    q = convert_to_tensor(q, dtype)
    rank = len(x.shape)
    if axis is None:
        flat, keep_shape = tf.reshape(x, [1, -1]), [1] * rank
    else:
        axes = [a % rank for a in ([axis] if isinstance(axis, int) else axis)]
        other = [a for a in builtins.range(rank) if a not in axes]
        moved = tf.transpose(x, other + axes)
        flat = tf.reshape(moved, [x.shape[a] for a in other] + [-1])
        keep_shape = [1 if a in axes else x.shape[a] for a in builtins.range(rank)]
    nan = tf.math.is_nan(flat)
    if ignore_nan:
        # NaNs sort last as +inf; each slice's quantile positions count its valid values only
        sorted_x = tf.sort(tf.where(nan, tf.constant(np.inf, dtype), flat), axis=-1)
        n = tf.reduce_sum(cast(tf.logical_not(nan), dtype), axis=-1, keepdims=True)
    else:
        sorted_x = tf.sort(flat, axis=-1)
        n = tf.ones_like(sorted_x[..., :1]) * tf.cast(tf.shape(sorted_x)[-1], dtype)
    pos = tf.reshape(q, [-1]) * tf.maximum(n - 1.0, 0.0)  # (..., number of q)
    lo_i, hi_i = tf.floor(pos), tf.math.ceil(pos)
    lo_v = take_along_axis(sorted_x, cast(lo_i, "int32"), axis=-1)
    hi_v = take_along_axis(sorted_x, cast(hi_i, "int32"), axis=-1)
    if method == "linear":
        out = lo_v + (hi_v - lo_v) * (pos - lo_i)
    elif method == "lower":
        out = lo_v
    elif method == "higher":
        out = hi_v
    elif method == "midpoint":
        out = (lo_v + hi_v) / 2.0
    elif method == "nearest":
        out = take_along_axis(sorted_x, cast(tf.round(pos), "int32"), axis=-1)
    else:
        raise ValueError(f"Invalid value for `method`: {method}")
    empty = tf.equal(n, 0.0) if ignore_nan else tf.reduce_any(nan, axis=-1, keepdims=True)
    out = tf.where(tf.broadcast_to(empty, tf.shape(out)), tf.constant(np.nan, dtype), out)
    if axis is None:
        out = out[0]
    out = moveaxis(out, -1, 0)  # the q axis first, as numpy puts it
    if keepdims:
        out = tf.reshape(out, [-1] + keep_shape)
    if len(q.shape) == 0:
        out = out[0]
    return out


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, convert_to_tensor(q, "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return nanquantile(x, convert_to_tensor(q, "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


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


def ndim(x):
    return len(convert_to_tensor(x).shape)


def size(x):
    return tf.size(convert_to_tensor(x))


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


def nanargmax(x, axis=None, keepdims=False):
    """argmax ignoring NaN (-1 where a slice is all NaN, as Keras' backends give)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return argmax(x, axis=axis, keepdims=keepdims)
    out = argmax(_nan_masked(x, -np.inf), axis=axis, keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(-1, out.dtype), out)


def nanargmin(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return argmin(x, axis=axis, keepdims=keepdims)
    out = argmin(_nan_masked(x, np.inf), axis=axis, keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(-1, out.dtype), out)


def slogdet(x):
    """(sign, log|det|) of each square matrix."""
    return tuple(tf.linalg.slogdet(_float_input(x)))


def vectorize(pyfunc, *, excluded=None, signature=None):
    """pyfunc mapped over the leading axis of its tensor arguments (tf.vectorized_map), as Keras' backends
    vectorize; only the signature-free form."""
    if excluded or signature:
        raise NotImplementedError("keras.ops.vectorize: `excluded` and `signature` are not supported by tinytf.")

    def wrapped(*args):
        return tf.vectorized_map(lambda xs: pyfunc(*xs), tuple(convert_to_tensor(a) for a in args))
    return wrapped


def _window(name, fn):
    def op(x):
        n = int(x)
        return convert_to_tensor(fn(n).astype(np.float32))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"numpy.{name}(x) as a float32 tensor."
    return op


bartlett = _window("bartlett", np.bartlett)
blackman = _window("blackman", np.blackman)
hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)


def kaiser(x, beta):
    return convert_to_tensor(np.kaiser(int(x), beta).astype(np.float32))


__all__ = sorted(n for n, v in list(globals().items()) if callable(v) and not n.startswith("_") and
                 getattr(v, "__module__", None) == __name__ and n not in ("annotations",))
__all__ = [n for n in __all__ if n not in ("cast", "convert_to_tensor", "dtype_of", "result_type",
                                           "standardize_dtype", "export_all")]
__all__ += ["abs", "amax", "amin", "conj", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
            "arcsinh", "arccosh", "arctanh", "sqrt", "log", "log1p", "log2", "log10", "floor", "ceil",
            "arctan2", "add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum",
            "floor_divide", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "bartlett",
            "blackman", "hamming", "hanning"]
# Functions without tensor arguments never see a KerasTensor; the rest also build Functional-model nodes.
_NO_TENSOR_ARGUMENTS = ("ndim", "vectorize", "bartlett", "blackman", "hamming", "hanning", "kaiser", "eye",
                        "identity", "tri", "zeros", "ones", "empty", "full", "arange", "linspace", "logspace",
                        "geomspace")
export_all(globals(), [n for n in __all__ if n not in _NO_TENSOR_ARGUMENTS])
