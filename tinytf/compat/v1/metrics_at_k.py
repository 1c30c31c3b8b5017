"""tf.compat.v1.metrics over the top k predictions of multi-label problems: precision and recall at k (from the
scores, or from the top-k class ids), optionally of one class, and the mean average precision at k. Labels are
class ids, dense ([batch, num_labels], or [batch] for one label) or a SparseTensor; counts are float64 counters
as in TF 2.21's metrics_impl, built with the set ops (tf.sets) as TF builds them."""

from __future__ import annotations

from .metrics import _after, _collect, _graph_only, _metric_variable, _tf, _v1


def _at_k_name(name, k=None, class_id=None):
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return f"{name}_class{class_id}" if class_id is not None else name


def _is_sparse(tensor) -> bool:
    tf = _tf()
    return isinstance(tensor, (tf.SparseTensor, tf.compat.v1.SparseTensorValue))


def _as_tensor(labels):
    tf = _tf()
    if isinstance(labels, tf.compat.v1.SparseTensorValue):
        return tf.SparseTensor(labels.indices, labels.values, labels.dense_shape)
    return labels if _is_sparse(labels) else tf.convert_to_tensor(labels)


def _maybe_expand_labels(labels, predictions):
    """Labels of one rank less than the predictions get a last dimension of 1 (one label per row)."""
    tf = _tf()
    labels = _as_tensor(labels)
    if _is_sparse(labels):
        rank = labels.dense_shape.shape[0]
        if rank is not None and predictions.shape.rank == rank + 1:
            return tf.sparse.reshape(labels, tf.concat([labels.dense_shape, tf.constant([1], tf.int64)], 0))
        return labels
    labels_rank, predictions_rank = labels.shape.rank, predictions.shape.rank
    if labels_rank is None or predictions_rank is None or predictions_rank == labels_rank:
        return labels
    if predictions_rank == labels_rank + 1:
        return tf.expand_dims(labels, -1)
    raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape {predictions.shape}. "
                     "Predictions rank should be the same rank as labels rank or labels rank plus one .")


def _select_class_id(ids, selected_id):
    """The entries of `ids` equal to `selected_id`, as a SparseTensor of ids' dense shape."""
    tf = _tf()
    if _is_sparse(ids):
        return tf.sparse.retain(ids, tf.equal(ids.values, selected_id))
    ids_shape = tf.shape(ids, out_type=tf.int64)
    filled_shape = tf.concat([ids_shape[:-1], tf.constant([1], tf.int64)], 0)
    result = tf.sets.intersection(tf.fill(filled_shape, tf.cast(selected_id, tf.int64)), ids)
    return tf.SparseTensor(result.indices, result.values, ids_shape)


def _weighted(counts, weights):
    """The per-row counts times the weights, which must be a scalar or of the counts' rank with each dimension
    1 or the counts' (TF's assert_broadcastable: checked when the session runs the update)."""
    tf = _tf()
    counts = tf.cast(counts, tf.float64)
    if weights is None:
        return counts
    weights = tf.convert_to_tensor(weights)
    if weights.shape.rank == 0:
        return counts * tf.cast(weights, tf.float64)
    if weights.shape.rank is not None and counts.shape.rank is not None and weights.shape.rank != counts.shape.rank:
        fits = tf.constant(False)
    else:
        weights_shape, counts_shape = tf.shape(weights), tf.shape(counts)
        fits = tf.reduce_all(tf.logical_or(tf.equal(weights_shape, 1), tf.equal(weights_shape, counts_shape)))
    check = tf.debugging.Assert(fits, ["weights can not be broadcast to values.", "weights.shape=",
                                       tf.shape(weights), "values.shape=", tf.shape(counts)])
    with tf.control_dependencies([check]):
        return counts * tf.cast(weights, tf.float64)


def _set_counts(kind, labels, predictions_idx, class_id, weights):
    """Per row: how many of the top-k ids are labels (tp), are not (fp), labels missed (fn)."""
    tf = _tf()
    if class_id is not None:
        labels, predictions_idx = _select_class_id(labels, class_id), _select_class_id(predictions_idx, class_id)
    if kind == "true_positive":
        sizes = tf.sets.size(tf.sets.intersection(predictions_idx, labels))
    else:
        sizes = tf.sets.size(tf.sets.difference(predictions_idx, labels, aminusb=kind == "false_positive"))
    return _weighted(sizes, weights)


def _streaming_count(kind, labels, predictions_idx, k, class_id, weights):
    """A float64 counter named `<kind>_at_<k>` under the current name scope, and its value after this batch."""
    tf, v1 = _tf(), _v1()
    counts = _set_counts(kind, labels, predictions_idx, class_id, weights)
    variable = _metric_variable(_at_k_name(kind, k, class_id), [], tf.float64)
    update = v1.assign_add(variable, tf.reduce_sum(counts))
    return variable.read_value(), _after(variable, update)


def _ratio_at_top_k(kind: str, other: str):
    def metric(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        if kind == "precision":  # TF checks for eager execution in precision_at_top_k, not recall_at_top_k
            _graph_only("precision_at_top_k")
        tf, v1 = _tf(), _v1()
        with v1.name_scope(name, _at_k_name(kind, k, class_id)):
            predictions_idx = tf.convert_to_tensor(predictions_idx)
            labels = _maybe_expand_labels(labels, predictions_idx)
            top_k_idx = tf.cast(predictions_idx, tf.int64)
            tp, tp_update = _streaming_count("true_positive", labels, top_k_idx, k, class_id, weights)
            rest, rest_update = _streaming_count(other, labels, top_k_idx, k, class_id, weights)
            value = tf.math.divide(tp, tp + rest)
            update = tf.math.divide(tp_update, tp_update + rest_update, name="update")
            return _collect(metrics_collections, value, updates_collections, update)

    metric.__name__ = metric.__qualname__ = f"{kind}_at_top_k"
    metric.__doc__ = f"{kind} of the given top-k class ids against the labels (NaN while nothing was counted)."
    return metric


precision_at_top_k = _ratio_at_top_k("precision", "false_positive")
recall_at_top_k = _ratio_at_top_k("recall", "false_negative")


def _ratio_at_k(kind: str, at_top_k, eager_name: str):
    def metric(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        _graph_only(eager_name)
        tf, v1 = _tf(), _v1()
        with v1.name_scope(name, _at_k_name(kind, k, class_id)) as scope:
            _, top_k_idx = tf.nn.top_k(predictions, k)
            return at_top_k(labels, top_k_idx, k=k, class_id=class_id, weights=weights,
                            metrics_collections=metrics_collections, updates_collections=updates_collections,
                            name=scope)

    metric.__name__ = metric.__qualname__ = f"{kind}_at_k"
    metric.__doc__ = f"{kind} of the k highest-scored classes against the labels."
    return metric


# TF's eager error for precision_at_k names sparse_precision_at_k (its former name)
precision_at_k = _ratio_at_k("precision", precision_at_top_k, "sparse_precision_at_k")
recall_at_k = _ratio_at_k("recall", recall_at_top_k, "recall_at_k")


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    """Deprecated in TF: precision_at_k."""
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections, updates_collections,
                          name)


def _num_relevant(labels, k):
    """How many labels each row has (non-negative ids), at most k."""
    tf = _tf()
    if k < 1:
        raise ValueError(f"Invalid k={k}")
    if _is_sparse(labels):
        return tf.minimum(tf.sets.size(labels), k)
    num_labels = tf.reduce_sum(tf.where(tf.greater_equal(labels, 0), tf.ones_like(labels), tf.zeros_like(labels)),
                               axis=-1)
    return tf.minimum(num_labels, tf.cast(k, num_labels.dtype))


def _labels_per_k(labels, k):
    """Labels repeated once per top-k position: [batch, num_labels] -> [batch, k, num_labels]."""
    tf = _tf()
    if _is_sparse(labels):
        # each entry [..., l] once per position j as [..., j, l] (what TF's sparse reshape + concat give)
        indices, shape = labels.indices, labels.dense_shape
        n = tf.shape(indices, out_type=tf.int64)[:1]
        copies = [tf.concat([indices[:, :-1], tf.fill(tf.concat([n, [1]], 0), tf.constant(j, tf.int64)),
                             indices[:, -1:]], 1) for j in range(k)]
        tiled = tf.SparseTensor(tf.concat(copies, 0), tf.concat([labels.values] * k, 0),
                                tf.concat([shape[:-1], tf.constant([k], tf.int64), shape[-1:]], 0))
        return tf.sparse.reorder(tiled)
    expanded = tf.expand_dims(labels, -2)
    return expanded if k == 1 else tf.concat([expanded] * k, -2)


def _average_precision_at_top_k(labels, predictions_idx):
    """Per row: the sum of the precision at each top-k position holding a label, over min(#labels, k)."""
    tf = _tf()
    predictions_idx = tf.cast(predictions_idx, tf.int64)
    if predictions_idx.shape.rank == 0:
        raise ValueError("The rank of `predictions_idx` must be at least 1.")
    k = predictions_idx.shape[-1]
    if k is None:
        raise ValueError("The last dimension of predictions_idx must be set. Currently, it is None.")
    labels = _maybe_expand_labels(labels, predictions_idx)
    relevant_per_k = _set_counts("true_positive", _labels_per_k(labels, k), tf.expand_dims(predictions_idx, -1),
                                 None, None)
    tp_per_k = tf.cumsum(relevant_per_k, axis=-1)
    retrieved_per_k = tf.cumsum(tf.ones_like(relevant_per_k), axis=-1)
    precision_sum = tf.reduce_sum(tf.math.divide(tp_per_k, retrieved_per_k) * relevant_per_k, axis=-1)
    return tf.math.divide(precision_sum, tf.cast(_num_relevant(labels, k), tf.float64))


def _clean_out_of_range(labels, num_classes):
    """Label ids >= num_classes become -1 (no class), as TF does before averaging precision (TF checks the
    largest id first, which names a `Max` op in the metric's scope: its `max` counter becomes `max_1`)."""
    tf = _tf()
    values = labels.values if _is_sparse(labels) else labels
    out_of_range = tf.greater_equal(tf.reduce_max(values), num_classes)
    values = tf.where(tf.logical_and(out_of_range, tf.greater_equal(values, num_classes)),
                      -1 * tf.ones_like(values), values)
    return tf.SparseTensor(labels.indices, values, labels.dense_shape) if _is_sparse(labels) else values


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The (weighted) mean over rows of the average precision of the k highest-scored classes."""
    _graph_only("sparse_average_precision_at_k")  # TF's eager error names the former function
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    tf, v1 = _tf(), _v1()
    with v1.name_scope(name, _at_k_name("average_precision", k)):
        predictions = tf.convert_to_tensor(predictions)
        _, predictions_idx = tf.nn.top_k(predictions, k)
        labels = _as_tensor(labels)
        labels = _clean_out_of_range(labels, tf.cast(tf.shape(predictions)[-1], labels.dtype))
        average_precision = _average_precision_at_top_k(labels, predictions_idx)
        if weights is not None:
            weights = tf.cast(weights, tf.float64) * tf.ones_like(average_precision)
            average_precision = average_precision * weights
            batch_max = tf.reduce_sum(weights)
        else:
            batch_max = tf.cast(tf.size(average_precision), tf.float64)
        max_var = _metric_variable("max", [], tf.float64)
        total_var = _metric_variable("total", [], tf.float64)
        max_update = _after(max_var, v1.assign_add(max_var, batch_max))
        total_update = _after(total_var, v1.assign_add(total_var, tf.reduce_sum(average_precision)))
        value = tf.math.divide_no_nan(total_var.read_value(), max_var.read_value(), name="mean")
        update = tf.math.divide_no_nan(total_update, max_update)
        return _collect(metrics_collections, value, updates_collections, update)


def sparse_average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """Deprecated in TF: average_precision_at_k."""
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections, updates_collections, name)
