"""tf.nn.conv1d, tf.nn.conv2d_transpose and tf.nn.depthwise_conv2d as TensorFlow 2.21 computes them: values
and gradients for both inputs, strides, dilations, SAME/VALID and explicit padding, eagerly and inside
tf.function, and the shape errors TF raises."""

from __future__ import annotations

from . import data, outcome, program, val


def _grads(tf, fn, *inputs):
    """fn(*inputs) and the gradient of sum(fn(...) * weights) for every input (weights make it non-trivial)."""
    inputs = [tf.constant(v) for v in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = fn(*inputs)
        weights = tf.constant(data(y.shape.as_list(), seed=9))
        loss = tf.reduce_sum(y * weights)
    return [val(y)] + [val(g) for g in tape.gradient(loss, inputs)]


@program
def p_depthwise_conv2d_values_and_grads(tf):
    x = data([2, 7, 6, 3], seed=1)
    f = data([3, 2, 3, 2], seed=2)
    out = []
    for strides, padding, dilations in [([1, 1, 1, 1], "SAME", None), ([1, 2, 2, 1], "VALID", None),
                                        ([1, 2, 1, 1], "SAME", None), ([1, 1, 1, 1], "SAME", [2, 2]),
                                        ([1, 1, 1, 1], [[0, 0], [1, 2], [0, 1], [0, 0]], None)]:
        out.append(_grads(tf, lambda a, b, s=strides, p=padding, d=dilations: tf.nn.depthwise_conv2d(
            a, b, s, p, dilations=d), x, f))
    return out


@program
def p_depthwise_conv2d_in_function(tf):
    x = tf.constant(data([1, 5, 5, 2], seed=3))
    f = tf.constant(data([2, 2, 2, 3], seed=4))
    fn = tf.function(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 2, 2, 1], "SAME"))
    return [val(fn(x, f)), outcome(lambda: tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 3, 1]), [1, 1, 1, 1], "SAME"),
                                   "input depth")]


@program
def p_conv1d_values_and_grads(tf):
    x = data([2, 9, 3], seed=5)
    f = data([3, 3, 4], seed=6)
    return [_grads(tf, lambda a, b: tf.nn.conv1d(a, b, 1, "SAME"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv1d(a, b, 2, "VALID"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv1d(a, b, 1, "SAME", dilations=2), x, f),
            val(tf.function(lambda a, b: tf.nn.conv1d(a, b, [1, 2, 1], "SAME"))(tf.constant(x), tf.constant(f)))]


@program
def p_conv2d_transpose_values_and_grads(tf):
    x = data([2, 4, 3, 3], seed=7)
    f = data([3, 3, 5, 3], seed=8)  # (h, w, out_channels, in_channels)
    return [_grads(tf, lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 8, 6, 5], 2, "SAME"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 9, 7, 5], 2, "VALID"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 4, 3, 5], 1, "SAME"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 6, 5, 5], 1, "VALID"), x, f),
            val(tf.function(lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 8, 6, 5], [1, 2, 2, 1], "SAME"))(
                tf.constant(x), tf.constant(f)))]
