"""The chunked convolution kernels (runtime/ops/conv_kernels.py) against slow loop references, with chunks
forced small so that every geometry runs as many tasks: of whole images, of rows of one image, on one and on
two threads; the filter gradient's per-thread sums do not depend on the thread count beyond rounding and
repeat exactly for a given count; BLAS's thread count comes back after every call, also under concurrent
calls from several threads."""

import numpy as np
import pytest
from test_conv import reference_conv2d, reference_geometry
from ways import in_threads

import tinytf as tf
from tinytf.runtime import blas_threads, chunked
from tinytf.runtime.ops import conv_kernels, nn_grad
from tinytf.runtime.ops.conv import _conv2d_kernel

RNG = np.random.default_rng(5)

# input shape, filter shape, strides, padding, dilations
CASES = [
    ((3, 9, 8, 3), (3, 3, 3, 4), (1, 1), "SAME", (1, 1)),
    ((3, 9, 8, 3), (5, 5, 3, 2), (1, 1), "VALID", (1, 1)),
    ((2, 10, 9, 2), (4, 3, 2, 3), (1, 1), "SAME", (1, 1)),  # even window: the extra pad bottom/right
    ((2, 11, 10, 2), (3, 3, 2, 3), (1, 1), "SAME", (2, 2)),
    ((2, 9, 9, 2), (3, 2, 2, 3), (2, 3), "SAME", (1, 1)),
    ((2, 9, 10, 1), (3, 3, 1, 2), (2, 2), "VALID", (1, 2)),
    ((3, 5, 5, 4), (1, 1, 4, 6), (1, 1), "VALID", (1, 1)),
    ((1, 4, 5, 2), (5, 6, 2, 2), (1, 1), "SAME", (1, 1)),  # window larger than the input
    ((2, 6, 7, 2), (3, 3, 2, 2), (1, 1), ((1, 2), (0, 3)), (1, 1)),
    ((2, 6, 7, 2), (2, 2, 2, 2), (1, 1), ((3, 0), (0, 0)), (1, 1)),  # more padding than the window: per offset
    ((2, 9, 8, 6), (3, 3, 6, 4), (2, 1), "SAME", (1, 2)),  # more channels than FEW_CHANNELS: row-major windows
]


def _pads(x_shape, w_shape, strides, padding, dilations):
    pad_h, pad_w = (padding, padding) if isinstance(padding, str) else padding
    return [reference_geometry(x_shape[1 + a], w_shape[a], strides[a], dilations[a], (pad_h, pad_w)[a])
            for a in range(2)]


def reference_grads(x, w, g, strides, padding, dilations):
    """(input gradient, filter gradient) of sum(conv2d(x, w) * g), by loops over outputs and offsets."""
    (oh, top), (ow, left) = _pads(x.shape, w.shape, strides, padding, dilations)
    dx, dw = np.zeros(x.shape), np.zeros(w.shape)
    for i in range(oh):
        for j in range(ow):
            for di in range(w.shape[0]):
                for dj in range(w.shape[1]):
                    r = i * strides[0] - top + di * dilations[0]
                    s = j * strides[1] - left + dj * dilations[1]
                    if 0 <= r < x.shape[1] and 0 <= s < x.shape[2]:
                        dx[:, r, s] += g[:, i, j].astype(np.float64) @ w[di, dj].T.astype(np.float64)
                        dw[di, dj] += x[:, r, s].T.astype(np.float64) @ g[:, i, j].astype(np.float64)
    return dx, dw


@pytest.fixture(params=[(1, 1 << 20), (1, 64), (2, 1 << 20), (2, 64), (2, 700)],
                ids=["1 thread whole", "1 thread rows", "2 threads whole", "2 threads rows", "2 threads images"])
def chunking(request, monkeypatch):
    """(threads, TASK_BYTES): small task sizes give tasks of one row (64 bytes) or of a few images (700)."""
    count, task_bytes = request.param
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", task_bytes)
    monkeypatch.setattr(conv_kernels, "ROW_TASKS_BYTES", 0)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    chunked.set_num_threads(count)
    yield count
    chunked.set_num_threads(0)


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, dilations", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernels_match_loops_in_any_chunks(chunking, x_shape, w_shape, strides, padding, dilations, dtype):
    x = RNG.normal(size=x_shape).astype(dtype)
    w = RNG.normal(size=w_shape).astype(dtype)
    attrs = dict(strides=strides, padding=padding, dilations=dilations)
    expected = reference_conv2d(x, w, strides, padding, dilations)
    g = RNG.normal(size=expected.shape).astype(dtype)
    dx, dw = reference_grads(x, w, g, strides, padding, dilations)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    before = blas_threads.count()
    out = _conv2d_kernel(x, w, **attrs)
    assert out.dtype == dtype and out.flags.c_contiguous
    np.testing.assert_allclose(out, expected, **tol)
    np.testing.assert_allclose(nn_grad._conv_backprop_filter_kernel(x, g, filter_shape=w.shape, **attrs), dw, **tol)
    np.testing.assert_allclose(nn_grad._conv_backprop_input_kernel(g, w, shape=x.shape[1:], **attrs), dx, **tol)
    assert blas_threads.count() == before


def test_filter_gradient_is_the_same_bits_on_any_thread_count(monkeypatch):
    """The chunks and their partial sums depend on the shapes alone: 1, 2 or 3 threads, the same bits (a
    thread count that changed the float32 summation order made train steps differ by an ulp between calls)."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 2000)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x = RNG.normal(size=(8, 12, 12, 4)).astype(np.float32)
    g = RNG.normal(size=(8, 12, 12, 5)).astype(np.float32)
    attrs = dict(filter_shape=(3, 3, 4, 5), strides=(1, 1), padding="SAME", dilations=(1, 1))
    expected = reference_grads(x, np.zeros((3, 3, 4, 5)), g, (1, 1), "SAME", (1, 1))[1]
    try:
        chunked.set_num_threads(1)
        first = nn_grad._conv_backprop_filter_kernel(x, g, **attrs)
        np.testing.assert_allclose(first, expected, rtol=1e-4, atol=1e-4)
        for count in (1, 2, 3, 2):
            chunked.set_num_threads(count)
            for _ in range(3):
                np.testing.assert_array_equal(nn_grad._conv_backprop_filter_kernel(x, g, **attrs), first)
    finally:
        chunked.set_num_threads(0)


def test_cnn_train_step_is_the_same_bits_on_any_thread_count():
    from benchmarks import workloads

    losses = {}
    try:
        for count in (1, 2, 3):
            chunked.set_num_threads(count)
            w = workloads.cnn_train_step(batch=4)
            step = tf.function(w.fn)
            losses[count] = [step(*w.args).numpy() for _ in range(3)]
    finally:
        chunked.set_num_threads(0)
    assert losses[1][1] != losses[1][0]  # the steps trained: a later loss that could differ if sums did
    np.testing.assert_array_equal(losses[2], losses[1])
    np.testing.assert_array_equal(losses[3], losses[1])


def test_concurrent_calls_are_correct_and_restore_blas_threads(monkeypatch):
    """Calls from 4 threads at once, each of its own shapes, on 2 threads of tasks each: every result is right
    and BLAS's own count is back afterwards (the single-thread regions nest across the calls)."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 4000)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    before = blas_threads.count()
    chunked.set_num_threads(2)
    try:
        def worker(k):
            x = RNG.normal(size=(4 + k, 10, 9, 3)).astype(np.float32)
            w = RNG.normal(size=(3, 3, 3, 2 + k)).astype(np.float32)
            expected = reference_conv2d(x, w, (1, 1), "SAME")
            for _ in range(5):
                np.testing.assert_allclose(_conv2d_kernel(x, w, strides=(1, 1), padding="SAME", dilations=(1, 1)),
                                           expected, rtol=1e-4, atol=1e-4)

        in_threads(worker)
    finally:
        chunked.set_num_threads(0)
    assert blas_threads.count() == before


def test_thread_count_follows_the_user_and_blas(monkeypatch):
    if not blas_threads.available():
        assert conv_kernels.threads() == 1
        return
    for name in ("TINYTF_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    assert conv_kernels.threads() == blas_threads.count()  # not asked: as many as BLAS would use
    monkeypatch.setenv("TINYTF_NUM_THREADS", "1")
    assert conv_kernels.threads() == 1
    monkeypatch.delenv("TINYTF_NUM_THREADS")
    tf.config.threading.set_intra_op_parallelism_threads(3)
    try:
        assert conv_kernels.threads() == 3
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)


def test_cnn_gradients_in_graphs_match_eager_with_chunks(monkeypatch):
    """A two-conv network's loss and gradients, eagerly and as a graph, in chunks of one row on 2 threads."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 64)
    monkeypatch.setattr(conv_kernels, "ROW_TASKS_BYTES", 0)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x = tf.constant(RNG.normal(size=(3, 8, 8, 2)).astype(np.float32))
    w1 = tf.constant(RNG.normal(size=(3, 3, 2, 4)).astype(np.float32))
    w2 = tf.constant(RNG.normal(size=(3, 3, 4, 3)).astype(np.float32))

    def step(x, w1, w2):
        with tf.GradientTape() as tape:
            tape.watch([x, w1, w2])
            h = tf.nn.relu(tf.nn.conv2d(x, w1, 1, "SAME"))
            loss = tf.reduce_sum(tf.nn.conv2d(h, w2, 2, "SAME") ** 2)
        return loss, tape.gradient(loss, [x, w1, w2])

    chunked.set_num_threads(2)
    try:
        eager = step(x, w1, w2)
        graph = tf.function(step)(x, w1, w2)
    finally:
        chunked.set_num_threads(0)
    for a, b in zip([eager[0]] + eager[1], [graph[0]] + graph[1]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-4)


def test_kernels_called_from_inside_a_task_run_on_its_thread(monkeypatch):
    """A kernel called from a kernel's task (the conv epilogue's pool, another helper's kernel) runs its
    tasks on that thread: the pool's other threads are busy with the outer tasks (waiting for them would
    never end) and the results are the same."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 64)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x = RNG.normal(size=(3, 6, 5, 2)).astype(np.float32)
    w = RNG.normal(size=(3, 3, 2, 4)).astype(np.float32)
    geo = conv_kernels.Geometry((3, 3), (1, 1), (1, 1), (1, 1, 1, 1), (6, 5))
    g = RNG.normal(size=(3, 6, 5, 4)).astype(np.float32)
    chunked.set_num_threads(2)
    try:
        want = (conv_kernels.conv2d(x, w, geo), conv_kernels.conv2d_filter_grad(x, g, w.shape, geo),
                conv_kernels.conv2d_input_grad(g, w, x.shape, geo))
        got = {}

        def outer(task, worker):
            got[task] = (conv_kernels.conv2d(x, w, geo), conv_kernels.conv2d_filter_grad(x, g, w.shape, geo),
                         conv_kernels.conv2d_input_grad(g, w, x.shape, geo))

        conv_kernels._run([0, 1, 2, 3], outer, 2)
    finally:
        chunked.set_num_threads(0)
    assert sorted(got) == [0, 1, 2, 3]
    for results in got.values():
        for a, b in zip(results, want):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


# --- shared by the tests of other conv work splits (rows, phases) ---------------------------------------------
TASKINGS = [(1, 1 << 20), (2, 1 << 20), (2, 1)]  # (threads, bytes a task may cover): one task, two, one image each
TASKING_IDS = ["1 thread", "2 threads", "2 threads, 1 image"]


def with_tasking(setting, monkeypatch, module, task_bytes_name):
    """A fixture body: `setting` threads and task size for the kernel whose task size is module.task_bytes_name,
    parallel from the smallest conv on; the thread count is restored afterwards."""
    count, task_bytes = setting
    monkeypatch.setattr(module, task_bytes_name, task_bytes)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    chunked.set_num_threads(count)
    yield
    chunked.set_num_threads(0)


def count_calls(monkeypatch, module, name) -> list:
    """A list that gains an entry each time module.name is called (which still runs)."""
    calls, original = [], getattr(module, name)

    def spy(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(module, name, spy)
    return calls
