"""tf.queue: FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue on their base QueueBase. A queue is
a resource (runtime/ops/queue.py) whose enqueue and dequeue are stateful ops: they run at once eagerly, and in
a TF1 graph when a Session runs them, from any thread (TF1's QueueRunner threads fill a queue while the training
loop takes batches from it). Dequeuing blocks until enough elements are there; once the queue is closed it
drains and then raises tf.errors.OutOfRangeError, which ends TF1 input pipelines."""

from __future__ import annotations

import heapq
import itertools
import threading
import weakref

import numpy as np

from tinytf.runtime import dtypes as _dtypes
from tinytf.runtime import shapes as _shapes
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import apply
from tinytf.runtime.errors import CancelledError, InvalidArgumentError, OutOfRangeError
from tinytf.runtime.graph import RESOURCE
from tinytf.runtime.ops import queue as queue_ops
from tinytf.runtime.ops.random import get_seed
from tinytf.runtime.resource import Resource
from tinytf.runtime.shapes import TensorShape

from ..constant import convert_to_tensor
from .session_state import current_key
from .waiting import wait_until

_ids = itertools.count()


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


class _QueueState:
    """One Session's contents of a queue."""

    __slots__ = ("elements", "closed", "cancelled", "rng")

    def __init__(self, rng):
        self.elements: list = []
        self.closed = False
        self.cancelled = False
        self.rng = rng


class QueueBase(Resource):
    """What every queue shares: component dtypes, shapes and names, the ops, and the blocking storage."""

    _graph_name = "queue"
    dtype = RESOURCE
    _shape = ()
    _kind = "FIFOQueue"

    def __init__(self, dtypes, shapes, names, queue_ref=None, capacity=-1, name="fifo_queue"):
        self._dtypes = [_dtypes.as_dtype(d) for d in _as_list(dtypes)]
        if shapes is not None:
            # one dtype and one shape given bare ([2, 3], or [] for a scalar, as TF accepts it)
            shapes = _as_list(shapes) if not (isinstance(shapes, (list, tuple)) and all(
                isinstance(d, int) or d is None for d in shapes) and len(self._dtypes) == 1) else [shapes]
            if len(shapes) != len(self._dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [TensorShape(None) for _ in self._dtypes]
        if names is not None:
            names = _as_list(names)
            if len(names) != len(self._dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
        self._names = names
        self._capacity = capacity
        self._queue_name = name
        self._id = next(_ids)
        self._states = weakref.WeakKeyDictionary()  # Session (or EAGER) -> _QueueState: TF's per-Session kernels
        self._cond = threading.Condition()

    def _state(self) -> _QueueState:
        key = current_key()
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = _QueueState(self._new_rng())
        return state

    def _new_rng(self):
        return None

    @property
    def _elements(self) -> list:
        return self._state().elements

    @property
    def _closed(self) -> bool:
        return self._state().closed

    @property
    def _cancelled(self) -> bool:
        return self._state().cancelled

    # --- properties ----------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._queue_name

    @property
    def dtypes(self) -> list:
        return list(self._dtypes)

    @property
    def shapes(self) -> list:
        return list(self._shapes)

    @property
    def names(self):
        return self._names

    @property
    def queue_ref(self):
        return self

    @classmethod
    def from_list(cls, index, queues):
        raise NotImplementedError("tinytf's queues cannot be selected by a tensor index (QueueBase.from_list)")

    def graph_def_node(self):
        """TF's op creating this queue in a GraphDef (FIFOQueueV2, ...) and its attributes."""
        shapes = [] if any(s.rank is None for s in self._shapes) else [tuple(s.as_list()) for s in self._shapes]
        attrs = {"component_types": list(self._dtypes), "shapes": shapes, "capacity": self._capacity,
                 "container": "", "shared_name": ""}
        if isinstance(self, RandomShuffleQueue):
            attrs.update(min_after_dequeue=self._min_after_dequeue, seed=0, seed2=0)
        if isinstance(self, PriorityQueue):
            attrs["component_types"] = list(self._dtypes[1:])
            attrs["shapes"] = shapes[1:]
        return f"{self._kind}V2", attrs

    def _label(self) -> str:
        return f"{self._kind} '_{self._id}_{self._queue_name}'"

    # --- the ops -------------------------------------------------------------------------------------------
    def _components(self, vals, many):
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if sorted(vals) != sorted(self._names):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 f"{sorted(vals)}, Queue: {sorted(self._names)}")
            vals = [vals[n] for n in self._names]
        elif isinstance(vals, dict):
            raise ValueError("Queue must have names to enqueue a dictionary")
        vals = list(vals) if isinstance(vals, (list, tuple)) else [vals]  # TF: a list is the components
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components to enqueue, got {len(vals)}")
        tensors = [convert_to_tensor(v, dtype=d) for v, d in zip(vals, self._dtypes)]
        for tensor, shape in zip(tensors, self._shapes):
            element = tensor.shape[1:] if many else tensor.shape
            if many and tensor.shape.rank == 0:
                raise ValueError("Shape () must have rank at least 1")
            if not element.is_compatible_with(shape):
                raise ValueError(f"Shapes {element} and {shape} are incompatible")
        return tensors

    def _finish(self, result):
        """An enqueue or close: an Operation in a TF1 graph (so a Session can run it), None eagerly."""
        graph = state.graph
        if graph is not None and hasattr(graph, "collections"):
            from ..compat.v1.ops import Operation, last_op

            return Operation(last_op(graph))
        return result

    def enqueue(self, vals, name=None):
        tensors = self._components(vals, many=False)
        return self._finish(apply(queue_ops.queue_enqueue_op, [self, *tensors],
                                  {"dtypes": tuple(self._dtypes), "many": False}, name=name or "enqueue"))

    def enqueue_many(self, vals, name=None):
        tensors = self._components(vals, many=True)
        return self._finish(apply(queue_ops.queue_enqueue_op, [self, *tensors],
                                  {"dtypes": tuple(self._dtypes), "many": True}, name=name or "enqueue_many"))

    def _dequeue_op(self, mode, n, name):
        static = n if isinstance(n, int) else None
        count = convert_to_tensor(0 if n is None else n, dtype=_dtypes.int32)
        shapes = tuple(None if s.rank is None else tuple(s.as_list()) for s in self._shapes)
        out = apply(queue_ops.queue_dequeue_op, [self, count],
                    {"dtypes": tuple(self._dtypes), "shapes": shapes, "static_count": static, "mode": mode},
                    name=name)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if self._names is not None:
            return dict(zip(self._names, out))
        return out[0] if len(out) == 1 else out

    def dequeue(self, name=None):
        return self._dequeue_op("one", None, name or "dequeue")

    def dequeue_many(self, n, name=None):
        return self._dequeue_op("many", n, name or "dequeue_many")

    def dequeue_up_to(self, n, name=None):
        return self._dequeue_op("up_to", n, name or "dequeue_up_to")

    def close(self, cancel_pending_enqueues=False, name=None):
        return self._finish(apply(queue_ops.queue_close_op, [self],
                                  {"cancel_pending_enqueues": bool(cancel_pending_enqueues)}, name=name or "close"))

    def is_closed(self, name=None):
        return apply(queue_ops.queue_is_closed_op, [self], name=name or "is_closed")

    def size(self, name=None):
        return apply(queue_ops.queue_size_op, [self], name=name or "size")

    # --- the resource protocol (runtime/ops/queue.py) ------------------------------------------------------
    def _enqueue(self, components, many):
        rows = [list(np.asarray(c)) for c in components] if many else [[np.asarray(c)] for c in components]
        elements = [tuple(np.asarray(part) for part in row) for row in zip(*rows)]
        with self._cond:
            if self._closed:
                raise CancelledError(f"{self._label()} is closed.")
            for element in elements:
                self._check_element(element)
                # an enqueue already waiting when the queue closes still completes, unless the close cancels it
                wait_until(self._cond, lambda: self._cancelled or self._capacity < 0 or
                           len(self._elements) < self._capacity)
                if self._cancelled:
                    raise CancelledError(f"Enqueue operation was cancelled: {self._label()} is closed.")
                self._put(element)
                self._cond.notify_all()

    def _check_element(self, element):
        for value, shape in zip(element, self._shapes):
            if shape.rank is not None and not _shapes.compatible(value.shape, tuple(shape.as_list())):
                raise InvalidArgumentError(f"Shape mismatch in tuple component. Expected {shape.as_list()}, got "
                                           f"{list(value.shape)}")

    def _dequeue(self, count, up_to):
        wanted = 1 if count is None else count
        if count is not None and any(s.rank is None for s in self._shapes) and not self._pads():
            raise InvalidArgumentError(f"{self._kind}'s DequeueMany and DequeueUpTo require the components to "
                                       "have specified shapes.")
        with self._cond:
            wait_until(self._cond, lambda: self._ready(wanted) or self._closed)
            if not self._ready(wanted):
                if not (up_to and count is not None and self._elements):
                    raise OutOfRangeError(f"{self._label()} is closed and has insufficient elements (requested "
                                          f"{wanted}, current size {len(self._elements)})")
                wanted = len(self._elements)
            taken = [self._take() for _ in range(wanted)]
            self._cond.notify_all()
        if count is None:
            return taken[0]
        return tuple(self._batch([element[i] for element in taken], i) for i in range(len(self._dtypes)))

    def _ready(self, wanted) -> bool:
        return len(self._elements) >= wanted

    def _pads(self) -> bool:
        return False

    def _batch(self, values, index):
        if not values:
            shape = self._shapes[index]
            return np.zeros([0] + [d or 0 for d in shape.as_list()], self._dtypes[index].np)
        return np.stack(values)

    def _put(self, element):
        self._elements.append(element)

    def _take(self):
        return self._elements.pop(0)

    def _size(self) -> int:
        with self._cond:
            return len(self._elements)

    def _close(self, cancel_pending_enqueues):
        with self._cond:
            state = self._state()
            state.closed = True
            state.cancelled = state.cancelled or cancel_pending_enqueues
            self._cond.notify_all()

    def _is_closed(self) -> bool:
        return self._closed


class FIFOQueue(QueueBase):
    """Elements come out in the order they went in."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        super().__init__(dtypes, shapes, names, capacity=capacity, name=name)


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose components may have None dimensions: dequeue_many pads each batch with zeros to its
    longest element."""

    _kind = "PaddingFIFOQueue"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        if shapes is None or len(_as_list(shapes)) != len(_as_list(dtypes)):
            raise ValueError(f"Shapes must be provided for all components, but received {len(_as_list(dtypes))} "
                             f"dtypes and {0 if shapes is None else len(_as_list(shapes))} shapes.")
        super().__init__(dtypes, shapes, names, capacity=capacity, name=name)

    def _pads(self) -> bool:
        return True

    def _batch(self, values, index):
        if not values or values[0].ndim == 0:
            return super()._batch(values, index)
        shape = np.max([v.shape for v in values], axis=0)
        out = np.zeros((len(values),) + tuple(shape), dtype=values[0].dtype if values[0].dtype != object
                       else object)
        if out.dtype == object:
            out[...] = b""
        for i, value in enumerate(values):
            out[(i,) + tuple(slice(0, d) for d in value.shape)] = value
        return out


class RandomShuffleQueue(QueueBase):
    """Elements come out in random order; until it is closed, a dequeue leaves at least `min_after_dequeue`
    elements behind (so batches mix well)."""

    _kind = "RandomShuffleQueue"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        super().__init__(dtypes, shapes, names, capacity=capacity, name=name)
        self._min_after_dequeue = int(min_after_dequeue)
        self._seeds = get_seed(seed)  # TF's derivation from the global and op seeds; unseeded: fresh entropy

    def _new_rng(self):  # each Session's queue draws the same seeded stream, as each TF kernel does
        return np.random.default_rng(None if self._seeds is None else list(self._seeds))

    def _ready(self, wanted) -> bool:
        return len(self._elements) >= wanted + (0 if self._closed else self._min_after_dequeue)

    def _take(self):
        index = int(self._state().rng.integers(len(self._elements)))
        self._elements[index], self._elements[-1] = self._elements[-1], self._elements[index]
        return self._elements.pop()


class PriorityQueue(QueueBase):
    """Elements carry an int64 priority as their first component; the smallest comes out first."""

    _kind = "PriorityQueue"

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        types = _as_list(types)
        shapes = None if shapes is None else [()] + _as_list(shapes)
        names = None if names is None else ["priority"] + _as_list(names)  # unused by TF; kept aligned
        super().__init__([_dtypes.int64] + types, shapes, None, capacity=capacity, name=name)
        self._order = itertools.count()

    def _put(self, element):
        heapq.heappush(self._elements, (int(element[0]), next(self._order), element))

    def _take(self):
        return heapq.heappop(self._elements)[2]


__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
