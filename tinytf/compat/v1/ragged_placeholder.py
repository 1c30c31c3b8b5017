"""tf.compat.v1.ragged.placeholder: a RaggedTensor of placeholders (flat values, then one int64 row_splits
placeholder per ragged dimension) that a Session feeds with a RaggedTensorValue, as TF's ragged_factory_ops."""

from __future__ import annotations


def placeholder(dtype, ragged_rank, value_shape=None, name=None):
    """A RaggedTensor placeholder of `ragged_rank` ragged dimensions over flat values of shape
    [None] + value_shape; ragged_rank 0 is a plain placeholder of shape `value_shape`."""
    import tinytf as tf

    from .graph import placeholder as dense_placeholder

    if ragged_rank == 0:
        return dense_placeholder(dtype, value_shape, name)
    with tf.name_scope(name or "RaggedPlaceholder"):
        flat_shape = tf.TensorShape([None]).concatenate(tf.TensorShape(value_shape))
        result = dense_placeholder(dtype, flat_shape, "flat_values")
        for i in reversed(range(ragged_rank)):
            row_splits = dense_placeholder(tf.int64, [None], f"row_splits_{i}")
            result = tf.RaggedTensor.from_row_splits(result, row_splits, validate=False)
        return result


def expand_ragged_feeds(feed_dict: dict) -> dict:
    """A feed_dict with each RaggedTensor key (a ragged.placeholder) replaced by its placeholders: the flat
    values and each level's row_splits, taken from the fed RaggedTensorValue (TF's Session does the same)."""
    from ...ragged.ragged_tensor import RaggedTensor
    from .ragged_value import RaggedTensorValue

    out = {}
    for key, value in feed_dict.items():
        if not isinstance(key, RaggedTensor):
            out[key] = value
            continue
        while isinstance(key, RaggedTensor):
            if not isinstance(value, RaggedTensorValue):
                raise TypeError(f"A RaggedTensor feed takes a tf.compat.v1.ragged.RaggedTensorValue of the same "
                                f"ragged rank, got {type(value).__name__}")
            out[key.row_splits] = value.row_splits
            key, value = key.values, value.values
        out[key] = value
    return out
