"""TF1's graph-and-session style: placeholders fed at run time, fetches in nested structures, pruning to
what a fetch needs, TF1 training with an optimizer's minimize, and the TF2 rewrite of the same program
giving the same numbers; errors as TF's."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def linear_graph():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(None, 3), name="x")
        w = tf.Variable([[1.0], [2.0], [3.0]])
        y = tf.matmul(x, w)
        total = tf.reduce_sum(y)
        graph.collections["init"] = v1.global_variables_initializer()
    return graph, x, w, y, total


def test_feed_and_fetch_structures():
    graph, x, _, y, total = linear_graph()
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    with v1.Session(graph=graph) as sess:
        sess.run(graph.collections["init"])
        np.testing.assert_allclose(sess.run(y, feed_dict={x: a}), a @ [[1.0], [2.0], [3.0]])
        out = sess.run({"y": y, "pair": (total, [total])}, feed_dict={"x:0": a})
        assert set(out) == {"y", "pair"} and isinstance(out["pair"], tuple)
        assert float(out["pair"][0]) == float(out["pair"][1][0]) == float((a @ [[1.0], [2.0], [3.0]]).sum())


def test_errors_are_tensorflows():
    graph, x, _, y, _ = linear_graph()
    sess = v1.Session(graph=graph)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"You must feed a value for placeholder tensor 'x' with dtype float and shape \[\?,3\]"):
        sess.run(y)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor x:0, which has shape "
                                         r"\(None, 3\)"):
        sess.run(y, {x: np.ones(3)})
    other, *_ = linear_graph()
    with other.as_default():
        foreign = v1.placeholder(tf.float32, name="foreign")
    with pytest.raises(ValueError, match="is not an element of this graph"):
        sess.run(foreign, {foreign: 1.0})
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(y, {x: np.ones((1, 3))})
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        v1.placeholder(tf.float32)


def test_only_what_a_fetch_needs_runs():
    graph = v1.Graph()
    with graph.as_default():
        a = v1.placeholder(tf.float32, name="a")
        b = v1.placeholder(tf.float32, name="b")
        counter = tf.Variable(0)
        counter.assign_add(1)  # an op nothing fetched needs: never runs
        s = a * 2.0
        t = b + 1.0
    with v1.Session(graph=graph) as sess:
        assert float(sess.run(s, {a: 3.0})) == 6.0  # b is not needed, so need not be fed
        assert float(sess.run(t, {b: 3.0})) == 4.0
    assert int(counter.numpy()) == 0


def test_placeholder_with_default_and_default_graph():
    v1.reset_default_graph()
    graph = v1.get_default_graph()
    with graph.as_default():
        x = v1.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[None])
        y = x * 10.0
    with v1.Session() as sess:
        np.testing.assert_array_equal(sess.run(y), [10.0, 20.0])
        np.testing.assert_array_equal(sess.run(y, {x: [3.0]}), [30.0])
    assert tf.executing_eagerly()


def fit_tf1(x_data, y_data, steps):
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        y = v1.placeholder(tf.float32, [None])
        w, b = tf.Variable(0.0), tf.Variable(0.0)
        loss = tf.reduce_mean(tf.square(w * x + b - y))
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(steps):
            sess.run(train_op, {x: x_data, y: y_data})
        return sess.run([w, b, loss], {x: x_data, y: y_data})


def fit_tf2(x_data, y_data, steps):
    w, b = tf.Variable(0.0), tf.Variable(0.0)
    optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x + b - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))

    x, y = tf.constant(x_data), tf.constant(y_data)
    for _ in range(steps):
        step(x, y)
    return [w.numpy(), b.numpy(), tf.reduce_mean(tf.square(w * x + b - y)).numpy()]


def test_tf1_program_and_its_tf2_rewrite_agree():
    x_data = np.linspace(0, 1, 20, dtype=np.float32)
    y_data = (3 * x_data + 1).astype(np.float32)
    tf1 = fit_tf1(x_data, y_data, 200)
    tf2 = fit_tf2(x_data, y_data, 200)
    np.testing.assert_allclose(tf1, tf2, rtol=1e-5, atol=1e-7)
    assert abs(tf1[0] - 3) < 0.3 and abs(tf1[1] - 1) < 0.2


def test_initializer_resets_variables():
    graph = v1.Graph()
    with graph.as_default():
        v = tf.Variable(5.0)
        bump = v.assign_add(1.0)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        assert float(sess.run(bump)) == 6.0  # fetching an assignment runs it and gives the new value
        sess.run(v1.group(bump))
        assert float(sess.run(v)) == 7.0
        sess.run(init)
        assert float(sess.run(v)) == 5.0


def test_graph_tensors_are_hashable_and_named():
    graph, x, _, y, _ = linear_graph()
    assert {x: 1}[x] == 1 and x == x and x != y
    assert graph.get_tensor_by_name("x:0") is x
    with pytest.raises(KeyError, match="does not exist"):
        graph.get_tensor_by_name("nope:0")
