"""tf.compat.v1.losses: TF1's loss functions, each a weighted loss reduced as `reduction` says (by default the
weighted sum over the number of non-zero weights) and, while a graph is built, added to the LOSSES collection;
the regularization losses of get_variable(regularizer=...) and get_total_loss. As TF 2.21's losses_impl
computes them: in float32, cast back to the input's dtype."""

from __future__ import annotations

from .deprecated_args import one_of


def _tf():
    import tinytf

    return tinytf


class Reduction:
    """Types of loss reduction (TF1's names: `weighted_...`)."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


def _building_graph() -> bool:
    from tinytf.runtime.context import state

    return state.graph is not None


def add_loss(loss, loss_collection="losses"):
    """Adds `loss` to the graph's `loss_collection` (nothing eagerly, as in TF)."""
    if loss_collection and _building_graph():
        from . import add_to_collection

        add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection="losses"):
    from . import get_collection

    return get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    from . import get_collection

    return get_collection("regularization_losses", scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    tf = _tf()
    losses = get_regularization_losses(scope)
    return tf.add_n(losses, name=name) if losses else tf.constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope=scope)
    return _tf().add_n(losses, name=name)


def _assert_broadcastable(weights, values) -> None:
    """TF's static check: weights are a scalar, or of the values' rank with each dimension 1 or the values'."""
    w, v = weights.shape, values.shape
    if w.rank is None or v.rank is None or w.rank == 0:
        return
    if w.rank != v.rank or any(a is not None and b is not None and a != 1 and a != b
                               for a, b in zip(w.as_list(), v.as_list())):
        raise ValueError(f"weights can not be broadcast to values. values.rank={v.rank}. weights.rank={w.rank}. "
                         f"values.shape={v}. weights.shape={w}.")


def _num_present(losses, weights, per_batch=False):
    """The number of elements of `losses` whose weight is not 0 (per batch entry when `per_batch`)."""
    tf = _tf()
    # TF's shortcut, per_batch or not: a non-zero scalar weight known now (a float, or a tensor when running
    # eagerly) counts every element of the batch (so mean_pairwise_squared_error differs eagerly and in graphs)
    if isinstance(weights, float) and weights != 0.0 or (
            not _building_graph() and tf.convert_to_tensor(weights).shape.rank == 0
            and bool(tf.not_equal(weights, 0.0))):
        return tf.cast(tf.size(losses), losses.dtype)
    weights = tf.cast(weights, tf.float32)
    present = tf.where(tf.equal(weights, 0.0), tf.zeros_like(weights), tf.ones_like(weights))
    present = present * tf.ones_like(losses)  # broadcast to the losses' shape
    if per_batch:
        return tf.reduce_sum(present, axis=list(range(1, losses.shape.rank)), keepdims=True)
    return tf.reduce_sum(present)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection="losses",
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    Reduction.validate(reduction)
    tf = _tf()
    with tf.name_scope(scope or "weighted_loss"):
        losses = tf.convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = tf.cast(losses, tf.float32)
        weights = tf.cast(weights, tf.float32)
        _assert_broadcastable(weights, losses)
        weighted_losses = tf.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted_losses
        else:
            loss = tf.reduce_sum(weighted_losses)
            if reduction == Reduction.MEAN:
                loss = tf.math.divide_no_nan(loss, tf.reduce_sum(tf.ones_like(losses) * weights))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = tf.math.divide_no_nan(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = tf.math.divide_no_nan(loss, tf.cast(tf.size(losses), losses.dtype))
        loss = tf.cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _assert_compatible(a, b) -> None:
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible")


def _pair(labels, predictions, predictions_name="predictions"):
    """labels and predictions as float32 tensors of compatible shapes (TF's checks and messages)."""
    tf = _tf()
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError(f"Argument `{predictions_name}` must not be None.")
    predictions = tf.cast(predictions, tf.float32)
    labels = tf.cast(labels, tf.float32)
    _assert_compatible(predictions, labels)
    return labels, predictions


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection="losses",
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    tf = _tf()
    with tf.name_scope(scope or "absolute_difference"):
        labels, predictions = _pair(labels, predictions)
        losses = tf.abs(tf.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection="losses",
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    tf = _tf()
    with tf.name_scope(scope or "mean_squared_error"):
        labels, predictions = _pair(labels, predictions)
        losses = tf.math.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection="losses",
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    tf = _tf()
    with tf.name_scope(scope or "log_loss"):
        labels, predictions = _pair(labels, predictions)
        losses = (-tf.multiply(labels, tf.math.log(predictions + epsilon))
                  - tf.multiply(1.0 - labels, tf.math.log(1.0 - predictions + epsilon)))
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection="losses",
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """labels are 0 or 1 (read as -1 and 1)."""
    tf = _tf()
    with tf.name_scope(scope or "hinge_loss"):
        labels, logits = _pair(labels, logits, "logits")
        signs = tf.subtract(2.0 * labels, tf.ones_like(labels))
        losses = tf.nn.relu(tf.subtract(tf.ones_like(labels), tf.multiply(signs, logits)))
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection="losses",
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    tf = _tf()
    with tf.name_scope(scope or "huber_loss"):
        labels, predictions = _pair(labels, predictions)
        error = tf.subtract(predictions, labels)
        abs_error = tf.abs(error)
        quadratic = tf.minimum(abs_error, delta)
        linear = tf.subtract(abs_error, quadratic)
        losses = tf.add(0.5 * quadratic * quadratic, delta * linear)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection="losses", reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Labels smoothed towards 1/2: labels * (1 - label_smoothing) + label_smoothing / 2."""
    tf = _tf()
    if multi_class_labels is None:
        raise ValueError("Argument `multi_class_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with tf.name_scope(scope or "sigmoid_cross_entropy_loss"):
        logits = tf.convert_to_tensor(logits)
        labels = tf.cast(multi_class_labels, logits.dtype)
        _assert_compatible(logits, labels)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection="losses", reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Labels smoothed towards 1/classes; no gradient flows into the labels."""
    tf = _tf()
    if onehot_labels is None:
        raise ValueError("Argument `onehot_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with tf.name_scope(scope or "softmax_cross_entropy_loss"):
        logits = tf.convert_to_tensor(logits)
        labels = tf.cast(onehot_labels, logits.dtype)
        _assert_compatible(logits, labels)
        if label_smoothing > 0:
            classes = tf.cast(tf.shape(labels)[-1], logits.dtype)
            labels = labels * (1 - label_smoothing) + label_smoothing / classes
        labels = tf.stop_gradient(labels)
        losses = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection="losses",
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Labels of shape [batch] or [batch, 1] (a last dimension of 1 is squeezed, as are the weights')."""
    tf = _tf()
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with tf.name_scope(scope or "sparse_softmax_cross_entropy_loss"):
        labels, logits = tf.convert_to_tensor(labels), tf.convert_to_tensor(logits)
        if labels.shape.rank is not None and logits.shape.rank is not None and labels.shape.rank == logits.shape.rank \
                and labels.shape[-1] == 1:
            labels = tf.squeeze(labels, [-1])
        weights = tf.convert_to_tensor(weights)
        if weights.shape.rank is not None and labels.shape.rank is not None and weights.shape.rank > 0 \
                and weights.shape.rank == labels.shape.rank + 1 and weights.shape[-1] == 1:
            weights = tf.squeeze(weights, [-1])
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection="losses",
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """1 - sum(labels * predictions) along `axis` (both already unit-normalized), kept as a dimension of 1."""
    axis = one_of("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    tf = _tf()
    with tf.name_scope(scope or "cosine_distance_loss"):
        labels, predictions = _pair(labels, predictions)
        radial_diffs = tf.multiply(predictions, labels)
        losses = 1 - tf.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, None, loss_collection, reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection="losses"):
    """For each batch entry, the mean over pairs of its elements of ((p_i - p_j) - (l_i - l_j))^2, weighted
    and summed over the batch (TF's formula: 2 * (sum d^2 / (n - 1) - (sum d)^2 / (n (n - 1))))."""
    tf = _tf()
    with tf.name_scope(scope or "mean_pairwise_squared_error"):
        labels, predictions = _pair(labels, predictions)
        weights = tf.cast(weights, tf.float32)
        diffs = tf.subtract(predictions, labels)
        axis = list(range(1, diffs.shape.rank))
        sum_squares_diff_per_batch = tf.reduce_sum(tf.square(diffs), axis=axis, keepdims=True)
        num_present_per_batch = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * tf.math.divide_no_nan(sum_squares_diff_per_batch,
                                            tf.maximum(num_present_per_batch - 1, 0))
        sum_diff = tf.reduce_sum(diffs, axis=axis, keepdims=True)
        term2 = 2.0 * tf.math.divide_no_nan(tf.square(sum_diff),
                                            tf.maximum(tf.multiply(num_present_per_batch, num_present_per_batch - 1),
                                                       0))
        weighted_losses = tf.multiply(term1 - term2, weights)
        loss = tf.reduce_sum(weighted_losses)
        mean_loss = tf.where(tf.reduce_sum(num_present_per_batch) > 0, loss, tf.zeros_like(loss))
        add_loss(mean_loss, loss_collection)
        return mean_loss
