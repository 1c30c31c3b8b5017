"""TF1's summary ops (tf.compat.v1.summary.scalar, histogram, text, merge, merge_all): each gives a string
tensor, the serialized Summary protocol buffer of its value when a Session runs it, which a FileWriter (or
SummarySaverHook) writes. They join the graph's SUMMARIES collection, which merge_all merges."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import summary_pb2

from tinytf.runtime.ops.py_function import numpy_function

from ...scopes import name_scope
from .graph import get_default_graph

_SUMMARIES = "summaries"


def _tf():
    import tinytf

    return tinytf


def scalar_summary_proto(tag, value):
    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=float(value))])


def _tag(name):
    """TF1's tag: the name under the current name scope (made unique there, as TF's summary_scope does)."""
    with name_scope(name) as scope:
        return scope.rstrip("/") if isinstance(scope, str) else name


def _family_tag(name, family):
    """TF's summary_scope: the scope is family/name (unique), and the tag repeats the family in front of it
    (so TensorBoard shows it in the family's tab): "fam/outer/fam/name"."""
    return _tag(name) if not family else f"{family}/{_tag(f'{family}/{name}')}"


def _collect(tensor, collections):
    graph = get_default_graph()
    for key in collections if collections is not None else [_SUMMARIES]:
        graph.collections.setdefault(key, []).append(tensor)
    return tensor


def scalar(name, tensor, collections=None, family=None):
    """A Summary with `simple_value` = the scalar `tensor`."""
    tf = _tf()
    tag = _family_tag(name, family)
    tensor = tf.convert_to_tensor(tensor)
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"Tensor must be scalar, got shape {tensor.shape}")

    def encode(value):
        return np.asarray(scalar_summary_proto(tag, value).SerializeToString(), dtype=object)

    return _collect(numpy_function(encode, [tensor], tf.string, name=name), collections)


def histogram(name, values, collections=None, family=None):
    """A Summary with a HistogramProto of `values` (min, max, count, sum, sum of squares, buckets)."""
    tf = _tf()
    tag = _family_tag(name, family)

    def encode(data):
        data = np.asarray(data, np.float64).reshape(-1)
        counts, edges = np.histogram(data, bins=30) if data.size else (np.zeros(0), np.zeros(1))
        histo = summary_pb2.HistogramProto(
            min=float(data.min()) if data.size else 0.0, max=float(data.max()) if data.size else 0.0,
            num=float(data.size), sum=float(data.sum()), sum_squares=float((data * data).sum()),
            bucket_limit=[float(e) for e in edges[1:]], bucket=[float(c) for c in counts])
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, histo=histo)])
        return np.asarray(summary.SerializeToString(), dtype=object)

    return _collect(numpy_function(encode, [tf.convert_to_tensor(values)], tf.string, name=name), collections)


def merge(inputs, collections=None, name=None):
    """One serialized Summary holding the values of all `inputs` (serialized Summaries)."""
    tf = _tf()
    inputs = list(inputs)
    if not inputs:
        return None

    def combine(*serialized):
        merged = summary_pb2.Summary()
        for item in serialized:
            # bytes as they are: np.asarray(b"..\x00").item() would drop the trailing NULs of a serialized proto
            merged.MergeFromString(item if isinstance(item, bytes) else np.asarray(item, dtype=object).item())
        return np.asarray(merged.SerializeToString(), dtype=object)

    merged = numpy_function(combine, inputs, tf.string, name=name or "Merge/MergeSummary")
    if collections:
        _collect(merged, collections)
    return merged


def merge_all(key=_SUMMARIES, scope=None, name=None):
    """merge() of the default graph's collection `key`; None when it is empty."""
    items = get_default_graph().collections.get(key, [])
    return merge(items, name=name) if items else None


__all__ = ["histogram", "merge", "merge_all", "scalar", "scalar_summary_proto"]
