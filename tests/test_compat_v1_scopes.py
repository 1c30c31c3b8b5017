"""TF1 variable scopes, Tensor.eval, slot optimizers and the Session fast path: what the conformance
programs do not reach (eager get_variable, stale fast entries, feeds that need converting, threads)."""

import threading

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def test_eager_get_variable_creates_each_time():
    with v1.variable_scope("e"):
        first = v1.get_variable("v", [2], initializer=v1.ones_initializer())
    with v1.variable_scope("e"):
        second = v1.get_variable("v", [2])
    assert first is not second and first.name == "e/v:0"
    np.testing.assert_array_equal(first.numpy(), [1.0, 1.0])
    assert type(first).__name__ == "ResourceVariable"


def test_scope_initializer_and_dtype_are_inherited():
    with tf.Graph().as_default():
        with v1.variable_scope("s", initializer=tf.constant_initializer(3.0), dtype=tf.float64):
            with v1.variable_scope("t"):
                v = v1.get_variable("v", [2])
        assert v.name == "s/t/v:0" and v.dtype == tf.float64
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(v), [3.0, 3.0])


def test_reuse_false_does_not_switch_off_outer_reuse():
    with tf.Graph().as_default():
        with v1.variable_scope("a"):
            w = v1.get_variable("w", [1])
        with v1.variable_scope("a", reuse=True):
            with v1.variable_scope(v1.get_variable_scope(), reuse=False):
                assert v1.get_variable("w") is w


def test_momentum_tf1_matches_keras_sgd_momentum():
    """TF1's MomentumOptimizer and Keras' SGD(momentum=...) are the same update written two ways."""
    x_data = np.linspace(-1, 1, 9).astype(np.float32)
    y_data = 0.5 * x_data + 0.25
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        w = v1.get_variable("w", [], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(w * x - y_data))
        train = v1.train.MomentumOptimizer(0.2, 0.9).minimize(loss)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(10):
            sess.run(train, {x: x_data})
        tf1_w = sess.run(w)
    w2 = tf.Variable(0.0)
    optimizer = tf.keras.optimizers.SGD(0.2, momentum=0.9)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w2 * x_data - y_data))
        optimizer.apply_gradients([(tape.gradient(loss, w2), w2)])

    for _ in range(10):
        step()
    np.testing.assert_allclose(tf1_w, w2.numpy(), rtol=1e-5)


def fed_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        y = tf.reduce_sum(x, axis=1)
        z = y * 2.0
    return graph, x, y, z


def test_fast_path_gives_the_general_paths_answers():
    graph, x, y, z = fed_graph()
    with v1.Session(graph=graph) as sess:
        for n in range(1, 4):  # the first call compiles, the next ones take the fast entry
            data = np.arange(2 * n, dtype=np.float32).reshape(n, 2)
            np.testing.assert_allclose(sess.run(y, {x: data}), data.sum(1))
            pair = sess.run([y, z], {x: data})
            assert isinstance(pair, list) and len(pair) == 2
            assert isinstance(sess.run((y, z), {x: data}), tuple)
            np.testing.assert_allclose(sess.run(z, {x: data.tolist()}), 2 * data.sum(1))  # converted feed
            np.testing.assert_allclose(sess.run(z, {x: data.astype(np.float64)}), 2 * data.sum(1))
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\)"):
            sess.run(y, {x: np.ones(3, np.float32)})
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 3\)"):
            sess.run(y, {x: np.ones((1, 3), np.float32)})


def test_fast_entry_goes_stale_when_the_graph_grows():
    graph, x, y, _ = fed_graph()
    with v1.Session(graph=graph) as sess:
        data = np.ones((2, 2), np.float32)
        sess.run(y, {x: data})
        with graph.as_default():
            w = tf.Variable(10.0)
            y2 = y + w
        sess.run(w.initializer)
        np.testing.assert_allclose(sess.run(y2, {x: data}), [12.0, 12.0])
        np.testing.assert_allclose(sess.run(y, {x: data}), [2.0, 2.0])


def test_fast_path_from_threads():
    graph, x, y, _ = fed_graph()
    sess = v1.Session(graph=graph)
    errors = []

    def work(k):
        data = np.full((3, 2), k, np.float32)
        for _ in range(200):
            out = sess.run(y, {x: data})
            if not np.allclose(out, 2 * k):
                errors.append((k, out))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_eval_without_a_session_is_tfs_error():
    graph, x, y, _ = fed_graph()
    with pytest.raises(ValueError, match="No default session is registered"):
        y.eval({x: np.ones((1, 2))})
    sess = v1.InteractiveSession(graph=graph)
    try:
        np.testing.assert_allclose(y.eval({x: np.ones((1, 2))}), [2.0])
    finally:
        sess.close()
    with pytest.raises(ValueError, match="No default session is registered"):
        y.eval({x: np.ones((1, 2))})
