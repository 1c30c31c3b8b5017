"""tf.compat.v1.metrics that are means: elementwise (mean_tensor), of a derived quantity (cosine distance,
relative error, the share below a threshold), or per class (per-class accuracy, mean intersection over union
from a streamed confusion matrix). As TF 2.21's metrics_impl builds them, update ops included (for
mean_per_class_accuracy TF's update op gives the per-class accuracies, for mean_iou the confusion matrix)."""

from __future__ import annotations

from .metrics import _after, _collect, _graph_only, _match_weights, _metric_variable, _squeeze_last, _tf, _v1, mean


def _values_labels_weights(labels, predictions, weights):
    """TF's _remove_squeezable_dimensions: squeezable trailing dimensions go, shapes must be compatible."""
    tf = _tf()
    labels, predictions = tf.convert_to_tensor(labels), tf.convert_to_tensor(predictions)
    labels, predictions = _squeeze_last(labels, predictions), _squeeze_last(predictions, labels)
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
    return labels, predictions, _match_weights(weights, predictions)


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The elementwise (weighted) mean of every `values` added: two counters of values' (static) shape."""
    _graph_only("mean_tensor")
    tf = _tf()
    with _v1().variable_scope(name, default_name="mean"):
        values = tf.cast(values, tf.float32)
        if not values.shape.is_fully_defined():
            # TF fails building the zeros of the counters' shape
            raise ValueError(f"Cannot convert a partially known TensorShape {values.shape} to a Tensor.")
        total = _metric_variable("total_tensor", values.shape.as_list())
        count = _metric_variable("count_tensor", values.shape.as_list())
        num_values = tf.ones_like(values)
        if weights is not None:
            weights = tf.cast(_match_weights(weights, values), tf.float32) * tf.ones_like(values)
            values, num_values = values * weights, num_values * weights
        new_total = _after(total, _v1().assign_add(total, values))
        new_count = _after(count, _v1().assign_add(count, num_values))
        value = tf.math.divide_no_nan(total.read_value(), tf.maximum(count.read_value(), 0.0), name="value")
        update_op = tf.math.divide_no_nan(new_total, tf.maximum(new_count, 0.0), name="update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 - the mean over `dim` of labels . predictions (both expected unit-normalized, as in TF)."""
    _graph_only("mean_cosine_distance")
    tf = _tf()
    labels, predictions, weights = _values_labels_weights(labels, predictions, weights)
    radial = tf.reduce_sum(tf.multiply(predictions, labels), axis=[dim], keepdims=True)
    distance, update = mean(radial, weights, None, None, name or "mean_cosine_distance")
    return _collect(metrics_collections, tf.subtract(1.0, distance), updates_collections,
                    tf.subtract(1.0, update))


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The mean of |labels - predictions| / normalizer, 0 where the normalizer is 0."""
    _graph_only("mean_relative_error")
    tf = _tf()
    labels, predictions, weights = _values_labels_weights(labels, predictions, weights)
    normalizer = tf.convert_to_tensor(normalizer)
    normalizer = _squeeze_last(normalizer, predictions)
    if not predictions.shape.is_compatible_with(normalizer.shape):
        raise ValueError(f"Shapes {predictions.shape} and {normalizer.shape} are incompatible")
    relative = tf.where(tf.equal(normalizer, 0.0), tf.zeros_like(labels),
                        tf.math.divide(tf.abs(labels - predictions), normalizer))
    return mean(relative, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def percentage_below(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                     name=None):
    """The (weighted) share of values below `threshold`."""
    _graph_only("percentage_below")
    tf = _tf()
    is_below = tf.cast(tf.less(values, threshold), tf.float32)
    return mean(is_below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")


def _flat(tensor):
    tf = _tf()
    return tf.reshape(tensor, [-1]) if tensor.shape.rank is not None and tensor.shape.rank > 1 else tensor


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The mean over classes of each class's accuracy (the weighted share of its labels predicted right)."""
    _graph_only("mean_per_class_accuracy")
    tf, v1 = _tf(), _v1()
    with v1.variable_scope(name, default_name="mean_accuracy"):
        labels = _flat(tf.cast(labels, tf.int64))
        predictions = _flat(tf.convert_to_tensor(predictions))
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
        total = _metric_variable("total", [num_classes])
        count = _metric_variable("count", [num_classes])
        ones = tf.ones([tf.size(labels)], tf.float32)
        if labels.dtype != predictions.dtype:
            predictions = tf.cast(predictions, labels.dtype)
        is_correct = tf.cast(tf.equal(predictions, labels), tf.float32)
        if weights is not None:
            weights = tf.cast(_flat(tf.convert_to_tensor(weights)), tf.float32)
            is_correct, ones = is_correct * weights, ones * weights
        new_total = _after(total, v1.scatter_add(total, labels, ones))
        new_count = _after(count, v1.scatter_add(count, labels, is_correct))
        per_class = tf.math.divide_no_nan(count.read_value(), tf.maximum(total.read_value(), 0.0))
        value = tf.reduce_mean(per_class, name="mean_accuracy")
        # TF's update op is the per-class accuracies, not their mean
        update_op = tf.math.divide_no_nan(new_count, tf.maximum(new_total, 0.0), name="update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The mean over classes present (in labels or predictions) of TP / (TP + FP + FN), from a float64
    [num_classes, num_classes] confusion matrix summed over the batches; the update op gives that matrix."""
    _graph_only("mean_iou")
    tf, v1 = _tf(), _v1()
    with v1.variable_scope(name, default_name="mean_iou"):
        labels, predictions = tf.convert_to_tensor(labels), tf.convert_to_tensor(predictions)
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
        total_cm = _metric_variable("total_confusion_matrix", [num_classes, num_classes], tf.float64)
        if weights is not None:
            weights = _flat(tf.convert_to_tensor(weights))
        current = tf.math.confusion_matrix(_flat(tf.cast(labels, tf.int64)), _flat(tf.cast(predictions, tf.int64)),
                                           tf.cast(num_classes, tf.int64), weights=weights, dtype=tf.float64)
        update_op = _after(total_cm, v1.assign_add(total_cm, current))
        cm = total_cm.read_value()
        sum_over_row = tf.cast(tf.reduce_sum(cm, 0), tf.float32)
        sum_over_col = tf.cast(tf.reduce_sum(cm, 1), tf.float32)
        diag = tf.cast(tf.linalg.diag_part(cm), tf.float32)
        denominator = sum_over_row + sum_over_col - diag
        # classes in neither labels nor predictions have denominator 0 and are left out of the mean
        num_valid = tf.reduce_sum(tf.cast(tf.not_equal(denominator, 0), tf.float32))
        denominator = tf.where(tf.greater(denominator, 0), denominator, tf.ones_like(denominator))
        iou = tf.math.divide(diag, denominator)
        value = tf.where(tf.greater(num_valid, 0), tf.reduce_sum(iou, name="mean_iou") / num_valid, 0.0)
        return _collect(metrics_collections, value, updates_collections, update_op)
