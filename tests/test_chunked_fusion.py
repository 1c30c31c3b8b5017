"""Chunked evaluation of large fused blocks (runtime/chunked.py, passes/fusion_codegen.py): the same numbers as
whole-array evaluation, numpy and every pass off, on 1, 2 and 3 threads, with several outputs, scalars and
integer blocks, under concurrent calls; outputs never shared between calls; and the thread-count settings."""

import os

import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from tinytf.runtime import blas_threads, chunked

rng = np.random.default_rng(3)
N = 300_001  # not a multiple of the chunk: the last chunk is short


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunk blocks of 64k elements and more, 4096 elements a chunk, threads from 128k elements: the
    machinery of megabyte arrays on test-sized ones."""
    monkeypatch.setattr(chunked, "CHUNK_MIN_BYTES", 1 << 16)
    monkeypatch.setattr(chunked, "CHUNK_ELEMENTS", 4096)
    monkeypatch.setattr(chunked, "THREAD_MIN_ELEMENTS", 1 << 17)
    saved = chunked._setting["requested"]
    yield
    chunked._setting["requested"] = saved


def _compiled(fn, args, disable_all=False):
    return traced_with(fn, args, disable_all=disable_all)


def _code(compiled, args):
    return compiled.get_concrete_function(*args).code


def chain(x, y):
    a = tf.tanh(x * 1.5 + 0.5) * 2.0 - y
    b = tf.sigmoid(a) + tf.sqrt(tf.abs(y))
    c = tf.exp(-tf.abs(b)) * a
    return tf.square(c) + 2.0, a  # two outputs, one of them also used inside the block


def chain_np(x, y):
    a = np.tanh(x * np.float32(1.5) + np.float32(0.5)) * np.float32(2.0) - y
    b = np.float32(1) / (np.float32(1) + np.exp(-a)) + np.sqrt(np.abs(y))
    c = np.exp(-np.abs(b)) * a
    return np.square(c) + np.float32(2.0), a


X = rng.standard_normal(N).astype(np.float32)
Y = rng.standard_normal(N).astype(np.float32)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_chunked_block_matches_whole_arrays_numpy_and_no_passes(small_chunks, threads):
    args = (tf.constant(X), tf.constant(Y))
    compiled = _compiled(chain, args)
    assert "run_chunked(" in _code(compiled, args)
    chunked.set_num_threads(threads)
    got = [r.numpy() for r in compiled(*args)]
    for g, e in zip(got, chain_np(X, Y)):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    for g, e in zip(got, _compiled(chain, args, disable_all=True)(*args)):
        np.testing.assert_allclose(g, e.numpy(), rtol=1e-6, atol=1e-7)
    chunked.CHUNK_MIN_BYTES = 1 << 40  # the same block, whole
    whole = _compiled(chain, args)
    assert "run_chunked(" not in _code(whole, args)
    for g, e in zip(got, whole(*args)):
        np.testing.assert_allclose(g, e.numpy(), rtol=1e-6, atol=1e-7)


def test_thread_counts_give_identical_results(small_chunks):
    args = (tf.constant(X), tf.constant(Y))
    compiled = _compiled(chain, args)
    results = []
    for threads in (1, 2, 4):
        chunked.set_num_threads(threads)
        results.append([r.numpy() for r in compiled(*args)])
    for other in results[1:]:
        for a, b in zip(results[0], other):
            np.testing.assert_array_equal(a, b)  # elementwise: where a chunk ends cannot change a value


def test_scalars_and_two_dimensional_inputs(small_chunks):
    def fn(x, s):
        return tf.maximum(x * s - 1.0, 0.0) * s

    x = rng.standard_normal((600, 300)).astype(np.float32)
    args = (tf.constant(x), tf.constant(np.float32(0.7)))
    compiled = _compiled(fn, args)
    assert "run_chunked(" in _code(compiled, args)
    np.testing.assert_allclose(compiled(*args).numpy(), np.maximum(x * np.float32(0.7) - 1, 0) * np.float32(0.7),
                               rtol=1e-6)


def test_integer_blocks(small_chunks):
    def fn(a, b):
        return (a * 3 + b) * (a - b) + 7

    a = rng.integers(-1000, 1000, N).astype(np.int64)
    b = rng.integers(-1000, 1000, N).astype(np.int64)
    args = (tf.constant(a), tf.constant(b))
    compiled = _compiled(fn, args)
    assert "run_chunked(" in _code(compiled, args)
    np.testing.assert_array_equal(compiled(*args).numpy(), (a * 3 + b) * (a - b) + 7)


def test_broadcasting_blocks_are_not_chunked(small_chunks):
    def fn(x, row):
        return tf.tanh(x * 2.0) + row

    x = rng.standard_normal((1000, 300)).astype(np.float32)
    row = rng.standard_normal(300).astype(np.float32)
    args = (tf.constant(x), tf.constant(row))
    compiled = _compiled(fn, args)
    assert "run_chunked(" not in _code(compiled, args)
    np.testing.assert_allclose(compiled(*args).numpy(), np.tanh(x * 2) + row, rtol=1e-6)


def test_outputs_of_two_calls_are_distinct_arrays(small_chunks):
    args1 = (tf.constant(X), tf.constant(Y))
    args2 = (tf.constant(-X), tf.constant(Y))
    compiled = _compiled(chain, args1)
    first = compiled(*args1)
    kept = [r.numpy().copy() for r in first]
    compiled(*args2)
    for r, k in zip(first, kept):
        np.testing.assert_array_equal(r.numpy(), k)


def test_concurrent_calls_with_threads(small_chunks):
    chunked.set_num_threads(2)
    args = (tf.constant(X), tf.constant(Y))
    compiled = _compiled(chain, args)
    inputs = [(X * s, Y) for s in (1.0, -0.5, 2.0, 0.25)]
    expected = [chain_np(x, y)[0] for x, y in inputs]

    def worker(k):
        for _ in range(10):
            got = compiled(tf.constant(inputs[k][0]), tf.constant(inputs[k][1]))[0].numpy()
            np.testing.assert_allclose(got, expected[k], rtol=1e-5, atol=1e-6)

    in_threads(worker)


def test_thread_count_follows_settings(monkeypatch):
    saved = chunked._setting["requested"]
    try:
        for name in ("TINYTF_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            monkeypatch.delenv(name, raising=False)
        chunked.set_num_threads(None)
        expected = blas_threads.count() if blas_threads.available() else (os.cpu_count() or 1)
        assert chunked.num_threads() == expected  # nothing set: as many as BLAS (see runtime/chunked.py)
        monkeypatch.setenv("OMP_NUM_THREADS", "3")
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
        chunked.set_num_threads(None)
        assert chunked.num_threads() == 1  # the smallest the user set
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
        chunked.set_num_threads(0)
        assert chunked.num_threads() == 3
        tf.config.threading.set_intra_op_parallelism_threads(2)
        assert chunked.num_threads() == 2
        tf.config.threading.set_intra_op_parallelism_threads(0)
        assert chunked.num_threads() == 3
    finally:
        chunked._setting["requested"] = saved


def test_the_chunk_function_is_straight_ufunc_code(small_chunks):
    args = (tf.constant(X), tf.constant(Y))
    compiled = _compiled(chain, args)
    namespace = compiled.get_concrete_function(*args)._compiled.namespace
    (fn,) = [v for v in namespace.values() if callable(v) and hasattr(v, "source")]
    assert fn.source.startswith("def chunk(x0, x1, o0, o1):")
    assert "np.tanh(" in fn.source and "out=o0" in fn.source and "out=o1" in fn.source


def test_a_planned_intermediate_is_computed_in_chunks(small_chunks):
    w = tf.constant(rng.standard_normal((256, 8)).astype(np.float32))

    def fn(x, y):
        a = tf.tanh(x * 2.0) * y + 1.0  # an intermediate that only a matmul reads: planned into the arena
        return a @ w

    x1, y1 = rng.standard_normal((2, 512, 256)).astype(np.float32)
    args1, args2 = (tf.constant(x1), tf.constant(y1)), (tf.constant(y1), tf.constant(x1))
    compiled = _compiled(fn, args1)
    code = _code(compiled, args1)
    assert "run_chunked(" in code and "_arena_take()" in code
    for x, y in (args1, args2, args1):
        a = np.tanh(x.numpy() * np.float32(2)) * y.numpy() + np.float32(1)
        np.testing.assert_allclose(compiled(x, y).numpy(), a @ w.numpy(), rtol=1e-5, atol=1e-4)
