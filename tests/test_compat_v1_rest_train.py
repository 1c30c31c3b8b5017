"""TF1 lookup tables and loss scaling (helper v1rest) beyond TF's recorded results
(tests/conformance/compat_v1_rest_train.py): the loss-scaled gradients against numpy and finite differences."""

import numpy as np

import tinytf as tf

v1 = tf.compat.v1


def test_loss_scaled_gradients_match_numpy_and_finite_differences():
    w0 = np.array([0.5, -1.5, 2.0], np.float32)
    graph = tf.Graph()
    with graph.as_default():
        w = v1.get_variable("w", initializer=w0)
        loss = tf.reduce_sum(tf.sin(w) * w)
        opt = v1.mixed_precision.MixedPrecisionLossScaleOptimizer(v1.train.GradientDescentOptimizer(0.5), 1024)
        grad = opt.compute_gradients(loss, [w])[0][0]
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        got = sess.run(grad)
    np.testing.assert_allclose(got, np.cos(w0) * w0 + np.sin(w0), rtol=1e-5)
    f = lambda v: np.sum(np.sin(v) * v)  # noqa: E731
    eps = 1e-3
    numeric = [(f(w0.astype(np.float64) + eps * e) - f(w0.astype(np.float64) - eps * e)) / (2 * eps)
               for e in np.eye(3)]
    np.testing.assert_allclose(got, numeric, rtol=1e-3)


def test_table_made_in_tf_function_needs_no_initializer():
    table = v1.lookup.StaticHashTable(v1.lookup.KeyValueTensorInitializer([1, 2], [10.0, 20.0]), 0.0)

    @tf.function
    def look(keys):
        return table.lookup(keys)

    np.testing.assert_array_equal(look(tf.constant([2, 3, 1], tf.int32)).numpy(), [20.0, 0.0, 10.0])
