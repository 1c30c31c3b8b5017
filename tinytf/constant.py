"""tf.constant and tf.convert_to_tensor."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor as _convert
from tinytf.runtime.graph import SymbolicTensor
from tinytf.runtime.ops.array import fill, reshape
from tinytf.runtime.ops.math import cast
from tinytf.runtime.shapes import as_shape
from tinytf.runtime.tensor import Tensor


def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding a copy of `value`; with `shape`, a one-element value is broadcast (or a list reshaped)."""
    if isinstance(value, np.ndarray):
        value = value.copy()
    if isinstance(value, SymbolicTensor):  # TF: a constant holds a value known now, not a graph's tensor
        raise TypeError("Expected any non-tensor type, but got a tensor instead.")
    if isinstance(value, Tensor):
        tensor = value
        if dtype is not None and tensor.dtype is not dtypes.as_dtype(dtype):
            tensor = cast(tensor, dtype)
    else:
        tensor = _convert(value, dtype, name=name or "Const")  # TF's node name in a graph
    if shape is not None:
        target = as_shape(shape)
        size, wanted = int(np.prod(tensor._shape)), int(np.prod(target))
        if size == 1 and wanted != 1:
            return fill(target, reshape(tensor, ()))
        if size != wanted:  # TF's error class and words
            raise TypeError(f"tf.constant with unsupported shape: {value!r} has {size} elements, but got "
                            f"`shape` {tuple(target)} with {wanted} elements.")
        return reshape(tensor, target)
    return tensor


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    return _convert(value, dtype, name=name or "Const", dtype_hint=dtype_hint)
