"""Whole batches without per-element Python work, where the semantics allow it (TF's map-and-batch fusion
and its slice-per-batch reads): a batch over a slice source reads slices; over a shuffle of a slice source
it shuffles indices (the same buffer algorithm) and gathers rows; over a map whose traced graph is purely
element-wise it applies the map once per batch. `batches_of` returns None when none of this applies."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.ops.core import const_op, identity_op, placeholder_op

from .functions import TracedFunction
from .structure import with_batch_dim

_PASS_THROUGH_OPS = {identity_op}


def batches_of(dataset, size: int, drop_remainder: bool):
    """A generator of flat batches of `dataset`, or None when it must be batched element by element."""
    from .shuffling import ShuffleDataset, buffer_shuffle
    from .sources import TensorSliceDataset
    from .transforms import MapDataset

    if isinstance(dataset, TensorSliceDataset) and not dataset._has_sparse:
        return _chunks(dataset._arrays, None, dataset._size, size, drop_remainder)
    if (isinstance(dataset, ShuffleDataset) and isinstance(dataset._input, TensorSliceDataset)
            and not dataset._input._has_sparse):
        source = dataset._input
        order = np.fromiter(buffer_shuffle(range(source._size), dataset._buffer(), dataset._next_words()),
                            np.int64, source._size)
        return _chunks(source._arrays, order, source._size, size, drop_remainder)
    if isinstance(dataset, MapDataset):
        batched = batched_function(dataset)
        if batched is None:
            return None
        inner = batches_of(dataset._input, size, drop_remainder)
        if inner is None:
            return None
        return (batched(batch) for batch in inner)
    return None


def _chunks(arrays, order, n, size, drop_remainder):
    stop = n - n % size if drop_remainder else n
    for start in range(0, stop, size):
        if order is None:
            yield tuple(a[start:start + size] for a in arrays)
        else:
            rows = order[start:start + size]
            yield tuple(a[rows] for a in arrays)


def batched_function(map_dataset):
    """The map's function traced on batches, when its element graph is element-wise: every node an
    element-wise op whose non-constant inputs all have its output's shape, constants scalar, and no output a
    constant (so applying it to a batch gives the batch of its results). Cached on the dataset; None when it
    does not apply."""
    cached = getattr(map_dataset, "_batched", False)
    if cached is not False:
        return cached
    map_dataset._batched = None
    traced = map_dataset._function
    if map_dataset._parallel and map_dataset._deterministic is False or traced.lifted:
        return None  # (a function reading the enclosing graph's tensors is not traced again, per batch)
    if any(s._shape is None for s in nest.flatten(map_dataset._input._spec_inside)):
        return None
    graph = traced._concrete.graph
    if not _element_wise(graph):
        return None
    batched = TracedFunction(traced.user_function, [with_batch_dim(map_dataset._input._spec_inside, None)], "map")
    map_dataset._batched = batched
    return batched


def _element_wise(graph) -> bool:
    constant = set()  # ids of values computed from constants only
    for node in graph.nodes:
        op = node.op
        if op is placeholder_op:
            continue
        if op is const_op:
            if np.ndim(node.attrs.get("value")) != 0:
                return False
            constant.update(id(t) for t in node.outputs)
            continue
        if not (node.op.elementwise or op in _PASS_THROUGH_OPS) or len(node.outputs) != 1:
            return False
        varying = [t for t in node.inputs if id(t) not in constant]
        if not varying:
            constant.add(id(node.outputs[0]))
            continue
        shape = node.outputs[0]._shape
        if shape is None or any(t._shape != shape for t in varying):
            return False
    return not any(id(t) in constant for t in graph.outputs)
