"""tf.experimental.numpy on TF 2.21 (with experimental_enable_numpy_behavior, as TF's guide starts): every function
of tnp on fixed inputs (dtype inference from Python values,
NumPy promotion between tensors, float64 for integer inputs of float functions), axis and keyword variants, and
experimental_enable_numpy_behavior's methods and operator promotion. Each entry is [dtype, shape, values] or
the error class and key phrase."""

from __future__ import annotations

import numpy as np

from . import outcome, program

M = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], np.float32)
I = np.array([[3, 1, 2], [0, -4, 7]], np.int32)  # noqa: E741
V = [1.0, 2.5, -3.0, 4.0]


def _plain(x):
    """A result (tensor, tuple of them, Python value, numpy dtype) as JSON."""
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        value = x.numpy()
        value = value.tolist() if isinstance(value, np.ndarray) else np.asarray(value).tolist()
        return [x.dtype.name, list(x.shape), value]
    if isinstance(x, (np.dtype, type)):
        return "dtype:" + np.dtype(x).name
    if isinstance(x, (np.generic,)):
        return x.item()
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    return str(x)


def _table(cases: dict) -> dict:
    out = {}
    for name, fn in cases.items():
        phrase = ""
        if isinstance(fn, tuple):
            fn, phrase = fn
        result = outcome(lambda fn=fn: _plain(fn()), phrase)
        out[name] = result
    return out


def _with_numpy_behavior(tf, body):
    """TF's tnp functions need numpy behavior on (without it, integer inputs of float functions fail inside TF
    for want of Tensor.astype): the guide's first step, and the setting these tables are recorded in."""
    tf.experimental.numpy.experimental_enable_numpy_behavior()
    try:
        return body(tf)
    finally:
        _behavior_off(tf)


def _behavior_off(tf):
    off = getattr(tf.experimental.numpy, "_disable_numpy_behavior", None)
    if off is not None:  # tinytf: numpy behavior is process-wide; programs after this one must not see it
        off()


@program
def p_tnp_creation(tf):
    return _with_numpy_behavior(tf, _tnp_creation)


def _tnp_creation(tf):
    tnp = tf.experimental.numpy
    return _table({
        "asarray_float": lambda: tnp.asarray(1.0), "asarray_int": lambda: tnp.asarray(3),
        "asarray_list": lambda: tnp.asarray([1, 2, 3]), "asarray_mixed": lambda: tnp.asarray([1, 2.5]),
        "asarray_bool": lambda: tnp.asarray([True, False]), "asarray_dtype": lambda: tnp.asarray([1, 2], tnp.float32),
        "asarray_np32": lambda: tnp.asarray(M), "asarray_tensor": lambda: tnp.asarray(tf.constant([1, 2])),
        "asarray_tensor_cast": lambda: tnp.asarray(tf.constant([1, 2]), dtype=tnp.float64),
        "array_ndmin": lambda: tnp.array([1, 2], ndmin=3), "array_tf_dtype": lambda: tnp.array([1.5], tf.float16),
        "asanyarray": lambda: tnp.asanyarray([[1, 2]]), "ascontiguousarray": lambda: tnp.ascontiguousarray(5),
        "copy": lambda: tnp.copy(M), "empty_list": lambda: tnp.asarray([]),
        "zeros": lambda: tnp.zeros([2, 3]), "zeros_int": lambda: tnp.zeros(2, dtype=tnp.int32),
        "ones": lambda: tnp.ones(3), "ones_bool": lambda: tnp.ones([2], bool), "empty": lambda: tnp.empty([2]),
        "full": lambda: tnp.full([2, 2], 7), "full_f": lambda: tnp.full(3, 1.5, tnp.float32),
        "zeros_like": lambda: tnp.zeros_like(I), "ones_like": lambda: tnp.ones_like(M, dtype=tnp.int64),
        "empty_like": lambda: tnp.empty_like([1.5, 2]), "full_like": lambda: tnp.full_like(I, 2.7),
        "eye": lambda: tnp.eye(3), "eye_k": lambda: tnp.eye(3, 4, k=1, dtype=tnp.int32),
        "eye_neg": lambda: tnp.eye(4, 3, k=-2), "identity": lambda: tnp.identity(2, dtype=tnp.float32),
        "tri": lambda: tnp.tri(3), "tri_k": lambda: tnp.tri(3, 4, k=-1, dtype=tnp.int32),
        "arange": lambda: tnp.arange(5), "arange_f": lambda: tnp.arange(1.0, 3.0, 0.5),
        "arange_neg": lambda: tnp.arange(5, 0, -2), "arange_dtype": lambda: tnp.arange(4, dtype=tnp.float32),
        "arange_zero": (lambda: tnp.arange(0, 5, 0), "step must be non-zero"),
        "linspace": lambda: tnp.linspace(0, 1, 5),
        "linspace_noend": lambda: tnp.linspace(2.0, 3.0, num=5, endpoint=False),
        "linspace_step": lambda: tnp.linspace(0, 10, 3, retstep=True),
        "linspace_f32": lambda: tnp.linspace(tf.constant(0.0), tf.constant(1.0), 3),
        "logspace": lambda: tnp.logspace(0, 2, 3), "logspace_base": lambda: tnp.logspace(1, 3, 3, base=2.0),
        "geomspace": lambda: tnp.geomspace(1, 1000, 4), "geomspace_neg": lambda: tnp.geomspace(-1, -16, 5),
        "diag_vec": lambda: tnp.diag([1, 2, 3]), "diag_vec_k": lambda: tnp.diag([1.5, 2.0], k=1),
        "diag_mat": lambda: tnp.diag(I), "diag_mat_k": lambda: tnp.diag(I, k=-1),
        "diagflat": lambda: tnp.diagflat([[1, 2], [3, 4]]), "diag_indices": lambda: tnp.diag_indices(3),
        "vander": lambda: tnp.vander([1, 2, 3]), "vander_inc": lambda: tnp.vander([1.0, 2.0, 3.0], 2, increasing=True),
        "meshgrid": lambda: tnp.meshgrid([1, 2, 3], [4, 5]),
        "meshgrid_ij": lambda: tnp.meshgrid([1, 2], [4, 5, 6], indexing="ij"),
        "ix_": lambda: tnp.ix_([0, 1], [2, 4]), "ix_bool": lambda: tnp.ix_([True, False, True]),
    })


@program
def p_tnp_dtypes(tf):
    return _with_numpy_behavior(tf, _tnp_dtypes)


def _tnp_dtypes(tf):
    tnp = tf.experimental.numpy
    return _table({
        "result_type_i32_f32": lambda: tnp.result_type(tnp.int32, tnp.float32).name,
        "result_type_tensor_scalar": lambda: tnp.result_type(tf.constant([1.0]), 2.5).name,
        "result_type_int_float": lambda: tnp.result_type(tf.constant([1]), 2.5).name,
        "result_type_empty": lambda: tnp.result_type().name, "result_type_float": lambda: tnp.result_type(float).name,
        "promote_types": lambda: tnp.promote_types(tnp.int8, tnp.uint8),
        "promote_types_tf": lambda: tnp.promote_types(tf.int32, tf.float16),
        "finfo_eps": lambda: float(tnp.finfo(tnp.float32).eps), "finfo_tf": lambda: float(tnp.finfo(tf.float64).max),
        "iinfo": lambda: int(tnp.iinfo(tnp.int16).max), "issubdtype": lambda: tnp.issubdtype(tnp.float32, tnp.inexact),
        "names": lambda: [np.dtype(t).name for t in (tnp.bool_, tnp.int_, tnp.float_, tnp.complex_, tnp.uint16)],
        "constants": lambda: [tnp.pi, tnp.e, str(tnp.inf), tnp.newaxis],
        "ndarray_is_tensor": lambda: tnp.ndarray is tf.Tensor, "isscalar": lambda: [
            tnp.isscalar(3.0), tnp.isscalar(tf.constant(1)), tnp.isscalar(tf.constant([1]))],
        "shape": lambda: list(tnp.shape(M)), "ndim": lambda: tnp.ndim(I), "size": lambda: tnp.size(M),
        "size_scalar": lambda: tnp.size(3), "iscomplexobj": lambda: [tnp.iscomplexobj(M), tnp.isrealobj(I)],
    })


@program
def p_tnp_elementwise(tf):
    return _with_numpy_behavior(tf, _tnp_elementwise)


def _tnp_elementwise(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    return _table({
        "add_i32_f32": lambda: tnp.add(i, m), "add_scalar_f": lambda: tnp.add(m, 1.5),
        "add_i32_float": lambda: tnp.add(i, 1.5), "add_i32_int": lambda: tnp.add(i, 2),
        "add_bool": lambda: tnp.add([True, False], [True, True]), "add_list": lambda: tnp.add([1, 2], [0.5, 1]),
        "subtract": lambda: tnp.subtract(i, [1, 2, 3]), "multiply_bool": lambda: tnp.multiply([True, False], True),
        "multiply": lambda: tnp.multiply(m, i), "true_divide": lambda: tnp.true_divide(i, 2),
        "divide_i32": lambda: tnp.divide(i, tf.constant(2)), "divide_f": lambda: tnp.divide(m, 4.0),
        "floor_divide": lambda: tnp.floor_divide(i, 3), "floor_divide_f": lambda: tnp.floor_divide(m, 0.75),
        "mod": lambda: tnp.mod(i, 3), "remainder": lambda: tnp.remainder(m, 0.75), "divmod": lambda: tnp.divmod(i, 4),
        "maximum": lambda: tnp.maximum(i, 1), "maximum_f": lambda: tnp.maximum(m, i),
        "minimum": lambda: tnp.minimum(m, 0.5), "clip": lambda: tnp.clip(i, 0, 3),
        "clip_f": lambda: tnp.clip(m, -1, 1.0),
        "clip_none": lambda: tnp.clip(i, None, 2), "clip_both_none": (lambda: tnp.clip(i, None, None), "may be `None`"),
        "power": lambda: tnp.power(i, 2), "power_f": lambda: tnp.power(tnp.abs(m), 0.5),
        "float_power": lambda: tnp.float_power([2, 3], 2.0), "arctan2": lambda: tnp.arctan2(m, 2.0),
        "arctan2_int": lambda: tnp.arctan2([1, -1], [2, 2]), "nextafter": lambda: tnp.nextafter(m, 10.0),
        "heaviside": lambda: tnp.heaviside([-1.5, 0, 2.0], 0.5), "heaviside_int": lambda: tnp.heaviside([-1, 0, 2], 1),
        "hypot": lambda: tnp.hypot([3.0, 5.0], [4, 12]), "hypot_int": lambda: tnp.hypot(3, 4),
        "logaddexp": lambda: tnp.logaddexp(m, 0.5),
        "logaddexp2": lambda: tnp.logaddexp2(tnp.asarray([1, 2]), tnp.asarray([3.0, 4])),
        "isclose": lambda: tnp.isclose([1.0, 2.0, np.nan], [1.0 + 1e-9, 2.1, np.nan]),
        "isclose_nan": lambda: tnp.isclose([1.0, np.nan], [1.0, np.nan], equal_nan=True),
        "isclose_int": lambda: tnp.isclose([1, 2], [1, 3]), "allclose": lambda: tnp.allclose(m, m + 1e-9),
        "gcd": lambda: tnp.gcd([12, 18, 7, 0], [8, -12, 0, 0]), "lcm": lambda: tnp.lcm([4, 6, 0], [6, 4, 3]),
        "gcd_float": (lambda: tnp.gcd([1.5], [2.0]), "must be integers"),
        "bitwise_and": lambda: tnp.bitwise_and(i, 6),
        "bitwise_or": lambda: tnp.bitwise_or([True, False], [False, False]),
        "bitwise_xor": lambda: tnp.bitwise_xor(i, 5), "bitwise_not": lambda: tnp.bitwise_not(i),
        "bitwise_not_bool": lambda: tnp.bitwise_not([True, False]),
    })


@program
def p_tnp_unary(tf):
    return _with_numpy_behavior(tf, _tnp_unary)


def _tnp_unary(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    a = tnp.abs(m) + 0.5
    return _table({
        "log": lambda: tnp.log(a), "log_int": lambda: tnp.log([1, 2, 4]), "exp": lambda: tnp.exp(m),
        "exp_int": lambda: tnp.exp(i), "sqrt": lambda: tnp.sqrt([1, 4, 9]), "sqrt_f": lambda: tnp.sqrt(a),
        "abs": lambda: tnp.abs(i), "absolute": lambda: tnp.absolute(m), "fabs": lambda: tnp.fabs([-1, 2]),
        "ceil": lambda: tnp.ceil(m), "ceil_int": lambda: tnp.ceil(i), "floor": lambda: tnp.floor(m),
        "conj": lambda: tnp.conj(tf.constant([1 + 2j])), "conjugate": lambda: tnp.conjugate(m),
        "negative": lambda: tnp.negative(i), "positive": lambda: tnp.positive(i),
        "reciprocal": lambda: tnp.reciprocal(a),
        "signbit": lambda: tnp.signbit(m), "signbit_bool": lambda: tnp.signbit([True]),
        "sin": lambda: tnp.sin(m), "cos": lambda: tnp.cos(i), "tan": lambda: tnp.tan(m), "sinh": lambda: tnp.sinh(m),
        "cosh": lambda: tnp.cosh(m), "tanh": lambda: tnp.tanh(i), "arcsin": lambda: tnp.arcsin(m * 0.3),
        "arccos": lambda: tnp.arccos(m * 0.3), "arctan": lambda: tnp.arctan(i), "arcsinh": lambda: tnp.arcsinh(m),
        "arccosh": lambda: tnp.arccosh(a + 1), "arctanh": lambda: tnp.arctanh(m * 0.3),
        "deg2rad": lambda: tnp.deg2rad([180, 90]), "rad2deg": lambda: tnp.rad2deg(m),
        "rad2deg_int": lambda: tnp.rad2deg(i),
        "angle": lambda: tnp.angle([-1.0, 2.0]),
        "angle_complex": lambda: tnp.angle(tf.constant([1j, -1 + 0j]), deg=True),
        "cbrt": lambda: tnp.cbrt([-8, 27]), "exp2": lambda: tnp.exp2(i), "expm1": lambda: tnp.expm1(m),
        "fix": lambda: tnp.fix([-2.5, 2.5]), "iscomplex": lambda: tnp.iscomplex(tf.constant([1 + 1j, 2 + 0j])),
        "isreal": lambda: tnp.isreal(m), "isnan": lambda: tnp.isnan([np.nan, 1.0]), "isnan_int": lambda: tnp.isnan(i),
        "isfinite": lambda: tnp.isfinite([np.inf, 1.0, np.nan]),
        "isinf": lambda: tnp.isinf(tnp.asarray([np.inf, -np.inf, 1])),
        "isneginf": lambda: tnp.isneginf(tnp.asarray([np.inf, -np.inf, 1])),
        "isposinf": lambda: tnp.isposinf(tnp.asarray([np.inf, -np.inf])),
        "log2": lambda: tnp.log2([1, 8]), "log10": lambda: tnp.log10(a), "log1p": lambda: tnp.log1p(a),
        "sinc": lambda: tnp.sinc([0.0, 0.5, 1.0]), "square": lambda: tnp.square(i),
        "square_bool": lambda: tnp.square([True, False]),
        "sign": lambda: tnp.sign(m), "sign_int": lambda: tnp.sign(i), "real": lambda: tnp.real(tf.constant([1 + 2j])),
        "imag": lambda: tnp.imag(m), "around": lambda: tnp.around(m, 1), "around_int": lambda: tnp.around(i * 17),
        "round_half": lambda: tnp.round([0.5, 1.5, 2.5, -0.5]), "around_f64": lambda: tnp.around([1.23456], 3),
    })


@program
def p_tnp_comparisons(tf):
    return _with_numpy_behavior(tf, _tnp_comparisons)


def _tnp_comparisons(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    return _table({
        "equal": lambda: tnp.equal(i, 3), "not_equal": lambda: tnp.not_equal(m, 0.5),
        "greater": lambda: tnp.greater(i, m),
        "greater_equal": lambda: tnp.greater_equal(i, 1), "less": lambda: tnp.less([True, False], [False, True]),
        "less_equal": lambda: tnp.less_equal(m, 0.5), "array_equal": lambda: tnp.array_equal(i, I),
        "array_equal_shape": lambda: tnp.array_equal([1, 2], [1, 2, 3]),
        "array_equal_f": lambda: tnp.array_equal(m, m + 1),
        "logical_and": lambda: tnp.logical_and(i, m), "logical_or": lambda: tnp.logical_or([0, 1], [0, 0]),
        "logical_xor": lambda: tnp.logical_xor(i, True), "logical_not": lambda: tnp.logical_not(m),
    })


@program
def p_tnp_reductions(tf):
    return _with_numpy_behavior(tf, _tnp_reductions)


def _tnp_reductions(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    n = tf.constant([[1.0, np.nan], [3.0, 4.0]])
    return _table({
        "sum": lambda: tnp.sum(i), "sum_axis": lambda: tnp.sum(m, axis=0), "sum_bool": lambda: tnp.sum([True, True]),
        "sum_dtype": lambda: tnp.sum(i, axis=1, dtype=tnp.float32), "sum_keep": lambda: tnp.sum(m, 1, keepdims=True),
        "sum_axes": lambda: tnp.sum(m, axis=(0, 1)), "sum_bool_dtype": lambda: tnp.sum([True, False], dtype=bool),
        "prod": lambda: tnp.prod(i + 5), "prod_axis": lambda: tnp.prod(m, -1), "mean": lambda: tnp.mean(i),
        "mean_f": lambda: tnp.mean(m, axis=1), "mean_dtype": lambda: tnp.mean(i, dtype=tnp.float32),
        "amax": lambda: tnp.amax(i, axis=0), "amin": lambda: tnp.amin(m), "amax_bool": lambda: tnp.amax([True, False]),
        "max": lambda: tnp.max(m, axis=1, keepdims=True), "min": lambda: tnp.min(i),
        "var": lambda: tnp.var(m), "var_int": lambda: tnp.var(i, axis=0),
        "var_ddof": lambda: tnp.var(m, axis=1, ddof=1, dtype=tnp.float64),
        "std": lambda: tnp.std(i), "std_axis": lambda: tnp.std(m, axis=0), "ptp": lambda: tnp.ptp(i, axis=1),
        "all": lambda: tnp.all(i), "all_axis": lambda: tnp.all(i, axis=0), "any": lambda: tnp.any(m > 2, axis=1),
        "count_nonzero": lambda: tnp.count_nonzero(i), "count_nonzero_axis": lambda: tnp.count_nonzero(i, axis=0),
        "cumsum": lambda: tnp.cumsum(i), "cumsum_axis": lambda: tnp.cumsum(m, axis=1),
        "cumprod": lambda: tnp.cumprod(i + 1, axis=0), "cumsum_dtype": lambda: tnp.cumsum([1, 2], dtype=tnp.float32),
        "argmax": lambda: tnp.argmax(i), "argmax_axis": lambda: tnp.argmax(m, axis=1),
        "argmin": lambda: tnp.argmin(m, 0),
        "average": lambda: tnp.average(i), "average_w": lambda: tnp.average(m, axis=1, weights=[1.0, 2.0, 3.0]),
        "average_ret": lambda: tnp.average(m, axis=0, returned=True),
        "average_w_ret": lambda: tnp.average([1, 2, 3], weights=[3, 2, 1], returned=True),
        "nansum": lambda: tnp.nansum(n), "nanprod": lambda: tnp.nanprod(n, axis=0),
        "nanmean": lambda: tnp.nanmean(n, axis=1),
        "nanmean_int": lambda: tnp.nanmean(i), "trace": lambda: tnp.trace(i),
        "trace_off": lambda: tnp.trace(m, offset=1),
        "trace_dtype": lambda: tnp.trace(i, dtype=tnp.float32),
    })


@program
def p_tnp_shapes(tf):
    return _with_numpy_behavior(tf, _tnp_shapes)


def _tnp_shapes(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    x = tnp.arange(24).reshape((2, 3, 4)) if False else tf.reshape(tf.range(24), [2, 3, 4])
    return _table({
        "reshape": lambda: tnp.reshape(i, [3, 2]), "reshape_F": lambda: tnp.reshape(i, [3, 2], order="F"),
        "reshape_int": lambda: tnp.reshape(i, -1), "ravel": lambda: tnp.ravel(m), "transpose": lambda: tnp.transpose(x),
        "transpose_axes": lambda: tnp.transpose(x, (1, 0, 2)), "swapaxes": lambda: tnp.swapaxes(x, 0, 2),
        "moveaxis": lambda: tnp.moveaxis(x, 0, -1), "moveaxis_many": lambda: tnp.moveaxis(x, [0, 1], [-1, -2]),
        "expand_dims": lambda: tnp.expand_dims(i, 1), "squeeze": lambda: tnp.squeeze([[[1], [2]]]),
        "squeeze_axis": lambda: tnp.squeeze(tf.zeros([1, 2, 1]), axis=0),
        "broadcast_to": lambda: tnp.broadcast_to([1, 2], [3, 2]),
        "broadcast_arrays": lambda: tnp.broadcast_arrays([1, 2, 3], [[1.5], [2.5]]),
        "atleast_1d": lambda: tnp.atleast_1d(3.0), "atleast_1d_many": lambda: tnp.atleast_1d(1, [2, 3]),
        "atleast_2d": lambda: tnp.atleast_2d([1, 2]), "atleast_3d": lambda: tnp.atleast_3d(i),
        "atleast_3d_vec": lambda: tnp.atleast_3d([1, 2]), "concatenate": lambda: tnp.concatenate([i, m]),
        "concatenate_axis": lambda: tnp.concatenate([I, I], axis=1),
        "concatenate_lists": lambda: tnp.concatenate([I, [[1.5, 2, 3]]]),
        "append": lambda: tnp.append(i, [1.5]), "append_axis": lambda: tnp.append(i, [[1, 2, 3]], axis=0),
        "stack": lambda: tnp.stack([[1, 2], [3.5, 4]]), "stack_axis": lambda: tnp.stack([i, i], axis=-1),
        "hstack": lambda: tnp.hstack([[1, 2], [3]]), "hstack_2d": lambda: tnp.hstack([I, I]),
        "vstack": lambda: tnp.vstack([[1, 2], [3, 4]]), "dstack": lambda: tnp.dstack([[1, 2], [3, 4]]),
        "split": lambda: tnp.split(tnp.arange(6), 3), "split_idx": lambda: tnp.split(tnp.arange(6), [1, 4]),
        "split_bad": (lambda: tnp.split(tnp.arange(7), 3), ""), "hsplit": lambda: tnp.hsplit(x, 3),
        "vsplit": lambda: tnp.vsplit(x, 2), "dsplit": lambda: tnp.dsplit(x, [1]),
        "tile": lambda: tnp.tile([1, 2], 2), "tile_2d": lambda: tnp.tile(i, (2, 1)),
        "tile_more": lambda: tnp.tile([1, 2], (2, 2)),
        "repeat": lambda: tnp.repeat(i, 2), "repeat_axis": lambda: tnp.repeat(i, [1, 2], axis=0),
        "flip": lambda: tnp.flip(x), "flip_axis": lambda: tnp.flip(i, 1), "fliplr": lambda: tnp.fliplr(i),
        "flipud": lambda: tnp.flipud(i), "roll": lambda: tnp.roll(i, 2), "roll_axis": lambda: tnp.roll(i, -1, axis=1),
        "rot90": lambda: tnp.rot90(i), "rot90_k": lambda: tnp.rot90(i, k=3),
        "rot90_2": lambda: tnp.rot90(x, 2, axes=(1, 2)),
        "pad": lambda: tnp.pad(i, [[1, 1], [1, 1]], "constant"), "pad_value": lambda: tnp.pad(i, [[0, 1], [2, 0]],
        "constant", constant_values=9),
        "pad_reflect": lambda: tnp.pad([1, 2, 3], [[2, 2]], "reflect"),
        "pad_symmetric": lambda: tnp.pad([1, 2, 3], [[1, 2]], "symmetric"),
    })


@program
def p_tnp_indexing(tf):
    return _with_numpy_behavior(tf, _tnp_indexing)


def _tnp_indexing(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    return _table({
        "take": lambda: tnp.take(i, [0, 4]), "take_axis": lambda: tnp.take(i, [2, 0], axis=1),
        "take_clip": lambda: tnp.take([1, 2, 3], [5, -1]),
        "take_wrap": lambda: tnp.take([1, 2, 3], [5, -1], mode="wrap"),
        "take_along_axis": lambda: tnp.take_along_axis(m, tnp.argsort(m, axis=1), axis=1),
        "where": lambda: tnp.where(i > 1, i, m), "where_scalar": lambda: tnp.where([True, False], 1, 2.5),
        "where_one": lambda: tnp.where(i), "select": lambda: tnp.select([i > 2, i < 0], [i, -i], default=7),
        "nonzero": lambda: tnp.nonzero(i), "nonzero_scalar": (lambda: tnp.nonzero(3), "0d"),
        "compress": lambda: tnp.compress([True, False], i, axis=0), "compress_none": lambda: tnp.compress([0, 1, 1], i),
        "diagonal": lambda: tnp.diagonal(i),
        "diagonal_off": lambda: tnp.diagonal(tf.reshape(tf.range(24), [2, 3, 4]), 1, 1, 2),
        "tril": lambda: tnp.tril(i), "tril_k": lambda: tnp.tril(m, -1), "triu": lambda: tnp.triu(i, 1),
        "tril_vec": lambda: tnp.tril([1, 2, 3]), "diff": lambda: tnp.diff(i),
        "diff_n": lambda: tnp.diff([1, 4, 9, 16], n=2),
        "diff_axis": lambda: tnp.diff(m, axis=0), "sort": lambda: tnp.sort(m), "sort_axis": lambda: tnp.sort(i, axis=0),
        "sort_none": lambda: tnp.sort(i, axis=None), "sort_bool": lambda: tnp.sort([True, False, True]),
        "argsort": lambda: tnp.argsort(i), "argsort_axis": lambda: tnp.argsort(m, axis=0),
    })


@program
def p_tnp_products(tf):
    return _with_numpy_behavior(tf, _tnp_products)


def _tnp_products(tf):
    tnp = tf.experimental.numpy
    i = tf.constant(I)
    m = tf.constant(M)
    return _table({
        "dot": lambda: tnp.dot(m, tnp.transpose(i)), "dot_vec": lambda: tnp.dot([1, 2], [3, 4.5]),
        "dot_scalar": lambda: tnp.dot(2, i), "dot_mat_vec": lambda: tnp.dot(i, [1, 0, 1]),
        "vdot": lambda: tnp.vdot(i, m), "inner": lambda: tnp.inner(m, i), "inner_scalar": lambda: tnp.inner(3, [1, 2]),
        "outer": lambda: tnp.outer([1, 2], [3, 4, 5]), "matmul": lambda: tnp.matmul(i, tnp.transpose(m)),
        "matmul_vec": lambda: tnp.matmul(i, [1, 2, 3]), "matmul_vec_left": lambda: tnp.matmul([1, 2], i),
        "matmul_batch": lambda: tnp.matmul(tf.ones([2, 2, 3]), tf.ones([3, 1])),
        "matmul_scalar": (lambda: tnp.matmul(2, i), ""), "tensordot": lambda: tnp.tensordot(i, m, axes=[[1], [1]]),
        "tensordot_0": lambda: tnp.tensordot([1, 2], [3, 4], 0), "einsum": lambda: tnp.einsum("ij,kj->ik", i, m),
        "einsum_trace": lambda: tnp.einsum("ii", [[1, 2], [3, 4]]), "kron": lambda: tnp.kron([1, 10], [[1, 2], [3, 4]]),
        "cross": lambda: tnp.cross([1, 2, 3], [4, 5, 6]), "cross_2d": lambda: tnp.cross([1, 2], [3, 4]),
        "cross_axis": lambda: tnp.cross([[1.0, 0], [0, 1], [0, 0]], [[0, 0], [1, 0], [0, 1.0]], axis=0),
        "polyval": lambda: tnp.polyval([1, 2, 3], [0, 1, 2]), "polyval_f": lambda: tnp.polyval([3.0], 5.0),
    })


@program
def p_tnp_numpy_behavior(tf):
    tnp = tf.experimental.numpy
    tnp.experimental_enable_numpy_behavior()
    try:
        x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        i = tf.constant([1, 2, 3])
        return _table({
            "T": lambda: x.T, "reshape": lambda: x.reshape(3, 2), "reshape_tuple": lambda: x.reshape((6,)),
            "reshape_F": lambda: x.reshape([3, 2], order="F"), "ravel": lambda: x.ravel(),
            "flatten": lambda: x.flatten(),
            "transpose": lambda: x.transpose(), "astype": lambda: x.astype(tnp.int32), "clip": lambda: x.clip(2, 4.5),
            "max": lambda: x.max(), "mean": lambda: x.mean(axis=0), "min": lambda: x.min(axis=1),
            "tolist": lambda: x.tolist(),
            "size": lambda: x.size, "ndim": lambda: x.ndim, "data": lambda: x.data, "pos": lambda: +x,
            "round": lambda: round(x * 1.3),
            "i32_plus_f32": lambda: i + tf.ones([3], tf.float32), "i32_plus_float": lambda: i + 1.5,
            "i32_plus_int": lambda: i * 2, "i32_plus_i64": lambda: i + tf.ones([3], tf.int64),
            "int_truediv": lambda: i / 2, "rsub": lambda: 1.5 - i, "pow": lambda: i ** 0.5, "floordiv": lambda: i // 2,
            "mod": lambda: i % 2, "lt": lambda: i < 2.5, "matmul": lambda: x @ tf.ones([3], tf.float64),
        })
    finally:
        _behavior_off(tf)


@program
def p_tnp_prefer_float32(tf):
    tnp = tf.experimental.numpy
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    try:
        return _table({
            "asarray": lambda: tnp.asarray(1.5), "zeros": lambda: tnp.zeros(2), "sqrt_int": lambda: tnp.sqrt([1, 4]),
            "arange": lambda: tnp.arange(3.0), "linspace": lambda: tnp.linspace(0, 1, 3),
            "f16_plus_float": lambda: tnp.add(tnp.asarray([1], tnp.float16), 1.5),
            "i32_plus_float": lambda: tf.ones([], tf.int32) + 1.5, "result_type": lambda: tnp.result_type(2.0).name,
        })
    finally:
        tnp.experimental_enable_numpy_behavior(prefer_float32=False)
        _behavior_off(tf)


@program
def p_tnp_random_draws(tf):
    tnp = tf.experimental.numpy
    tnp.random.seed(7)
    return _table({
        "rand": lambda: tnp.random.rand(2, 3), "randn": lambda: tnp.random.randn(3),
        "standard_normal": lambda: tnp.random.standard_normal((2,)),
        "uniform": lambda: tnp.random.uniform(-2.0, 3.0, (4,)),
        "random": lambda: tnp.random.random((3,)), "randint": lambda: tnp.random.randint(10, size=5),
        "randint_range": lambda: tnp.random.randint(-3, 3, size=(2, 2), dtype=tnp.int32),
        "randint_dtype": (lambda: tnp.random.randint(3, dtype=tnp.float32), "invalid value"),
    })
