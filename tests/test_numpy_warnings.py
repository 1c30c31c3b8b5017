"""TF computes IEEE results silently: x / 0 = inf, log(0) = -inf, sqrt(-1) = nan, float32 overflow = inf, a NaN
cast to an integer, integer scalars that wrap. numpy would warn (RuntimeWarning) about each; tinytf computes under
numpy error state of its own (runtime/numpy_errors.py), eagerly, in generated code with passes on and off, and
in constant folding, and leaves the user's own numpy state alone.

The registry-wide tests run every forward sample (zeros, NaN, infinities, negative values: tests/forward_samples.py)
eagerly and every recorded invocation as a tf.function, with RuntimeWarnings as errors."""

from __future__ import annotations

import contextlib
import threading
import warnings

import numpy as np
import pytest
from forward_samples import SAMPLES, SKIPPED, generated_elementwise
from test_ops_registry_forward import invocations, library_ops

import tinytf as tf
from tinytf.runtime import numpy_errors
from tinytf.runtime.dispatch import apply
from tinytf.runtime.tensor import EagerTensor


@contextlib.contextmanager
def strict():
    """A block in which a RuntimeWarning is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


# --- the cases, each an IEEE special value numpy warns about -------------------------------------------------
F32_MAX = np.finfo(np.float32).max
I32_MAX = np.iinfo(np.int32).max

# name -> (function of tensors, input values); expected values come from numpy under np.errstate(all="ignore")
CASES = {
    "divide_by_zero": (lambda x, y: x / y, [np.float32([1.0, -1.0, 0.0]), np.float32([0.0, 0.0, 0.0])]),
    "divide_scalar_zero_by_zero": (lambda x, y: x / y, [np.float32(0.0), np.float32(0.0)]),
    "tf_divide": (lambda x, y: tf.divide(x, y), [np.float64([1.0, 0.0]), np.float64([0.0, 0.0])]),
    "int_true_divide_by_zero": (lambda x, y: x / y, [np.int32([1, 0, -2]), np.int32([0, 0, 0])]),
    "realdiv_reciprocal": (lambda x: tf.math.reciprocal(x), [np.float32([0.0, -0.0])]),
    "rsqrt_zero": (lambda x: tf.math.rsqrt(x), [np.float32([0.0, -1.0])]),
    "log_zero_negative": (lambda x: tf.math.log(x), [np.float32([0.0, -1.0, 1.0])]),
    "log_scalar": (lambda x: tf.math.log(x), [np.float32(0.0)]),
    "log1p_minus_one": (lambda x: tf.math.log1p(x), [np.float32([-1.0, -2.0])]),
    "sqrt_negative": (lambda x: tf.sqrt(x), [np.float32([-1.0, 4.0])]),
    "pow_zero_negative": (lambda x, y: x ** y, [np.float32([0.0, -8.0]), np.float32([-1.0, 0.5])]),
    "exp_overflow": (lambda x: tf.exp(x), [np.float32([100.0, 1000.0])]),
    "expm1_overflow": (lambda x: tf.math.expm1(x), [np.float32([100.0])]),
    "square_overflow": (lambda x: tf.square(x), [np.float32([1e30])]),
    "multiply_overflow": (lambda x: x * x, [np.float32(3e38)]),
    "add_overflow": (lambda x: x + x, [np.float32([F32_MAX])]),
    "subtract_inf_inf": (lambda x: x - x, [np.float32(np.inf)]),
    "multiply_inf_zero": (lambda x, y: x * y, [np.float32([np.inf]), np.float32([0.0])]),
    "int_scalar_overflow_wraps": (lambda x: x + 1, [np.int32(I32_MAX)]),
    "int_scalar_multiply_wraps": (lambda x: x * x, [np.int32(65536)]),
    "floordiv_float_by_zero": (lambda x, y: x // y, [np.float32([1.0, 0.0]), np.float32([0.0, 0.0])]),
    "floormod_float_by_zero": (lambda x, y: x % y, [np.float32([1.0, 0.0]), np.float32([0.0, 0.0])]),
    "cast_nan_to_int": (lambda x: tf.cast(x, tf.int32), [np.float32([np.nan, np.inf, 1e10])]),
    "cast_f64_overflow_to_f32": (lambda x: tf.cast(x, tf.float32), [np.float64([1e300, -1e300])]),
    "asin_out_of_range": (lambda x: tf.math.asin(x), [np.float32([2.0])]),
    "acos_out_of_range": (lambda x: tf.math.acos(x), [np.float32([2.0])]),
    "atanh_one": (lambda x: tf.math.atanh(x), [np.float32([1.0, 2.0])]),
    "reduce_sum_overflow": (lambda x: tf.reduce_sum(x), [np.float32([3e38, 3e38])]),
    "reduce_prod_overflow": (lambda x: tf.reduce_prod(x), [np.float32([1e30, 1e30])]),
    "reduce_mean_overflow": (lambda x: tf.reduce_mean(x), [np.float32([3e38, 3e38])]),
    "logsumexp_all_minus_inf": (lambda x: tf.reduce_logsumexp(x), [np.float32([-np.inf, -np.inf])]),
    "matmul_overflow": (lambda x: tf.matmul(x, x), [np.full((2, 2), 1e30, np.float32)]),
    "softmax_inf": (lambda x: tf.nn.softmax(x), [np.float32([np.inf, 1.0])]),
    "log_softmax_inf": (lambda x: tf.nn.log_softmax(x), [np.float32([np.inf, 1.0])]),
    "xlogy_zero": (lambda x, y: tf.math.xlogy(x, y), [np.float32([0.0, 1.0]), np.float32([0.0, 0.0])]),
    "xdivy_zero": (lambda x, y: tf.math.xdivy(x, y), [np.float32([0.0, 1.0]), np.float32([0.0, 0.0])]),
    "l2_normalize_zeros": (lambda x: tf.math.l2_normalize(x), [np.float32([0.0, 0.0])]),
    "norm_overflow": (lambda x: tf.norm(x), [np.float32([3e38, 3e38])]),
}

# numpy's own answer for each case (None: only "no warning, and eager equals graph" is checked)
NUMPY = {
    "divide_by_zero": lambda x, y: x / y,
    "divide_scalar_zero_by_zero": lambda x, y: x / y,
    "tf_divide": lambda x, y: x / y,
    "int_true_divide_by_zero": lambda x, y: x.astype(np.float64) / y.astype(np.float64),
    "realdiv_reciprocal": lambda x: 1 / x,
    "rsqrt_zero": lambda x: 1 / np.sqrt(x),
    "log_zero_negative": np.log,
    "log_scalar": np.log,
    "log1p_minus_one": np.log1p,
    "sqrt_negative": np.sqrt,
    "pow_zero_negative": np.power,
    "exp_overflow": np.exp,
    "expm1_overflow": np.expm1,
    "square_overflow": np.square,
    "multiply_overflow": lambda x: x * x,
    "add_overflow": lambda x: x + x,
    "subtract_inf_inf": lambda x: x - x,
    "multiply_inf_zero": lambda x, y: x * y,
    "int_scalar_overflow_wraps": lambda x: np.int32(-(2**31)),
    "int_scalar_multiply_wraps": lambda x: np.int32(0),
    "floordiv_float_by_zero": np.floor_divide,
    "floormod_float_by_zero": np.mod,
    "cast_f64_overflow_to_f32": lambda x: x.astype(np.float32),
    "asin_out_of_range": np.arcsin,
    "acos_out_of_range": np.arccos,
    "atanh_one": np.arctanh,
    "reduce_sum_overflow": lambda x: np.sum(x),
    "reduce_prod_overflow": lambda x: np.prod(x),
    "logsumexp_all_minus_inf": lambda x: np.float32(-np.inf),
    "matmul_overflow": lambda x: x @ x,
    "xlogy_zero": lambda x, y: np.float32([0.0, -np.inf]),
    "xdivy_zero": lambda x, y: np.float32([0.0, np.inf]),
}


def _eager_values(name):
    fn, values = CASES[name]
    return fn, [tf.constant(v) for v in values]


def _check(name, got, reference=None):
    """`got` (tensors) equals numpy's answer, NaN equal to NaN; or `reference` (the eager result)."""
    fn, values = CASES[name]
    want = reference
    if name in NUMPY:
        with np.errstate(all="ignore"):
            want = NUMPY[name](*values)
    if want is None:
        return
    got = got.numpy() if hasattr(got, "numpy") else got
    want = want.numpy() if hasattr(want, "numpy") else want
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_ops_do_not_warn(name):
    fn, tensors = _eager_values(name)
    with strict():
        got = fn(*tensors)
    _check(name, got)


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_ops_do_not_warn(name, passes):
    """The Function's own entry, a ConcreteFunction called directly, and the general path (keyword call)."""
    fn, tensors = _eager_values(name)
    with np.errstate(all="ignore"):
        eager = fn(*tensors)
    graph_fn = tf.function(fn, autograph=False)  # the cases are lambdas in a table: nothing to convert
    with strict():
        first = graph_fn(*tensors)  # traces: the general path
        again = graph_fn(*tensors)  # the installed entry
        concrete = graph_fn.get_concrete_function(*tensors)(*tensors)
    for got in (first, again, concrete):
        _check(name, got, eager)


@pytest.mark.parametrize("name", ["log_zero_negative", "sqrt_negative", "divide_by_zero", "rsqrt_zero"])
def test_gradients_do_not_warn(name, passes):
    """Gradients at the singular points (1 / 0 = inf) are computed silently, eagerly and in graphs."""
    fn, tensors = _eager_values(name)

    def grads(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = tf.reduce_sum(fn(*xs))
        return tape.gradient(y, list(xs))

    with np.errstate(all="ignore"):
        eager = grads(*tensors)
    with strict():
        again = grads(*tensors)
        graph = tf.function(grads, autograph=False)(*tensors)
    for want, got_eager, got_graph in zip(eager, again, graph):
        np.testing.assert_array_equal(got_eager.numpy(), want.numpy())
        np.testing.assert_array_equal(got_graph.numpy(), want.numpy())


def test_constant_folding_does_not_warn(passes):
    @tf.function
    def folded():
        nan = tf.constant(np.nan)
        return tf.math.log(tf.constant(0.0)), tf.constant(1.0) / tf.constant(0.0), tf.cast(nan, tf.int32)

    with strict():
        log0, inf, _ = folded()
    assert log0.numpy() == -np.inf and inf.numpy() == np.inf


def test_while_loop_and_cond_kernels_do_not_warn(passes):
    """Subgraphs run by kernels (an eager cond, a loop in a graph) are under tinytf's state as well."""
    x = tf.constant(0.0)
    with strict():
        eager = tf.cond(x < 1.0, lambda: tf.math.log(x), lambda: x)
        looped = tf.function(lambda v: tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + tf.math.log(v)),
                                                     (0, v)), autograph=False)(x)
    assert eager.numpy() == -np.inf and looped[1].numpy() == -np.inf


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_mean_of_empty_is_nan_with_the_input_dtype(dtype):
    def means(x, rows):
        return tf.reduce_mean(x), tf.reduce_mean(rows, axis=1, keepdims=True)

    x, rows = tf.zeros([0], dtype), tf.zeros([3, 0], dtype)
    for run in (means, tf.function(means)):
        with strict():
            total, per_row = run(x, rows)
        assert total.dtype is dtype and np.isnan(total.numpy())
        assert per_row.dtype is dtype and per_row.shape == (3, 1) and np.all(np.isnan(per_row.numpy()))


# --- the user's numpy state is the user's ----------------------------------------------------------------------
def test_the_users_numpy_state_is_unchanged_around_tinytf():
    x = tf.constant(0.0)
    f = tf.function(lambda v: tf.math.log(v), autograph=False)
    with np.errstate(all="raise"):  # TF ignores the caller's numpy state; the caller's own numpy still raises
        assert tf.math.log(x).numpy() == -np.inf and f(x).numpy() == -np.inf and (x / x).numpy() != 0
        assert np.geterr()["divide"] == "raise"
        with pytest.raises(FloatingPointError):
            np.log(np.float32(0.0))
    assert np.geterr()["divide"] == "warn"
    with pytest.warns(RuntimeWarning):
        np.log(np.float32(0.0))


def test_errors_inside_kernels_restore_the_users_state():
    with np.errstate(all="raise"):
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.math.floordiv(tf.constant([1]), tf.constant([0]))
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.function(lambda a, b: tf.math.floordiv(a, b), autograph=False)(tf.constant([1]), tf.constant([0]))
        assert np.geterr()["divide"] == "raise"


@pytest.mark.parametrize("graph", [False, True])
def test_py_function_runs_the_users_code_with_numpy_warnings(graph):
    """The user's numpy code inside tf.py_function / tf.numpy_function still warns: eagerly under the caller's
    state, in graphs under numpy's default state (TF calls it from its executor's threads)."""
    def users(x):
        return np.float32(1.0) / np.asarray(x, np.float32)

    def body(x):
        return tf.numpy_function(users, [x], tf.float32), tf.py_function(lambda v: users(v.numpy()), [x], tf.float32)

    run = tf.function(body, autograph=False) if graph else body
    with pytest.warns(RuntimeWarning, match="divide by zero") as caught:
        out = run(tf.constant(0.0))
    assert len([w for w in caught if issubclass(w.category, RuntimeWarning)]) == 2
    assert [o.numpy() for o in out] == [np.inf, np.inf]


def test_nested_and_threaded_calls_compute_quietly():
    """The prepared context cannot be entered twice: a call inside it, or from another thread meanwhile, falls
    back to setting the state (numpy_errors.call)."""
    zero = np.float32(0.0)
    with strict():
        assert numpy_errors.run(numpy_errors.call, np.log, (zero,), {}) == -np.inf
    errors, barrier = [], threading.Barrier(2)

    def worker():
        try:
            with strict():
                barrier.wait(timeout=10)
                for _ in range(200):
                    assert tf.math.log(tf.constant(0.0)).numpy() == -np.inf
                    assert (tf.constant(1.0) / tf.constant(0.0)).numpy() == np.inf
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    def hold_the_context():
        barrier.wait(timeout=10)
        for _ in range(200):
            tf.math.log(tf.constant(0.0))

    thread = threading.Thread(target=worker)
    thread.start()
    numpy_errors.run(hold_the_context)
    thread.join()
    assert not errors, errors


def test_a_kernels_own_runtime_error_is_not_taken_for_a_refused_context():
    def kernel():
        raise RuntimeError("cannot enter context: but this one is the kernel's")

    with pytest.raises(RuntimeError, match="kernel's"):
        numpy_errors.call(kernel, (), {})


# --- every op: the forward samples (zeros, NaN, infinities) eagerly, and every invocation in a graph ------------
@pytest.mark.parametrize("name", sorted({**generated_elementwise(), **SAMPLES}))
def test_forward_samples_do_not_warn_eagerly(name):
    for thunk in {**generated_elementwise(), **SAMPLES}[name]:
        with strict():
            thunk()


def _special(inv) -> list:
    """The op's recorded invocations, those holding NaN, infinities or zeros first, at most three."""
    cases = invocations().get(inv, [])

    def special(case):
        return any(np.issubdtype(np.asarray(v).dtype, np.floating) and not np.all(np.isfinite(v)) or
                   np.issubdtype(np.asarray(v).dtype, np.number) and not np.all(v)
                   for v in case.values if np.asarray(v).dtype != object)

    return sorted(cases, key=lambda case: not special(case))[:3]


@pytest.mark.parametrize("name", library_ops())
def test_every_op_in_a_graph_does_not_warn(name, passes):
    if name in SKIPPED:
        pytest.skip(SKIPPED[name])
    for inv in _special(name):
        tensors = [EagerTensor(v, d) for v, d in zip(inv.values, inv.dtypes)]
        graph_fn = tf.function(lambda *xs, inv=inv: apply(inv.op, xs, inv.attrs), autograph=False)
        with strict():
            try:
                graph_fn(*tensors)
                graph_fn(*tensors)
            except tf.errors.OpError:
                pass  # the op's own error (integer division by zero): TF raises too
