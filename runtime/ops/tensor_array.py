"""tf.TensorArray: an array of tensors that loops can grow, functional as in TF2.

Its whole run-time state is one scalar `variant` handle tensor whose value is a TensorList (a Python list
of numpy element values). Every write is an op that returns a new handle (copying the list of references,
never the element data), so a TensorArray is an immutable Python object around one tensor: eagerly the ops
run at once, in graphs they are ordinary nodes, and cond/while_loop carry it as a composite of that tensor.
The static facts (element dtype, element shape, static size) live on the Python object and reach the
kernels as attributes.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..graph import SymbolicTensor
from ..registry import OpDef, register
from ..shapes import fmt
from ..tensor import EagerTensor, Tensor
from .core import const_op

VARIANT = dtypes.DType("variant", object)  # the dtype of TensorArray handles


class TensorList(list):
    """The value of a handle: element values by index, None where nothing was written yet. Kernels never
    mutate a TensorList they receive: they build a new one, so every handle keeps its own contents."""

    __slots__ = ()
    shape = ()  # a handle is a scalar tensor

    def __repr__(self):
        written = sum(value is not None for value in self)
        return f"TensorList(size={len(self)}, written={written})"


# --- helpers shared by the kernels ------------------------------------------------------------------------
def _fits(shape, element_shape) -> bool:
    """True when a concrete shape is one that the (partial) element shape allows."""
    return element_shape is None or shape == element_shape or shapes.is_subshape(shape, element_shape)


def _zeros(dtype, element_shape, problem: str):
    """TF's stand-in for an element never written: zeros, which needs a fully defined element shape."""
    if element_shape is None or None in element_shape:
        raise InvalidArgumentError(
            f"{problem} but element_shape is not fully defined: {fmt(element_shape)} and no list element is "
            "set (give the TensorArray a full element_shape to read unwritten elements as zeros)")
    return np.zeros(element_shape, dtype.np)[()]


def _empty(dtype, element_shape):
    """No elements, stacked. Where the element shape is not fully known this is a plain empty vector, as in
    TF's eager TensorArray (its graph kernels raise instead; tinytf keeps eager and graphs alike)."""
    if element_shape is None or None in element_shape:
        return np.zeros((0,), dtype.np)
    return np.zeros((0,) + tuple(element_shape), dtype.np)


def _element(items, index: int, dtype, element_shape):
    if index < 0:
        raise InvalidArgumentError(f"Reading from negative indices (index {index}) is not allowed.")
    if index >= len(items):
        raise InvalidArgumentError(f"Tried to read from index {index} but array size is: {len(items)}")
    value = items[index]
    if value is None:
        return _zeros(dtype, element_shape, f"Trying to read an uninitialized tensor at index {index}")
    if not _fits(value.shape, element_shape):
        raise InvalidArgumentError(f"the element at index {index} has shape {fmt(value.shape)}, which is "
                                   f"incompatible with the TensorArray's element shape {fmt(element_shape)}")
    return value


def _put(items: TensorList, index: int, value, dynamic_size: bool) -> None:
    """Store `value` at `index` of a list the caller has just copied (growing it if dynamic)."""
    if index < 0:
        raise InvalidArgumentError(f"Writing to negative indices (index {index}) is not allowed.")
    size = len(items)
    if index < size:
        items[index] = value
        return
    if not dynamic_size:
        raise InvalidArgumentError(
            f"Tried to write to index {index} but array is not resizeable and size is: {size} "
            "(create the TensorArray with dynamic_size=True to let it grow)")
    items.extend([None] * (index - size))
    items.append(value)


def _stacked(values, element_shape, what: str):
    try:
        result = _joined(values)
    except ValueError:
        seen = ", ".join(sorted({fmt(v.shape) for v in values}))
        raise InvalidArgumentError(f"cannot {what} elements of different shapes: {seen}") from None
    if not _fits(result.shape[1:], element_shape):
        raise InvalidArgumentError(f"the elements have shape {fmt(result.shape[1:])}, which is incompatible "
                                   f"with the TensorArray's element shape {fmt(element_shape)}")
    return result


def _joined(values):
    """np.stack(values): for arrays of one shape and dtype (a TensorArray's elements), copied into the result
    by one concatenation along its first axis, without np.stack's view of each element with a new axis (an
    RNN's stacked outputs: 50 views, 5 KiB at the call's peak, where every step's output and the result are
    alive)."""
    first = values[0]
    shape, dtype = first.shape, first.dtype
    if not shape or any(v.shape != shape or v.dtype != dtype for v in values):
        return np.stack(values)
    result = np.empty((len(values), *shape), dtype)
    np.concatenate(values, axis=0, out=result.reshape(len(values) * shape[0], *shape[1:]))
    return result


def _check_value_shape(shape, element_shape, index=None) -> None:
    if not _fits(shape, element_shape):
        where = "" if index is None else f" at index {index}"
        raise InvalidArgumentError(f"Incompatible shape for value{where} ({fmt(shape)}), expected "
                                   f"({fmt(element_shape)})")


# --- inference helpers ------------------------------------------------------------------------------------
def _check_handle(handle) -> None:
    if handle.dtype is not VARIANT:
        raise TypeError(f"expected a TensorArray handle (dtype variant), got dtype {handle.dtype.name}")


def _check_scalar_int(t, what: str) -> None:
    if not t.dtype.is_integer:
        raise TypeError(f"the {what} must be an integer, got dtype {t.dtype.name}")
    if t._shape is not None and t._shape != ():
        raise ValueError(f"the {what} must be a scalar, got shape {fmt(t._shape)}")


def _check_indices(t) -> None:
    if not t.dtype.is_integer:
        raise TypeError(f"the indices must be integers, got dtype {t.dtype.name}")
    if t._shape is not None and len(t._shape) != 1:
        raise ValueError(f"the indices must be a vector, got shape {fmt(t._shape)}")


def _check_dtype(value, dtype) -> None:
    if value.dtype is not dtype:
        # InvalidArgumentError in graphs too, as TF's TensorArray check (a plain TypeError would stay one)
        raise InvalidArgumentError(f"TensorArray dtype is {dtype.name} but Op is trying to write dtype "
                                   f"{value.dtype.name} (use tf.cast)")


def _check_rows(value, element_shape) -> None:
    """`value` is split along its first dimension into elements (unstack, scatter)."""
    shape = value._shape
    if shape is None:
        return
    if not shape:
        raise ValueError("the value must have rank at least 1 to be split into elements, got a scalar")
    if not shapes.compatible(shape[1:], element_shape):
        raise ValueError(f"Incompatible shape for the elements ({fmt(shape[1:])}), expected "
                         f"({fmt(element_shape)})")


def _prepend(dim, element_shape):
    return None if element_shape is None else (dim,) + tuple(element_shape)


# --- the ops --------------------------------------------------------------------------------------------
def _new_kernel(size, *, dtype, element_shape):
    count = int(size)
    if count < 0:
        raise InvalidArgumentError(f"a TensorArray cannot have a negative size, got {count}")
    return TensorList([None] * count)


def _infer_new(size, *, dtype, element_shape):
    _check_scalar_int(size, "size")
    return VARIANT, ()


new_op = register(OpDef("tensor_array_new", _new_kernel, _infer_new, differentiable=False, foldable=False,
                        doc="a TensorArray handle with `size` unwritten elements"))


def _write_kernel(handle, index, value, *, dtype, element_shape, dynamic_size):
    index = int(index)
    if element_shape is not None:
        _check_value_shape(value.shape, element_shape, index)
    items = TensorList(handle)
    _put(items, index, value, dynamic_size)
    return items


def _infer_write(handle, index, value, *, dtype, element_shape, dynamic_size):
    _check_handle(handle)
    _check_scalar_int(index, "index")
    _check_dtype(value, dtype)
    if not shapes.compatible(value._shape, element_shape):
        raise ValueError(f"Incompatible shape for value ({fmt(value._shape)}), expected ({fmt(element_shape)})")
    return VARIANT, ()


write_op = register(OpDef("tensor_array_write", _write_kernel, _infer_write, foldable=False,
                          doc="a new handle whose element `index` is `value`"))


def _read_kernel(handle, index, *, dtype, element_shape):
    return _element(handle, int(index), dtype, element_shape)


def _infer_read(handle, index, *, dtype, element_shape):
    _check_handle(handle)
    _check_scalar_int(index, "index")
    return dtype, element_shape


read_op = register(OpDef("tensor_array_read", _read_kernel, _infer_read, foldable=False,
                         doc="element `index` of a TensorArray"))


def _stack_kernel(handle, *, dtype, element_shape, num_elements):
    size = len(handle)
    if num_elements is not None and size != num_elements:
        raise InvalidArgumentError(f"the TensorArray holds {size} elements but its static size is {num_elements}")
    if not size:
        return _empty(dtype, element_shape)
    return _stacked([_element(handle, i, dtype, element_shape) for i in range(size)], element_shape, "stack")


def _infer_stack(handle, *, dtype, element_shape, num_elements):
    _check_handle(handle)
    return dtype, _prepend(num_elements, element_shape)


stack_op = register(OpDef("tensor_array_stack", _stack_kernel, _infer_stack, foldable=False,
                          doc="all elements stacked along a new first dimension"))


def _gather_kernel(handle, indices, *, dtype, element_shape):
    if not len(indices):
        return _empty(dtype, element_shape)
    values = [_element(handle, int(i), dtype, element_shape) for i in indices]
    return _stacked(values, element_shape, "gather")


def _infer_gather(handle, indices, *, dtype, element_shape):
    _check_handle(handle)
    _check_indices(indices)
    count = None if indices._shape is None else indices._shape[0]
    return dtype, _prepend(count, element_shape)


gather_op = register(OpDef("tensor_array_gather", _gather_kernel, _infer_gather, foldable=False,
                           doc="the elements at `indices`, stacked"))


def _concat_kernel(handle, *, dtype, element_shape, num_elements):
    inner = None if element_shape is None else element_shape[1:]
    if not handle:
        return _empty(dtype, inner)
    values = [_element(handle, i, dtype, element_shape) for i in range(len(handle))]
    for i, value in enumerate(values):
        if not value.shape:
            raise InvalidArgumentError(f"Concat saw a scalar shape at index {i} but requires at least vectors.")
    try:
        result = np.concatenate(values)
    except ValueError:
        seen = ", ".join(sorted({fmt(v.shape) for v in values}))
        raise InvalidArgumentError(f"cannot concat elements whose shapes differ past the first dimension: "
                                   f"{seen}") from None
    if not _fits(result.shape[1:], inner):
        raise InvalidArgumentError(f"the elements have shape (?, {fmt(result.shape[1:])[1:]}, which is "
                                   f"incompatible with the TensorArray's element shape {fmt(element_shape)}")
    return result


def _infer_concat(handle, *, dtype, element_shape, num_elements):
    _check_handle(handle)
    if element_shape is None:
        return dtype, None
    if not element_shape:
        raise ValueError("Concat saw a scalar shape at index 0 but requires at least vectors: the elements "
                         "of this TensorArray are scalars (use stack)")
    first = element_shape[0]
    total = None if first is None or num_elements is None else first * num_elements
    return dtype, (total,) + tuple(element_shape[1:])


concat_op = register(OpDef("tensor_array_concat", _concat_kernel, _infer_concat, foldable=False,
                           doc="all elements concatenated along their first dimension"))


def _unstack_kernel(handle, value, *, dtype, element_shape, dynamic_size):
    if not np.ndim(value):
        raise InvalidArgumentError("the value must have rank at least 1 to be split into elements, got a scalar")
    rows = value.shape[0]
    if not dynamic_size and rows > len(handle):
        raise InvalidArgumentError(f"Cannot unstack {rows} tensors into a TensorArray of static size {len(handle)} "
                                   "(create it with dynamic_size=True to let it grow)")
    _check_value_shape(value.shape[1:], element_shape)
    return TensorList(value)  # the rows: views of `value` (numpy scalars for a vector), never copies


def _infer_unstack(handle, value, *, dtype, element_shape, dynamic_size):
    _check_handle(handle)
    _check_dtype(value, dtype)
    _check_rows(value, element_shape)
    return VARIANT, ()


unstack_op = register(OpDef("tensor_array_unstack", _unstack_kernel, _infer_unstack, foldable=False,
                            doc="a new handle whose elements are the rows of `value`"))


def _scatter_kernel(handle, indices, value, *, dtype, element_shape, dynamic_size):
    if not np.ndim(value):
        raise InvalidArgumentError("the value must have rank at least 1 to be split into elements, got a scalar")
    if len(indices) != value.shape[0]:
        raise InvalidArgumentError(f"scatter needs one index per row of the value: got {len(indices)} indices "
                                   f"for {value.shape[0]} rows")
    _check_value_shape(value.shape[1:], element_shape)
    items = TensorList(handle)
    for index, row in zip(indices, value):
        _put(items, int(index), row, dynamic_size)
    return items


def _infer_scatter(handle, indices, value, *, dtype, element_shape, dynamic_size):
    _check_handle(handle)
    _check_indices(indices)
    _check_dtype(value, dtype)
    _check_rows(value, element_shape)
    count, rows = (None if t._shape is None else t._shape[0] for t in (indices, value))
    if count is not None and rows is not None and count != rows:
        raise ValueError(f"scatter needs one index per row of the value: got {count} indices for {rows} rows")
    return VARIANT, ()


scatter_op = register(OpDef("tensor_array_scatter", _scatter_kernel, _infer_scatter, foldable=False,
                            doc="a new handle with the rows of `value` written at `indices`"))


def _size_kernel(handle):
    return np.int32(len(handle))


def _infer_size(handle):
    _check_handle(handle)
    return dtypes.int32, ()


size_op = register(OpDef("tensor_array_size", _size_kernel, _infer_size, differentiable=False, foldable=False,
                         doc="the number of elements of a TensorArray"))


# --- the Python object ------------------------------------------------------------------------------------
def _static_int(t):
    """The value of a scalar integer tensor when it is known before run time, else None."""
    if isinstance(t, EagerTensor):
        return int(t._value)
    if isinstance(t, SymbolicTensor) and t.node.op is const_op:
        return int(t.node.attrs["value"])
    return None


def _join_shapes(a, b, infer_shape: bool):
    """The element shape valid on two paths. With shape inference on, an unknown element shape means no
    element of known shape was written on that path, so the other path's shape holds for both."""
    if infer_shape:
        if a is None:
            return b
        if b is None:
            return a
    return shapes.most_specific_common(a, b)


class TensorArray:
    """`tf.TensorArray`: write/read/stack/unstack/gather/scatter/concat; every write returns a new
    TensorArray (use `ta = ta.write(i, x)`). `clear_after_read` is accepted and ignored, as in TF2 graphs:
    elements can be read any number of times. Reading an element never written gives zeros when the
    element shape is fully defined, and TF's error otherwise."""

    __slots__ = ("_handle", "_dtype", "_element_shape", "_size", "_dynamic_size", "_infer_shape")

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = bool(infer_shape)
        self._element_shape = shapes.as_shape(element_shape)
        existing = flow if flow is not None else handle
        if existing is not None:
            if size is not None:
                raise ValueError("Cannot provide both `flow` and `size` arguments at the same time.")
            if not isinstance(existing, Tensor) or existing.dtype is not VARIANT:
                raise TypeError(f"Expected `flow` to be a variant tensor (a TensorArray's flow), got {existing!r}")
            self._handle, self._size = existing, None
            return
        if size is None:
            raise ValueError("Argument `size` must be provided if argument `flow` is not provided.")
        size = convert_to_tensor(size, dtype_hint=dtypes.int32)
        self._size = None if self._dynamic_size else _static_int(size)
        self._handle = apply(new_op, [size], {"dtype": self._dtype, "element_shape": self._element_shape})

    @classmethod
    def _make(cls, handle, dtype, element_shape, size, dynamic_size, infer_shape) -> TensorArray:
        ta = object.__new__(cls)
        ta._handle, ta._dtype, ta._element_shape = handle, dtype, element_shape
        ta._size, ta._dynamic_size, ta._infer_shape = size, dynamic_size, infer_shape
        return ta

    def _with(self, handle, element_shape=None, size=None) -> TensorArray:
        return TensorArray._make(handle, self._dtype, element_shape, size, self._dynamic_size, self._infer_shape)

    # --- properties ---------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self) -> shapes.TensorShape:
        return shapes.TensorShape(self._element_shape)

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def flow(self) -> Tensor:
        """The variant tensor that holds the whole state (TF2's name for it)."""
        return self._handle

    handle = flow

    # --- reading ------------------------------------------------------------------------------------
    def read(self, index, name=None) -> Tensor:
        index = convert_to_tensor(index, dtype_hint=dtypes.int32)
        return apply(read_op, [self._handle, index], {"dtype": self._dtype, "element_shape": self._element_shape})

    def stack(self, name=None) -> Tensor:
        return apply(stack_op, [self._handle], {"dtype": self._dtype, "element_shape": self._element_shape,
                                                "num_elements": self._size})

    def gather(self, indices, name=None) -> Tensor:
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
        return apply(gather_op, [self._handle, indices], {"dtype": self._dtype,
                                                          "element_shape": self._element_shape})

    def concat(self, name=None) -> Tensor:
        return apply(concat_op, [self._handle], {"dtype": self._dtype, "element_shape": self._element_shape,
                                                 "num_elements": self._size})

    def size(self, name=None) -> Tensor:
        if self._size is not None:
            return convert_to_tensor(self._size, dtypes.int32)
        return apply(size_op, [self._handle])

    # --- writing: each returns a new TensorArray ------------------------------------------------------
    def write(self, index, value, name=None) -> TensorArray:
        index = convert_to_tensor(index, dtype_hint=dtypes.int32)
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        handle = apply(write_op, [self._handle, index, value], self._write_attrs())
        return self._with(handle, self._refined(value._shape), self._size)

    def unstack(self, value, name=None) -> TensorArray:
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        handle = apply(unstack_op, [self._handle, value], self._write_attrs())
        rows = None if value._shape is None or self._dynamic_size else value._shape[0]
        return self._with(handle, self._refined(_rows_shape(value)), rows)

    def scatter(self, indices, value, name=None) -> TensorArray:
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        handle = apply(scatter_op, [self._handle, indices, value], self._write_attrs())
        return self._with(handle, self._refined(_rows_shape(value)), self._size)

    def identity(self) -> TensorArray:
        return self._with(self._handle, self._element_shape, self._size)

    def close(self, name=None) -> None:
        """Nothing to release: the elements go when the last handle holding them does."""

    def _write_attrs(self) -> dict:
        return {"dtype": self._dtype, "element_shape": self._element_shape, "dynamic_size": self._dynamic_size}

    def _refined(self, value_shape):
        """The element shape after writing values of `value_shape` (merged in when inferring shapes)."""
        if not self._infer_shape:
            return self._element_shape
        merged = shapes.merge(self._element_shape, value_shape)
        return self._element_shape if merged is False else merged

    # --- composite protocol (runtime/nest.py): how control flow carries a TensorArray ------------------
    def _to_components(self) -> list:
        return [self._handle]

    def _from_components(self, components) -> TensorArray:
        (handle,) = components
        return self._with(handle, self._element_shape, self._size)

    def _join(self, other) -> TensorArray:
        """The TensorArray whose static facts hold for both `self` and `other` (two paths of a cond, or
        the values before and after one iteration of a loop)."""
        if other._dtype is not self._dtype:
            raise TypeError(f"the element dtype changes from {self._dtype.name} to {other._dtype.name}")
        infer = self._infer_shape and other._infer_shape
        return TensorArray._make(self._handle, self._dtype,
                                 _join_shapes(self._element_shape, other._element_shape, infer),
                                 self._size if self._size == other._size else None,
                                 self._dynamic_size or other._dynamic_size, self._infer_shape)

    def _is_subtype_of(self, general) -> bool:
        """True when every fact `general` states also holds for `self` (a loop body traced with `general`
        stays valid for `self`)."""
        return (self._dtype is general._dtype and self._dynamic_size == general._dynamic_size
                and (general._size is None or self._size == general._size)
                and shapes.is_subshape(self._element_shape, general._element_shape))

    def __repr__(self):
        size = "dynamic" if self._dynamic_size else ("unknown" if self._size is None else self._size)
        return f"<tf.TensorArray dtype={self._dtype.name} element_shape={fmt(self._element_shape)} size={size}>"


def _rows_shape(value):
    """The element shape of the rows of `value` (unknown when its rank is)."""
    return None if value._shape is None or not value._shape else value._shape[1:]


__all__ = ["TensorArray"]
