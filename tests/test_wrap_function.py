"""tf.compat.v1.wrap_function: lifted variables shared by the wrapped function, its prunes and eager code;
feeding an intermediate tensor (TF1 feeds any tensor); checked against numpy. TF's own numbers for the same
programs: tests/conformance/tf1_wrap_function.py."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def _linear(x):
    w = v1.get_variable("w", [3, 2], initializer=v1.constant_initializer(np.arange(6.0).reshape(3, 2)))
    b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
    hidden = tf.identity(tf.matmul(x, w), name="hidden")
    return tf.nn.relu(hidden + b, name="out")


def test_wrapped_linear_matches_numpy_and_shares_variables():
    wf = v1.wrap_function(_linear, [tf.TensorSpec([None, 3], tf.float32)])
    x = np.array([[1.0, -2.0, 0.5], [0.0, 1.0, 1.0]], np.float32)
    w = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(wf(tf.constant(x)).numpy(), np.maximum(x @ w, 0))
    bias = {v.name: v for v in wf.variables}["b:0"]
    bias.assign([-100.0, 1.0])  # an eager assignment is what the next call reads
    np.testing.assert_allclose(wf(x).numpy(), np.maximum(x @ w + [-100.0, 1.0], 0))
    hidden = wf.prune("Placeholder:0", "hidden:0")
    np.testing.assert_allclose(hidden(tf.constant(x)).numpy(), x @ w)
    fed = wf.prune(wf.graph.get_tensor_by_name("hidden:0"), "out:0")  # an intermediate tensor fed
    np.testing.assert_allclose(fed(tf.constant([[3.0, -4.0]])).numpy(), [[0.0, 0.0]])
    checkpoint = tf.train.Checkpoint(b=bias)  # lifted variables are ordinary eager variables
    assert np.allclose(checkpoint.b.numpy(), [-100.0, 1.0])


def test_assignments_in_the_graph_update_the_lifted_variable():
    def step():
        c = v1.get_variable("c", [], initializer=v1.zeros_initializer(), trainable=False)
        return c.assign_add(2.0)

    wf = v1.wrap_function(step, [])
    assert [float(wf()), float(wf())] == [2.0, 4.0]
    assert float(wf.variables[0].numpy()) == 4.0 and wf.trainable_variables == ()


def test_uninitialized_import_and_call_errors():
    wf = v1.wrap_function(lambda a: a * 2.0, [tf.TensorSpec([], tf.float32)])
    with pytest.raises(NotImplementedError, match="Keyword arguments"):
        wf(a=tf.constant(1.0))
    with pytest.raises(ValueError, match="Signature specifies 1 arguments, got: 2"):
        wf(1.0, 2.0)
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype int32"):
        wf(tf.constant(1))
    with pytest.raises(TypeError, match="to be a Tensor"):
        wf.prune("Placeholder:0", "mul:0")(1.0)

    @tf.function
    def traced(x):
        return wf(x)

    with pytest.raises(NotImplementedError, match="eagerly only"):
        traced(tf.constant(1.0))


def test_session_feeds_an_intermediate_tensor():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        y = x * 2.0
        z = y + 1.0
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(z, {y: [1.0, 2.0]}), [2.0, 3.0])
            got_y, got_z = sess.run([y, z], {y: [5.0]})
            np.testing.assert_allclose(got_y, [5.0])
            np.testing.assert_allclose(got_z, [6.0])
            np.testing.assert_allclose(sess.run(z, {x: [1.0]}), [3.0])
