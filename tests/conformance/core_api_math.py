"""tf.math names added with the core API (xlog1py, cumulative_logsumexp, invert_permutation, is_non_decreasing,
is_strictly_increasing, polyval, nextafter, accumulate_n, zero_fraction, softmax, log_softmax) as TensorFlow 2.21
computes them: docstring examples, values, gradients, in tf.function, and TF's errors."""

from __future__ import annotations

from . import data, outcome, program, val


def _grads(tf, fn, *inputs):
    inputs = [tf.constant(v) for v in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = fn(*inputs)
        loss = tf.reduce_sum(y * tf.constant(data(y.shape.as_list(), seed=9)))
    return [val(y)] + [val(g) for g in tape.gradient(loss, inputs)]


@program
def p_xlog1py_and_cumulative_logsumexp(tf):
    return [val(tf.math.xlog1py(tf.constant([0.0, 0.0, 1.0, 2.0]), tf.constant([-1.0, 2.0, 3.0, -0.5]))),
            _grads(tf, lambda x, y: tf.math.xlog1py(x, y), [0.0, 1.5, -2.0], [3.0, 0.5, 2.0]),
            val(tf.math.cumulative_logsumexp(tf.constant([-1000.0, 0.0, 1.0, 50.0]))),
            val(tf.math.cumulative_logsumexp(tf.constant(data([2, 4], seed=1)), axis=1, exclusive=True)),
            val(tf.math.cumulative_logsumexp(tf.constant(data([3, 2], seed=2), tf.float64), reverse=True)),
            _grads(tf, lambda x: tf.math.cumulative_logsumexp(x, axis=1), data([2, 5], seed=3)),
            _grads(tf, lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True), data([4, 2], seed=4)),
            val(tf.function(lambda x: tf.math.cumulative_logsumexp(x, axis=-1))(tf.constant(data([2, 3], seed=5))))]


@program
def p_permutations_orders_polyval(tf):
    return [val(tf.math.invert_permutation([3, 4, 0, 2, 1])),
            val(tf.math.invert_permutation(tf.constant([1, 0], tf.int64))),
            outcome(lambda: tf.math.invert_permutation([0, 0, 1]), ""),
            val(tf.math.is_non_decreasing([1, 2, 2, 5])), val(tf.math.is_non_decreasing([[1, 3], [2, 4]])),
            val(tf.math.is_strictly_increasing([1, 2, 2])), val(tf.math.is_strictly_increasing([-1.0, 0.5, 7.0])),
            val(tf.math.is_non_decreasing([])), val(tf.math.is_strictly_increasing([3])),
            outcome(lambda: tf.math.is_non_decreasing(["a", "b"]), ""),
            val(tf.math.polyval([2.0, 3.0, 4.0], 2.0)), val(tf.math.polyval([], tf.constant([1.0, 2.0]))),
            _grads(tf, lambda a, x: tf.math.polyval([a[0], a[1], 1.0, a[2]], x), [0.5, -1.0, 2.0], [1.5, -0.5]),
            val(tf.function(lambda x: tf.math.polyval([1.0, 0.0, -2.0], x))(tf.constant([3.0])))]


@program
def p_nextafter_accumulate_zero_fraction_softmax(tf):
    return [val(tf.math.nextafter(1.0, 2.0) == 1.0), val(tf.math.nextafter(tf.constant([1.0, 0.0], tf.float64),
                                                                         tf.constant([0.0, 1.0], tf.float64))),
            val(tf.math.nextafter(tf.constant([1.0, -2.0]), tf.constant([1.0, -3.0]))),
            val(tf.math.accumulate_n([tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 0], [0, 6]])])),
            val(tf.math.accumulate_n([tf.constant(1.0), tf.constant(2.0)], shape=[], tensor_dtype=tf.float32)),
            val(tf.math.zero_fraction(tf.constant([[0.0, 1.0], [0.0, 0.0]]))),
            val(tf.math.softmax(tf.constant([[1.0, 2.0, 3.0]]))), val(tf.math.log_softmax(tf.constant([1.0, 2.0]))),
            outcome(lambda: tf.math.nextafter(tf.constant([1], tf.int32), tf.constant([2], tf.int32)), "")]
