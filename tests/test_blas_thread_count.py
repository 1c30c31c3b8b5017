"""BLAS's thread count for tinytf's GEMMs is a function of their shapes, not of the time since the last
convolution (runtime/blas_threads.py): OpenBLAS's float32 GEMM of depth 784 gives other bits on 1 thread than
on 2, so a GEMM run while BLAS lingers at one thread after a conv kernel must give the bits it gives with no
conv around, eagerly, in graphs with and without buffer planning and with every pass off, also while other
threads run convolutions; and the matmul op still renders GEMMs too small to thread as plain `@`."""

import threading

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime import blas_threads
from tinytf.runtime.ops import conv, conv_kernels

pytestmark = pytest.mark.skipif(not blas_threads.available() or blas_threads.count() < 2,
                                reason="needs OpenBLAS with more than one thread")

rng = np.random.default_rng(5)
A = rng.standard_normal((64, 784)).astype(np.float32)  # 64x784 @ 784x256: wide (at BLAS's own count)
B = rng.standard_normal((784, 256)).astype(np.float32)
C = rng.standard_normal((8, 784)).astype(np.float32)  # 8x784 @ 784x256: one thread, always


def _live():
    return int(blas_threads._functions()[0]())


def _with_count(count, fn):
    """fn() with BLAS's count set by hand (no region open)."""
    blas_threads.restore()
    user = _live()
    blas_threads._functions()[1](count)
    try:
        return fn()
    finally:
        blas_threads._functions()[1](user)


def _conv():
    x = np.ones((8, 12, 12, 3), np.float32)
    geo = conv.conv_geometry((12, 12), (3, 3), (1, 1), (1, 1), "SAME")
    return conv_kernels.conv2d(x, np.ones((3, 3, 3, 8), np.float32), geo)


@pytest.fixture
def lingering(monkeypatch):
    """BLAS pinned at one thread as after a conv kernel, for as long as the test runs."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 64)  # many tasks: the conv opens a region
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    monkeypatch.setattr(blas_threads, "LINGER_S", 60.0)
    blas_threads.restore()
    user = _live()
    yield user
    blas_threads.restore()
    assert _live() == user


def test_the_shapes_pick_the_count(lingering):
    user = lingering
    wide_expected = _with_count(user, lambda: A @ B)
    single_expected = _with_count(1, lambda: C @ B)
    if np.array_equal(wide_expected, _with_count(1, lambda: A @ B)):
        pytest.skip("this BLAS gives the same bits on 1 and 2 threads: nothing to tell apart")
    _conv()
    assert _live() == 1  # lingering at one thread
    np.testing.assert_array_equal(blas_threads.matmul(A, B), wide_expected)
    _conv()
    np.testing.assert_array_equal(blas_threads.matmul(C, B), single_expected)
    blas_threads.restore()
    np.testing.assert_array_equal(blas_threads.matmul(C, B), single_expected)
    out = np.empty((64, 256), np.float32)
    assert blas_threads.matmul(A, B, out=out) is out
    np.testing.assert_array_equal(out, wide_expected)


def dense_step(x, w):
    h = tf.tanh(x @ w)
    return tf.reduce_sum(h * h), tf.matmul(h, w, transpose_b=True)


@pytest.mark.parametrize("options", [dict(disable_all=False), dict(disable_all=False, buffer_planning=False),
                                     dict(disable_all=True)], ids=["planned", "unplanned", "no_passes"])
def test_graphs_give_the_same_bits_after_a_conv(lingering, options):
    args = (tf.constant(A), tf.constant(B))
    compiled = traced_with(dense_step, args, **options)
    expected = [t.numpy() for t in _with_count(lingering, lambda: compiled(*args))]
    eager = [t.numpy() for t in _with_count(lingering, lambda: dense_step(*args))]
    for _ in range(2):
        _conv()
        assert _live() == 1
        for got in (compiled(*args), dense_step(*args)):
            for g, e in zip(got, expected):
                np.testing.assert_array_equal(g.numpy(), e)
    for g, e in zip(eager, expected):
        np.testing.assert_array_equal(g, e)


def test_small_gemms_stay_inline():
    args = (tf.constant(rng.standard_normal((16, 32)).astype(np.float32)),
            tf.constant(rng.standard_normal((32, 8)).astype(np.float32)))
    code = traced_with(lambda x, w: tf.nn.relu(x @ w), args).get_concrete_function(*args).code
    assert "= x @ w" in code and "kernel" not in code
    big = (tf.constant(A), tf.constant(B))
    code = traced_with(lambda x, w: tf.nn.relu(x @ w), big).get_concrete_function(*big).code
    assert " @ " not in code and "matmul_kernel(x, w" in code


def test_concurrent_convs_and_gemms_keep_their_bits(lingering):
    wide_expected = _with_count(lingering, lambda: A @ B)
    single_expected = _with_count(1, lambda: C @ B)
    conv_expected = _conv()
    errors = []

    def worker(k):
        try:
            for _ in range(15):
                if k % 2:
                    np.testing.assert_array_equal(_conv(), conv_expected)
                else:
                    np.testing.assert_array_equal(blas_threads.matmul(A, B), wide_expected)
                    np.testing.assert_array_equal(blas_threads.matmul(C, B), single_expected)
        except BaseException as e:  # noqa: BLE001 - re-raised in the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread is stuck (single() and wide() deadlocked)"
    if errors:
        raise errors[0]
