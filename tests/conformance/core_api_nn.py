"""tf.nn names added with the core API (batch_normalization, weighted/log-Poisson losses, crelu, lrn, moments
helpers, zero_fraction, 1-D pooling, conv1d_transpose / conv_transpose / convolution / pool, separable and atrous
convolutions, depth_to_space / space_to_depth, depthwise backprop functions, top_k) as TensorFlow 2.21 computes
them: values and gradients, in tf.function, and TF's errors."""

from __future__ import annotations

from . import data, outcome, program, val


def _grads(tf, fn, *inputs):
    inputs = [tf.constant(v) for v in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = fn(*inputs)
        ys = y if isinstance(y, (list, tuple)) else [y]
        loss = tf.add_n([tf.reduce_sum(t * tf.constant(data(t.shape.as_list(), seed=9 + i))) for i, t in enumerate(ys)])
    return [val(y)] + [val(g) for g in tape.gradient(loss, inputs)]


@program
def p_batch_norm_and_moments(tf):
    x = data([3, 4], seed=1)
    return [_grads(tf, lambda v, m, s, o, g: tf.nn.batch_normalization(v, m, s * s + 0.5, o, g, 1e-3), x,
                   data([4], seed=2), data([4], seed=3), data([4], seed=4), data([4], seed=5)),
            val(tf.nn.batch_normalization(tf.constant(x), 0.5, 2.0, None, None, 0.01)),
            [val(t) for t in tf.nn.sufficient_statistics(tf.constant(data([2, 3, 4], seed=6)), [0, 1])],
            [val(t) for t in tf.nn.sufficient_statistics(tf.constant(data([2, 3], seed=7)), [1], shift=0.5,
                                                         keepdims=True)],
            [val(t) for t in tf.nn.normalize_moments(tf.constant(4.0), tf.constant([2.0, 1.0]),
                                                     tf.constant([5.0, 3.0]), None)],
            [val(t) for t in tf.nn.normalize_moments(tf.constant(4.0), tf.constant([2.0, 1.0]),
                                                     tf.constant([5.0, 3.0]), tf.constant(0.5))],
            [val(t) for t in tf.nn.weighted_moments(tf.constant(x), [0], tf.constant([[1.0], [2.0], [0.5]]))],
            [val(t) for t in tf.nn.weighted_moments(tf.constant(x), [0, 1], tf.constant(data([3, 4], seed=8)) ** 2,
                                                    keepdims=True)],
            val(tf.nn.zero_fraction(tf.constant([[0.0, 1.0], [0.0, 0.0]]))), val(tf.math.zero_fraction([0, 3, 0]))]


@program
def p_losses_and_crelu(tf):
    z = [[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]]
    return [_grads(tf, lambda x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.5), data([2, 3], seed=1) * 3),
            _grads(tf, lambda x: tf.nn.log_poisson_loss([[0.0, 1.0, 3.0], [2.0, 0.5, 7.0]], x), data([2, 3], seed=2)),
            val(tf.nn.log_poisson_loss(tf.constant([[0.0, 1.0, 3.0], [2.0, 0.5, 7.0]]), tf.constant(data([2, 3])),
                                       compute_full_loss=True)),
            _grads(tf, lambda x: tf.nn.crelu(x), data([2, 3], seed=3)),
            val(tf.nn.crelu(tf.constant(data([2, 3], seed=4)), axis=0)),
            outcome(lambda: tf.nn.log_poisson_loss(tf.ones([2]), tf.ones([3])), "")]


@program
def p_lrn(tf):
    x = data([2, 3, 2, 7], seed=5)
    return [_grads(tf, lambda v: tf.nn.local_response_normalization(v), x),
            _grads(tf, lambda v: tf.nn.lrn(v, depth_radius=2, bias=0.5, alpha=0.3, beta=0.75), x),
            val(tf.function(lambda v: tf.nn.lrn(v, 1, 2.0, 1e-2, 0.5))(tf.constant(x)))]


@program
def p_pool1d_and_dispatch(tf):
    x = data([2, 7, 3], seed=6)
    x4 = tf.constant(data([1, 5, 5, 2], seed=7))
    x5 = tf.constant(data([1, 4, 4, 4, 2], seed=8))
    return [_grads(tf, lambda v: tf.nn.max_pool1d(v, 2, 2, "VALID"), x),
            _grads(tf, lambda v: tf.nn.avg_pool1d(v, [1, 3, 1], 2, "SAME"), x),
            val(tf.nn.pool(tf.constant(x), [3], "MAX", strides=[2], padding="SAME")),
            val(tf.nn.pool(x4, [2, 2], "AVG", strides=[2, 1])), val(tf.nn.pool(x5, [2, 2, 2], "MAX", [2, 2, 2])),
            val(tf.nn.convolution(tf.constant(x), tf.constant(data([2, 3, 4], seed=9)), padding="SAME")),
            val(tf.nn.convolution(x4, tf.constant(data([3, 3, 2, 2], seed=10)), strides=2)),
            val(tf.nn.convolution(x5, tf.constant(data([2, 2, 2, 2, 3], seed=11)), dilations=[1, 2, 1])),
            outcome(lambda: tf.nn.pool(x4, [2, 2], "MIN"), "")]


@program
def p_transposed_convolutions(tf):
    x = data([2, 4, 3], seed=12)
    f = data([3, 5, 3], seed=13)
    return [_grads(tf, lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 8, 5], 2, "SAME"), x, f),
            _grads(tf, lambda a, b: tf.nn.conv1d_transpose(a, b, [2, 6, 5], 1, "VALID"), x, f),
            val(tf.nn.conv_transpose(tf.constant(x), tf.constant(f), [2, 8, 5], 2)),
            val(tf.nn.conv_transpose(tf.constant(data([1, 3, 3, 2], seed=14)), tf.constant(data([2, 2, 4, 2])),
                                     [1, 6, 6, 4], [1, 2, 2, 1])),
            val(tf.nn.conv_transpose(tf.constant(data([1, 2, 2, 2, 2], seed=15)), tf.constant(data([2, 2, 2, 3, 2])),
                                     [1, 4, 4, 4, 3], 2)),
            _grads(tf, lambda a, b: tf.nn.atrous_conv2d(a, b, 2, "SAME"), data([1, 6, 5, 2], seed=16),
                   data([3, 2, 2, 3], seed=17)),
            _grads(tf, lambda a, b: tf.nn.atrous_conv2d_transpose(a, b, [1, 6, 5, 2], 2, "SAME"),
                   data([1, 6, 5, 3], seed=18), data([3, 2, 2, 3], seed=19))]


@program
def p_separable_depth_space(tf):
    x = data([2, 4, 6, 4], seed=20)
    return [_grads(tf, lambda a, d, p: tf.nn.separable_conv2d(a, d, p, [1, 1, 1, 1], "SAME"), x,
                   data([3, 3, 4, 2], seed=21), data([1, 1, 8, 3], seed=22)),
            val(tf.nn.separable_conv2d(tf.constant(x), tf.constant(data([2, 2, 4, 1])), tf.constant(data([1, 1, 4, 2])),
                                       [1, 2, 2, 1], "VALID")),
            _grads(tf, lambda a: tf.nn.depth_to_space(a, 2), x), _grads(tf, lambda a: tf.nn.space_to_depth(a, 2), x),
            val(tf.nn.depth_to_space(tf.reshape(tf.range(16), [1, 2, 2, 4]), 2)),
            val(tf.nn.space_to_depth(tf.reshape(tf.range(16), [1, 4, 4, 1]), 2)),
            val(tf.function(lambda a: tf.nn.space_to_depth(tf.nn.depth_to_space(a, 2), 2),
                            input_signature=[tf.TensorSpec([None, None, None, 4])])(tf.constant(x))),
            outcome(lambda: tf.nn.depth_to_space(tf.ones([1, 2, 2, 3]), 2), ""),
            outcome(lambda: tf.nn.space_to_depth(tf.ones([1, 3, 2, 1]), 2), "")]


@program
def p_depthwise_backprop_and_top_k(tf):
    x = tf.constant(data([1, 5, 5, 2], seed=23))
    f = tf.constant(data([3, 3, 2, 2], seed=24))
    g = tf.constant(data([1, 3, 3, 4], seed=25))
    return [val(tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], f, g, [1, 2, 2, 1], "SAME")),
            val(tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 2, 2], g, [1, 2, 2, 1], "SAME")),
            [val(t) for t in tf.nn.top_k([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], k=2)]]
