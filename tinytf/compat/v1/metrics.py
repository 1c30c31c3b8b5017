"""tf.compat.v1.metrics: TF1's streaming metrics. Each returns (value, update_op): its counters are local
variables (LOCAL_VARIABLES and METRIC_VARIABLES, zeroed by `local_variables_initializer()`) under a variable
scope named after the metric, `update_op` adds a batch to them and gives the metric after that batch, `value`
reads the metric over every batch added so far. As TF 2.21's metrics_impl builds them; eagerly TF raises
RuntimeError, and so does this."""

from __future__ import annotations


def _tf():
    import tinytf

    return tinytf


def _v1():
    from tinytf.compat import v1

    return v1


def _eager() -> bool:
    from tinytf.runtime.context import state

    return state.graph is None


def _graph_only(name: str) -> None:
    if _eager():
        raise RuntimeError(f"tf.metrics.{name} is not supported when eager execution is enabled.")


def _metric_variable(name: str, shape=(), dtype=None):
    """A float32 counter (a scalar unless `shape` says otherwise): local, not trainable, zero until the first
    update. A plain variable (TF's VariableV1), not get_variable: it is named under the current name scope, so
    a second metric with the same name gets `name_1/total` instead of a clash, as in TF."""
    tf, v1 = _tf(), _v1()
    from .variable_scope import _collect as collect_variable

    dtype = dtype or tf.float32
    variable = tf.Variable(lambda: tf.zeros(list(shape), dtype), trainable=False, name=name)
    if _eager():  # TF's only metric that runs eagerly (recall_at_top_k) has no graph to collect into
        return variable
    collect_variable(v1.get_default_graph(), variable,
                     [v1.GraphKeys.LOCAL_VARIABLES, v1.GraphKeys.METRIC_VARIABLES], None, variable.name)
    return variable


def _add_to(variable, delta):
    """The variable's value after adding `delta`, as a tensor that runs the addition when fetched."""
    return _after(variable, _v1().assign_add(variable, delta))


def _after(variable, update):
    """The variable's value read after the `update` operation, which fetching it runs."""
    value = variable.read_value()
    if not _eager():  # eagerly the update has run already
        value.node.control_inputs.append(update._v1_node)
    return value


def _collect(metrics_collections, value, updates_collections, update_op):
    v1 = _v1()
    if metrics_collections:
        v1.add_to_collections(metrics_collections, value)
    if updates_collections:
        v1.add_to_collections(updates_collections, update_op)
    return value, update_op


def _squeeze_last(tensor, like):
    """TF's _remove_squeezable_dimensions, for static ranks: a trailing dimension of 1 that makes `tensor` one
    rank more than `like` goes."""
    tf = _tf()
    if tensor is None or like is None:
        return tensor
    rank, other = tensor.shape.rank, like.shape.rank
    if rank is not None and other is not None and rank == other + 1 and tensor.shape[-1] == 1:
        return tf.squeeze(tensor, [-1])
    return tensor


def _match_weights(weights, predictions):
    """TF's _remove_squeezable_dimensions for weights, with static ranks: a trailing dimension of 1 too many
    goes, one too few is added; a scalar stays."""
    tf = _tf()
    if weights is None:
        return None
    weights = tf.convert_to_tensor(weights)
    rank, other = weights.shape.rank, predictions.shape.rank
    if rank in (None, 0) or other is None:
        return weights
    if rank - other == 1:
        return tf.squeeze(weights, [-1])
    if other - rank == 1:
        return tf.expand_dims(weights, -1)
    return weights


def _prepare(labels, predictions, weights):
    tf = _tf()
    labels, predictions = tf.convert_to_tensor(labels), tf.convert_to_tensor(predictions)
    labels, predictions = _squeeze_last(labels, predictions), _squeeze_last(predictions, labels)
    if weights is not None:
        weights = _squeeze_last(tf.convert_to_tensor(weights), predictions)
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
    return labels, predictions, weights


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of every value added: total / count."""
    _graph_only("mean")
    tf, v1 = _tf(), _v1()
    with v1.variable_scope(name, default_name="mean"):
        values = tf.cast(values, tf.float32)
        total, count = _metric_variable("total"), _metric_variable("count")
        if weights is None:
            num_values = tf.cast(tf.size(values), tf.float32)
        else:
            weights = _match_weights(weights, values)
            weights = tf.cast(weights, tf.float32) * tf.ones_like(values)  # broadcast to the values
            values = tf.multiply(values, weights)
            num_values = tf.reduce_sum(weights)
        new_total, new_count = _add_to(total, tf.reduce_sum(values)), _add_to(count, num_values)
        value = tf.math.divide_no_nan(total.read_value(), tf.maximum(count.read_value(), 0.0), name="value")
        update_op = tf.math.divide_no_nan(new_total, tf.maximum(new_count, 0.0), name="update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """How often predictions equal labels: the mean of `predictions == labels`."""
    _graph_only("accuracy")
    tf = _tf()
    labels, predictions, weights = _prepare(labels, predictions, weights)
    if labels.dtype != predictions.dtype:
        predictions = tf.cast(predictions, labels.dtype)
    is_correct = tf.cast(tf.equal(predictions, labels), tf.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                       name=None):
    _graph_only("mean_squared_error")
    tf = _tf()
    labels, predictions, weights = _prepare(labels, predictions, weights)
    squared_error = tf.math.squared_difference(tf.cast(labels, tf.float32), tf.cast(predictions, tf.float32))
    return mean(squared_error, weights, metrics_collections, updates_collections, name or "mean_squared_error")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                        name=None):
    _graph_only("mean_absolute_error")
    tf = _tf()
    labels, predictions, weights = _prepare(labels, predictions, weights)
    absolute_error = tf.abs(tf.cast(predictions, tf.float32) - tf.cast(labels, tf.float32))
    return mean(absolute_error, weights, metrics_collections, updates_collections, name or "mean_absolute_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    _graph_only("root_mean_squared_error")
    tf = _tf()
    labels, predictions, weights = _prepare(labels, predictions, weights)
    squared_error = tf.math.squared_difference(tf.cast(labels, tf.float32), tf.cast(predictions, tf.float32))
    mse, update_mse = mean(squared_error, weights, None, None, name or "root_mean_squared_error")
    return _collect(metrics_collections, tf.sqrt(mse), updates_collections, tf.sqrt(update_mse))


def _count_condition(values, weights, metrics_collections, updates_collections):
    """A counter of the (weighted) True values."""
    tf = _tf()
    count = _metric_variable("count")
    values = tf.cast(values, tf.float32)
    if weights is not None:
        values = tf.multiply(values, tf.cast(weights, tf.float32))
    update_op = _add_to(count, tf.reduce_sum(values))
    return _collect(metrics_collections, tf.identity(count.read_value()), updates_collections, update_op)


def _confusion_count(kind: str, label_is: bool, prediction_is: bool):
    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        _graph_only(kind)
        tf, v1 = _tf(), _v1()
        with v1.variable_scope(name, default_name=kind):
            labels, predictions, weights = _prepare(tf.cast(labels, tf.bool), tf.cast(predictions, tf.bool),
                                                    weights)
            hit = tf.logical_and(tf.equal(labels, label_is), tf.equal(predictions, prediction_is))
            return _count_condition(hit, weights, metrics_collections, updates_collections)

    metric.__name__ = metric.__qualname__ = kind
    metric.__doc__ = f"The (weighted) number of {kind.replace('_', ' ')}: labels {label_is}, predictions " \
                     f"{prediction_is}."
    return metric


true_positives = _confusion_count("true_positives", True, True)
false_positives = _confusion_count("false_positives", False, True)
true_negatives = _confusion_count("true_negatives", False, False)
false_negatives = _confusion_count("false_negatives", True, False)


def _ratio(kind: str, other):
    """precision (tp / (tp + fp)) or recall (tp / (tp + fn)), 0 while nothing was counted."""

    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        _graph_only(kind)
        tf, v1 = _tf(), _v1()
        with v1.variable_scope(name, default_name=kind):
            labels, predictions, weights = _prepare(tf.cast(labels, tf.bool), tf.cast(predictions, tf.bool),
                                                    weights)
            tp, tp_update = true_positives(labels, predictions, weights)
            rest, rest_update = other(labels, predictions, weights)

            def compute(t, r, label):
                return tf.where(tf.greater(t + r, 0), tf.math.divide(t, t + r), 0.0, name=label)

            return _collect(metrics_collections, compute(tp, rest, "value"), updates_collections,
                            compute(tp_update, rest_update, "update_op"))

    metric.__name__ = metric.__qualname__ = kind
    return metric


precision = _ratio("precision", false_positives)
recall = _ratio("recall", false_negatives)


# The rest of TF1's metrics live in files of their own, one family each; they build on the helpers above.
from .metrics_at_k import (  # noqa: E402, F401
    average_precision_at_k,
    precision_at_k,
    precision_at_top_k,
    recall_at_k,
    recall_at_top_k,
    sparse_average_precision_at_k,
    sparse_precision_at_k,
)
from .metrics_means import (  # noqa: E402, F401
    mean_cosine_distance,
    mean_iou,
    mean_per_class_accuracy,
    mean_relative_error,
    mean_tensor,
    percentage_below,
)
from .metrics_thresholds import (  # noqa: E402, F401
    auc,
    false_negatives_at_thresholds,
    false_positives_at_thresholds,
    precision_at_thresholds,
    recall_at_thresholds,
    sensitivity_at_specificity,
    specificity_at_sensitivity,
    true_negatives_at_thresholds,
    true_positives_at_thresholds,
)
