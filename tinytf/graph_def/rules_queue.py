"""GraphDef rules of the queue ops (runtime/ops/queue.py) as TF writes them: QueueEnqueue(Many)V2,
QueueDequeue(Many|UpTo)V2, QueueSizeV2, QueueCloseV2, QueueIsClosedV2, ResourceCountUpTo. The queue itself is the
exporter's `graph_def_node` of the captured queue (FIFOQueueV2, ...). rules_more.py merges this table."""

from __future__ import annotations

from . import protos as p


def _enqueue(n, const):
    kind = "QueueEnqueueManyV2" if n.attrs["many"] else "QueueEnqueueV2"
    return kind, list(n.refs), {"Tcomponents": p.attr_types(list(n.attrs["dtypes"])), "timeout_ms": p.attr(-1)}


def _dequeue(n, const):
    attrs = {"component_types": p.attr_types(list(n.attrs["dtypes"])), "timeout_ms": p.attr(-1)}
    mode = n.attrs["mode"]
    if mode == "one":
        return "QueueDequeueV2", list(n.refs[:1]), attrs
    return ("QueueDequeueManyV2" if mode == "many" else "QueueDequeueUpToV2"), list(n.refs), attrs


def _close(n, const):
    return "QueueCloseV2", list(n.refs), {"cancel_pending_enqueues": p.attr(n.attrs["cancel_pending_enqueues"])}


def _count_up_to(n, const):
    return "ResourceCountUpTo", list(n.refs), {"limit": p.attr(n.attrs["limit"]), "T": p.attr_type(n.attrs["dtype"])}


RULES = {
    "queue_enqueue": _enqueue,
    "queue_dequeue": _dequeue,
    "queue_close": _close,
    "queue_size": lambda n, const: ("QueueSizeV2", list(n.refs), {}),
    "queue_is_closed": lambda n, const: ("QueueIsClosedV2", list(n.refs), {}),
    "count_up_to": _count_up_to,
}
TF_NAMES = {"queue_enqueue": "QueueEnqueueV2", "queue_dequeue": "QueueDequeueV2", "queue_close": "QueueCloseV2",
            "queue_size": "QueueSizeV2", "queue_is_closed": "QueueIsClosedV2", "count_up_to": "ResourceCountUpTo"}
