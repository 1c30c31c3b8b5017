"""tf.compat.v1.test's own names (helper v1rest): TF1's gradient checker in a Session (single and list x, fed
placeholders, init_targets, unsupported dtypes), assert_equal_graph_def in TF1's argument order,
StubOutForTesting and test_src_dir_path."""

from __future__ import annotations

import os

import numpy as np

from . import outcome, program


def rounded(array, digits=5):
    return np.round(np.asarray(array, dtype=np.float64), digits).tolist()


@program
def p_v1rest_compute_gradient(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    out = {}
    with graph.as_default():
        x = tf.constant(np.array([[1.0, 2.0], [3.0, 4.0]]), dtype=tf.float64)
        y = tf.reduce_sum(tf.sin(x) * x, axis=1)
        p = v1.placeholder(tf.float32, [3])
        q = p * p + 1.0
        w = v1.get_variable("w", initializer=np.float64(2.0))
        u = tf.constant(np.float64(3.0))
        z = x * u + w
        init = v1.global_variables_initializer()
        with v1.Session():
            theoretical, numeric = v1.test.compute_gradient(x, [2, 2], y, [2],
                                                            x_init_value=np.array([[1.0, 2.0], [3.0, 4.0]]))
            out["single"] = [rounded(theoretical), rounded(numeric, 4), str(theoretical.dtype), str(numeric.dtype)]
            error = v1.test.compute_gradient_error(p, [3], q, [3], x_init_value=np.array([1.0, 2.0, 3.0], np.float32))
            out["placeholder_error_small"] = bool(error < 1e-2)
            pairs = v1.test.compute_gradient([x, u], [[2, 2], []], z, [2, 2],
                                             x_init_value=[np.ones((2, 2)), np.float64(3.0)], init_targets=[init])
            out["list"] = [type(pairs).__name__, [[list(a.shape), list(b.shape)] for a, b in pairs],
                           rounded(pairs[0][0]), rounded(pairs[1][1], 4)]
            out["list_error_small"] = bool(v1.test.compute_gradient_error(
                [x, u], [[2, 2], []], z, [2, 2], x_init_value=[np.ones((2, 2)), np.float64(3.0)]) < 1e-6)
            i = tf.constant([1, 2])
            out["int"] = outcome(lambda: v1.test.compute_gradient(i, [2], tf.cast(i, tf.float32), [2]),
                                 "Don't support type int32 for x")
            random_x = v1.test.compute_gradient(p, [3], q, [3])
            out["random_x_shape"] = [list(random_x[0].shape), bool(np.allclose(random_x[0], random_x[1], atol=1e-2))]
    return out


@program
def p_v1rest_graph_def_and_stubs(tf):
    v1 = tf.compat.v1
    graphs = []
    for name, value in (("a", 1.0), ("a", 2.0), ("b", 1.0)):
        graph = tf.Graph()
        with graph.as_default():
            tf.constant(value, name=name)
        graphs.append(graph.as_graph_def())
    v1.test.assert_equal_graph_def(graphs[0], graphs[0])
    out = {"value": outcome(lambda: v1.test.assert_equal_graph_def(graphs[0], graphs[1]), "does not match"),
           "missing": outcome(lambda: v1.test.assert_equal_graph_def(graphs[0], graphs[2]),
                              "Did not find expected node"),
           "type": outcome(lambda: v1.test.assert_equal_graph_def(1, graphs[0]), "Expected tf.GraphDef for actual")}
    saved = {k: os.environ.get(k) for k in ("TEST_SRCDIR", "TEST_WORKSPACE")}
    try:
        os.environ.pop("TEST_SRCDIR", None)
        out["src_unset"] = outcome(lambda: v1.test.test_src_dir_path("python/ops"), "TEST_SRCDIR")
        os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"] = "/runfiles", "org_tensorflow"
        out["src"] = v1.test.test_src_dir_path("python/ops")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    class Base:
        @staticmethod
        def kind():
            return "base"

        def hello(self):
            return "hello"

    obj = Base()
    stubs = v1.test.StubOutForTesting()
    stubs.Set(Base, "kind", staticmethod(lambda: "stub"))
    stubs.SmartSet(obj, "hello", lambda self: "smart")
    during = [Base.kind(), obj.hello(), Base().hello()]
    stubs.CleanUp()
    after = [Base.kind(), obj.hello()]
    with v1.test.StubOutForTesting() as scoped:
        scoped.Set(os.path, "sep", "#")
        inside = os.path.sep
    out["stubs"] = [during, after, inside, os.path.sep,
                    outcome(lambda: v1.test.StubOutForTesting().SmartSet(obj, "missing", 1), "not found")]
    return out
