"""experimental_enable_numpy_behavior: NumPy's methods on tf.Tensor (T, reshape, ravel, astype, clip, ...)
and NumPy's dtype promotion in tensor operators (`int32 + float32` is float64; `int / int` is float64), as
TF 2.21 does it. TF can only switch it on; tinytf also keeps what it replaced, so that tests (which share one
process) can switch it off again with `_disable_numpy_behavior`."""

from __future__ import annotations

import tinytf as tf

from . import np_indexing, np_math, np_products, np_reductions, np_shapes
from .np_dtypes import set_prefer_float32

_replaced: dict = {}  # attribute name -> what tf.Tensor had before (None: nothing)


def _reshape_method(a, *newshape, **kwargs):
    """x.reshape(2, 3) or x.reshape((2, 3)), order='C' or 'F'."""
    order = kwargs.pop("order", "C")
    if kwargs:
        raise ValueError(f"Unsupported arguments: {kwargs.keys()}")
    if len(newshape) == 1 and not isinstance(newshape[0], int):
        newshape = newshape[0]
    return np_shapes.reshape(a, newshape, order=order)


def _transpose_method(a, *axes):
    if len(axes) == 1 and not isinstance(axes[0], int):
        axes = axes[0]
    return np_shapes.transpose(a, axes or None)


def _size(self):
    if self.shape.is_fully_defined():
        result = 1
        for d in self.shape.as_list():
            result *= d
        return result
    return tf.size(self)


def _reflected(fn):
    return lambda self, other: fn(other, self)


def _numpy_getitem(basic_getitem):
    def __getitem__(self, key):  # noqa: N807 - the method it installs
        return np_indexing.getitem(self, key, basic_getitem)
    return __getitem__


def _methods() -> dict:
    return {
        "__getitem__": _numpy_getitem(tf.Tensor.__getitem__),
        "T": property(lambda self: np_shapes.transpose(self)),
        "size": property(_size),
        "data": property(lambda self: self),
        "__pos__": lambda self: self,
        "tolist": lambda self: self.numpy().tolist(),
        "transpose": _transpose_method,
        "flatten": np_shapes.flatten,
        "reshape": _reshape_method,
        "ravel": np_shapes.ravel,
        "clip": np_math.clip,
        "astype": lambda self, dtype: tf.cast(self, dtype),
        "__round__": np_math.around,
        "max": np_reductions.amax,
        "mean": np_reductions.mean,
        "min": np_reductions.amin,
        # NumPy's promotion in operators
        "__add__": np_math.add, "__radd__": _reflected(np_math.add),
        "__sub__": np_math.subtract, "__rsub__": _reflected(np_math.subtract),
        "__mul__": np_math.multiply, "__rmul__": _reflected(np_math.multiply),
        "__truediv__": np_math.true_divide, "__rtruediv__": _reflected(np_math.true_divide),
        "__floordiv__": np_math.floor_divide, "__rfloordiv__": _reflected(np_math.floor_divide),
        "__mod__": np_math.mod, "__rmod__": _reflected(np_math.mod),
        "__pow__": np_math.power, "__rpow__": _reflected(np_math.power),
        "__matmul__": np_products.matmul, "__rmatmul__": _reflected(np_products.matmul),
        "__lt__": np_math.less, "__le__": np_math.less_equal,
        "__gt__": np_math.greater, "__ge__": np_math.greater_equal,
    }


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """`tnp.experimental_enable_numpy_behavior`: NumPy methods on tensors and NumPy promotion in operators;
    prefer_float32 makes Python floats float32 in tnp's inference (default: float64, as NumPy)."""
    if dtype_conversion_mode not in ("legacy", "off", "safe", "all"):
        raise ValueError(f"Unsupported dtype_conversion_mode {dtype_conversion_mode!r}: "
                         "use 'off', 'legacy', 'safe' or 'all'")
    if dtype_conversion_mode != "legacy":
        raise NotImplementedError(f"experimental_enable_numpy_behavior: dtype_conversion_mode="
                                  f"{dtype_conversion_mode!r} (TF's weak-tensor promotion) is not implemented in "
                                  "tinytf; the default 'legacy' (NumPy's promotion) is")
    set_prefer_float32(prefer_float32)
    if _replaced:
        return
    for name, value in _methods().items():
        _replaced[name] = tf.Tensor.__dict__.get(name)
        setattr(tf.Tensor, name, value)


def _disable_numpy_behavior():
    """Undo experimental_enable_numpy_behavior (tinytf only: for tests sharing one process)."""
    set_prefer_float32(False)
    for name, value in _replaced.items():
        if value is None:
            delattr(tf.Tensor, name)
        else:
            setattr(tf.Tensor, name, value)
    _replaced.clear()


__all__ = ["experimental_enable_numpy_behavior"]
