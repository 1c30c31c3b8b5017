"""The loop_blas_region pass (runtime/passes/loop_blas_region.py): a loop of small GEMMs runs inside one
one-thread BLAS region, its GEMMs as bare `a @ b`; the same bits as each GEMM in a region of its own."""

import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime import blas_threads

rng = np.random.default_rng(11)


def _flat(result):
    return [np.asarray(x) for x in tf.nest.flatten(result)]


def _code(compiled, args):
    return compiled.get_concrete_function(*args).code


def _both(fn, args):
    return traced_with(fn, args, disable_all=False), traced_with(fn, args, disable_all=False, loop_blas_region=False)


def test_lstm_step_runs_its_loops_in_one_region_with_the_same_bits():
    work = workloads.lstm_step(steps=7, batch=32, n_in=16, hidden=128)
    region, plain = _both(work.fn, work.args)
    code = _code(region, work.args)
    assert code.count("with blas_single():") == 2  # the forward and the backward loop
    assert "h @ " in code and "matmul_kernel(h," not in code  # 32x128 @ 128x512: a bare GEMM in the region
    assert "blas_single" not in _code(plain, work.args)
    expected = _flat(plain(*work.args))
    for _ in range(2):
        for a, b in zip(_flat(region(*work.args)), expected):
            np.testing.assert_array_equal(a, b)
    for a, b in zip(_flat(region(*work.args)), _flat(work.numpy_fn(*work.numpy_args))):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-4)
    assert blas_threads._region["depth"] == 0  # the regions closed with the loops


def _loop(hidden, inner=None, steps=4):
    """A recurrence h = tanh(h @ w) over `steps` steps (with `inner(h)` added if given), and its gradient."""
    w = tf.Variable(rng.standard_normal((hidden, hidden)).astype(np.float32) * 0.05)

    def run(h0):
        with tf.GradientTape() as tape:
            h = h0
            for _ in tf.range(steps):
                z = h @ w
                if inner is not None:
                    z = z + inner(h)
                h = tf.tanh(z)
            loss = tf.reduce_sum(h)
        return loss, tape.gradient(loss, w)
    return run


def test_only_loops_of_gemms_between_the_thresholds_get_a_region():
    small = (tf.constant(np.ones((16, 64), np.float32)),)  # 16x64 @ 64x64: one thread inside OpenBLAS anyway
    mid = (tf.constant(np.ones((32, 256), np.float32)),)  # 32x256 @ 256x256: 2M multiply-adds
    large = (tf.constant(np.ones((128, 512), np.float32)),)  # 128x512 @ 512x512: 33M, at BLAS's own count
    assert "blas_single" not in _code(traced_with(_loop(64), small, disable_all=False), small)
    assert "blas_single" in _code(traced_with(_loop(256), mid, disable_all=False), mid)
    assert "blas_single" not in _code(traced_with(_loop(512), large, disable_all=False), large)


@pytest.mark.parametrize("inner, regions", [
    (lambda h: tf.einsum("bi,ij->bj", h, tf.ones([256, 256])), 0),  # BLAS at its own count, not via matmul
    # the user's Python may run anything: the forward loop is left alone, its backward loop has no py_function
    (lambda h: tf.stop_gradient(tf.reshape(tf.py_function(lambda v: v * 2.0, [h], tf.float32), [32, 256])), 1),
])
def test_a_loop_with_another_op_that_may_call_blas_keeps_its_gemms_regions(inner, regions):
    args = (tf.constant(np.ones((32, 256), np.float32) * 0.01),)
    region, plain = _both(_loop(256, inner), args)
    code = _code(region, args)
    assert code.count("with blas_single():") == regions
    assert "matmul_kernel(h," in code  # the forward loop's GEMM in a region of its own
    for a, b in zip(_flat(region(*args)), _flat(plain(*args))):
        np.testing.assert_array_equal(a, b)


def test_the_region_closes_when_the_loop_raises():
    xs = tf.constant(rng.standard_normal((3, 32, 256)).astype(np.float32))
    w = tf.constant(rng.standard_normal((256, 256)).astype(np.float32))

    def body(xs, n):
        h = tf.zeros([32, 256])
        for t in tf.range(n):
            h = tf.tanh(xs[t] + h @ w)  # xs[3] is out of range
        return h

    n = tf.constant(3)
    run = traced_with(body, (xs, n), disable_all=False)  # (also under TINYTF_PASSES=none)
    assert "blas_single" in run.get_concrete_function(xs, n).code
    run(xs, n)
    with pytest.raises((tf.errors.InvalidArgumentError, IndexError)):
        run(xs, tf.constant(5))
    assert blas_threads._region["depth"] == 0
    np.testing.assert_array_equal(run(xs, n).numpy(), run(xs, n).numpy())


def test_concurrent_calls_give_the_same_bits():
    work = workloads.lstm_step(steps=5, batch=32, n_in=16, hidden=128)
    region = traced_with(work.fn, work.args, disable_all=False)
    expected = _flat(region(*work.args))
    results = {}

    def worker(k):
        results[k] = [_flat(region(*work.args)) for _ in range(3)]

    in_threads(worker, 3)
    for runs in results.values():
        for run in runs:
            for a, b in zip(run, expected):
                np.testing.assert_array_equal(a, b)
    assert blas_threads._region["depth"] == 0


def test_gradient_matches_finite_differences():
    h0 = rng.standard_normal((32, 256)).astype(np.float32) * 0.1
    w = rng.standard_normal((256, 256)).astype(np.float32) * 0.05

    def gradient(h0, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = h0
            for _ in tf.range(3):
                h = tf.tanh(h @ w)
            value = tf.reduce_sum(h * h)
        return tape.gradient(value, w)

    args = (tf.constant(h0), tf.constant(w))
    grad = traced_with(gradient, args, disable_all=False)
    assert "blas_single" in grad.get_concrete_function(*args).code
    g = grad(*args).numpy()
    h0_64, w_64 = h0.astype(np.float64), w.astype(np.float64)

    def loss64(w):
        h = h0_64
        for _ in range(3):
            h = np.tanh(h @ w)
        return (h * h).sum()

    eps = 1e-4
    for i, j in [(0, 0), (3, 17), (200, 255)]:
        step = np.zeros_like(w_64)
        step[i, j] = eps
        numeric = (loss64(w_64 + step) - loss64(w_64 - step)) / (2 * eps)
        assert abs(g[i, j] - numeric) < 1e-3 * max(1.0, abs(numeric))
