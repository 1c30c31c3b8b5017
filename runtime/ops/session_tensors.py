"""TF1's persistent session tensors (tf.compat.v1.get_session_handle / get_session_tensor /
delete_session_tensor): a run keeps a value in its Session and returns a string handle to it; a later run feeds
the handle and reads the value back, without copying it out of the session. The store is a `Resource` of the TF1
graph that keeps one table per Session (tinytf/compat/v1/session_tensors.py); the runtime knows this protocol:

    store._put(value, label: str) -> bytes     # keeps `value`, returns its handle "label;id;device"
    store._get(handle: bytes, dtype) -> value  # InvalidArgumentError when no such handle is kept
    store._delete(handle: bytes)

None of these ops has a gradient (TF registers none for GetSessionHandle / GetSessionTensor either)."""

from __future__ import annotations

from .. import dtypes
from ..registry import OpDef, register


def _put_kernel(store, value, *, label):
    return store._put(value, label)


get_session_handle_op = register(OpDef(
    "get_session_handle", _put_kernel, lambda store, value, *, label: (dtypes.string, ()), stateful=True,
    differentiable=False, foldable=False,
    doc="keep a value in the running Session; its handle (TF's GetSessionHandle)"))


def _get_kernel(store, handle, *, dtype):
    return store._get(handle, dtype)


get_session_tensor_op = register(OpDef(
    "get_session_tensor", _get_kernel, lambda store, handle, *, dtype: (dtype, None), stateful=True,
    differentiable=False, foldable=False, doc="the value a handle stands for (TF's GetSessionTensor)"))


def _delete_kernel(store, handle):
    store._delete(handle)


delete_session_tensor_op = register(OpDef(
    "delete_session_tensor", _delete_kernel, lambda store, handle: None, stateful=True, differentiable=False,
    foldable=False, doc="forget the value a handle stands for (TF's DeleteSessionTensor)"))
