"""Queue ops (tf.queue, TF1's input pipelines): enqueue, dequeue (one, many, up to), size, close, is_closed.
A queue is a `Resource` like a lookup table: a graph captures it as a `resource` placeholder and at run time the
kernels get the queue object itself. The queues live in tinytf/queue (the face); the runtime only knows this
protocol (blocking and thread-safe, since TF1's QueueRunner threads enqueue while the main thread dequeues):

    queue._enqueue(components: list, many: bool)          # blocks while full; CancelledError once closed
    queue._dequeue(count: int | None, up_to: bool) -> tuple  # blocks while short; OutOfRangeError once closed
    queue._size() -> int, queue._close(cancel_pending_enqueues: bool), queue._is_closed() -> bool

Inference cannot read a captured queue, so the component dtypes and shapes are attributes of each node. No
queue op has a gradient (TF's QueueDequeueV2 has none either)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import OutOfRangeError
from ..registry import OpDef, register


def _infer_enqueue(queue, *components, dtypes, many):
    if len(components) != len(dtypes):
        raise ValueError(f"the queue holds {len(dtypes)} components, but {len(components)} were given")
    for i, (value, dtype) in enumerate(zip(components, dtypes)):
        if value.dtype is not dtype:
            raise TypeError(f"component {i} of the queue is {dtype.name}, but the value given is {value.dtype.name}")
        if many and value._shape is not None and len(value._shape) == 0:
            raise ValueError("Shape () must have rank at least 1")
    return None


def _enqueue_kernel(queue, *components, dtypes, many):
    queue._enqueue(list(components), many)


queue_enqueue_op = register(OpDef(
    "queue_enqueue", _enqueue_kernel, _infer_enqueue, stateful=True, differentiable=False, foldable=False,
    doc="add one element, or the rows of each component (many=True), to a queue (TF's QueueEnqueue(Many)V2)"))


def _infer_dequeue(queue, count, *, dtypes, shapes, static_count, mode):
    """One output per component (a single output for a one-component queue)."""
    shapes = shapes if shapes is not None else (None,) * len(dtypes)
    if mode == "one":
        specs = [(dtype, shape) for dtype, shape in zip(dtypes, shapes)]
    else:
        lead = static_count if mode == "many" else None
        specs = [(dtype, None if shape is None else (lead,) + tuple(shape)) for dtype, shape in zip(dtypes, shapes)]
    return specs[0] if len(specs) == 1 else specs


def _dequeue_kernel(queue, count, *, dtypes, shapes, static_count, mode):
    values = tuple(queue._dequeue(None if mode == "one" else int(count), mode == "up_to"))
    return values[0] if len(values) == 1 else values


queue_dequeue_op = register(OpDef(
    "queue_dequeue", _dequeue_kernel, _infer_dequeue, stateful=True, differentiable=False, foldable=False,
    doc="take one element, `count` elements (many) or at most `count` once closed (up_to) from a queue"))


queue_size_op = register(OpDef(
    "queue_size", lambda queue: np.int32(queue._size()), lambda queue: (dtypes.int32, ()), stateful=True,
    differentiable=False, foldable=False, doc="the number of elements in a queue (TF's QueueSizeV2)"))


def _close_kernel(queue, *, cancel_pending_enqueues):
    queue._close(cancel_pending_enqueues)


queue_close_op = register(OpDef(
    "queue_close", _close_kernel, lambda queue, *, cancel_pending_enqueues: None, stateful=True,
    differentiable=False, foldable=False,
    doc="close a queue: no more enqueues; dequeues drain it, then raise OutOfRangeError (TF's QueueCloseV2)"))


queue_is_closed_op = register(OpDef(
    "queue_is_closed", lambda queue: np.bool_(queue._is_closed()), lambda queue: (dtypes.bool_, ()),
    stateful=True, differentiable=False, foldable=False, doc="whether a queue is closed (TF's QueueIsClosedV2)"))


def _count_up_to_kernel(variable, *, limit, dtype):
    """The variable's value, incremented in place; OutOfRangeError once it has reached `limit` (the end of
    TF1's limit_epochs: `num_epochs` passes over the input, then the queue runner stops)."""
    value = variable._array
    if value >= limit:
        raise OutOfRangeError(f"Reached limit of {limit}")
    variable._array = np.asarray(value + 1, dtype=value.dtype)
    return np.asarray(value)


def _infer_count_up_to(variable, *, limit, dtype):
    if not dtype.is_integer:
        raise TypeError(f"count_up_to counts an integer variable, not {dtype.name}")
    return dtype, ()


count_up_to_op = register(OpDef(
    "count_up_to", _count_up_to_kernel, _infer_count_up_to, stateful=True, differentiable=False, foldable=False,
    doc="increment an integer variable up to a limit, returning its old value (TF's CountUpTo)"))
