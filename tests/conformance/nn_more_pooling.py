"""tf.nn leftovers of pooling and morphology: max_pool_with_argmax (TF's flattened argmax, with and without the
batch), dilation2d and erosion2d (strides, rates, padding), their gradients; with_space_to_batch (a dilated
convolution through space_to_batch), space_to_batch, batch_norm_with_global_normalization,
isotonic_regression (TF's docstring example, both directions, gradients), approx_max_k; eagerly and in a
tf.function."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def _image(seed=0, shape=(2, 5, 6, 3), rounding=True):
    x = data(shape, seed=seed, scale=4.0)
    return np.round(x) if rounding else x  # ties between window elements: the first one wins


@program
def p_max_pool_with_argmax(tf):
    x = tf.constant(_image())
    out = []
    for padding, ksize, strides in (("SAME", [1, 3, 3, 1], 2), ("VALID", 2, 2), ("SAME", 2, [1, 1, 2, 1])):
        for include in (False, True):
            out.append([val(t) for t in tf.nn.max_pool_with_argmax(x, ksize, strides, padding,
                                                                   include_batch_in_index=include)])
    out.append([val(t) for t in tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", output_dtype=tf.int32)])
    variable = tf.Variable(x)
    with tf.GradientTape() as tape:
        pooled, _ = tf.nn.max_pool_with_argmax(variable, 3, 2, "SAME")
        loss = tf.reduce_sum(pooled * tf.reshape(tf.range(tf.size(pooled), dtype=tf.float32), pooled.shape))
    out.append(val(tape.gradient(loss, variable)))
    graph = tf.function(lambda t: tf.nn.max_pool_with_argmax(t, 2, 1, "SAME", include_batch_in_index=True))
    out.append([val(t) for t in graph(x)])
    return out


@program
def p_dilation_and_erosion(tf):
    x = tf.constant(_image(1, rounding=False))
    filters = tf.constant(data([2, 3, 3], seed=2))
    out = []
    for padding in ("SAME", "VALID"):
        for strides, rates in (([1, 1, 1, 1], [1, 1, 1, 1]), ([1, 2, 2, 1], [1, 1, 1, 1]),
                               ([1, 1, 1, 1], [1, 2, 2, 1]), ([1, 2, 1, 1], [1, 1, 2, 1])):
            out.append(val(tf.nn.dilation2d(x, filters, strides, padding, "NHWC", rates)))
            out.append(val(tf.nn.erosion2d(x, filters, strides, padding, "NHWC", rates)))
    xv, fv = tf.Variable(x), tf.Variable(filters)
    with tf.GradientTape() as tape:
        d = tf.nn.dilation2d(xv, fv, [1, 1, 1, 1], "SAME", "NHWC", [1, 2, 2, 1])
        e = tf.nn.erosion2d(xv, fv, [1, 2, 2, 1], "VALID", "NHWC", [1, 1, 1, 1])
        loss = tf.reduce_sum(d * d) + tf.reduce_sum(e * 3.0)
    out.append([val(g) for g in tape.gradient(loss, [xv, fv])])
    graph = tf.function(lambda t, f: tf.nn.dilation2d(t, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]))
    out.append(val(graph(x, filters)))
    out.append(outcome(lambda: tf.nn.dilation2d(x, filters, [1, 1, 1, 1], "SAME", "NCHW", [1, 1, 1, 1]), "NHWC"))
    return out


@program
def p_with_space_to_batch(tf):
    x = tf.constant(data([2, 9, 8, 2], seed=3))
    filters = tf.constant(data([3, 3, 2, 2], seed=4))
    out = []
    for padding in ("SAME", "VALID"):
        for rate in ([2, 2], [2, 1], [1, 1], [3, 2]):
            out.append(val(tf.nn.with_space_to_batch(
                x, rate, padding, lambda i, n, p: tf.nn.conv2d(i, filters, 1, p), filter_shape=[3, 3])))
    out.append(val(tf.nn.with_space_to_batch(
        x, [2, 2], "SAME", lambda i, n, p: tf.nn.max_pool2d(i, 2, 1, p), filter_shape=[2, 2])))
    out.append(val(tf.nn.space_to_batch(x, [2, 2], [[1, 0], [0, 0]])))
    out.append(outcome(lambda: tf.nn.with_space_to_batch(x, [2, 2], "SAME", lambda i, n, p: i), "filter_shape"))
    return out


@program
def p_batch_norm_with_global_normalization(tf):
    x = tf.constant(data([2, 3, 4], seed=5))
    mean, variance = tf.constant(data([4], seed=6)), tf.constant(data([4], seed=7) ** 2 + 0.5)
    beta, gamma = tf.constant(data([4], seed=8)), tf.constant(data([4], seed=9))
    return [val(tf.nn.batch_norm_with_global_normalization(x, mean, variance, beta, gamma, 0.001, scale))
            for scale in (True, False)]


@program
def p_isotonic_regression(tf):
    x = tf.constant([[3, 1, 2], [1, 3, 4]], dtype=tf.float32)
    y, segments = tf.nn.isotonic_regression(x, axis=1)
    out = [val(y), val(segments)]
    out.append([val(t) for t in tf.nn.isotonic_regression([[3.0, 3, 1, 2, 2, 0.5]])])
    out.append([val(t) for t in tf.nn.isotonic_regression([[1, 3, 2, 4]], decreasing=False)])
    out.append([val(t) for t in tf.nn.isotonic_regression(tf.constant([[1, 3], [2, 4]], tf.int64), axis=0)])
    z = tf.constant(data([3, 4], seed=10), tf.float64)
    for axis in (0, 1):
        for decreasing in (True, False):
            with tf.GradientTape() as tape:
                tape.watch(z)
                fit, ids = tf.nn.isotonic_regression(z, axis=axis, decreasing=decreasing)
                loss = tf.reduce_sum(fit * tf.reshape(tf.range(12, dtype=tf.float64), [3, 4]))
            out.append([val(fit), val(ids), val(tape.gradient(loss, z))])
    out.append(val(tf.function(lambda t: tf.nn.isotonic_regression(t)[0])(z)))
    return out


@program
def p_approx_max_k(tf):
    x = tf.constant([[3.0, 1, 3, 2], [1, 5, 5, 0]])
    out = [[val(t) for t in tf.math.approx_max_k(x, 2)], [val(t) for t in tf.nn.approx_max_k(x, 3)]]
    variable = tf.Variable(x)
    with tf.GradientTape() as tape:
        values, _ = tf.math.approx_max_k(variable, 2)
        loss = tf.reduce_sum(values * [[1.0, 2.0]])
    out.append(val(tape.gradient(loss, variable)))
    out.append([val(t) for t in tf.function(lambda t: tf.math.approx_max_k(t, 1))(x)])
    return out


@program
def p_fractional_pooling(tf):
    """TF's pooling sequences for a seed (pseudo-random and random, overlapping or not), the pooled values and
    their gradients; a seeded op draws the same regions on every run, as TF's deterministic kernel."""
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds pair with TF's default
    x = tf.constant(np.arange(2 * 10 * 9, dtype=np.float32).reshape(2, 10, 9, 1) % 13)
    out = []
    for pseudo in (False, True):
        for overlapping in (False, True):
            for _ in range(2):
                out.append([val(t) for t in tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random=pseudo,
                                                                       overlapping=overlapping, seed=5)])
    y = tf.constant(data([2, 12, 15, 1], seed=11))
    for seed in (1, 2, 77):
        out.append([val(t) for t in tf.nn.fractional_avg_pool(y, [1.0, 1.3, 1.9, 1.0], seed=seed)])
        out.append([val(t) for t in tf.nn.fractional_avg_pool(y, [1.0, 1.3, 1.9, 1.0], pseudo_random=True,
                                                               overlapping=True, seed=seed)])
    out.append([val(t) for t in tf.nn.fractional_max_pool(x, 1.5, seed=3)[1:]])
    tf.random.set_seed(4)
    out.append([val(t) for t in tf.nn.fractional_max_pool(x, 1.5, seed=3)[1:]])
    tf.random.set_seed(None)
    variable = tf.Variable(y)
    with tf.GradientTape() as tape:
        pooled_max = tf.nn.fractional_max_pool(variable, [1.0, 1.3, 1.9, 1.0], overlapping=True, seed=9)[0]
        pooled_avg = tf.nn.fractional_avg_pool(variable, [1.0, 1.3, 1.9, 1.0], overlapping=True, seed=9)[0]
        loss = tf.reduce_sum(pooled_max * pooled_max) + tf.reduce_sum(pooled_avg * 3.0)
    out.append(val(tape.gradient(loss, variable)))
    graph = tf.function(lambda t: tf.nn.fractional_max_pool(t, [1.0, 1.44, 1.73, 1.0], seed=5))
    out.append([[val(t) for t in graph(x)] for _ in range(2)])
    out.append(outcome(lambda: tf.nn.fractional_max_pool(x, [2.0, 1.5, 1.5, 1.0], seed=1), "pooling_ratio"))
    return out
