"""keras.ops' result dtypes on TF 2.21 (Keras 3's promotion rules, which differ from TF's): every unary op over
the dtypes Keras supports, binary ops over tensor/tensor and tensor/Python-scalar pairs, reductions and
creation functions. Each entry is the result's dtype name, or the class of the error raised."""

from __future__ import annotations

import numpy as np

from . import program

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
UNARY = ["abs", "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil",
         "copy", "cos", "cosh", "cumprod", "cumsum", "deg2rad", "exp", "exp2", "expm1", "fabs", "floor", "isfinite",
         "isinf", "isnan", "log", "log10", "log1p", "log2", "logical_not", "negative", "rad2deg", "reciprocal",
         "round", "sign", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "mean", "sum",
         "prod", "max", "min", "std", "var", "all", "any", "argmax", "argmin", "argsort", "sort", "median",
         "count_nonzero", "ravel", "nan_to_num", "real", "imag", "conj", "angle", "ptp", "trace", "diagonal",
         "nanmean", "nansum", "nanmax", "rsqrt", "erf", "logsumexp", "zeros_like", "ones_like", "isposinf",
         "isneginf", "convert_to_tensor", "size", "nonzero"]
# Activations over the dtypes layers feed them (which bool or uint8 input TF refuses, and with which error
# class, is decided deep in its kernels).
ACTIVATIONS = ["relu", "sigmoid", "softmax", "gelu", "silu", "relu6", "elu", "selu", "softplus", "softsign",
               "log_sigmoid", "leaky_relu", "hard_sigmoid", "hard_silu", "celu", "glu", "hard_tanh", "hard_shrink",
               "soft_shrink", "tanh_shrink", "sparse_plus", "sparse_sigmoid", "squareplus", "log_softmax",
               "sparsemax"]
ACTIVATION_DTYPES = ["int32", "float16", "float32", "float64"]
BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "mod", "fmod", "maximum",
          "minimum", "arctan2", "hypot", "logaddexp", "equal", "not_equal", "greater", "less", "greater_equal",
          "less_equal", "logical_and", "logical_or", "logical_xor", "matmul", "dot", "inner", "outer", "vdot",
          "heaviside", "fmax", "fmin", "divide_no_nan", "isclose", "where_xy", "concatenate", "stack", "append",
          "tensordot", "kron", "cross"]
OPERANDS = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64", "py_int", "py_float"]


def _value(tf, kind, n=3):
    ops = tf.keras.ops
    base = np.array([1.0, 0.5, 0.25][:n] if n <= 3 else np.linspace(0.2, 0.8, n))
    if kind == "py_int":
        return 2
    if kind == "py_float":
        return 0.5
    if kind == "bool":
        return ops.convert_to_tensor(np.array([True, False, True][:n]))
    if "int" in kind:
        return ops.convert_to_tensor(np.array([1, 2, 3][:n]), dtype=kind)
    return ops.convert_to_tensor(base, dtype=kind)


def _dtype_of(tf, fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - the error class is the result
        return "error:" + type(e).__name__
    if isinstance(out, (tuple, list)):
        return [tf.keras.ops.dtype(o) for o in out]
    return tf.keras.ops.dtype(out)


def _unary(tf, name, kind):
    ops = tf.keras.ops
    x = _value(tf, kind, 4 if name == "glu" else 3)
    if name in ("trace", "diagonal"):
        x = ops.reshape(ops.concatenate([x, x, x]), (3, 3))
    fn = getattr(ops, name)
    return _dtype_of(tf, lambda: fn(x))


def _binary(tf, name, left, right):
    ops = tf.keras.ops
    a, b = _value(tf, left), _value(tf, right)
    if name == "where_xy":
        return _dtype_of(tf, lambda: ops.where(ops.convert_to_tensor([True, False, True]), a, b))
    if name in ("concatenate", "stack", "append"):
        if isinstance(a, (int, float)) or isinstance(b, (int, float)):
            return None
        fn = getattr(ops, name)
        return _dtype_of(tf, lambda: fn([a, b]) if name != "append" else fn(a, b))
    if name in ("tensordot", "kron", "outer", "inner", "vdot", "matmul", "dot", "cross") and (
            isinstance(a, (int, float)) or isinstance(b, (int, float))):
        return None
    if name == "tensordot":
        return _dtype_of(tf, lambda: ops.tensordot(a, b, axes=1))
    fn = getattr(ops, name)
    return _dtype_of(tf, lambda: fn(a, b))


@program
def p_keras_ops_unary_dtypes(tf):
    return {name: {kind: _unary(tf, name, kind) for kind in DTYPES} for name in UNARY}


@program
def p_keras_ops_activation_dtypes(tf):
    return {name: {kind: _unary(tf, name, kind) for kind in ACTIVATION_DTYPES} for name in ACTIVATIONS}


@program
def p_keras_ops_binary_dtypes_a(tf):
    return {name: {f"{a}|{b}": _binary(tf, name, a, b) for a in OPERANDS for b in OPERANDS}
            for name in BINARY[:20]}


@program
def p_keras_ops_binary_dtypes_b(tf):
    return {name: {f"{a}|{b}": _binary(tf, name, a, b) for a in OPERANDS for b in OPERANDS}
            for name in BINARY[20:]}


@program
def p_keras_ops_creation_dtypes(tf):
    ops = tf.keras.ops
    cases = {
        "arange_int": lambda: ops.arange(5), "arange_float": lambda: ops.arange(0.5, 3),
        "arange_mixed": lambda: ops.arange(0, 3, 0.5), "arange_dtype": lambda: ops.arange(3, dtype="int64"),
        "linspace": lambda: ops.linspace(0, 1, 5), "linspace_int": lambda: ops.linspace(0, 10, 5, dtype="int32"),
        "logspace": lambda: ops.logspace(0, 2, 3), "geomspace": lambda: ops.geomspace(1, 100, 3),
        "zeros": lambda: ops.zeros((2,)), "ones_int": lambda: ops.ones((2,), dtype="int32"),
        "full_int": lambda: ops.full((2,), 3), "full_float": lambda: ops.full((2,), 1.5),
        "full_bool": lambda: ops.full((2,), True),
        "full_like": lambda: ops.full_like(ops.ones((2,), "int32"), 2.5),
        "eye": lambda: ops.eye(3), "identity": lambda: ops.identity(2, dtype="int32"), "tri": lambda: ops.tri(3),
        "empty": lambda: ops.empty((2,)), "array_int": lambda: ops.array([1, 2]),
        "array_float": lambda: ops.array([1.0, 2.0]), "convert_int": lambda: ops.convert_to_tensor(3),
        "convert_float": lambda: ops.convert_to_tensor(2.5), "convert_bool": lambda: ops.convert_to_tensor(True),
        "convert_np64": lambda: ops.convert_to_tensor(np.array([1.0])),
        "convert_cast": lambda: ops.convert_to_tensor([1.7, 2.2], dtype="int32"),
        "one_hot": lambda: ops.one_hot(ops.array([0, 2]), 3),
        "multi_hot": lambda: ops.multi_hot(ops.array([[0, 2]]), 3),
        "bincount": lambda: ops.bincount(ops.array([0, 1, 1])),
        "bincount_w": lambda: ops.bincount(ops.array([0, 1, 1]), weights=ops.array([0.5, 1.0, 2.0])),
        "histogram": lambda: ops.histogram(ops.array([1.0, 2.0, 2.5]), bins=2),
        "searchsorted": lambda: ops.searchsorted(ops.array([1, 2, 3]), ops.array([2])),
        "digitize": lambda: ops.digitize(ops.array([0.5, 1.5]), ops.array([1.0, 2.0])),
        "unique": lambda: ops.unique(ops.array([3, 1, 3])),
        "top_k": lambda: ops.top_k(ops.array([1.0, 3.0, 2.0]), 2),
        "quantile": lambda: ops.quantile(ops.array([1, 2, 3, 4]), 0.5),
        "average_w": lambda: ops.average(ops.array([1, 2]), weights=ops.array([1, 3])),
        "mean_f16": lambda: ops.mean(ops.ones((2,), "float16")), "sum_u8": lambda: ops.sum(ops.ones((2,), "uint8")),
        "count_nonzero_axis": lambda: ops.count_nonzero(ops.ones((2, 2)), axis=0),
        "cast": lambda: ops.cast([1.5], "int32"), "saturate": lambda: ops.saturate_cast(ops.array([300]), "uint8"),
    }
    return {name: _dtype_of(tf, fn) for name, fn in cases.items()}
