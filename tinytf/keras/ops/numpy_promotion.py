"""How keras.ops.numpy's functions promote their operands: Python scalars stay weak for Keras'
result_type, float functions compute in floatx for integers, and the factories of the one-line unary and
binary functions."""

from __future__ import annotations

import builtins

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import dtype_of, result_type, standardize_dtype

# Python's own abs/max/min under names the keras.ops modules can use next to their Keras functions of the same
# names (keras.ops.max, keras.ops.abs, ...).
_abs, _max, _min = builtins.abs, builtins.max, builtins.min


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


