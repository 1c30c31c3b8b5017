"""Helpers the distributions share (TF 2.21's distributions/util.py, the parts they use)."""

from __future__ import annotations

import tinytf as tf


def with_checks(checks, tensor_fn):
    """`tensor_fn()` built after `checks` (assertion ops; eager ones have already raised or passed)."""
    checks = [c for c in checks if c is not None]
    if checks and not tf.executing_eagerly():
        with tf.control_dependencies(checks):
            return tensor_fn()
    return tensor_fn()


def identity_after(checks, value, name):
    return with_checks(checks, lambda: tf.identity(value, name=name))


def get_logits_and_probs(logits=None, probs=None, multidimensional=False, validate_args=False, dtype=None):
    """Both parametrizations from one: sigmoid/log-odds for a binary event, softmax/log for a categorical one
    (whose logits are then log(probs), TF's choice, not log-odds against a pivot class)."""
    if (probs is None) == (logits is None):
        raise ValueError("Must pass probs or logits, but not both.")
    if probs is None:
        logits = tf.convert_to_tensor(logits, dtype=dtype, name="logits")
        if not logits.dtype.is_floating:
            raise TypeError("logits must having floating type.")
        if multidimensional:
            if validate_args:
                logits = check_categorical_event_shape(logits)
            return logits, tf.nn.softmax(logits, name="probs")
        return logits, tf.math.sigmoid(logits, name="probs")
    probs = tf.convert_to_tensor(probs, dtype=dtype, name="probs")
    if not probs.dtype.is_floating:
        raise TypeError("probs must having floating type.")
    if validate_args:
        one = tf.constant(1.0, probs.dtype)
        checks = [tf.debugging.assert_non_negative(probs)]
        if multidimensional:
            probs = check_categorical_event_shape(probs)
            checks.append(tf.debugging.assert_near(tf.reduce_sum(probs, -1), one, message="probs does not sum to 1."))
        else:
            checks.append(tf.debugging.assert_less_equal(probs, one, message="probs has components greater than 1."))
        probs = identity_after(checks, probs, "probs")
    if multidimensional:
        return tf.math.log(probs), probs
    return tf.math.log(probs) - tf.math.log1p(-1.0 * probs), probs


def check_categorical_event_shape(categorical_param):
    """The last dimension (the number of classes) must be at least 2 and fit the dtype's exact integers."""
    shape = categorical_param.shape
    if shape.rank is not None and shape.rank < 1:
        raise ValueError("A categorical-distribution parameter must have at least 1 dimension.")
    size = shape[-1] if shape.rank is not None else None
    max_size = {"float16": 2 ** 11, "float32": 2 ** 24, "float64": 2 ** 53}.get(categorical_param.dtype.name)
    if size is not None:
        if size < 2:
            raise ValueError("A categorical-distribution parameter must have at least 2 events.")
        if max_size is not None and size > max_size:
            raise ValueError(f"Number of classes exceeds `dtype` precision, i.e., {categorical_param.dtype.name} "
                             f"implies shape ({size}) cannot exceed {max_size}.")
    return categorical_param


def check_integer_event(x, target_dtype):
    """Validation of a count/class event: the values must be integers (TF's embed_check_integer_casting_closed,
    its integrality part), checked eagerly or as a graph assertion."""
    x = tf.convert_to_tensor(x)
    if x.dtype.is_integer:
        return x
    check = tf.debugging.assert_equal(x, tf.round(x), message="Elements must be int32-equivalent.")
    return identity_after([check], x, "x")


def broadcast_shape_tensor(*tensors):
    """The dynamic broadcast of the tensors' shapes (int32)."""
    shape = tf.shape(tensors[0])
    for t in tensors[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(t))
    return shape


def broadcast_static(*tensors):
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = tf.broadcast_static_shape(shape, t.shape)
    return shape


def gen_new_seed(seed, salt):
    """A second op seed derived from `seed` (TF's distribution_util.gen_new_seed: md5 of seed + salt), so a
    distribution that draws twice (Beta's two gammas) gives TF's streams."""
    import hashlib

    if seed is None:
        return None
    return int(hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()[:8], 16) & 0x7FFFFFFF


def log_combinations(n, counts):
    """log of the multinomial coefficient n! / prod(counts!), over the last axis."""
    n = tf.convert_to_tensor(n, name="n")
    counts = tf.convert_to_tensor(counts, name="counts")
    return tf.math.lgamma(n + 1) - tf.reduce_sum(tf.math.lgamma(counts + 1), axis=[-1])


def check_nonnegative_integer_form(x):
    """Validation of counts: non-negative and whole (TF's embed_check_nonnegative_integer_form)."""
    x = tf.convert_to_tensor(x, name="x")
    checks = [tf.debugging.assert_non_negative(x, message="'x' must be non-negative.")]
    if not x.dtype.is_integer:
        checks.append(tf.debugging.assert_equal(x, tf.round(x), message="'x' cannot contain fractional components."))
    return identity_after(checks, x, "x")
