"""TF1's persistent tensors: `get_session_handle(x)` keeps x's value in the Session that runs it and gives a
TensorHandle (its string handle, `eval()`, `delete()`); `get_session_tensor(handle, dtype)` gives a string
placeholder to feed the handle into and the tensor it stands for; `delete_session_tensor(handle)` a placeholder
and the op that forgets it. Values live per Session, as in TF: another Session of the graph does not see them,
and they go with their Session (the ops: runtime/ops/session_tensors.py)."""

from __future__ import annotations

import itertools
import threading
import weakref

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply
from tinytf.runtime.errors import InternalError, InvalidArgumentError
from tinytf.runtime.graph import RESOURCE
from tinytf.runtime.ops.session_tensors import (
    delete_session_tensor_op,
    get_session_handle_op,
    get_session_tensor_op,
)
from tinytf.runtime.resource import Resource

from ...queue.session_state import current_key
from .graph import get_default_graph, placeholder
from .ops import Operation, last_op

_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class _Table:
    def __init__(self):
        self.values: dict = {}
        self.ids = itertools.count()


class SessionTensorStore(Resource):
    """The values kept by handle, one table per Session (or one for eager code); one store per TF1 graph."""

    _graph_name = "session_tensors"
    dtype = RESOURCE
    _shape = ()

    def __init__(self):
        self._tables = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def _table(self) -> _Table:
        key = current_key()
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _Table()
        return table

    def _put(self, value, label):
        with self._lock:
            table = self._table()
            handle = f"{label};{next(table.ids)};{_DEVICE}".encode()
            table.values[handle] = value
        return handle

    def _get(self, handle, dtype):
        handle = _as_bytes(handle)
        value = self._table().values.get(handle)
        if value is None:
            raise InvalidArgumentError(f"The tensor with handle '{handle.decode()}' is not in the session store.")
        kind = dtypes.as_dtype(getattr(value, "dtype", None) or type(value))
        if kind != dtype:
            raise InternalError(f"Output 0 of type {_tf_type(kind)} does not match declared output type "
                                f"{_tf_type(dtype)} for node GetSessionTensor")
        return value

    def _delete(self, handle):
        with self._lock:
            self._table().values.pop(_as_bytes(handle), None)


def _as_bytes(handle) -> bytes:
    handle = handle[()] if hasattr(handle, "ndim") and handle.ndim == 0 else handle
    return handle if isinstance(handle, bytes) else str(handle).encode()


def _tf_type(dtype) -> str:
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _store(graph) -> SessionTensorStore:
    store = getattr(graph, "_session_tensor_store", None)
    if store is None:
        store = graph._session_tensor_store = SessionTensorStore()
    return store


class TensorHandle:
    """A value kept in a Session, as `sess.run(get_session_handle(x))` returns it (TF's TensorHandle)."""

    def __init__(self, handle, dtype, session):
        self._handle = handle.decode() if isinstance(handle, bytes) else str(handle)
        self._dtype = dtypes.as_dtype(dtype)
        self._session = session
        self._auto_gc_enabled = True

    def __str__(self):
        return self._handle

    @property
    def handle(self) -> str:
        return self._handle

    def eval(self):
        """The kept value (a run of the session's reader for this dtype)."""
        if not self._auto_gc_enabled:
            raise TypeError(f"Persistent tensor {self.handle} may have already been deleted.")
        holder, reader = _cached(self._session.graph, ("reader", self._dtype),
                                 lambda: get_session_tensor(self._handle, self._dtype))
        return self._session.run(reader, feed_dict={holder: self._handle})

    def delete(self):
        """Forget the kept value now."""
        if not self._auto_gc_enabled:
            raise TypeError(f"Persistent tensor {self.handle} may have already been deleted.")
        self._auto_gc_enabled = False
        holder, deleter = _cached(self._session.graph, ("deleter",), lambda: delete_session_tensor(self._handle))
        self._session.run(deleter, feed_dict={holder: self._handle})

    def get_raw_handle(self) -> str:
        """The handle string; the caller now owns the value's lifetime (no eval() or delete() through this)."""
        self._auto_gc_enabled = False
        return self._handle


def _cached(graph, key, build):
    cache = graph.__dict__.setdefault("_session_tensor_ops", {})
    if key not in cache:
        with graph.as_default():
            cache[key] = build()
    return cache[key]


def get_session_handle(data, name=None):
    """`tf.compat.v1.get_session_handle`: a string tensor; running it keeps `data`'s value in the Session and gives
    a TensorHandle to it."""
    graph = get_default_graph()
    handle = apply(get_session_handle_op, [_store(graph), data], {"label": ""}, name=name or "GetSessionHandle")
    node = handle.node
    node.attrs["label"] = node.tf_name or node.name  # the handle names its op, as TF's do
    return handle


def get_session_tensor(handle, dtype, name=None):
    """`tf.compat.v1.get_session_tensor`: (a string placeholder to feed a handle into, the tensor it stands for)."""
    graph = get_default_graph()
    holder = placeholder(dtypes.string)
    tensor = apply(get_session_tensor_op, [_store(graph), holder], {"dtype": dtypes.as_dtype(dtype)},
                   name=name or "GetSessionTensor")
    return holder, tensor


def delete_session_tensor(handle, name=None):
    """`tf.compat.v1.delete_session_tensor`: (a string placeholder to feed a handle into, the op deleting it)."""
    graph = get_default_graph()
    holder = placeholder(dtypes.string)
    apply(delete_session_tensor_op, [_store(graph), holder], {}, name=name or "DeleteSessionTensor")
    return holder, Operation(last_op(graph))


def kept_handle(fetch, value, session):
    """A fetched value as the Session gives it: a TensorHandle for a get_session_handle tensor."""
    node = getattr(fetch, "node", None)
    if node is not None and node.op is get_session_handle_op:
        return TensorHandle(value, node.inputs[1].dtype, session)
    return value


__all__ = ["TensorHandle", "delete_session_tensor", "get_session_handle", "get_session_tensor"]
