"""TF1 sessions: variables hold one value per Session, uninitialized until that session initializes them; the
fast path of a repeated Session.run (keyed by the fetch object) gives the general path's results for every
kind of fetch and feed; TF's names for ops and tensors in compat.v1 graphs."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def counter_graph():
    graph = v1.Graph()
    with graph.as_default():
        v = v1.Variable(1.0, name="v")
        bump = v.assign_add(1.0)
        doubled = v * 2.0
        init = v1.global_variables_initializer()
    return graph, v, bump, doubled, init


def test_each_session_has_its_own_values():
    graph, v, bump, doubled, init = counter_graph()
    a, b = v1.Session(graph=graph), v1.Session(graph=graph)
    a.run(init)
    b.run(init)
    for _ in range(3):
        a.run(bump)
    b.run(bump)
    assert float(a.run(v)) == 4.0 and float(b.run(v)) == 2.0
    assert float(a.run(doubled)) == 8.0 and float(b.run(doubled)) == 4.0
    assert float(v.numpy()) == 1.0  # outside any session the variable keeps its initial value
    a.run(init)
    assert float(a.run(v)) == 1.0 and float(b.run(v)) == 2.0


def test_uninitialized_variable_raises_failed_precondition():
    graph, v, bump, doubled, init = counter_graph()
    with v1.Session(graph=graph) as sess:
        for fetch in (v, doubled, bump, [doubled, doubled]):
            with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable v.*uninitialized"):
                sess.run(fetch)
        sess.run(v.initializer)
        assert float(sess.run(bump)) == 2.0
        assert float(v.eval(sess)) == 2.0
    with v1.Session(graph=graph) as fresh:  # a new session starts uninitialized again
        with pytest.raises(tf.errors.FailedPreconditionError):
            fresh.run(doubled)


def test_closed_session_forgets_values_and_errors_keep_state_whole():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(2,))
        v = v1.Variable([1.0, 1.0])
        step = v.assign(v + x)
        init = v1.global_variables_initializer()
    sess = v1.Session(graph=graph)
    sess.run(init)
    sess.run(step, {x: [1.0, 2.0]})
    with pytest.raises(ValueError, match="Cannot feed value of shape"):
        sess.run(step, {x: [1.0, 2.0, 3.0]})
    np.testing.assert_array_equal(sess.run(v), [2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 1.0])
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(v)


def test_sessions_in_threads_keep_their_values():
    graph, v, bump, doubled, init = counter_graph()
    sessions = [v1.Session(graph=graph) for _ in range(3)]
    for sess in sessions:
        sess.run(init)

    def work(sess, n):
        for _ in range(n):
            sess.run(bump)

    threads = [threading.Thread(target=work, args=(s, 50 * (i + 1))) for i, s in enumerate(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [float(s.run(v)) for s in sessions] == [51.0, 101.0, 151.0]


def test_fast_path_matches_general_path_for_every_fetch_kind():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(None, 2), name="x")
        y = x + 1.0
        z = tf.reduce_sum(y)
    data = np.arange(4, dtype=np.float32).reshape(2, 2)
    with v1.Session(graph=graph) as sess:
        for _ in range(3):  # first call compiles, later ones take the fast entry
            assert isinstance(sess.run([y, z], {x: data}), list)
            assert isinstance(sess.run((y, z), {x: data}), tuple)
            assert isinstance(sess.run((z,), {x: data}), tuple)
            np.testing.assert_array_equal(sess.run(y, {x: data}), data + 1)
            np.testing.assert_array_equal(sess.run("add:0", {"x:0": data}), data + 1)
            assert float(sess.run(z, {"x:0": data})) == float((data + 1).sum())  # the same fetch, fed by name
            assert float(sess.run(z, feed_dict={x: data.astype(np.float64)})) == float((data + 1).sum())
            assert float(sess.run(z, {x: [[1, 1]]})) == 4.0  # a list is converted as the general path does
            with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value"):
                sess.run(z)
            with pytest.raises(ValueError, match="Cannot feed value of shape"):
                sess.run(z, {x: np.ones((2, 3), np.float32)})
            assert sess.run({"z": z}, {x: data}) == {"z": float((data + 1).sum())}


def test_tf_names_and_types():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(3,))
        x2 = v1.placeholder(tf.float32, shape=(3,))
        s = tf.reduce_sum(x + x2)
        with tf.name_scope("block"):
            m = tf.reduce_max(x) * s
    assert (x.name, x2.name, s.name) == ("Placeholder:0", "Placeholder_1:0", "Sum:0")
    assert (s.op.type, m.op.type, m.op.name) == ("Sum", "Mul", "block/mul")
    assert graph.get_tensor_by_name("block/Max:0").op.type == "Max"
    assert graph.get_operation_by_name("block/mul") == m.op
    assert [op.type for op in graph.get_operations()][:3] == ["Placeholder", "Placeholder", "AddV2"]
    with pytest.raises(KeyError, match="reduce_sum:0"):
        graph.get_tensor_by_name("reduce_sum:0")  # tinytf's own op names stay inside
    assert "Sum" in str(s) and repr(s).startswith("<tf.Tensor 'Sum:0'")
    with v1.Session(graph=graph) as sess:
        ones = np.ones(3, np.float32)
        assert float(sess.run("block/mul:0", {"Placeholder:0": ones, "Placeholder_1:0": ones})) == 6.0
        assert sess.run("block/mul", {x: ones, x2: ones}) is None  # an operation: run for its effects
