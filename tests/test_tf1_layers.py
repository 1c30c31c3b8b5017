"""tf.compat.v1.layers against numpy, in TF1 sessions, eagerly and in a tf.function, with gradients checked by
finite differences, batch normalization's update ops, and regularization losses in their collection. (The values
against TensorFlow 2.21 are in tests/conformance/tf1_layers.py.)"""

from __future__ import annotations

import numpy as np

import tinytf as tf

v1 = tf.compat.v1


def test_dense_and_conv_match_numpy_in_a_session():
    rng = np.random.default_rng(0)
    image = rng.normal(size=[2, 5, 5, 3]).astype(np.float32)
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 5, 5, 3])
        conv = v1.layers.conv2d(x, 4, 3, activation=tf.nn.relu, name="conv")
        logits = v1.layers.dense(v1.layers.flatten(conv), 2)
        init = v1.global_variables_initializer()
        kernel_var, bias_var = v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, scope="conv")
        dense_vars = v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, scope="dense")
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        bias_var.load(rng.normal(size=[4]).astype(np.float32), sess)
        kernel, bias, dense_kernel, dense_bias = sess.run([kernel_var, bias_var] + dense_vars)
        got_conv, got_logits = sess.run([conv, logits], {x: image})
    want = np.zeros([2, 3, 3, 4], np.float32)
    for i in range(3):
        for j in range(3):
            want[:, i, j] = np.einsum("bhwc,hwcf->bf", image[:, i:i + 3, j:j + 3], kernel) + bias
    want = np.maximum(want, 0)
    np.testing.assert_allclose(got_conv, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_logits, want.reshape(2, -1) @ dense_kernel + dense_bias, rtol=1e-5, atol=1e-5)


def test_layers_eager_and_in_a_function_agree_with_gradients():
    x = tf.constant(np.random.default_rng(1).normal(size=[3, 4]))
    layer = v1.layers.Dense(2, activation="tanh", dtype=tf.float64)
    eager = layer(x)

    @tf.function
    def apply(inputs):
        return layer(inputs)

    np.testing.assert_allclose(apply(x).numpy(), eager.numpy(), rtol=1e-12)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.sin(layer(x)))
    grad = tape.gradient(loss, layer.kernel).numpy()
    value = layer.kernel.numpy()
    eps = 1e-6
    numeric = np.zeros_like(value)
    for index in np.ndindex(value.shape):
        shifted = []
        for sign in (1, -1):
            moved = value.copy()
            moved[index] += sign * eps
            layer.kernel.assign(moved)
            shifted.append(tf.reduce_sum(tf.sin(layer(x))).numpy())
        numeric[index] = (shifted[0] - shifted[1]) / (2 * eps)
    layer.kernel.assign(value)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_batch_norm_update_ops_move_the_statistics():
    data = np.random.default_rng(2).normal(3.0, 2.0, size=[64, 3]).astype(np.float32)
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        training = v1.placeholder(tf.bool, [])
        y = v1.layers.batch_normalization(x, training=training, momentum=0.5)
        updates = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
        assert len(updates) == 2
        mean_var = [v for v in v1.global_variables() if v.name == "batch_normalization/moving_mean:0"][0]
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        out = sess.run(y, {x: data, training: True})
        np.testing.assert_allclose(out.mean(0), 0, atol=1e-5)
        assert np.allclose(sess.run(mean_var), 0)  # the updates did not run: they were not fetched
        for _ in range(20):
            sess.run(updates, {x: data, training: True})
        np.testing.assert_allclose(sess.run(mean_var), data.mean(0), rtol=1e-4)
        sess.run(updates, {x: data * 0, training: False})  # not training: the statistics stay
        np.testing.assert_allclose(sess.run(mean_var), data.mean(0), rtol=1e-4)
        inferred = sess.run(y, {x: data, training: False})
    np.testing.assert_allclose(inferred.mean(0), 0, atol=0.05)


def test_regularizers_join_the_collection_and_reuse_shares():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        with v1.variable_scope("net", reuse=v1.AUTO_REUSE):
            a = v1.layers.dense(x, 2, kernel_regularizer=lambda w: tf.reduce_sum(w * w), name="fc")
            b = v1.layers.dense(x, 2, name="fc")
        losses = v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES)
        assert [v.name for v in v1.global_variables()] == ["net/fc/kernel:0", "net/fc/bias:0"]
        kernel_var = v1.global_variables()[0]
        init = v1.global_variables_initializer()
    assert len(losses) == 1
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        kernel = sess.run(kernel_var)
        got_a, got_b, reg = sess.run([a, b, losses[0]], {x: np.ones([1, 3], np.float32)})
    np.testing.assert_allclose(got_a, got_b)
    np.testing.assert_allclose(reg, (kernel * kernel).sum(), rtol=1e-6)
