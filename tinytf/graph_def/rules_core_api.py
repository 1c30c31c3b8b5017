"""Export rules for the ops of the core-API names (3-D convolution and pooling, string hashing, ...): each a
function (node view, const) -> (TF op, input refs, attrs), the TF op being the one TF 2.21 puts in a graph for the
same call (tf.nn.conv3d -> Conv3D, its gradients Conv3DBackpropInputV2 / FilterV2, tf.fingerprint ->
Fingerprint). rules_more.py merges RULES and TF_NAMES into its tables; this module imports neither rules module."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from . import protos as p


def _t(n, i=0):
    return {"T": p.attr_type(n.inputs[i].dtype)}


def _int(const, hint, values):
    return const(hint, np.asarray(values, np.int32), dtypes.int32)


def _ndhwc(values):
    return [1] + [int(v) for v in values] + [1]


def _window(n, with_dilations=False):
    attrs = {"strides": p.attr_ints(_ndhwc(n.attrs["strides"])), "padding": p.attr(n.attrs["padding"]),
             "data_format": p.attr("NDHWC")}
    if with_dilations:
        attrs["dilations"] = p.attr_ints(_ndhwc(n.attrs["dilations"]))
    if "ksize" in n.attrs:
        attrs["ksize"] = p.attr_ints(_ndhwc(n.attrs["ksize"]))
    return attrs


def _batch(n, i=0):
    shape = n.inputs[i]._shape
    if shape is None or shape[0] is None:
        raise NotImplementedError(f"{n.op} with an unknown batch size")
    return shape[0]


def _conv3d(n, const):
    return "Conv3D", list(n.refs), {**_t(n), **_window(n, True)}


def _conv3d_backprop_input(n, const):  # tinytf (g, filters), shape (D, H, W, C): TF (input_sizes, filter, g)
    if n.attrs["shape"] is None:
        raise NotImplementedError(f"{n.op} of an input whose shape is known only at run time")
    sizes = _int(const, "input_sizes", [_batch(n)] + list(n.attrs["shape"]))
    return "Conv3DBackpropInputV2", [sizes, n.refs[1], n.refs[0]], \
        {**_t(n), **_window(n, True), "Tshape": p.attr_type(dtypes.int32)}


def _conv3d_backprop_filter(n, const):  # tinytf (x, g), filter_shape: TF (input, filter_sizes, g)
    sizes = _int(const, "filter_sizes", list(n.attrs["filter_shape"]))
    return "Conv3DBackpropFilterV2", [n.refs[0], sizes, n.refs[1]], {**_t(n), **_window(n, True)}


def _pool3d(tf_op):
    def rule(n, const):
        return tf_op, list(n.refs), {**_t(n), **_window(n)}

    return rule


def _pooled(n, const):
    return const.node("MaxPool3D", "MaxPool3D", [n.refs[0]], {**_t(n), **_window(n)})


def _max_pool3d_grad(n, const):  # tinytf (x, g): TF MaxPool3DGrad(orig_input, orig_output, grad)
    attrs = {**_t(n, 1), "TInput": p.attr_type(n.inputs[0].dtype), **_window(n)}
    return "MaxPool3DGrad", [n.refs[0], _pooled(n, const), n.refs[1]], attrs


def _max_pool3d_grad_grad(n, const):  # tinytf (x, dy): TF MaxPool3DGradGrad(orig_input, orig_output, grad)
    return "MaxPool3DGradGrad", [n.refs[0], _pooled(n, const), n.refs[1]], {**_t(n), **_window(n)}


def _avg_pool3d_grad(n, const):  # tinytf (g), shape: TF AvgPool3DGrad(orig_input_shape, grad)
    if n.attrs["shape"] is None:
        raise NotImplementedError(f"{n.op} of an input whose shape is known only at run time")
    return "AvgPool3DGrad", [_int(const, "orig_input_shape", list(n.attrs["shape"])), n.refs[0]], \
        {**_t(n), **_window(n)}


def _hash_bucket(tf_op):
    def rule(n, const):
        attrs = {"num_buckets": p.attr(int(n.attrs["num_buckets"]))}
        if "key" in n.attrs:  # uint64 key words, TF's list(int) attr holds them as int64
            attrs["key"] = p.attr_ints([int(np.uint64(k).astype(np.int64)) for k in n.attrs["key"]])
        return tf_op, list(n.refs), attrs

    return rule


def _fingerprint(n, const):
    method = const("method", np.asarray(n.attrs["method"].encode(), dtype=object), dtypes.string)
    return "Fingerprint", [n.refs[0], method], _t(n)


def _ensure_shape(n, const):
    shape = n.attrs["shape"]
    return "EnsureShape", list(n.refs), {**_t(n), "shape": p.attr_shape(shape)}


def _reverse_sequence(n, const):
    return "ReverseSequence", list(n.refs), {**_t(n), "Tlen": p.attr_type(n.inputs[1].dtype),
                                             "seq_dim": p.attr(int(n.attrs["seq_axis"])),
                                             "batch_dim": p.attr(int(n.attrs["batch_axis"]))}


def _dynamic_partition(n, const):
    return "DynamicPartition", list(n.refs), {**_t(n), "num_partitions": p.attr(int(n.attrs["num_partitions"]))}


def _dynamic_stitch(n, const):
    half = len(n.refs) // 2
    return "DynamicStitch", list(n.refs), {"T": p.attr_type(n.inputs[half].dtype), "N": p.attr(half)}


def _space_batch(tf_op, pairs_attr, pairs_input):
    def rule(n, const):
        block = _int(const, "block_shape", list(n.attrs["block_shape"]))
        pairs = const(pairs_input, np.asarray(n.attrs[pairs_attr], np.int32).reshape(-1, 2), dtypes.int32)
        return tf_op, [n.refs[0], block, pairs], {**_t(n), "Tblock_shape": p.attr_type(dtypes.int32),
                                                  f"T{pairs_input}": p.attr_type(dtypes.int32)}

    return rule


def _cumulative_logsumexp(n, const):
    return "CumulativeLogsumexp", [n.refs[0], _int(const, "axis", n.attrs["axis"])], {
        **_t(n), "Tidx": p.attr_type(dtypes.int32), "exclusive": p.attr(bool(n.attrs["exclusive"])),
        "reverse": p.attr(bool(n.attrs["reverse"]))}


def _erfcinv(n, const):  # TF's tf.math.erfcinv is the composite -ndtri(0.5 * x) * sqrt(0.5)
    dtype = n.inputs[0].dtype
    half = const.node("mul", "Mul", [n.refs[0], const("half", np.asarray(0.5, dtype.np), dtype)], _t(n))
    quantile = const.node("Ndtri", "Ndtri", [half], _t(n))
    scaled = const.node("mul_1", "Mul", [quantile, const("sqrt_half", np.asarray(0.5 ** 0.5, dtype.np), dtype)],
                        _t(n))
    return "Neg", [scaled], _t(n)


RULES = {
    "conv3d": _conv3d, "conv3d_backprop_input": _conv3d_backprop_input,
    "conv3d_backprop_filter": _conv3d_backprop_filter, "max_pool3d": _pool3d("MaxPool3D"),
    "avg_pool3d": _pool3d("AvgPool3D"), "max_pool3d_grad": _max_pool3d_grad,
    "max_pool3d_grad_grad": _max_pool3d_grad_grad, "avg_pool3d_grad": _avg_pool3d_grad,
    "string_to_hash_bucket_fast": _hash_bucket("StringToHashBucketFast"),
    "string_to_hash_bucket_strong": _hash_bucket("StringToHashBucketStrong"),
    "string_to_hash_bucket": _hash_bucket("StringToHashBucket"), "fingerprint": _fingerprint,
    "ensure_shape": _ensure_shape, "reverse_sequence": _reverse_sequence, "dynamic_partition": _dynamic_partition,
    "dynamic_stitch": _dynamic_stitch,
    "unravel_index": lambda n, const: ("UnravelIndex", list(n.refs), {"Tidx": p.attr_type(n.inputs[0].dtype)}),
    "broadcast_args": lambda n, const: ("BroadcastArgs", list(n.refs), _t(n)),
    "bitcast": lambda n, const: ("Bitcast", list(n.refs), {**_t(n), "type": p.attr_type(n.attrs["type"])}),
    "timestamp": lambda n, const: ("Timestamp", [], {}),
    "space_to_batch_nd": _space_batch("SpaceToBatchND", "paddings", "paddings"),
    "batch_to_space_nd": _space_batch("BatchToSpaceND", "crops", "crops"),
    "cumulative_logsumexp": _cumulative_logsumexp,
    "invert_permutation": lambda n, const: ("InvertPermutation", list(n.refs), _t(n)),
    "nextafter": lambda n, const: ("NextAfter", list(n.refs), _t(n)),
    "left_shift": lambda n, const: ("LeftShift", list(n.refs), _t(n)),
    "right_shift": lambda n, const: ("RightShift", list(n.refs), _t(n)),
    "lgamma": lambda n, const: ("Lgamma", list(n.refs), _t(n)),
    "digamma": lambda n, const: ("Digamma", list(n.refs), _t(n)),
    "polygamma": lambda n, const: ("Polygamma", list(n.refs), _t(n)),
    "zeta": lambda n, const: ("Zeta", list(n.refs), _t(n)),
    "ndtri": lambda n, const: ("Ndtri", list(n.refs), _t(n)),
    "erfinv": lambda n, const: ("Erfinv", list(n.refs), _t(n)),
    "erfcinv": _erfcinv,
}

# The TF op each rule's node is, for the readable TensorBoard graph (display.py).
TF_NAMES = {
    "conv3d": "Conv3D", "conv3d_backprop_input": "Conv3DBackpropInputV2",
    "conv3d_backprop_filter": "Conv3DBackpropFilterV2", "max_pool3d": "MaxPool3D", "avg_pool3d": "AvgPool3D",
    "max_pool3d_grad": "MaxPool3DGrad", "max_pool3d_grad_grad": "MaxPool3DGradGrad",
    "avg_pool3d_grad": "AvgPool3DGrad", "string_to_hash_bucket_fast": "StringToHashBucketFast",
    "string_to_hash_bucket_strong": "StringToHashBucketStrong", "string_to_hash_bucket": "StringToHashBucket",
    "fingerprint": "Fingerprint", "ensure_shape": "EnsureShape", "reverse_sequence": "ReverseSequence",
    "dynamic_partition": "DynamicPartition", "dynamic_stitch": "DynamicStitch", "unravel_index": "UnravelIndex",
    "broadcast_args": "BroadcastArgs", "bitcast": "Bitcast", "timestamp": "Timestamp",
    "space_to_batch_nd": "SpaceToBatchND", "batch_to_space_nd": "BatchToSpaceND",
    "cumulative_logsumexp": "CumulativeLogsumexp", "invert_permutation": "InvertPermutation", "nextafter": "NextAfter",
    "left_shift": "LeftShift", "right_shift": "RightShift", "lgamma": "Lgamma", "digamma": "Digamma",
    "polygamma": "Polygamma", "zeta": "Zeta", "ndtri": "Ndtri", "erfinv": "Erfinv", "erfcinv": "Neg",
}

# Ops with no faithful TF node (the exporter raises NotImplementedError with the reason).
UNEXPORTED = {
    "repeat": "TF's tf.repeat is a Python composite (Reshape, Tile, SequenceMask, BooleanMask); not written",
    "repeat_grad": "the gradient of tinytf's repeat (segment sums of the copies); TF's is its composite's gradient",
    "set_operation": "one op for TF's DenseToDenseSetOperation / DenseToSparseSetOperation / "
                     "SparseToSparseSetOperation (their inputs differ per form); not written",
    "set_size": "TF's SetSize takes the SparseTensor's parts and validate_indices; not written",
}
