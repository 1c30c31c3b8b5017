"""Elementwise math ops: arithmetic, comparisons, logic and unary functions."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import NO_ATTRS, apply, convert_inputs, convert_to_tensor, convert_with_first_as_hint
from ..errors import InvalidArgumentError, UnimplementedError, at_user_line
from ..naming import FUNCTION
from ..registry import OpDef, register
from .common import binary_infer, broadcast, require, unary_infer
from .core import const_op


def binary(op, x, y, name=None):
    """Apply a binary op, letting a Python scalar take the other operand's dtype."""
    return apply(op, convert_inputs((x, y), True), NO_ATTRS, name)  # positional: the eager hot path


def _elementwise(name, kernel, infer, render=None, differentiable=True):
    return register(OpDef(name, kernel, infer, render=render, elementwise=True, differentiable=differentiable))


# --- binary arithmetic ------------------------------------------------------------------------------
_infer_number_pair = binary_infer("number")


def _infer_add(x, y):
    """Numbers add; strings concatenate (TF's AddV2 accepts both)."""
    if x.dtype.is_string and y.dtype.is_string:
        return x.dtype, broadcast(x, y)
    return _infer_number_pair(x, y)


add_op = _elementwise("add", np.add, _infer_add, "{0} + {1}")
subtract_op = _elementwise("subtract", np.subtract, binary_infer("number"), "{0} - {1}")
multiply_op = _elementwise("multiply", np.multiply, binary_infer("number"), "{0} * {1}")
# true division of floats; integer true division casts first (see `divide`)
real_div_op = _elementwise("divide", np.true_divide, binary_infer("inexact"), "{0} / {1}")
def _zero_checked(ufunc):
    """Integer // and % by zero raise, as in TensorFlow (numpy would give 0 with a warning)."""
    def kernel(x, y):
        if y.dtype.kind in "iu" and not np.all(y):
            raise InvalidArgumentError("Integer division by zero")
        return ufunc(x, y)

    kernel.__name__ = ufunc.__name__
    return kernel


def _render_unless_zero_possible(template):
    """The operator when no integer zero divisor can occur (float, or a non-zero constant divisor); else
    None, and the code generator calls the checking kernel."""
    def render(node):
        divisor = node.inputs[1]
        if divisor.dtype.is_floating:
            return template
        producer = divisor.node
        if producer.op is const_op and np.all(producer.attrs["value"]):
            return template
        return None

    return render


floordiv_op = _elementwise("floordiv", _zero_checked(np.floor_divide), binary_infer("numeric"),
                           _render_unless_zero_possible("{0} // {1}"))
floormod_op = _elementwise("floormod", _zero_checked(np.mod), binary_infer("numeric"),
                           _render_unless_zero_possible("{0} % {1}"))
pow_op = _elementwise("pow", np.power, binary_infer("number"), "{0} ** {1}")
maximum_op = _elementwise("maximum", np.maximum, binary_infer("numeric"), "np.maximum({0}, {1})")
minimum_op = _elementwise("minimum", np.minimum, binary_infer("numeric"), "np.minimum({0}, {1})")
squared_difference_op = _elementwise(
    "squared_difference", lambda x, y: np.square(x - y), binary_infer("numeric"), "np.square({0} - {1})")

# --- comparisons and logic ----------------------------------------------------------------------------
_B = dtypes.bool_
equal_op = _elementwise("equal", np.equal, binary_infer("any", _B), "{0} == {1}", False)
not_equal_op = _elementwise("not_equal", np.not_equal, binary_infer("any", _B), "{0} != {1}", False)
less_op = _elementwise("less", np.less, binary_infer("numeric", _B), "{0} < {1}", False)
less_equal_op = _elementwise("less_equal", np.less_equal, binary_infer("numeric", _B), "{0} <= {1}", False)
greater_op = _elementwise("greater", np.greater, binary_infer("numeric", _B), "{0} > {1}", False)
greater_equal_op = _elementwise(
    "greater_equal", np.greater_equal, binary_infer("numeric", _B), "{0} >= {1}", False)
logical_and_op = _elementwise("logical_and", np.logical_and, binary_infer("bool"), "{0} & {1}", False)
logical_or_op = _elementwise("logical_or", np.logical_or, binary_infer("bool"), "{0} | {1}", False)
logical_xor_op = _elementwise("logical_xor", np.logical_xor, binary_infer("bool"), "{0} ^ {1}", False)
logical_not_op = _elementwise("logical_not", np.logical_not, unary_infer("bool"), "~{0}", False)
bitwise_and_op = _elementwise("bitwise_and", np.bitwise_and, binary_infer("int"), "{0} & {1}", False)
bitwise_or_op = _elementwise("bitwise_or", np.bitwise_or, binary_infer("int"), "{0} | {1}", False)
bitwise_xor_op = _elementwise("bitwise_xor", np.bitwise_xor, binary_infer("int"), "{0} ^ {1}", False)
invert_op = _elementwise("invert", np.invert, unary_infer("int"), "~{0}", False)


# --- unary ---------------------------------------------------------------------------------------
def _sigmoid(x):
    # 1 / (1 + exp(-x)): within 3.2 ulp of the exact value in float32 (TF's Eigen kernel: 5.9; the two within 7
    # ulp of each other), exact at 0, 0 and 1 at the infinities (exp's overflow below -88 gives 1 / inf = 0; tinytf's
    # numpy error state keeps it silent). The tanh form (tanh(x / 2) + 1) / 2 lost everything below 1e-7 to the
    # cancellation of tanh near -1: 0 for x < -17 where TF gives 2e-9, 49% off at -16. numpy's float32 exp also
    # takes half the time of its tanh (the LSTM step's gates). The same ufuncs as the fused blocks' plan
    # (passes/fusion_codegen.py), so fused and unfused results are the same bits.
    # float16 in float32, as TF computes it (TF's value at -12 is 6.1e-6; float16's exp overflows below -11.1)
    if x.dtype == np.float16:
        return _sigmoid(x.astype(np.float32)).astype(np.float16)
    one = x.dtype.type(1)  # a Python int would turn bfloat16 into float32
    return np.reciprocal(np.add(np.exp(np.negative(x)), one))


def _render_sigmoid(node):
    # bfloat16 and float16 call the kernel: it types its constant, and computes float16 in float32
    return None if node.inputs[0].dtype.name in ("bfloat16", "float16") else "np.reciprocal(np.exp(-{0}) + 1)"


def _rsqrt(x):
    return 1 / np.sqrt(x)


def _sign(x):
    if np.iscomplexobj(x):  # TF's (and numpy 2's) complex sign: x / |x|, and 0 at 0
        magnitude = np.abs(x)
        return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude)).astype(x.dtype)
    return np.sign(x)


negative_op = _elementwise("negative", np.negative, unary_infer("number"), "-{0}")
def _infer_abs(x):
    """|x| of a complex tensor is real (complex64 -> float32), as in TF's ComplexAbs."""
    require(x.dtype, "number", "abs")
    return x.dtype.real_dtype, x._shape


abs_op = _elementwise("abs", np.abs, _infer_abs, "np.abs({0})")
sign_op = _elementwise("sign", _sign, unary_infer("number"),
                      lambda node: None if node.inputs[0].dtype.is_complex else "np.sign({0})")
square_op = _elementwise("square", np.square, unary_infer("number"), "np.square({0})")
sqrt_op = _elementwise("sqrt", np.sqrt, unary_infer("inexact"), "np.sqrt({0})")
rsqrt_op = _elementwise("rsqrt", _rsqrt, unary_infer("inexact"), "1 / np.sqrt({0})")
exp_op = _elementwise("exp", np.exp, unary_infer("inexact"), "np.exp({0})")
expm1_op = _elementwise("expm1", np.expm1, unary_infer("inexact"), "np.expm1({0})")
log_op = _elementwise("log", np.log, unary_infer("inexact"), "np.log({0})")
log1p_op = _elementwise("log1p", np.log1p, unary_infer("inexact"), "np.log1p({0})")
sin_op = _elementwise("sin", np.sin, unary_infer("inexact"), "np.sin({0})")
cos_op = _elementwise("cos", np.cos, unary_infer("inexact"), "np.cos({0})")
tan_op = _elementwise("tan", np.tan, unary_infer("inexact"), "np.tan({0})")
tanh_op = _elementwise("tanh", np.tanh, unary_infer("inexact"), "np.tanh({0})")
sigmoid_op = _elementwise("sigmoid", _sigmoid, unary_infer("float"), _render_sigmoid)
reciprocal_op = _elementwise("reciprocal", np.reciprocal, unary_infer("inexact"), "1 / {0}")
floor_op = _elementwise("floor", np.floor, unary_infer("float"), "np.floor({0})", False)
ceil_op = _elementwise("ceil", np.ceil, unary_infer("float"), "np.ceil({0})", False)
round_op = _elementwise("round", np.round, unary_infer("numeric"), "np.round({0})", False)  # half to even
is_nan_op = _elementwise("is_nan", np.isnan, unary_infer("float", _B), "np.isnan({0})", False)
is_inf_op = _elementwise("is_inf", np.isinf, unary_infer("float", _B), "np.isinf({0})", False)
is_finite_op = _elementwise("is_finite", np.isfinite, unary_infer("float", _B), "np.isfinite({0})", False)


def _cast_kernel(x, *, dtype):
    if x.dtype.kind == "c" and dtype.np.kind != "c":
        x = x.real  # TF keeps the real part (numpy would warn that it discards the imaginary one)
    if x.dtype.name.startswith(("float8", "float4")) and dtype.np.kind in "iub":
        x = x.astype(np.float32)  # float8 -> integer through float32: NaN and inf become what TF's Cast gives
    try:
        return x.astype(dtype.np)
    except TypeError:  # ml_dtypes has no direct int4 <-> uint4 or float8 <-> float8 conversions: go through a wide type
        return x.astype(np.float32 if dtype.is_floating or x.dtype.kind == "f" else np.int64).astype(dtype.np)


def _infer_cast(x, *, dtype):
    if x.dtype.is_string != dtype.is_string:
        # TF's error class (not a dtype error): the Cast kernel has no string conversions
        raise UnimplementedError(at_user_line(f"Cast {x.dtype.name} to {dtype.name} is not supported "
                                              "(use tf.strings.as_string or tf.strings.to_number)"))
    if (x.dtype.name in dtypes.NARROW_CASTS or dtype.name in dtypes.NARROW_CASTS) and not dtypes.narrow_cast_ok(
            x.dtype, dtype):
        raise UnimplementedError(at_user_line(f"Cast {x.dtype.name} to {dtype.name} is not supported"))
    return dtype, x._shape


cast_op = register(OpDef("cast", _cast_kernel, _infer_cast, elementwise=True, typed_attrs=(),
                         render="{0}.astype({dtype}.np)"))


# --- Python-facing wrappers -----------------------------------------------------------------------------
_INT_DIVIDE_TO = {"int8": dtypes.float32, "int16": dtypes.float32, "uint8": dtypes.float32,
                  "int32": dtypes.float64, "int64": dtypes.float64}


def divide(x, y, name=None):
    """`x / y`: floats divide; integers are cast to a float first (int32 / int32 -> float64), as TF does."""
    x, y = _pair(x, y)
    target = _INT_DIVIDE_TO.get(x.dtype.name)
    if target is not None and y.dtype is x.dtype:
        x, y = cast(x, target), cast(y, target)
    return apply(real_div_op, (x, y), name=name)


def _pair(x, y):
    return convert_inputs((x, y), True)


def cast(x, dtype, name=None):
    dtype = dtypes.as_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    return apply(cast_op, (x,), {"dtype": dtype}, name=name)


def _unary_wrapper(op):
    def wrapper(x, name=None):
        return apply(op, (convert_to_tensor(x),), name=name)

    wrapper.__name__ = op.name
    wrapper.__doc__ = f"Elementwise {op.name}."
    return wrapper


def _binary_wrapper(op, default=None):
    """The public function of a binary op. `default`: its node name without `name=` where it differs from
    the operator's (tf.add is `Add`, x + y is `add`: naming.FUNCTION)."""
    def wrapper(x, y, name=None):
        return binary(op, x, y, default if name is None else name)

    wrapper.__name__ = op.name
    wrapper.__doc__ = f"Elementwise {op.name}, with numpy broadcasting."
    return wrapper


def _add_wrapper(default=None):
    """tf.add and `x + y`: the second operand takes the first's dtype where it can (TF's math_ops.add)."""
    def add(x, y, name=None):
        return apply(add_op, convert_with_first_as_hint(x, y), NO_ATTRS, default if name is None else name)

    add.__doc__ = "Elementwise add, with numpy broadcasting."
    return add


add = _add_wrapper(FUNCTION)
subtract = _binary_wrapper(subtract_op, FUNCTION)
multiply = _binary_wrapper(multiply_op, FUNCTION)
floordiv = _binary_wrapper(floordiv_op)
floormod = _binary_wrapper(floormod_op, FUNCTION)
pow = _binary_wrapper(pow_op, FUNCTION)
# What the operators call (x + y): the same ops under the operators' node names (`add`, `sub`, `mul`)
add_operator = _add_wrapper()
add_reflected_operator = _binary_wrapper(add_op)  # `2.5 + int_tensor`: TF converts 2.5 to int32 (a TypeError)
subtract_operator = _binary_wrapper(subtract_op)
multiply_operator = _binary_wrapper(multiply_op)
floormod_operator = _binary_wrapper(floormod_op)
pow_operator = _binary_wrapper(pow_op)
maximum = _binary_wrapper(maximum_op)
minimum = _binary_wrapper(minimum_op)
squared_difference = _binary_wrapper(squared_difference_op)
negative = _unary_wrapper(negative_op)
abs = _unary_wrapper(abs_op)
sign = _unary_wrapper(sign_op)
square = _unary_wrapper(square_op)
sqrt = _unary_wrapper(sqrt_op)
rsqrt = _unary_wrapper(rsqrt_op)
exp = _unary_wrapper(exp_op)
expm1 = _unary_wrapper(expm1_op)
log = _unary_wrapper(log_op)
log1p = _unary_wrapper(log1p_op)
sin = _unary_wrapper(sin_op)
cos = _unary_wrapper(cos_op)
tan = _unary_wrapper(tan_op)
tanh = _unary_wrapper(tanh_op)
sigmoid = _unary_wrapper(sigmoid_op)
reciprocal = _unary_wrapper(reciprocal_op)
floor = _unary_wrapper(floor_op)
ceil = _unary_wrapper(ceil_op)
round = _unary_wrapper(round_op)
is_nan = _unary_wrapper(is_nan_op)
is_inf = _unary_wrapper(is_inf_op)
is_finite = _unary_wrapper(is_finite_op)
logical_not = _unary_wrapper(logical_not_op)
equal = _binary_wrapper(equal_op)
not_equal = _binary_wrapper(not_equal_op)
less = _binary_wrapper(less_op)
less_equal = _binary_wrapper(less_equal_op)
greater = _binary_wrapper(greater_op)
greater_equal = _binary_wrapper(greater_equal_op)
logical_and = _binary_wrapper(logical_and_op)
logical_or = _binary_wrapper(logical_or_op)
logical_xor = _binary_wrapper(logical_xor_op)


# --- trigonometry, safe divisions, erf ------------------------------------------------
def _where_zero(mask, value):
    """`value` with zeros where `mask` holds; keeps value's dtype (a Python 0 is a weak scalar in numpy)."""
    return np.where(mask, 0, value)


def _divide_no_nan(x, y):
    if x.shape == () == y.shape:  # two scalars (a Mean metric's total / count, every step): no masks
        return x / y if y != 0 else x.dtype.type(0)
    zero = y == 0
    return _where_zero(zero, x / np.where(zero, 1, y))


def _multiply_no_nan(x, y):
    return _where_zero(y == 0, x * y)  # inf * 0 is discarded (kernels run without numpy warnings)


def _reciprocal_no_nan(x):
    zero = x == 0
    return _where_zero(zero, 1 / np.where(zero, 1, x))


def _xlogy(x, y):
    zero = x == 0
    return _where_zero(zero, x * np.log(np.where(zero, 1, y)))  # log(0) = -inf is the right answer


def _xdivy(x, y):
    zero = x == 0
    return _where_zero(zero, x / np.where(zero, 1, y))


def _truncatediv(x, y):
    if np.any(y == 0):
        raise InvalidArgumentError("Integer division by zero")
    # C-style division: the quotient of the magnitudes, with the sign of the product
    return np.abs(x) // np.abs(y) * (np.sign(x) * np.sign(y))


def _log_sigmoid(x):
    # log(1 / (1 + e^-x)) = -log(e^0 + e^-x): logaddexp never overflows
    return -np.logaddexp(0, -x)


# erf has no numpy ufunc. Two expansions, both free of cancellation, evaluated in float64:
#   |x| < 2.5:  erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n 2^n x^(2n+1) / (1*3*...*(2n+1))   (positive terms)
#   |x| >= 2.5: erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))  (continued fraction)
# The term counts were measured against math.erf: float64 within 2e-15 relative, float32 inputs within 2e-9
# before rounding to float32; erfc uses the float64 counts for every dtype.
_ERF_SPLIT = 2.5
_TWO_OVER_SQRT_PI = 1.1283791670955126
_ONE_OVER_SQRT_PI = 0.5641895835477563


def _erf_series(a, terms):
    two_a2 = 2.0 * a * a
    term = a.copy()
    total = a.copy()
    for n in range(1, terms):
        term *= two_a2 / (2 * n + 1)
        total += term
    return _TWO_OVER_SQRT_PI * np.exp(-a * a) * total


def _erfc_fraction(a, depth):
    """erfc(a) for a >= _ERF_SPLIT (also right for inf and nan)."""
    f = a.copy()
    for k in range(depth, 0, -1):
        f = a + (0.5 * k) / f
    return _ONE_OVER_SQRT_PI * np.exp(-a * a) / f


def _erf_parts(x, precise):
    """(|x| as float64, mask of the series region, series terms, fraction depth)."""
    precise = precise or np.dtype(x.dtype) == np.float64
    a = np.abs(np.asarray(x, np.float64))
    return a, a < _ERF_SPLIT, (38 if precise else 26), (40 if precise else 12)


def _erf(x):
    a, small, terms, depth = _erf_parts(x, False)
    out = np.empty_like(a)
    out[small] = _erf_series(a[small], terms)
    large = ~small
    out[large] = 1.0 - _erfc_fraction(a[large], depth)
    out = np.copysign(out, x).astype(x.dtype)
    return out[()] if out.ndim == 0 else out


def _erfc(x):
    a, small, terms, depth = _erf_parts(x, True)  # 1 - erf(x) near 2.5 needs erf to 1e-12
    signed = np.asarray(x, np.float64)
    out = np.empty_like(a)
    out[small] = 1.0 - np.copysign(_erf_series(a[small], terms), signed[small])
    large = ~small
    tail = _erfc_fraction(a[large], depth)
    out[large] = np.where(signed[large] < 0, 2.0 - tail, tail)
    out = out.astype(x.dtype)
    return out[()] if out.ndim == 0 else out


_F = "float"
atan_op = _elementwise("atan", np.arctan, unary_infer(_F), "np.arctan({0})")
asin_op = _elementwise("asin", np.arcsin, unary_infer(_F), "np.arcsin({0})")
acos_op = _elementwise("acos", np.arccos, unary_infer(_F), "np.arccos({0})")
sinh_op = _elementwise("sinh", np.sinh, unary_infer(_F), "np.sinh({0})")
cosh_op = _elementwise("cosh", np.cosh, unary_infer(_F), "np.cosh({0})")
asinh_op = _elementwise("asinh", np.arcsinh, unary_infer(_F), "np.arcsinh({0})")
acosh_op = _elementwise("acosh", np.arccosh, unary_infer(_F), "np.arccosh({0})")
atanh_op = _elementwise("atanh", np.arctanh, unary_infer(_F), "np.arctanh({0})")
rint_op = _elementwise("rint", np.rint, unary_infer(_F), "np.rint({0})", False)
erf_op = _elementwise("erf", _erf, unary_infer(_F))
erfc_op = _elementwise("erfc", _erfc, unary_infer(_F))
log_sigmoid_op = _elementwise("log_sigmoid", _log_sigmoid, unary_infer(_F), "-np.logaddexp(0, -{0})")
reciprocal_no_nan_op = _elementwise("reciprocal_no_nan", _reciprocal_no_nan, unary_infer(_F))
atan2_op = _elementwise("atan2", np.arctan2, binary_infer(_F), "np.arctan2({0}, {1})")
divide_no_nan_op = _elementwise("divide_no_nan", _divide_no_nan, binary_infer(_F))
multiply_no_nan_op = _elementwise("multiply_no_nan", _multiply_no_nan, binary_infer(_F))
xlogy_op = _elementwise("xlogy", _xlogy, binary_infer(_F))
xdivy_op = _elementwise("xdivy", _xdivy, binary_infer(_F))
truncatediv_op = _elementwise("truncatediv", _truncatediv, binary_infer("int"), differentiable=False)
truncatemod_op = _elementwise("truncatemod", np.fmod, binary_infer("numeric"), "np.fmod({0}, {1})")

atan = _unary_wrapper(atan_op)
asin = _unary_wrapper(asin_op)
acos = _unary_wrapper(acos_op)
sinh = _unary_wrapper(sinh_op)
cosh = _unary_wrapper(cosh_op)
asinh = _unary_wrapper(asinh_op)
acosh = _unary_wrapper(acosh_op)
atanh = _unary_wrapper(atanh_op)
rint = _unary_wrapper(rint_op)
erf = _unary_wrapper(erf_op)
erfc = _unary_wrapper(erfc_op)
log_sigmoid = _unary_wrapper(log_sigmoid_op)
reciprocal_no_nan = _unary_wrapper(reciprocal_no_nan_op)
divide_no_nan = _binary_wrapper(divide_no_nan_op)
multiply_no_nan = _binary_wrapper(multiply_no_nan_op)
xlogy = _binary_wrapper(xlogy_op)
xdivy = _binary_wrapper(xdivy_op)
truncatediv = _binary_wrapper(truncatediv_op)
truncatemod = _binary_wrapper(truncatemod_op)


def atan2(y, x, name=None):
    """The angle of the point (x, y), elementwise: note TF's argument order, y first."""
    return binary(atan2_op, y, x, name=name)


def truediv(x, y, name=None):
    """`x / y` with TF's int-to-float rule (int32 / int32 -> float64); the same as `divide`."""
    return divide(x, y, name)


def realdiv(x, y, name=None):
    """Division of floats only (no integer cast)."""
    return binary(real_div_op, x, y, name=name)


def mod(x, y, name=None):
    """Floor modulo, as Python's `%` (the sign of the divisor)."""
    return floormod(x, y, name)


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x, name)


__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "cast", "ceil", "cos", "cosh",
    "divide", "divide_no_nan", "equal", "erf", "erfc", "exp", "expm1", "floor", "floordiv", "floormod", "greater",
    "greater_equal", "is_finite", "is_inf", "is_nan", "less", "less_equal", "log", "log1p", "log_sigmoid",
    "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
    "multiply_no_nan", "negative", "not_equal", "pow", "realdiv", "reciprocal", "reciprocal_no_nan", "rint",
    "round", "rsqrt", "scalar_mul", "sigmoid", "sign", "sin", "sinh", "sqrt", "square", "squared_difference",
    "subtract", "tan", "tanh", "truediv", "truncatediv", "truncatemod", "xdivy", "xlogy",
]
