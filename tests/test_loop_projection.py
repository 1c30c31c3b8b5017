"""The recurrent passes (runtime/passes/loop_reads.py, recurrent_projection.py, loop_swapped_products.py):
weight reads leave loops that assign nothing, `xs[t] @ w` reads a block of steps projected by one GEMM, and
`a @ w^T` in a loop, `a` the thinner, is computed as `(w @ a^T)^T`. Checked against numpy, eager, each pass
off and every pass off, gradients against finite differences, loops going down or stopping early, out-of-range
steps, block sizes, rows kept after their step, concurrent calls, and code outside the patterns (a loop that
assigns its variable, a wide left operand, a product outside loops)."""

import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime.ops import loop_projection
from tinytf.runtime.ops.array import transpose_op
from tinytf.runtime.ops.control import while_op
from tinytf.runtime.ops.linalg import matmul_op
from tinytf.runtime.ops.loop_projection import project_step_op
from tinytf.runtime.ops.state import read_variable_op

PASSES = ("loop_variable_reads", "recurrent_projection", "loop_swapped_products")
rng = np.random.default_rng(11)


def _compiled(fn, args, **options):
    return traced_with(fn, args, **{"disable_all": False, **{p: True for p in PASSES}, **options})


def _graph(compiled, args):
    return compiled.get_concrete_function(*args).graph


def _ops(compiled, args):
    return [n.op for n in _graph(compiled, args).walk()]


def _loops(graph):
    return [n for n in graph.nodes if n.op is while_op]


def _assert_close(a, b, rtol=2e-5):
    for x, y in zip(tf.nest.flatten(a), tf.nest.flatten(b)):
        x, y = np.asarray(x), np.asarray(y)
        np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(y)))))


def test_lstm_step_takes_every_rewrite_and_matches_numpy_eager_and_passes_off():
    work = workloads.lstm_step(steps=12, batch=8, n_in=16, hidden=24)
    compiled = _compiled(work.fn, work.args)
    graph = _graph(compiled, work.args)
    forward, backward = _loops(graph)
    body_ops = [n.op for n in forward.attrs["body_graph"].nodes]
    assert read_variable_op not in body_ops and project_step_op in body_ops and matmul_op in body_ops  # h @ wh
    products = [n for n in backward.attrs["body_graph"].nodes if n.op is matmul_op]
    assert [n.inputs[1].shape for n in products] == [(8, 96)]  # dz @ wh^T as (wh @ dz^T)^T
    assert transpose_op in [n.op for n in backward.attrs["body_graph"].nodes]
    loss, grads = compiled(*work.args)
    np_loss, np_grads = work.numpy_fn(*work.numpy_args)
    np.testing.assert_allclose(loss.numpy(), np_loss, rtol=1e-4)
    for g, expected in zip(grads, np_grads):
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-4, atol=1e-4)
    _assert_close(compiled(*work.args), work.fn(*work.args))
    _assert_close(compiled(*work.args), traced_with(work.fn, work.args, disable_all=True)(*work.args))
    for name in PASSES:
        off = _compiled(work.fn, work.args, **{name: False})
        _assert_close(compiled(*work.args), off(*work.args))


@pytest.mark.parametrize("name", PASSES)
def test_each_pass_can_be_switched_off(name):
    work = workloads.lstm_step(steps=4, batch=2, n_in=3, hidden=5)
    ops = _ops(_compiled(work.fn, work.args, **{name: False}), work.args)
    if name in ("loop_variable_reads", "recurrent_projection"):  # the projection needs the weights outside
        assert project_step_op not in ops
    if name == "loop_swapped_products":
        assert transpose_op not in ops
    none = traced_with(work.fn, work.args, disable_all=True)
    assert project_step_op not in _ops(none, work.args)


T, B, K, N = 37, 5, 6, 7  # 37 steps of 5 rows: blocks of 51 steps at the default size, several when smaller
XS = rng.standard_normal((T, B, K)).astype(np.float32)
W = rng.standard_normal((K, N)).astype(np.float32)


def _projected_sum(order="up", stop=T, transpose=False):
    """sum over the loop's steps of tanh(xs[t] @ w) (w^T with `transpose`), walking t up or down."""
    def run(xs, w):
        def body(i, acc):
            t = i if order == "up" else stop - 1 - i
            return i + 1, acc + tf.tanh(tf.matmul(xs[t], w, transpose_b=transpose))
        return tf.while_loop(lambda i, acc: i < stop, body, (tf.constant(0), tf.zeros([B, N])))[1]
    return run


def _numpy_sum(stop=T, order="up"):
    steps = range(stop) if order == "up" else range(stop - 1, -1, -1)
    return sum(np.tanh(XS[t] @ W) for t in steps)


@pytest.mark.parametrize("order", ["up", "down"])
@pytest.mark.parametrize("block_rows", [1, 5 * 4, 5 * 7 + 1, 10 ** 6])
def test_blocks_in_either_direction_match_numpy(monkeypatch, order, block_rows):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", block_rows)
    fn, args = _projected_sum(order), (tf.constant(XS), tf.constant(W))
    compiled = _compiled(fn, args)
    assert project_step_op in _ops(compiled, args)
    np.testing.assert_allclose(compiled(*args).numpy(), _numpy_sum(order=order), rtol=1e-5, atol=1e-5)
    _assert_close(compiled(*args), fn(*args))


def test_a_loop_stopping_early_and_a_transposed_weight():
    fn, args = _projected_sum(stop=9), (tf.constant(XS), tf.constant(W))
    np.testing.assert_allclose(_compiled(fn, args)(*args).numpy(), _numpy_sum(stop=9), rtol=1e-5, atol=1e-5)
    fn_t, args_t = _projected_sum(transpose=True), (tf.constant(XS), tf.constant(W.T.copy()))
    compiled = _compiled(fn_t, args_t)
    assert project_step_op in _ops(compiled, args_t)
    np.testing.assert_allclose(compiled(*args_t).numpy(), _numpy_sum(), rtol=1e-5, atol=1e-5)


def test_negative_and_out_of_range_steps_behave_as_without_the_pass():
    def run(xs, w, first):
        def body(i, acc):
            return i + 1, acc + xs[first + i] @ w
        return tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), tf.zeros([B, N])))[1]

    args = (tf.constant(XS), tf.constant(W))
    compiled = _compiled(run, args + (tf.constant(-3),))
    plain = traced_with(run, args + (tf.constant(-3),), disable_all=True)
    assert project_step_op in _ops(compiled, args + (tf.constant(-3),))
    np.testing.assert_allclose(compiled(*args, tf.constant(-3)).numpy(), sum(XS[t] @ W for t in (-3, -2, -1)),
                               rtol=1e-5, atol=1e-5)
    errors = []
    for fn in (compiled, plain):
        with pytest.raises(Exception) as info:
            fn(*args, tf.constant(T - 1))  # steps T-1, T, T+1: the second is out of range
        errors.append(type(info.value))
    assert errors[0] is errors[1]


def test_a_loop_that_assigns_its_variable_keeps_its_reads():
    v = tf.Variable(np.ones((K, N), np.float32))

    def run(x):
        v.assign(tf.ones([K, N]))

        def body(i, acc):
            v.assign(v * 0.5)
            return i + 1, acc + x[i] @ v
        return tf.while_loop(lambda i, acc: i < 4, body, (tf.constant(0), tf.zeros([B, N])))[1]

    x = tf.constant(XS)
    compiled = _compiled(run, (x,))
    body = _loops(_graph(compiled, (x,)))[0].attrs["body_graph"]
    assert read_variable_op in [n.op for n in body.nodes] and project_step_op not in [n.op for n in body.nodes]
    expected = sum(XS[i] @ np.full((K, N), 0.5 ** (i + 1), np.float32) for i in range(4))
    np.testing.assert_allclose(compiled(x).numpy(), expected, rtol=1e-5)


def test_reads_before_the_loop_follow_assignments_before_it():
    v = tf.Variable(np.ones((K, N), np.float32))

    @tf.function
    def run(x):
        v.assign(v * 3.0)
        return tf.while_loop(lambda i, acc: i < 5, lambda i, acc: (i + 1, acc + x[i] @ v),
                             (tf.constant(0), tf.zeros([B, N])))[1]

    got = run(tf.constant(XS)).numpy()
    np.testing.assert_allclose(got, sum(XS[i] @ np.full((K, N), 3.0, np.float32) for i in range(5)), rtol=1e-5)
    np.testing.assert_allclose(run(tf.constant(XS)).numpy(), 3 * got, rtol=1e-5)


def test_rnn_weight_gradients_match_finite_differences():
    wx0 = rng.standard_normal((K, N)).astype(np.float64) * 0.4
    wh0 = rng.standard_normal((N, N)).astype(np.float64) * 0.4
    xs = tf.constant(XS[:8].astype(np.float64))

    def loss_of(wx, wh):
        def body(t, h, acc):
            h = tf.tanh(xs[t] @ wx + h @ wh)
            return t + 1, h, acc + tf.reduce_sum(h * h)
        return tf.while_loop(lambda t, h, acc: t < 8, body, (0, tf.zeros([B, N], tf.float64),
                                                             tf.constant(0.0, tf.float64)))[2]

    variables = [tf.Variable(wx0), tf.Variable(wh0)]

    def grads(x):
        with tf.GradientTape() as tape:
            loss = loss_of(*variables) + tf.reduce_sum(x) * 0
        return tape.gradient(loss, variables)

    compiled = _compiled(grads, (xs,))
    ops = _ops(compiled, (xs,))
    assert project_step_op in ops and transpose_op in ops  # (dz @ wh^T: 5x7 @ (7x7)^T swapped)
    analytic = [g.numpy() for g in compiled(xs)]
    eps = 1e-6
    for which, idx in [(0, (0, 0)), (0, (K - 1, 3)), (1, (2, 5)), (1, (N - 1, 0))]:  # wx, wh
        plus, minus = [wx0.copy(), wh0.copy()], [wx0.copy(), wh0.copy()]
        plus[which][idx] += eps
        minus[which][idx] -= eps
        numeric = (float(loss_of(*map(tf.constant, plus))) - float(loss_of(*map(tf.constant, minus)))) / (2 * eps)
        np.testing.assert_allclose(analytic[which][idx], numeric, rtol=1e-5, atol=1e-7)


def test_a_persistent_tape_asked_twice():
    w = tf.Variable(rng.standard_normal((N, N)).astype(np.float32) * 0.3)
    xs = tf.constant(rng.standard_normal((6, B, N)).astype(np.float32))

    def run(xs):
        with tf.GradientTape(persistent=True) as tape:
            h = tf.zeros([B, N])
            for t in tf.range(6):
                h = tf.tanh(xs[t] + h @ w)
            loss = tf.reduce_sum(h)
            doubled = loss * 2.0
        return tape.gradient(loss, w), tape.gradient(doubled, w)

    compiled = _compiled(run, (xs,))
    first, second = compiled(xs)
    expected = run(xs)
    _assert_close((first, second), expected)
    np.testing.assert_allclose(second.numpy(), 2 * first.numpy(), rtol=1e-5)


def test_concurrent_calls_keep_their_own_blocks():
    fn = _projected_sum()
    compiled = _compiled(fn, (tf.constant(XS), tf.constant(W)))
    inputs = [XS * s for s in (1.0, -2.0, 0.5, 3.0)]
    expected = [sum(np.tanh(x[t] @ W) for t in range(T)) for x in inputs]

    def worker(k):
        for _ in range(10):
            got = compiled(tf.constant(inputs[k]), tf.constant(W)).numpy()
            np.testing.assert_allclose(got, expected[k], rtol=1e-5, atol=1e-5)

    in_threads(worker)


@pytest.mark.parametrize("block_rows", [5, 5 * 3, 10 ** 6])
def test_rows_kept_after_their_step_are_never_overwritten(monkeypatch, block_rows):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", block_rows)  # blocks of 1 and 3 steps reuse buffers

    def run(xs, w):
        def body(t, kept):
            return t + 1, kept.write(t, xs[t] @ w)  # every step's row lives on in the TensorArray
        return tf.while_loop(lambda t, kept: t < T, body, (0, tf.TensorArray(tf.float32, size=T)))[1].stack()

    args = (tf.constant(XS), tf.constant(W))
    compiled = _compiled(run, args)
    assert project_step_op in _ops(compiled, args)
    for _ in range(2):
        np.testing.assert_allclose(compiled(*args).numpy(), np.einsum("tbk,kn->tbn", XS, W), rtol=1e-5, atol=1e-5)


def test_a_free_block_buffer_is_reused(monkeypatch):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 5 * 10)  # blocks of 10 steps
    projection = loop_projection._new_kernel(uid=0)
    xs, w = XS.copy(), W.copy()
    size = loop_projection.BLOCK_ROWS // B
    first = loop_projection._project_kernel(projection, xs, w, 0, transpose_b=False)
    address = projection.buffer.__array_interface__["data"][0]  # (a reference to the buffer would keep it busy)
    np.testing.assert_allclose(first, XS[0] @ W, rtol=1e-6)
    del first  # no row of the first block is alive: the next block is written into its buffer
    later = loop_projection._project_kernel(projection, xs, w, size, transpose_b=False)
    assert later.__array_interface__["data"][0] == address
    kept = loop_projection._project_kernel(projection, xs, w, 2 * size, transpose_b=False)  # `later` is alive
    assert not np.shares_memory(kept, later)
    np.testing.assert_allclose(later, XS[size] @ W, rtol=1e-6)


def test_only_thin_left_operands_in_loops_are_swapped():
    a = tf.constant(rng.standard_normal((3, 16)).astype(np.float32))
    wide = tf.constant(rng.standard_normal((9, 16)).astype(np.float32))
    narrow = tf.constant(rng.standard_normal((2, 16)).astype(np.float32))

    def in_loop(a, w):
        return tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc + tf.matmul(a, w, transpose_b=True)),
                             (0, tf.zeros([a.shape[0], w.shape[0]])))[1]

    def outside(a, w):
        return tf.matmul(a, w, transpose_b=True)

    for fn, w, swapped in ((in_loop, wide, True), (in_loop, narrow, False), (outside, wide, False)):
        compiled = _compiled(fn, (a, w))
        assert (transpose_op in _ops(compiled, (a, w))) is swapped, (fn.__name__, w.shape)
        expected = (3 if fn is in_loop else 1) * (a.numpy() @ w.numpy().T)
        np.testing.assert_allclose(compiled(a, w).numpy(), expected, rtol=1e-5, atol=1e-5)


def test_batched_products_run_on_one_blas_thread(monkeypatch):
    from tinytf.runtime import blas_threads
    from tinytf.runtime.ops import loop_accumulate

    if not blas_threads.available():
        pytest.skip("no OpenBLAS whose thread count can be read")
    seen, real = [], np.matmul

    def spy(a, b, out=None):
        seen.append(blas_threads._functions()[0]())
        return real(a, b, out=out)

    monkeypatch.setattr(loop_accumulate.np, "matmul", spy)
    a = np.ones((300, 300), np.float32)  # 27M M*K*N: blas_threads.matmul would run it at BLAS's own count
    np.testing.assert_array_equal(loop_accumulate.loop_matmul(a, a), np.full((300, 300), 300, np.float32))
    assert seen == [1]


def _biased_rnn(bias_shape, bias_in_loop=False, steps=7):
    wx = tf.constant(rng.standard_normal((5, 6)).astype(np.float32))
    wh = tf.constant(rng.standard_normal((6, 6)).astype(np.float32) * 0.3)
    b0 = tf.constant(rng.standard_normal(bias_shape).astype(np.float32))

    def run(xs):
        h = tf.zeros([4, 6])
        b = b0
        for t in tf.range(steps):
            if bias_in_loop:
                b = b * 0.9  # a loop variable: not foldable
            h = tf.tanh(xs[t] @ wx + h @ wh + b)
        return h

    def reference(xs):
        h, b = np.zeros((4, 6), np.float32), b0.numpy()
        for t in range(steps):
            if bias_in_loop:
                b = b * np.float32(0.9)
            h = np.tanh(xs[t] @ wx.numpy() + h @ wh.numpy() + b)
        return h

    return run, reference


@pytest.mark.parametrize("bias_shape, bias_in_loop, folded", [((6,), False, True), ((1, 6), False, True),
                                                              ((4, 6), False, False), ((6,), True, False)])
def test_a_row_bias_from_outside_the_loop_is_added_once_per_block(bias_shape, bias_in_loop, folded):
    run, reference = _biased_rnn(bias_shape, bias_in_loop)
    xs = tf.constant(rng.standard_normal((7, 4, 5)).astype(np.float32))
    compiled = _compiled(run, (xs,))
    steps = [n for n in _graph(compiled, (xs,)).walk() if n.op is project_step_op]
    assert len(steps) == 1 and (len(steps[0].inputs) == 5) == folded
    for _ in range(2):
        np.testing.assert_allclose(compiled(xs).numpy(), reference(xs.numpy()), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(compiled(xs).numpy(), traced_with(run, (xs,), disable_all=True)(xs).numpy(),
                               rtol=1e-5, atol=1e-6)
