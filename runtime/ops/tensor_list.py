"""TF 2's TensorList ops with value semantics: what TensorFlow writes for TensorArrays and for the accumulators of
while-loop gradients (EmptyTensorList + TensorListPushBack in the forward body, TensorListPopBack in the
gradient loop), so that graphs TensorFlow wrote run here (tinytf/graph_def/tf_import.py maps TF's nodes to these
ops one for one).

A list value is a `ValueList`: a TensorList (element values by index, None where nothing was set) that also
knows its element shape. Every op returns a new list and never changes the one it got, so a list that a loop
carries, a gradient loop reads, or two branches share keeps its contents. A push copies the list of references
(never element data): O(n) per push, which the lists TF's graphs carry can afford. tinytf's own while-loop
gradients keep their values in the faster mutable stacks of ops/gradient_stack.py instead.

Element shapes travel as int32 tensors as in TF: -1 for an unknown dimension, the scalar -1 for an unknown
rank. Reading an element nothing was set to gives zeros when the element shape is fully known (TF's rule)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from ..shapes import fmt
from ..tensor import Tensor
from .static_value import constant_value
from .tensor_array import VARIANT, TensorList


class ValueList(TensorList):
    """A TensorList that knows its element shape (None: unknown rank; None entries: unknown dimensions) and its
    element dtype (a numpy dtype; None for a list a gradient rule made)."""

    __slots__ = ("element_shape", "element_dtype")

    def __init__(self, items=(), element_shape=None, element_dtype=None):
        super().__init__(items)
        self.element_shape = element_shape
        self.element_dtype = element_dtype

    def __repr__(self):
        return f"ValueList(size={len(self)}, element_shape={fmt(self.element_shape)})"


# --- element shapes: TF's int tensor encoding <-> tinytf's partial shapes ----------------------------------------
def decode_shape(value):
    """A partial shape (tuple with None, or None for unknown rank) from TF's int encoding."""
    value = np.asarray(value)
    if value.ndim == 0:
        if int(value) != -1:
            raise InvalidArgumentError(f"an element shape must be a vector or the scalar -1, got {int(value)}")
        return None
    return tuple(None if int(d) < 0 else int(d) for d in value)


def encode_shape(shape):
    """TF's int32 encoding of a partial shape."""
    if shape is None:
        return np.int32(-1)
    return np.array([-1 if d is None else d for d in shape], np.int32)


def _merge(a, b):
    """The more specific of two compatible partial shapes."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise InvalidArgumentError(f"Incompatible ranks during merge of element shapes: {fmt(a)} vs. {fmt(b)}")
    out = []
    for x, y in zip(a, b):
        if x is not None and y is not None and x != y:
            raise InvalidArgumentError(f"Incompatible element shapes: {fmt(a)} vs. {fmt(b)}")
        out.append(x if x is not None else y)
    return tuple(out)


def _list_shape(items):
    return getattr(items, "element_shape", None)


def _like(items, values, element_shape=None):
    """A new ValueList of `values` with the element shape and dtype of `items`."""
    shape = _list_shape(items) if element_shape is None else element_shape
    return ValueList(values, shape, getattr(items, "element_dtype", None))


def _check_dtype(items, element_dtype, op):
    """TF's check that an op's element_dtype is the list's (a list a gradient rule made has none)."""
    held = getattr(items, "element_dtype", None)
    if held is not None and held != element_dtype.np:
        raise InvalidArgumentError(f"{op}: Invalid data types; op elements {element_dtype.name} but list elements "
                                   f"{np.dtype(held).name}")


def _static_shape(t):
    """The partial element shape a shape tensor gives at trace time (None when it is not known then)."""
    value = constant_value(t)
    return None if value is None else decode_shape(value)


def _zeros(dtype, shape, index):
    if shape is None or None in shape:
        raise InvalidArgumentError(
            f"Trying to read an uninitialized tensor at index {index} but element_shape is not fully defined: "
            f"{fmt(shape)} (TF reads such an element as zeros only when its shape is fully known)")
    return np.zeros(shape, dtype.np)[()]


def _check_list(handle, what):
    if handle.dtype is not VARIANT:
        raise TypeError(f"{what}: expected a TensorList (dtype variant), got dtype {handle.dtype.name}")


def _check_int(t, what, op):
    if not t.dtype.is_integer:
        raise TypeError(f"{op}: the {what} must be an integer tensor, got dtype {t.dtype.name}")


def _check_element(value, element_dtype, element_shape, op):
    if value.dtype is not element_dtype:
        raise InvalidArgumentError(f"{op}: Invalid data types; list elements {element_dtype.name} but tried to "
                                   f"add {value.dtype.name}")
    if element_shape is not None and value._shape is not None:
        if len(element_shape) != len(value._shape) or any(
                a is not None and b is not None and a != b for a, b in zip(element_shape, value._shape)):
            raise ValueError(f"{op}: the element has shape {fmt(value._shape)}, which is incompatible with the "
                             f"list's element shape {fmt(element_shape)}")


def _fits(value, element_shape, op):
    if element_shape is None:
        return
    shape = np.shape(value)
    if len(shape) != len(element_shape) or any(d is not None and d != s for d, s in zip(element_shape, shape)):
        raise InvalidArgumentError(f"{op}: Tried to set a tensor with incompatible shape at a list index. Item "
                                   f"element shape: {fmt(shape)} list shape: {fmt(element_shape)}")


def _list(*args, **attrs):
    return VARIANT, ()


def _op(name, kernel, infer, doc, differentiable=True):
    return register(OpDef(name, kernel, infer, differentiable=differentiable, foldable=False, doc=doc))


# --- creating lists ------------------------------------------------------------------------------------------------
def _empty_kernel(element_shape, max_num_elements, *, element_dtype):
    return ValueList((), decode_shape(element_shape), element_dtype.np)


def _infer_empty(element_shape, max_num_elements, *, element_dtype):
    _check_int(element_shape, "element_shape", "EmptyTensorList")
    _check_int(max_num_elements, "max_num_elements", "EmptyTensorList")
    return VARIANT, ()


empty_op = _op("tensor_list_empty", _empty_kernel, _infer_empty, "TF's EmptyTensorList: a list with no elements",
               differentiable=False)


def _reserve_kernel(element_shape, num_elements, *, element_dtype):
    count = int(num_elements)
    if count < 0:
        raise InvalidArgumentError(f"The num_elements to reserve must be a non negative number, but got {count}")
    return ValueList([None] * count, decode_shape(element_shape), element_dtype.np)


def _infer_reserve(element_shape, num_elements, *, element_dtype):
    _check_int(element_shape, "element_shape", "TensorListReserve")
    _check_int(num_elements, "num_elements", "TensorListReserve")
    return VARIANT, ()


reserve_op = _op("tensor_list_reserve", _reserve_kernel, _infer_reserve,
                 "TF's TensorListReserve: `num_elements` elements, none set yet", differentiable=False)


def _from_tensor_kernel(tensor, element_shape, *, element_dtype):
    shape = _merge(decode_shape(element_shape), tuple(np.shape(tensor)[1:]))
    return ValueList(list(np.asarray(tensor)), shape, element_dtype.np)


def _infer_from_tensor(tensor, element_shape, *, element_dtype):
    if tensor._shape == ():
        raise ValueError("TensorListFromTensor: the tensor must be at least a vector, got a scalar")
    if tensor.dtype is not element_dtype:
        raise TypeError(f"TensorListFromTensor: element_dtype {element_dtype.name} but the tensor is "
                        f"{tensor.dtype.name}")
    return VARIANT, ()


from_tensor_op = _op("tensor_list_from_tensor", _from_tensor_kernel, _infer_from_tensor,
                     "TF's TensorListFromTensor: the rows of a tensor as a list")


def _zeros_like_kernel(handle):
    return _like(handle, [None] * len(handle))


def _infer_zeros_like(handle):
    _check_list(handle, "ZerosLike")
    return VARIANT, ()


zeros_like_op = _op("tensor_list_zeros_like", _zeros_like_kernel, _infer_zeros_like,
                    "TF's ZerosLike of a list: as many elements, none set (each reads as zeros)", differentiable=False)


def _add_kernel(a, b):
    if len(a) != len(b):
        raise InvalidArgumentError(f"Trying to add two lists of tensors with different lengths. One is {len(a)} "
                                   f"and the other is {len(b)}")
    items = [y if x is None else x if y is None else x + y for x, y in zip(a, b)]
    return _like(a, items, _merge(_list_shape(a), _list_shape(b)))


def _infer_add(a, b):
    _check_list(a, "AddN")
    _check_list(b, "AddN")
    return VARIANT, ()


add_op = _op("tensor_list_add", _add_kernel, _infer_add,
             "TF's AddN of lists: the elementwise sum (an element set in one list only is taken as it is)")


# --- reading and writing -------------------------------------------------------------------------------------------
def _push_back_kernel(handle, tensor, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListPushBack")
    _fits(tensor, _list_shape(handle), "TensorListPushBack")
    items = list(handle)  # one copy of the references (the pushed-onto list keeps its own)
    items.append(tensor)
    return _like(handle, items)


def _infer_push_back(handle, tensor, *, element_dtype):
    _check_list(handle, "TensorListPushBack")
    _check_element(tensor, element_dtype, None, "TensorListPushBack")
    return VARIANT, ()


push_back_op = _op("tensor_list_push_back", _push_back_kernel, _infer_push_back,
                   "TF's TensorListPushBack: the list with `tensor` appended")


def _pop_back_kernel(handle, element_shape, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListPopBack")
    if not len(handle):
        raise InvalidArgumentError("Trying to pop from an empty list.")
    shape = _merge(_list_shape(handle), decode_shape(element_shape))
    value = handle[-1]
    item = _zeros(element_dtype, shape, len(handle) - 1) if value is None else value
    return _like(handle, handle[:-1]), item


def _infer_pop_back(handle, element_shape, *, element_dtype):
    _check_list(handle, "TensorListPopBack")
    return [(VARIANT, ()), (element_dtype, _static_shape(element_shape))]


pop_back_op = _op("tensor_list_pop_back", _pop_back_kernel, _infer_pop_back,
                  "TF's TensorListPopBack: (the list without its last element, that element)")


def _index(handle, index, op):
    index = int(index)
    if index < 0 or index >= len(handle):
        raise InvalidArgumentError(f"{op}: Trying to access element {index} in a list with {len(handle)} elements.")
    return index


def _get_item_kernel(handle, index, element_shape, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListGetItem")
    index = _index(handle, index, "TensorListGetItem")
    value = handle[index]
    if value is None:
        return _zeros(element_dtype, _merge(_list_shape(handle), decode_shape(element_shape)), index)
    return value


def _infer_get_item(handle, index, element_shape, *, element_dtype):
    _check_list(handle, "TensorListGetItem")
    _check_int(index, "index", "TensorListGetItem")
    return element_dtype, _static_shape(element_shape)


get_item_op = _op("tensor_list_get_item", _get_item_kernel, _infer_get_item,
                  "TF's TensorListGetItem: element `index` (zeros if never set and its shape is known)")


def _set_item_kernel(handle, index, item, *, element_dtype, resize_if_index_out_of_bounds=False):
    _check_dtype(handle, element_dtype, "TensorListSetItem")
    items = list(handle)
    index = int(index)
    if resize_if_index_out_of_bounds and index >= len(items):
        items.extend([None] * (index + 1 - len(items)))
    index = _index(items, index, "TensorListSetItem")
    _fits(item, _list_shape(handle), "TensorListSetItem")
    items[index] = item
    return _like(handle, items)


def _infer_set_item(handle, index, item, *, element_dtype, resize_if_index_out_of_bounds=False):
    _check_list(handle, "TensorListSetItem")
    _check_int(index, "index", "TensorListSetItem")
    _check_element(item, element_dtype, None, "TensorListSetItem")
    return VARIANT, ()


set_item_op = _op("tensor_list_set_item", _set_item_kernel, _infer_set_item,
                  "TF's TensorListSetItem: the list with element `index` replaced")


def _stack_kernel(handle, element_shape, *, element_dtype, num_elements=-1):
    _check_dtype(handle, element_dtype, "TensorListStack")
    if num_elements is not None and num_elements >= 0 and num_elements != len(handle):
        raise InvalidArgumentError(f"TensorListStack: Operation expected a list with {num_elements} elements but "
                                   f"got a list with {len(handle)} elements.")
    shape = _merge(_list_shape(handle), decode_shape(element_shape))
    known = [np.shape(v) for v in handle if v is not None]
    if known:
        shape = _merge(shape, known[0])
    if not len(handle):
        if shape is None or None in shape:
            raise InvalidArgumentError("TensorListStack: Tried to stack elements of an empty list with a "
                                       f"non-fully-defined element_shape: {fmt(shape)}")
        return np.zeros((0,) + shape, element_dtype.np)
    rows = [_zeros(element_dtype, shape, i) if v is None else v for i, v in enumerate(handle)]
    if any(np.shape(r) != np.shape(rows[0]) for r in rows):
        raise InvalidArgumentError("TensorListStack: the elements have different shapes: "
                                   + ", ".join(sorted({fmt(np.shape(r)) for r in rows})))
    return np.stack(rows).astype(element_dtype.np, copy=False)


def _infer_stack(handle, element_shape, *, element_dtype, num_elements=-1):
    _check_list(handle, "TensorListStack")
    shape = _static_shape(element_shape)
    first = None if num_elements is None or num_elements < 0 else num_elements
    return element_dtype, None if shape is None else (first,) + shape


stack_op = _op("tensor_list_stack", _stack_kernel, _infer_stack,
               "TF's TensorListStack: the elements as the rows of one tensor")


def _resize_kernel(handle, size):
    size = int(size)
    if size < 0:
        raise InvalidArgumentError(f"TensorListResize expects size to be non-negative. Got: {size}")
    items = list(handle)[:size]
    return _like(handle, items + [None] * (size - len(items)))


def _infer_resize(handle, size):
    _check_list(handle, "TensorListResize")
    _check_int(size, "size", "TensorListResize")
    return VARIANT, ()


resize_op = _op("tensor_list_resize", _resize_kernel, _infer_resize,
                "TF's TensorListResize: the first `size` elements, unset ones added at the end")


def _scatter_kernel(handle, tensor, indices, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListScatterIntoExistingList")
    items = list(handle)
    indices = [int(i) for i in np.reshape(indices, -1)]
    if len(indices) != np.shape(tensor)[0]:
        raise InvalidArgumentError(f"TensorListScatterIntoExistingList: {len(indices)} indices for "
                                   f"{np.shape(tensor)[0]} rows of the tensor")
    if indices and min(indices) < 0:
        raise InvalidArgumentError(f"TensorListScatterIntoExistingList: negative index {min(indices)}")
    if indices and max(indices) >= len(items):  # TF grows the list to hold the largest index
        items.extend([None] * (max(indices) + 1 - len(items)))
    for index, row in zip(indices, np.asarray(tensor)):
        _fits(row, _list_shape(handle), "TensorListScatterIntoExistingList")
        items[index] = row
    return _like(handle, items)


def _infer_scatter(handle, tensor, indices, *, element_dtype):
    _check_list(handle, "TensorListScatterIntoExistingList")
    _check_int(indices, "indices", "TensorListScatterIntoExistingList")
    _check_element(tensor, element_dtype, None, "TensorListScatterIntoExistingList")
    return VARIANT, ()


scatter_op = _op("tensor_list_scatter_into_existing", _scatter_kernel, _infer_scatter,
                 "TF's TensorListScatterIntoExistingList: the tensor's rows set at `indices` (the list grows to hold "
                 "them)")


def _gather_kernel(handle, indices, element_shape, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListGather")
    shape = _merge(_list_shape(handle), decode_shape(element_shape))
    rows = []
    for index in np.reshape(indices, -1):
        index = _index(handle, index, "TensorListGather")
        rows.append(_zeros(element_dtype, shape, index) if handle[index] is None else handle[index])
    if not rows:
        if shape is None or None in shape:
            raise InvalidArgumentError("TensorListGather: no indices and an element_shape that is not fully "
                                       f"defined: {fmt(shape)}")
        return np.zeros((0,) + shape, element_dtype.np)
    return np.stack(rows).astype(element_dtype.np, copy=False)


def _infer_gather(handle, indices, element_shape, *, element_dtype):
    _check_list(handle, "TensorListGather")
    _check_int(indices, "indices", "TensorListGather")
    shape = _static_shape(element_shape)
    count = None if indices._shape is None else indices._shape[0]
    return element_dtype, None if shape is None else (count,) + shape


gather_op = _op("tensor_list_gather", _gather_kernel, _infer_gather,
                "TF's TensorListGather: the elements at `indices`, stacked")


def _concat_kernel(handle, element_shape, leading_dims, *, element_dtype):
    _check_dtype(handle, element_dtype, "TensorListConcatV2")
    shape = _merge(_list_shape(handle), decode_shape(element_shape))
    leading = np.reshape(leading_dims, -1)
    parts = []
    for i, value in enumerate(handle):
        if value is None:  # an unset element: TF needs its leading dimension and the rest of the shape
            if i >= len(leading) or shape is None or None in shape[1:]:
                raise InvalidArgumentError(f"TensorListConcatV2: element {i} was never set and its shape is not "
                                           "known (give leading_dims and element_shape)")
            value = np.zeros((int(leading[i]),) + tuple(shape[1:]), element_dtype.np)
        if np.ndim(value) == 0:
            raise InvalidArgumentError("TensorListConcatV2: Concat requires elements to be at least vectors, "
                                       "found scalars instead.")
        parts.append(value)
    lengths = np.array([np.shape(v)[0] for v in parts], np.int64)
    if not parts:
        if shape is None or None in shape[1:]:
            raise InvalidArgumentError("TensorListConcatV2: an empty list needs a known element shape")
        return np.zeros((0,) + tuple(shape[1:]), element_dtype.np), lengths
    return np.concatenate(parts).astype(element_dtype.np, copy=False), lengths


def _infer_concat(handle, element_shape, leading_dims, *, element_dtype):
    _check_list(handle, "TensorListConcatV2")
    shape = _static_shape(element_shape)
    return [(element_dtype, None if not shape else (None,) + shape[1:]), (dtypes.int64, (None,))]


concat_op = _op("tensor_list_concat", _concat_kernel, _infer_concat,
                "TF's TensorListConcatV2: the elements joined along their first axis, and each one's length")


def _split_kernel(tensor, element_shape, lengths, *, element_dtype):
    lengths = [int(n) for n in np.reshape(lengths, -1)]
    if sum(lengths) != np.shape(tensor)[0]:
        raise InvalidArgumentError(f"TensorListSplit: the lengths sum to {sum(lengths)} but the tensor has "
                                   f"{np.shape(tensor)[0]} rows")
    starts = np.cumsum([0] + lengths)
    items = [np.asarray(tensor)[a:b] for a, b in zip(starts[:-1], starts[1:])]
    return ValueList(items, decode_shape(element_shape), element_dtype.np)


def _infer_split(tensor, element_shape, lengths, *, element_dtype):
    _check_int(lengths, "lengths", "TensorListSplit")
    if tensor.dtype is not element_dtype:
        raise TypeError(f"TensorListSplit: element_dtype {element_dtype.name} but the tensor is {tensor.dtype.name}")
    return VARIANT, ()


split_op = _op("tensor_list_split", _split_kernel, _infer_split,
               "TF's TensorListSplit: the tensor cut along its first axis into elements of `lengths` rows")


def _length_kernel(handle):
    return np.int32(len(handle))


length_op = _op("tensor_list_length", _length_kernel, lambda handle: (dtypes.int32, ()),
                "TF's TensorListLength: the number of elements", differentiable=False)


def _element_shape_kernel(handle, *, shape_type):
    value = encode_shape(_list_shape(handle))
    return value.astype(shape_type.np)


def _infer_element_shape(handle, *, shape_type):
    _check_list(handle, "TensorListElementShape")
    return shape_type, None


element_shape_op = _op("tensor_list_element_shape", _element_shape_kernel, _infer_element_shape,
                       "TF's TensorListElementShape: the list's element shape in TF's int encoding",
                       differentiable=False)


# --- wrappers ------------------------------------------------------------------------------------------------------
def _shape_input(shape):
    if isinstance(shape, Tensor):
        return shape
    return convert_to_tensor(encode_shape(None if shape is None else tuple(shape)), dtypes.int32)


def _int(value):
    return value if isinstance(value, Tensor) else convert_to_tensor(np.int32(value), dtypes.int32)


def _ints(values):
    return values if isinstance(values, Tensor) else convert_to_tensor(np.asarray(values, np.int32), dtypes.int32)


def empty_tensor_list(element_shape, element_dtype, max_num_elements=-1):
    return apply(empty_op, (_shape_input(element_shape), _int(max_num_elements)), {"element_dtype": element_dtype})


def tensor_list_reserve(element_shape, num_elements, element_dtype):
    return apply(reserve_op, (_shape_input(element_shape), _int(num_elements)), {"element_dtype": element_dtype})


def tensor_list_from_tensor(tensor, element_shape):
    return apply(from_tensor_op, (tensor, _shape_input(element_shape)), {"element_dtype": tensor.dtype})


def tensor_list_push_back(handle, tensor):
    return apply(push_back_op, (handle, tensor), {"element_dtype": tensor.dtype})


def tensor_list_pop_back(handle, element_shape, element_dtype):
    return apply(pop_back_op, (handle, _shape_input(element_shape)), {"element_dtype": element_dtype})


def tensor_list_get_item(handle, index, element_shape, element_dtype):
    return apply(get_item_op, (handle, _int(index), _shape_input(element_shape)), {"element_dtype": element_dtype})


def tensor_list_set_item(handle, index, item, resize_if_index_out_of_bounds=False):
    attrs = {"element_dtype": item.dtype}
    if resize_if_index_out_of_bounds:
        attrs["resize_if_index_out_of_bounds"] = True
    return apply(set_item_op, (handle, _int(index), item), attrs)


def tensor_list_stack(handle, element_shape, element_dtype, num_elements=-1):
    attrs = {"element_dtype": element_dtype}
    if num_elements is not None and num_elements >= 0:
        attrs["num_elements"] = int(num_elements)
    return apply(stack_op, (handle, _shape_input(element_shape)), attrs)


def tensor_list_zeros_like(handle):
    return apply(zeros_like_op, (handle,))


def tensor_list_add(a, b):
    return apply(add_op, (a, b))


def tensor_list_resize(handle, size):
    return apply(resize_op, (handle, _int(size)))


def tensor_list_scatter_into_existing(handle, tensor, indices):
    return apply(scatter_op, (handle, tensor, _ints(indices)), {"element_dtype": tensor.dtype})


def tensor_list_gather(handle, indices, element_shape, element_dtype):
    return apply(gather_op, (handle, _ints(indices), _shape_input(element_shape)), {"element_dtype": element_dtype})


def tensor_list_concat(handle, element_shape, leading_dims, element_dtype):
    return apply(concat_op, (handle, _shape_input(element_shape), leading_dims), {"element_dtype": element_dtype})


def tensor_list_split(tensor, element_shape, lengths):
    return apply(split_op, (tensor, _shape_input(element_shape), lengths), {"element_dtype": tensor.dtype})


def tensor_list_length(handle):
    return apply(length_op, (handle,))


def tensor_list_element_shape(handle, shape_type=dtypes.int32):
    return apply(element_shape_op, (handle,), {"shape_type": shape_type})
