"""tf.test: TestCase's assertions and sessions run under unittest, compute_gradient against analytic Jacobians
(eager functions and tf.function), assert_equal_graph_def on tinytf's own GraphDefs. (TF's outputs: conformance
tf_test_docs.)"""

import logging
import unittest

import numpy as np
import pytest

import tinytf as tf


def _run(case_class, name):
    result = unittest.TestResult()
    case_class(name).run(result)
    return result


class _Demo(tf.test.TestCase):
    __test__ = False  # run by the tests below through unittest, not collected by pytest

    def test_graph_session(self):
        with tf.Graph().as_default():
            x = tf.compat.v1.placeholder(tf.float32, [None])
            y = tf.reduce_sum(x * 2.0)
            with self.cached_session() as sess:
                self.assertAllClose(sess.run(y, {x: [1.0, 2.0]}), 6.0)
                self.assertIs(sess, tf.compat.v1.get_default_session())
            self.assertAllClose(self.evaluate(tf.constant([1.0]) * 3), [3.0])

    def test_traced_values(self):
        double = tf.function(lambda t: t * 2)
        self.assertAllClose(double(tf.constant([1.0, 2.0])), [2.0, 4.0])
        self.assertAllEqual(self.evaluate({"a": double(tf.constant(3))})["a"], 6)

    def test_should_fail(self):
        self.assertAllClose([1.0, 2.0], [1.0, 2.5])


def test_testcase_runs_under_unittest():
    assert _run(_Demo, "test_graph_session").wasSuccessful()
    assert _run(_Demo, "test_traced_values").wasSuccessful()
    failed = _run(_Demo, "test_should_fail")
    assert len(failed.failures) == 1 and "Not equal to tolerance" in failed.failures[0][1]


def test_setup_fixes_the_seeds():
    draws = []

    class Seeded(tf.test.TestCase):
        def test_draw(self):
            draws.append((np.random.rand(), tf.random.uniform([3]).numpy().tolist()))

    for _ in range(2):
        assert _run(Seeded, "test_draw").wasSuccessful()
    assert draws[0] == draws[1]


@pytest.mark.parametrize("traced", [False, True])
def test_compute_gradient_matches_analytic_jacobian(traced):
    a = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])

    def f(x, w):
        return tf.tanh(tf.matmul(x, w))

    fn = tf.function(f) if traced else f
    x, w = np.array([[0.3, -0.2]]), a
    theoretical, numerical = tf.test.compute_gradient(fn, [x, w])
    y = np.tanh(x @ w)
    dy = (1 - y ** 2).ravel()  # y has 3 elements; dy_j/dx_i = dy_j * w[i, j]
    np.testing.assert_allclose(theoretical[0], (dy[:, None] * w.T), rtol=1e-10)
    expected_w = np.zeros((3, 6))
    for j in range(3):
        for i in range(2):
            expected_w[j, i * 3 + j] = dy[j] * x[0, i]
    np.testing.assert_allclose(theoretical[1], expected_w, rtol=1e-10)
    np.testing.assert_allclose(numerical[0], theoretical[0], atol=1e-5)
    np.testing.assert_allclose(numerical[1], theoretical[1], atol=1e-5)
    assert theoretical[0].shape == (3, 2) and theoretical[1].shape == (3, 6)


def test_compute_gradient_rejects_what_tf_rejects():
    with pytest.raises(ValueError, match="must be a list or tuple"):
        tf.test.compute_gradient(tf.sin, tf.constant([1.0]))


def test_assert_equal_graph_def_on_tinytf_graphs():
    def build(scale):
        graph = tf.Graph()
        with graph.as_default():
            x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
            tf.multiply(x, scale, name="y")
        return graph.as_graph_def()

    tf.test.assert_equal_graph_def(build(2.0), build(2.0))
    with pytest.raises(AssertionError, match="has attr value"):
        tf.test.assert_equal_graph_def(build(2.0), build(3.0))
    shuffled = build(2.0)
    nodes = list(shuffled.node)
    del shuffled.node[:]
    shuffled.node.extend(reversed(nodes))
    tf.test.assert_equal_graph_def(build(2.0), shuffled)
    fewer = build(2.0)
    del fewer.node[-1]
    with pytest.raises(AssertionError, match="Did not find expected node"):
        tf.test.assert_equal_graph_def(build(2.0), fewer)
    with pytest.raises(TypeError, match="Expected tf.GraphDef"):
        tf.test.assert_equal_graph_def(build(2.0), "x")


def test_deprecated_names_log_tf_notice_once(caplog):
    from tinytf import deprecation_warning
    deprecation_warning._warned.discard("is_gpu_available")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.test.is_gpu_available() is False
        assert tf.test.is_gpu_available() is False
    notices = [r for r in caplog.records if "is_gpu_available" in r.getMessage()]
    assert len(notices) == 1 and "list_physical_devices('GPU')" in notices[0].getMessage()
