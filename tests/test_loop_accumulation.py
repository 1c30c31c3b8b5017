"""The loop_accumulation pass (runtime/passes/loop_accumulation.py): a loop variable that grows by one matmul
or reduce_sum per iteration is summed in batches after the loop. Checked against numpy, against the same
function with the pass off and with every pass off, on an LSTM's gradients, across flushes, for zero
iterations, under concurrent calls, and that loops outside the exact pattern are left alone."""

import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime.ops import loop_accumulate
from tinytf.runtime.ops.loop_accumulate import accumulate_matmul_op, accumulate_sum_op

rng = np.random.default_rng(7)


def _compiled(fn, args, **options):
    """`fn` traced with every pass on except those switched off in `options` (restored afterwards)."""
    return traced_with(fn, args, **{"disable_all": False, "loop_accumulation": True, **options})


def _no_passes(fn, args):
    return traced_with(fn, args, disable_all=True)


def _ops(compiled, args):
    return [n.op for n in compiled.get_concrete_function(*args).graph.walk()]


def _values(result):
    return [np.asarray(r) for r in tf.nest.flatten(result)]


def _assert_close(a, b, rtol=2e-5):
    for x, y in zip(_values(a), _values(b)):
        np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(y)))))


STEPS, ROWS, N_IN, N_OUT = 70, 32, 24, 40  # 70 x 32 contracted rows: several flushes and a remainder
XS = rng.standard_normal((STEPS, ROWS, N_IN)).astype(np.float32)
DZ = rng.standard_normal((STEPS, ROWS, N_OUT)).astype(np.float32)


def _loop(term):
    """A tf.while_loop adding term(i) to a variable that nothing else in the loop reads."""
    def run(xs, dz):
        init = tf.ones(term(xs, dz, 0).shape)
        _, acc = tf.while_loop(lambda i, acc: i < STEPS, lambda i, acc: (i + 1, acc + term(xs, dz, i)),
                               (tf.constant(0), init))
        return acc
    return run


def _a_t_b(xs, dz, i):
    return tf.matmul(xs[i], dz[i], transpose_a=True)


def _a_b_t(xs, dz, i):
    return tf.matmul(tf.transpose(xs[i]), tf.transpose(dz[i]), transpose_b=True)


def _a_b(xs, dz, i):
    return tf.matmul(tf.transpose(xs[i]), dz[i])


def _a_t_b_t(xs, dz, i):
    return tf.matmul(xs[i], tf.transpose(dz[i]), transpose_a=True, transpose_b=True)


def _sum_axis_0(xs, dz, i):
    return tf.reduce_sum(dz[i], axis=0)


def _sum_all(xs, dz, i):
    return tf.reduce_sum(dz[i])


def _sum_keepdims(xs, dz, i):
    return tf.reduce_sum(dz[i], axis=-1, keepdims=True)


def _products():
    return 1 + np.einsum("tri,tro->io", XS, DZ)


TERMS = {  # name: (the term of iteration i, what the loop's sum is in numpy)
    "a^T b": (_a_t_b, _products), "a b^T": (_a_b_t, _products), "a b": (_a_b, _products),
    "a^T b^T": (_a_t_b_t, _products),
    "sum axis 0": (_sum_axis_0, lambda: 1 + DZ.sum(axis=(0, 1))), "sum all": (_sum_all, lambda: 1 + DZ.sum()),
    "sum keepdims": (_sum_keepdims, lambda: 1 + DZ.sum(axis=(0, 2))[:, None]),
}


@pytest.mark.parametrize("name", list(TERMS))
def test_accumulated_terms_match_numpy_and_the_loop(name):
    term, expected = TERMS[name]
    fn, args = _loop(term), (tf.constant(XS), tf.constant(DZ))
    batched = _compiled(fn, args)
    assert any(op in (accumulate_matmul_op, accumulate_sum_op) for op in _ops(batched, args))
    looped = _compiled(fn, args, loop_accumulation=False)
    assert not any(op in (accumulate_matmul_op, accumulate_sum_op) for op in _ops(looped, args))
    _assert_close(batched(*args), expected())
    _assert_close(batched(*args), looped(*args))
    _assert_close(batched(*args), _no_passes(fn, args)(*args))
    _assert_close(batched(*args), fn(*args))  # eager


def test_zero_iterations_keep_the_initial_value():
    def fn(x, n):
        _, acc = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc + x @ x), (0, tf.ones([4, 4]) * 3.0))
        return acc

    x = tf.constant(rng.standard_normal((4, 4)).astype(np.float32))
    compiled = _compiled(fn, (x, tf.constant(0)))
    assert accumulate_matmul_op in _ops(compiled, (x, tf.constant(0)))
    np.testing.assert_array_equal(compiled(x, tf.constant(0)).numpy(), np.full((4, 4), 3.0, np.float32))
    np.testing.assert_allclose(compiled(x, tf.constant(3)).numpy(), 3.0 + 3 * (x.numpy() @ x.numpy()), rtol=1e-5)


def test_flush_size_does_not_change_the_result(monkeypatch):
    fn, args = _loop(TERMS["a^T b"][0]), (tf.constant(XS), tf.constant(DZ))
    compiled = _compiled(fn, args)
    results = []
    for rows in (1, 64, 10 ** 9):  # every iteration, every other one, only after the loop
        monkeypatch.setattr(loop_accumulate, "FLUSH_ROWS", rows)
        results.append(compiled(*args).numpy())
    for r in results[1:]:
        np.testing.assert_allclose(r, results[0], rtol=2e-5, atol=1e-4)


def test_lstm_gradients_match_numpy_and_passes_off():
    work = workloads.lstm_step(steps=12, batch=8, n_in=16, hidden=24)
    compiled = _compiled(work.fn, work.args)
    ops = _ops(compiled, work.args)
    assert ops.count(accumulate_matmul_op) == 2 and ops.count(accumulate_sum_op) == 1  # wx, wh and the bias
    loss, grads = compiled(*work.args)
    np_loss, np_grads = work.numpy_fn(*work.numpy_args)
    np.testing.assert_allclose(loss.numpy(), np_loss, rtol=1e-4)
    for g, expected in zip(grads, np_grads):
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-4, atol=1e-4)
    _assert_close(compiled(*work.args), _compiled(work.fn, work.args, loop_accumulation=False)(*work.args))
    _assert_close(compiled(*work.args), _no_passes(work.fn, work.args)(*work.args))


def test_weight_gradient_of_a_loop_matches_finite_differences():
    w0 = rng.standard_normal((N_IN, 8)).astype(np.float32) * 0.3
    xs = tf.constant(XS[:6])

    def loss_of(w):
        def body(i, h, acc):
            h = tf.tanh(tf.cast(xs[i], w.dtype) @ w + h)
            return i + 1, h, acc + tf.reduce_sum(h * h)
        init = (0, tf.zeros([ROWS, 8], w.dtype), tf.constant(0, w.dtype))
        return tf.while_loop(lambda i, h, acc: i < 6, body, init)[2]

    def grad(w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = loss_of(w)
        return tape.gradient(loss, w)

    w = tf.constant(w0)
    compiled = _compiled(grad, (w,))
    assert accumulate_matmul_op in _ops(compiled, (w,))
    analytic = compiled(w).numpy()
    eps, numeric = 1e-2, np.zeros_like(w0, dtype=np.float64)
    for idx in [(0, 0), (3, 5), (N_IN - 1, 7), (10, 2)]:
        plus, minus = w0.astype(np.float64).copy(), w0.astype(np.float64).copy()
        plus[idx] += eps
        minus[idx] -= eps
        f = lambda v: float(loss_of(tf.constant(v, tf.float64)).numpy())  # noqa: E731
        numeric[idx] = (f(plus) - f(minus)) / (2 * eps)
        np.testing.assert_allclose(analytic[idx], numeric[idx], rtol=2e-2, atol=1e-3)


def test_loops_outside_the_pattern_are_left_alone():
    x = tf.constant(rng.standard_normal((4, 4)).astype(np.float32))

    def read_by_condition(x):  # the condition reads the accumulator
        return tf.while_loop(lambda i, acc: tf.reduce_sum(acc) < 1e6, lambda i, acc: (i + 1, acc + x @ x),
                             (0, tf.ones([4, 4])), maximum_iterations=5)[1]

    def read_in_body(x):  # the body reads the accumulator for something else too
        return tf.while_loop(lambda i, acc: i < 5, lambda i, acc: (i + 1, acc + acc @ x), (0, tf.ones([4, 4])))[1]

    def product_used_twice(x):
        def body(i, acc, other):
            p = x @ x
            return i + 1, acc + p, other * p
        return tf.while_loop(lambda i, acc, other: i < 5, body, (0, tf.ones([4, 4]), tf.ones([4, 4])))[1:]

    def broadcasting(x):  # the product broadcasts into a bigger variable
        return tf.while_loop(lambda i, acc: i < 5, lambda i, acc: (i + 1, acc + x @ x), (0, tf.ones([3, 4, 4])))[1]

    for fn in (read_by_condition, read_in_body, product_used_twice, broadcasting):
        compiled = _compiled(fn, (x,))
        assert accumulate_matmul_op not in _ops(compiled, (x,)), fn.__name__
        _assert_close(compiled(x), fn(x))


def test_concurrent_calls_keep_their_own_accumulators():
    fn = _loop(TERMS["a^T b"][0])
    compiled = _compiled(fn, (tf.constant(XS), tf.constant(DZ)))
    inputs = [(XS * s, DZ) for s in (1.0, -2.0, 0.5, 3.0)]
    expected = [1 + np.einsum("tri,tro->io", x, d) for x, d in inputs]

    def worker(k):
        for _ in range(15):
            got = compiled(tf.constant(inputs[k][0]), tf.constant(inputs[k][1])).numpy()
            np.testing.assert_allclose(got, expected[k], rtol=2e-5, atol=1e-3)

    in_threads(worker)


def test_the_pass_can_be_switched_off():
    fn, args = _loop(TERMS["a b"][0]), (tf.constant(XS), tf.constant(DZ))
    assert accumulate_matmul_op not in _ops(_compiled(fn, args, loop_accumulation=False), args)
    assert accumulate_matmul_op not in _ops(_no_passes(fn, args), args)


@pytest.mark.parametrize("partial_bytes", [4, 7 * 24 * 4, 10 ** 9])  # one column, 7 (40 = 5*7 + 5), all at once
def test_products_are_added_a_block_of_columns_at_a_time(monkeypatch, partial_bytes):
    monkeypatch.setattr(loop_accumulate, "PARTIAL_BYTES", partial_bytes)
    monkeypatch.setattr(loop_accumulate, "FLUSH_ROWS", 64)
    fn, args = _loop(TERMS["a^T b"][0]), (tf.constant(XS), tf.constant(DZ))
    expected = 1.0 + np.einsum("tri,tro->io", XS.astype(np.float64), DZ.astype(np.float64))
    np.testing.assert_allclose(_compiled(fn, args)(*args).numpy(), expected, rtol=2e-5, atol=1e-4)


def test_a_float64_sum_of_products_is_added_in_place():
    total = np.ones((5, 9))
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((3, 9))
    expected = total + a @ b
    before = total.ctypes.data
    loop_accumulate._add_product(total, a, b)
    assert total.ctypes.data == before
    np.testing.assert_allclose(total, expected, rtol=1e-12)


@pytest.mark.parametrize("thread_min_work", [0, 40_000, 10 ** 12])  # all on the flush thread, the later ones, none
def test_the_flush_thread_gives_the_same_bits(monkeypatch, thread_min_work):
    fn, args = _loop(TERMS["a^T b"][0]), (tf.constant(XS), tf.constant(DZ))
    compiled = _compiled(fn, args)
    monkeypatch.setattr(loop_accumulate, "FLUSH_ROWS", 64)
    monkeypatch.setattr(loop_accumulate, "THREAD_MIN_WORK", 10 ** 12)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    try:
        here = compiled(*args).numpy()
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    monkeypatch.setattr(loop_accumulate, "THREAD_MIN_WORK", thread_min_work)
    tf.config.threading.set_intra_op_parallelism_threads(2)
    try:
        for _ in range(3):
            np.testing.assert_array_equal(compiled(*args).numpy(), here)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)


def test_a_flush_thread_error_reaches_the_caller(monkeypatch):
    fn, args = _loop(TERMS["a^T b"][0]), (tf.constant(XS), tf.constant(DZ))
    compiled = _compiled(fn, args)

    def failing(total, a, b, buffers=None):
        raise MemoryError("no memory for the product")

    monkeypatch.setattr(loop_accumulate, "THREAD_MIN_WORK", 0)
    monkeypatch.setattr(loop_accumulate, "_add_product", failing)
    tf.config.threading.set_intra_op_parallelism_threads(2)
    try:
        with pytest.raises(Exception, match="no memory for the product"):
            compiled(*args)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    monkeypatch.undo()
    np.testing.assert_allclose(compiled(*args).numpy(), _products(), rtol=2e-5, atol=1e-3)


def test_adjacent_saved_rows_are_joined_without_a_copy(monkeypatch):
    monkeypatch.setattr(loop_accumulate, "ADJACENT_MIN_BYTES", 0)  # small parts are joined by a copy otherwise
    xs = rng.standard_normal((6, 3, 4)).astype(np.float32)
    dz = [rng.standard_normal((3, 5)).astype(np.float32) for _ in range(6)]
    for order in (range(6), reversed(range(1, 5))):  # a forward loop's order, a backward loop's
        order = list(order)
        a_parts, b_parts = [xs[t] for t in order], [dz[t] for t in order]
        joined = loop_accumulate._adjacent_rows(a_parts, b_parts)
        assert joined is not None and np.shares_memory(joined, xs)
        np.testing.assert_allclose(joined.T @ np.concatenate(b_parts), sum(xs[t].T @ dz[t] for t in order),
                                   rtol=1e-5, atol=1e-5)
    assert loop_accumulate._adjacent_rows([xs[0], xs[2]], [dz[0], dz[2]]) is None  # a gap
    assert loop_accumulate._adjacent_rows([xs[0], xs[0]], [dz[0], dz[1]]) is None  # the same rows twice
    assert loop_accumulate._adjacent_rows([xs[0], xs[1].copy()], [dz[0], dz[1]]) is None  # another array
