"""tf.test as TF 2.21 has it: compute_gradient's Jacobian layout and values (theoretical and numerical),
TestCase's assertions (which pass, which fail and how), evaluate on composite tensors, the build/device questions
and benchmark_config."""

from __future__ import annotations

import io
import unittest

import numpy as np

from . import program


def _jacobians(result):
    return [[j.dtype.name, list(j.shape), np.round(j, 4).tolist()] for part in result for j in part]


@program
def p_tf_test_compute_gradient(tf):
    out = [_jacobians(tf.test.compute_gradient(lambda x, y: x * y + tf.sin(x),
                                                [tf.constant([1., 2.]), tf.constant([3., 4.])]))]
    out.append(_jacobians(tf.test.compute_gradient(lambda x: tf.reduce_sum(x, 1),
                                                   [tf.constant([[1., 2., 3.], [4., 5., 6.]], tf.float64)])))
    out.append(_jacobians(tf.test.compute_gradient(lambda x: tf.cast(x, tf.float32) * 2.,
                                                   [tf.constant([1., 2.], tf.float64)])))
    out.append(_jacobians(tf.test.compute_gradient(lambda a, b: tf.matmul(a, b),
                                                   [np.array([[1., 2.], [3., 4.]]), np.array([[0.5], [-1.]])])))
    out.append(_jacobians(tf.test.compute_gradient(tf.nn.softmax, [tf.constant([[0.1, 0.7, -0.3]], tf.float64)],
                                                   delta=1e-4)))
    out.append(_jacobians(tf.test.compute_gradient(lambda x: tf.stop_gradient(x) * 3., [tf.constant([1., 2.])])))
    return out


class _Outcomes(unittest.TestResult):
    """Each test's outcome: "ok", ["skipped", reason], or [exception class, first line of its message]."""

    def __init__(self):
        super().__init__()
        self.seen = {}

    def addSuccess(self, test):  # noqa: N802 - unittest's name
        self.seen[test._testMethodName] = "ok"

    def addSkip(self, test, reason):  # noqa: N802
        self.seen[test._testMethodName] = ["skipped", reason]

    def addFailure(self, test, err):  # noqa: N802
        self._problem(test, err)

    def addError(self, test, err):  # noqa: N802
        self._problem(test, err)

    def _problem(self, test, err):
        lines = [line for line in str(err[1]).splitlines() if line.strip()]
        self.seen[test._testMethodName] = [err[0].__name__, lines[0][:70] if lines else ""]


def _run_case(tf, methods):
    """Run a TestCase class made of `methods`; each test's outcome by name."""
    case = type("Case", (tf.test.TestCase,), {f"test_{name}": fn for name, fn in methods.items()})
    outcomes = _Outcomes()
    for name in methods:
        case(f"test_{name}").run(outcomes)
    return {name.removeprefix("test_"): value for name, value in outcomes.seen.items()}


@program
def p_tf_test_testcase_assertions(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    methods = {
        "close": lambda self: self.assertAllClose(x, [[1.0, 2.0], [3.0, 4.0000001]]),
        "close_fails": lambda self: self.assertAllClose([1.0, 2.0], [1.0, 2.1]),
        "close_nested": lambda self: self.assertAllClose({"a": x, "b": (1.0, [2.0, 3.0])},
                                                         {"a": x.numpy(), "b": (1.0, [2.0, 3.0])}),
        "close_keys": lambda self: self.assertAllClose({"a": 1.0}, {"b": 1.0}),
        "close_shape": lambda self: self.assertAllClose([1.0, 2.0], [[1.0, 2.0]]),
        "close_tolerance": lambda self: self.assertAllClose([1.0], [1.05], rtol=0.1),
        "close_type": lambda self: self.assertAllCloseAccordingToType(
            np.array([1.0], np.float16), np.array([1.0005], np.float16)),
        "not_close": lambda self: self.assertNotAllClose([1.0], [2.0]),
        "equal": lambda self: self.assertAllEqual(tf.constant(["a", "b"]), ["a", "b"]),
        "equal_bytes": lambda self: self.assertAllEqual(tf.constant(["a", "b"]), [b"a", b"b"]),
        "equal_fails": lambda self: self.assertAllEqual([1, 2], [1, 3]),
        "equal_shape": lambda self: self.assertAllEqual([1, 2], [1, 2, 3]),
        "equal_nan": lambda self: self.assertAllEqual([np.nan, 1.0], [np.nan, 1.0]),
        "not_equal": lambda self: self.assertNotAllEqual([1, 2], [1, 2]),
        "in_range": lambda self: self.assertAllInRange(x, 1, 4),
        "in_range_open": lambda self: self.assertAllInRange(x, 1, 4, open_upper_bound=True),
        "in_range_nan": lambda self: self.assertAllInRange([1.0, np.nan], 0, 4),
        "in_range_str": lambda self: self.assertAllInRange(["a"], 0, 4),
        "in_set": lambda self: self.assertAllInSet(tf.constant([1, 2, 2]), [1, 2, 3]),
        "in_set_fails": lambda self: self.assertAllInSet([1, 7], [1, 2]),
        "greater": lambda self: self.assertAllGreater(x, 0.5),
        "greater_fails": lambda self: self.assertAllGreater(x, 1.0),
        "less_equal": lambda self: self.assertAllLessEqual(x, 4.0),
        "shape_equal": lambda self: self.assertShapeEqual(np.zeros([2, 2]), x),
        "shape_equal_fails": lambda self: self.assertShapeEqual(np.zeros([2, 3]), x),
        "shape_equal_type": lambda self: self.assertShapeEqual([1], x),
        "dtype": lambda self: self.assertDTypeEqual(x, np.float32),
        "near": lambda self: self.assertNear(1.0, 1.05, 0.1),
        "near_fails": lambda self: self.assertNear(1.0, 2.0, 0.5),
        "array_near": lambda self: self.assertArrayNear([1.0, 2.0], [1.01, 2.0], 0.02),
        "device": lambda self: self.assertDeviceEqual("/cpu:0", "/device:CPU:0"),
        "op_error": lambda self: _raises_op_error(self, tf),
        "op_error_wrong_class": lambda self: _raises_wrong_class(self),
        "predicate": lambda self: _predicate(self),
        "session_eagerly": lambda self: _session_eagerly(self),
        "skipped": tf.test.disable_with_predicate(lambda: True, "skipped by predicate")(lambda self: None),
        "not_skipped": tf.test.disable_with_predicate(lambda: False, "not this time")(lambda self: None),
    }
    return _run_case(tf, methods)


def _raises_op_error(self, tf):
    with self.assertRaisesOpError("(?i)incompatible shapes"):
        tf.add(tf.zeros([2]), tf.zeros([3]))
    with self.assertRaisesIncompatibleShapesError():
        tf.add(tf.zeros([2]), tf.zeros([3]))


def _raises_wrong_class(self):
    with self.assertRaisesOpError("boom"):
        raise ValueError("boom")


def _predicate(self):
    with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "boom" in str(e)):
        raise ValueError("boom")


def _session_eagerly(self):
    with self.session() as sess:
        sess.run(1)


@program
def p_tf_test_evaluate_and_sessions(tf):
    seen = {}

    def evaluate(self):
        sparse = self.evaluate(tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])))
        ragged = self.evaluate(tf.ragged.constant([[1, 2], [3]]))
        nested = self.evaluate({"a": tf.constant(1.5), "b": [tf.constant([1, 2]), None]})
        seen["eager"] = [type(sparse).__name__, sparse.indices.tolist(), sparse.values.tolist(),
                         sparse.dense_shape.tolist(), ragged.to_list(), ragged.row_splits.tolist(),
                         nested["a"].tolist(), nested["b"][0].tolist(), nested["b"][1]]
        self.assertAllEqual(tf.ragged.constant([[1, 2], [3]]), [[1, 2], [3]])

    def graph(self):
        with tf.Graph().as_default():
            c = tf.constant(3.0) * 2
            first = self.evaluate(c)
            with self.cached_session() as sess:
                cached = [sess.run(c).tolist(), self.evaluate([c, {"k": c}])[1]["k"].tolist(),
                          sess is tf.compat.v1.get_default_session()]
            with self.session() as sess:
                fresh = sess.run(c).tolist()
            seen["graph"] = [first.tolist(), cached, fresh]

    def seeds(self):
        import random
        seen["seeds"] = [random.random() == random.Random(87654321).random(),
                         np.random.rand() == np.random.RandomState(87654321).rand(),
                         self.get_temp_dir() == self.get_temp_dir()]

    results = _run_case(tf, {"evaluate": evaluate, "graph": graph, "seeds": seeds})
    return [results, seen]


@program
def p_tf_test_platform(tf):
    return [tf.test.is_gpu_available(), tf.test.is_gpu_available(cuda_only=True), tf.test.gpu_device_name(),
            tf.test.is_built_with_cuda(), tf.test.is_built_with_rocm(), tf.test.is_built_with_gpu_support(),
            str(tf.test.benchmark_config()), tf.test.with_eager_op_as_function(int) is int,
            tf.test.with_eager_op_as_function(only_as_function=True)(float) is float,
            tf.test.experimental.sync_devices()]


@program
def p_tf_test_benchmark(tf):
    class Bench(tf.test.Benchmark):
        pass

    import contextlib
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        Bench().report_benchmark(iters=3, wall_time=0.5, extras={"alpha": 2}, name="case")
        Bench().report_benchmark(iters=1, cpu_time=1.25, extras={"tag": "x"}, name="other")
    with tf.Graph().as_default():
        c = tf.constant(1.0) + 1
        with tf.compat.v1.Session() as sess:
            with contextlib.redirect_stdout(io.StringIO()):
                result = Bench().run_op_benchmark(sess, c, min_iters=3, name="add", extras={"k": 1})
    return [printed.getvalue().splitlines(), sorted(result), result["iters"], result["name"],
            result["extras"]["k"], result["wall_time"] >= 0]
