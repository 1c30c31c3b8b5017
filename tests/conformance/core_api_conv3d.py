"""tf.nn.conv3d, conv3d_transpose, max_pool3d and avg_pool3d as TensorFlow 2.21 computes them: values and
gradients (both inputs), strides, dilations, SAME/VALID, ties in a max window, eagerly and in tf.function,
second-order gradients, and the errors TF raises."""

from __future__ import annotations

from . import data, outcome, program, val


def _grads(tf, fn, *inputs):
    """fn(*inputs) and the gradient of sum(fn(...) * weights) for every input."""
    inputs = [tf.constant(v) for v in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = fn(*inputs)
        weights = tf.constant(data(y.shape.as_list(), seed=9))
        loss = tf.reduce_sum(y * weights)
    return [val(y)] + [val(g) for g in tape.gradient(loss, inputs)]


@program
def p_conv3d_values_and_grads(tf):
    x = data([2, 5, 6, 4, 3], seed=1)
    f = data([2, 3, 2, 3, 4], seed=2)
    out = []
    for strides, padding, dilations in [([1, 1, 1, 1, 1], "SAME", None), ([1, 2, 1, 2, 1], "VALID", None),
                                        ([1, 1, 2, 1, 1], "SAME", None), ([1, 1, 1, 1, 1], "SAME", [1, 2, 1, 2, 1]),
                                        ([1, 2, 2, 2, 1], "SAME", None)]:
        out.append(_grads(tf, lambda a, b, s=strides, p=padding, d=dilations: tf.nn.conv3d(
            a, b, s, p, dilations=d), x, f))
    return out


@program
def p_conv3d_in_function_and_second_order(tf):
    x = tf.constant(data([1, 4, 4, 4, 2], seed=3))
    f = tf.constant(data([2, 2, 2, 2, 3], seed=4))
    fn = tf.function(lambda a, b: tf.nn.conv3d(a, b, [1, 2, 1, 1, 1], "SAME"))

    @tf.function
    def second(a, b):
        with tf.GradientTape() as outer:
            outer.watch(b)
            with tf.GradientTape() as inner:
                inner.watch(a)
                y = tf.reduce_sum(tf.nn.conv3d(a, b, [1, 1, 1, 1, 1], "VALID") ** 2)
            ga = inner.gradient(y, a)
            z = tf.reduce_sum(ga * ga)
        return outer.gradient(z, b)

    return [val(fn(x, f)), val(second(x, f)),
            outcome(lambda: tf.nn.conv3d(x, tf.ones([2, 2, 2, 3, 1]), [1, 1, 1, 1, 1], "SAME"), ""),
            outcome(lambda: tf.nn.conv3d(x, f, [1, 1, 1, 1], "SAME"), "")]


@program
def p_conv3d_transpose_values_and_grads(tf):
    x = data([2, 3, 2, 3, 3], seed=5)
    f = data([2, 3, 3, 4, 3], seed=6)  # (d, h, w, out_channels, in_channels)
    return [_grads(tf, lambda a, b: tf.nn.conv3d_transpose(a, b, [2, 6, 4, 6, 4], 2, "SAME"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv3d_transpose(a, b, [2, 4, 4, 5, 4], 1, "VALID"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv3d_transpose(a, b, [2, 6, 5, 7, 4], [1, 2, 2, 2, 1], "VALID"), x, f)]


@program
def p_pool3d_values_and_grads(tf):
    x = data([2, 5, 4, 6, 3], seed=7)
    out = []
    for ksize, strides, padding in [(2, 2, "VALID"), (3, 2, "SAME"), ([1, 2, 3, 2, 1], [1, 1, 2, 1, 1], "SAME"),
                                    ([2, 1, 2], [1, 2, 1], "VALID")]:
        out.append(_grads(tf, lambda a, k=ksize, s=strides, p=padding: tf.nn.max_pool3d(a, k, s, p), x))
        out.append(_grads(tf, lambda a, k=ksize, s=strides, p=padding: tf.nn.avg_pool3d(a, k, s, p), x))
    return out


@program
def p_pool3d_ties_ints_and_function(tf):
    ties = tf.constant([[[[[1.0], [1.0]], [[1.0], [0.5]]], [[[1.0], [1.0]], [[0.0], [1.0]]]]])  # one 2x2x2 window
    with tf.GradientTape() as tape:
        tape.watch(ties)
        y = tf.nn.max_pool3d(ties, 2, 2, "VALID")
    ints = tf.reshape(tf.range(2 * 3 * 3 * 3 * 2), [2, 3, 3, 3, 2])
    fn = tf.function(lambda a: (tf.nn.max_pool3d(a, 2, 1, "SAME"), tf.nn.avg_pool3d(a, [2, 2, 1], 1, "VALID")))
    return [val(y), val(tape.gradient(y, ties)), outcome(lambda: tf.nn.max_pool3d(ints, 2, 2, "SAME"), ""),
            val(tf.nn.avg_pool3d(tf.cast(ints, tf.float32), 2, 2, "SAME")),
            val(fn(tf.constant(data([1, 3, 3, 3, 2], seed=8)))),
            outcome(lambda: tf.nn.avg_pool3d(ints, 2, 2, "VALID"), "")]


@program
def p_pool3d_second_order(tf):
    x = tf.constant(data([1, 4, 4, 4, 2], seed=10))

    def second(pool):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(pool(x) ** 2)
            g = inner.gradient(y, x)
            z = tf.reduce_sum(g * tf.constant(data([1, 4, 4, 4, 2], seed=11)))
        return outer.gradient(z, x)

    return [val(second(lambda a: tf.nn.max_pool3d(a, 2, 2, "VALID"))),
            val(second(lambda a: tf.nn.avg_pool3d(a, 3, 1, "SAME")))]
