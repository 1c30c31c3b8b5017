"""Static buffer planning (runtime/buffer_plan.py): results identical with planning on and off, outputs and
escaping values never in an arena buffer (a later call cannot overwrite them), concurrent and re-entrant
calls each with their own buffers, the buffers freed with the function, and the switch."""

import gc
import threading
import weakref

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime import buffer_plan
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.registry import OpDef, register


def _compiled(fn, args, planning=True):
    # conv_epilogue off: it fuses conv_block's conv, relu and pool into one op, leaving no intermediate to plan
    return traced_with(fn, args, buffer_planning=planning, disable_all=False, conv_epilogue=False)


def _code(compiled, args):
    return compiled.get_concrete_function(*args).code


def _arena(compiled, args):
    namespace = compiled.get_concrete_function(*args)._compiled.namespace
    arenas = {id(v.__self__): v.__self__ for v in namespace.values() if isinstance(getattr(v, "__self__", None),
                                                                                    buffer_plan.Arena)}
    assert len(arenas) == 1
    return next(iter(arenas.values()))


rng = np.random.default_rng(0)
W = rng.standard_normal((64, 96)).astype(np.float32)
X1 = rng.standard_normal((128, 64)).astype(np.float32)
X2 = rng.standard_normal((128, 64)).astype(np.float32)


def dense_block(x):
    h = tf.nn.relu(x @ W + 1.0)
    y = tf.tanh(h @ tf.transpose(W))
    return y * 2.0 + tf.reduce_sum(h)


def conv_block(x, w):
    y = tf.nn.relu(tf.nn.conv2d(x, w, strides=1, padding="SAME"))
    return tf.nn.max_pool2d(y, 2, 2, "VALID")


def conv_args():
    return (tf.constant(rng.standard_normal((4, 16, 16, 3)).astype(np.float32)),
            tf.constant(rng.standard_normal((3, 3, 3, 16)).astype(np.float32)))


@pytest.mark.parametrize("fn,make_args", [(dense_block, lambda: (tf.constant(X1),)), (conv_block, conv_args)],
                         ids=["dense", "conv"])
def test_planning_on_and_off_agree_exactly(fn, make_args):
    args = make_args()
    planned, plain = _compiled(fn, args, True), _compiled(fn, args, False)
    assert "_arena_take" in _code(planned, args) and "_arena_take" not in _code(plain, args)
    for _ in range(3):  # steady state: buffers reused across calls
        np.testing.assert_array_equal(planned(*args).numpy(), plain(*args).numpy())
    np.testing.assert_allclose(planned(*args).numpy(), fn(*args).numpy(), rtol=1e-5, atol=1e-5)


def test_train_steps_agree_with_planning_off():
    for build in (lambda: workloads.cnn_train_step(batch=4), lambda: workloads.mlp_train_step(batch=8)):
        on, off = build(), build()
        f_on, f_off = _compiled(on.fn, on.args, True), _compiled(off.fn, off.args, False)
        for _ in range(3):  # the variables' new values must not live in reused buffers; bit for bit, since the
            # conv kernels' sums no longer follow the thread count (conv_kernels.PARTIAL_SUMS) and BLAS's thread
            # count follows the GEMM's shapes, not the time since the last conv (blas_threads.matmul)
            np.testing.assert_array_equal(f_on(*on.args).numpy(), f_off(*off.args).numpy())


def test_small_graphs_get_no_arena():
    args = (tf.constant(1.5),)
    assert "_arena" not in _code(_compiled(lambda x: x + 1.0, args), args)


def test_outputs_are_not_overwritten_by_later_calls():
    def f(x):
        m = x @ W
        return tf.nn.relu(m), tf.reshape(m * 1.0, [-1]), tf.transpose(m)

    f_planned = _compiled(f, (tf.constant(X1),))
    first = f_planned(tf.constant(X1))
    kept = [t.numpy().copy() for t in first]
    f_planned(tf.constant(X2))
    for t, k in zip(first, kept):
        np.testing.assert_array_equal(t.numpy(), k)


def test_views_of_intermediates_are_not_planned_when_returned():
    def f(x):
        m = x @ W  # a view of it is returned: it must not live in the arena
        return tf.reshape(m, [-1]), tf.transpose(m)[0]

    compiled = _compiled(f, (tf.constant(X1),))
    a = compiled(tf.constant(X1))
    kept = [t.numpy().copy() for t in a]
    compiled(tf.constant(X2))
    for t, k in zip(a, kept):
        np.testing.assert_array_equal(t.numpy(), k)
    np.testing.assert_allclose(kept[0], (X1 @ W).ravel(), rtol=1e-5)


def test_variable_values_never_alias_the_arena():
    v = tf.Variable(np.zeros((128, 96), np.float32))

    def f(x):
        m = tf.nn.relu(x @ W)
        v.assign(m)
        return tf.reduce_sum(m)

    compiled = _compiled(f, (tf.constant(X1),))
    compiled(tf.constant(X1))
    held = v.numpy()
    expected = np.maximum(X1 @ W, 0)
    compiled(tf.constant(X2))
    np.testing.assert_allclose(held, expected, rtol=1e-5)
    np.testing.assert_allclose(v.numpy(), np.maximum(X2 @ W, 0), rtol=1e-5)


def test_values_written_to_tensor_arrays_in_loops_are_kept():
    def f(x):
        out = tf.TensorArray(tf.float32, size=3)
        m = x @ W
        for i in tf.range(3):
            out = out.write(i, m * tf.cast(i, tf.float32))
        return out.stack()

    compiled = _compiled(f, (tf.constant(X1),))
    first = compiled(tf.constant(X1)).numpy().copy()
    compiled(tf.constant(X2))
    np.testing.assert_allclose(first[2], 2 * (X1 @ W), rtol=1e-5)


def test_concurrent_calls_from_threads():
    compiled = _compiled(dense_block, (tf.constant(X1),))
    inputs = [rng.standard_normal((128, 64)).astype(np.float32) for _ in range(4)]
    expected = [dense_block(tf.constant(x)).numpy() for x in inputs]
    errors = []

    def worker(k):
        try:
            for _ in range(30):
                np.testing.assert_allclose(compiled(tf.constant(inputs[k])).numpy(), expected[k], rtol=1e-5, atol=1e-4)
        except AssertionError as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


_reentry = {"fn": None, "depth": 0}


def _reenter_kernel(x):
    """Calls the function being run, from inside its own call (as a callback op or a dataset might)."""
    if _reentry["depth"] == 0:
        _reentry["depth"] += 1
        try:
            _reentry["fn"](tf.constant(X2))  # same concrete function: it must take another buffer set
        finally:
            _reentry["depth"] -= 1
    return np.zeros_like(x)


_reenter_op = register(OpDef("test_buffer_plan_reenter", _reenter_kernel, lambda x: (x.dtype, x._shape),
                             stateful=True, differentiable=False))


def test_reentrant_call_gets_its_own_buffers():
    def f(x):
        m = tf.nn.relu(x @ W + 1.0)  # planned, and alive across the re-entrant call below
        r = apply(_reenter_op, (convert_to_tensor(x),), {})
        return tf.reduce_sum(m @ tf.transpose(W)) + tf.reduce_sum(r)

    compiled = _compiled(f, (tf.constant(X1),))
    assert "_arena_take" in _code(compiled, (tf.constant(X1),))
    _reentry["fn"] = compiled
    try:
        result = compiled(tf.constant(X1)).numpy()
    finally:
        _reentry["fn"] = None
    expected = (np.maximum(X1 @ W + 1, 0) @ W.T).sum()
    np.testing.assert_allclose(result, expected, rtol=1e-4)
    assert len(_arena(compiled, (tf.constant(X1),)).free) == 2  # two sets were in use at once


def test_buffers_are_freed_with_the_function():
    args = conv_args()
    compiled = _compiled(conv_block, args)
    compiled(*args)
    arena = weakref.ref(_arena(compiled, args))
    assert arena().nbytes > 0
    del compiled
    gc.collect()
    assert arena() is None


def test_switches():
    args = (tf.constant(X1),)
    saved = tf.config.optimizer.get_experimental_options()
    try:
        tf.config.optimizer.set_experimental_options({"disable_all": True})
        assert "_arena" not in _code(tf.function(dense_block), args)
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    assert "_arena" not in _code(_compiled(dense_block, args, planning=False), args)


def test_steady_state_call_allocates_less():
    import tracemalloc

    args = conv_args()
    peaks = {}
    for planning in (True, False):
        compiled = _compiled(conv_block, args, planning)
        compiled(*args)
        gc.collect()
        tracemalloc.start()
        compiled(*args)
        peaks[planning] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peaks[True] < 0.5 * peaks[False]


def test_a_value_scaled_in_place_before_a_softmax_is_planned():
    """softmax's result never shares memory with its input, so the layer norm's centered values (scaled in
    place by the next block and then read by the softmax) can live in an arena buffer, and agree with numpy."""
    workload = workloads.layer_norm_softmax(rows=256, width=64)
    args = [tf.constant(a) for a in workload.args]
    planned = _compiled(workload.fn, args)
    code = _code(planned, args)
    assert "np.subtract(x, reduce_mean, out=_buf" in code and "out=square_0)" in code
    for _ in range(2):  # the second call reuses the buffers of the first
        np.testing.assert_allclose(planned(*args).numpy(), workload.numpy_fn(*workload.numpy_args), rtol=1e-5,
                                   atol=1e-7)
