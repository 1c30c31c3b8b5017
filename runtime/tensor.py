"""Tensors. `Tensor` is the common base (what users test with isinstance); `EagerTensor` holds a numpy
value; the symbolic tensor of a graph lives in graph.py. Python operators are installed by ops/operators.py
so that they dispatch through the same registry as `tf.add`."""

from __future__ import annotations

import numpy as np

from . import dtypes
from .shapes import TensorShape, as_shape, fmt, merge


class Tensor:
    """Base class of eager and symbolic tensors."""

    __slots__ = ()
    # make numpy defer to our reflected operators: ndarray + Tensor gives a Tensor, as in TensorFlow
    __array_priority__ = 100

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    @property
    def ndim(self):
        shape = self._shape
        return None if shape is None else len(shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """TF's set_shape: refine a graph tensor's static shape with what the caller knows (the usual step after
        tf.py_function, whose outputs have unknown shapes); an eager tensor's shape is only checked. ValueError
        when the shapes conflict."""
        given = as_shape(shape)
        merged = merge(self._shape, given)
        if merged is False:
            if self._shape is not None and given is not None and len(self._shape) != len(given):
                raise ValueError(f"Shapes must be equal rank, but are {len(self._shape)} and {len(given)}")
            raise ValueError(f"Tensor's shape {fmt(self._shape)} is not compatible with supplied shape {fmt(given)}.")
        if isinstance(self, EagerTensor):
            return
        self._shape = merged

    # Replaced in ops/operators.py (imported with the runtime package): `==` and `!=` are elementwise ops
    # (TF: `tensor == None` is False and `tensor != None` is True), and tensors are unhashable (tensor.ref()).
    __eq__ = None
    __ne__ = None
    __hash__ = None


class EagerTensor(Tensor):
    """A concrete tensor: a numpy array (or numpy scalar, for rank 0) and its tinytf dtype."""

    __slots__ = ("_value", "dtype", "__weakref__")

    def __init__(self, value, dtype):
        if type(value) is bytes:  # a string element taken out of an object array: keep it a 0-d array
            value = _string_scalar(value)
        self._value = value
        self.dtype = dtype

    @property
    def _shape(self):
        return self._value.shape

    def numpy(self):
        value = self._value
        if isinstance(value, np.ndarray):
            # a scalar is sometimes a 0-d array inside; TF gives a numpy scalar (np.float32(0.5)), and for a
            # string the bytes themselves (value[()] is both)
            return value[()] if not value.ndim else value.copy()
        return value

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self._value)
        return value if dtype is None else value.astype(dtype, copy=False)

    def __dlpack__(self, **kwargs):
        """The DLPack protocol (np.from_dlpack(t), torch.from_dlpack(t)): numpy exports the buffer."""
        return np.asarray(self._value).__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return np.asarray(self._value).__dlpack_device__()

    def __len__(self):
        shape = self._value.shape
        if not shape:
            raise TypeError("len() of unsized object: a scalar tensor has no length")
        return shape[0]

    def __iter__(self):
        if not self._value.shape:
            raise TypeError("Cannot iterate over a scalar tensor.")
        dtype = self.dtype
        return (EagerTensor(row, dtype) for row in self._value)

    def __bool__(self):
        return bool(self._value)

    def __index__(self):
        # TF calls numpy's __index__ on the value: a bool or float scalar has none (AttributeError, which a
        # py_function reports as UnknownError), an array refuses with TypeError
        value = self._value
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]
        return value.__index__()

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __complex__(self):
        return complex(self._value)

    def __format__(self, spec):
        if not self._value.shape:
            return format(self._value.item(), spec)
        # as TF's EagerTensor: the numpy value's format ("{}".format(t) prints [1 2], as the data guide's
        # feature batches show; a width or precision on an array raises numpy's TypeError)
        return format(self.numpy(), spec)

    def __reduce__(self):
        return EagerTensor, (self.numpy(), self.dtype)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __str__(self):
        text = str(self._value)
        sep = "\n" if "\n" in text else ""
        return f"tf.Tensor({sep}{text}, shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self):
        value = self._value
        # a scalar shows its exact Python value, as TF does: numpy=0.10000000149011612 for float32 0.1
        text = np.array_repr(value) if isinstance(value, np.ndarray) and value.ndim else repr(np.asarray(value).item())
        sep = "\n" if "\n" in text else ""
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={sep}{text}>"

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"


def _string_scalar(value: bytes) -> np.ndarray:
    array = np.empty((), dtype=object)
    array[()] = value
    return array


def wrap(value) -> EagerTensor:
    """Wrap a numpy value (array or numpy scalar) whose dtype is already right."""
    return EagerTensor(value, dtypes.of_numpy(value))
