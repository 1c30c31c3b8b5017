"""TF1's tensor-valued summary ops (tf.compat.v1.summary.text and tensor_summary): a string tensor, the
serialized Summary holding the value as a TensorProto (with the text plugin's metadata, or the description /
display name given), computed when a Session runs it; they join SUMMARIES as scalar and histogram do
(summary_ops.py). Also the protos TF1 exports there: SummaryDescription and TaggedRunMetadata."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import event_pb2, summary_pb2

from tinytf.runtime.ops.py_function import numpy_function

from .summary_ops import _collect, _family_tag

SummaryDescription = summary_pb2.SummaryDescription
TaggedRunMetadata = event_pb2.TaggedRunMetadata


def _tf():
    import tinytf

    return tinytf


def _tensor_summary_op(name, tensor, metadata, collections, family=None):
    tf = _tf()
    tag = _family_tag(name, family)

    def encode(value):
        value = np.asarray(value)
        if value.dtype == object:  # strings come out of numpy_function as bytes objects
            value = value.astype(bytes)
        proto = tf.make_tensor_proto(value)
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, tensor=proto, metadata=metadata)])
        return np.asarray(summary.SerializeToString(), dtype=object)

    return _collect(numpy_function(encode, [tensor], tf.string, name=name), collections)


def text(name, tensor, collections=None):
    """A Summary of a string tensor for TensorBoard's text plugin; TypeError for other dtypes, as TF."""
    tf = _tf()
    tensor = tf.convert_to_tensor(tensor)
    if tensor.dtype != tf.string:
        raise ValueError(f"Expected tensor {getattr(tensor, 'name', '')} to have dtype string, got {tensor.dtype!r}")
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return _tensor_summary_op(name, tensor, metadata, collections)


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None, family=None,
                   display_name=None):
    """A Summary holding any tensor; `summary_metadata` (a SummaryMetadata) or its display_name and
    summary_description fields."""
    metadata = summary_pb2.SummaryMetadata() if summary_metadata is None else summary_metadata
    if summary_metadata is None:
        if display_name is not None:
            metadata.display_name = display_name
        if summary_description is not None:
            metadata.summary_description = summary_description
    return _tensor_summary_op(name, _tf().convert_to_tensor(tensor), metadata, collections, family)


__all__ = ["SummaryDescription", "TaggedRunMetadata", "tensor_summary", "text"]
