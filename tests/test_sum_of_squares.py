"""The sum_of_squares op and pass (runtime/ops/sum_of_squares.py, runtime/passes/sum_of_squares.py):
reduce_sum(x * x) over every axis without the full-size x * x, bit for bit numpy's pairwise sum; the pass only
where the square has no other reader; eager, graph, pass off and pass-free the same bits; gradients against
finite differences."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime.ops import sum_of_squares as sos

pytestmark = pytest.mark.usefixtures("all_passes")  # about optimized graphs, whatever TINYTF_PASSES says
RNG = np.random.default_rng(11)


def _bits(a):
    a = np.asarray(a)
    return a.view({4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


# sizes below, at and above the tree path's bounds, odd ones ending on every kind of split (n/2 not a multiple
# of 8, a last leaf of one value)
SIZES = [0, 1, 7, 129, sos.MIN_ELEMENTS - 1, sos.MIN_ELEMENTS, sos.MIN_ELEMENTS + 1, 3 * sos.LEAF_ELEMENTS + 13,
         1_000_003, 8 * sos.LEAF_ELEMENTS + 1]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", SIZES)
def test_kernel_is_numpys_sum_bit_for_bit(size, dtype):
    x = (RNG.standard_normal(size) * 7).astype(dtype)
    got = sos.sum_of_squares(x)
    assert got.dtype == dtype and np.ndim(got) == 0
    assert _bits(got) == _bits(np.sum(x * x, dtype=dtype))


@pytest.mark.parametrize("leaf", [128, 1000, 8192])
def test_deep_trees_keep_numpys_bits(leaf, monkeypatch):
    monkeypatch.setattr(sos, "LEAF_ELEMENTS", leaf)  # many levels of the split above the leaves
    for size in (sos.MIN_ELEMENTS + 5, 1_000_003):
        x = RNG.standard_normal(size).astype(np.float32).reshape(-1, 1)
        assert _bits(sos.sum_of_squares(x)) == _bits(np.sum(x * x, dtype=np.float32))


def test_kernel_fallbacks_and_special_values():
    x = RNG.standard_normal((600, 400)).astype(np.float32)
    strided = x[:, ::2]  # not contiguous: the plain way
    assert _bits(sos.sum_of_squares(strided)) == _bits(np.sum(strided * strided, dtype=np.float32))
    half = x.astype(np.float16)
    assert sos.sum_of_squares(half) == np.sum(half * half, dtype=np.float16)
    for special, expect in [(np.nan, np.isnan), (np.inf, np.isposinf), (-np.inf, np.isposinf)]:
        y = x.copy()
        y[123, 45] = special
        assert expect(sos.sum_of_squares(y))
    big = np.full(sos.MIN_ELEMENTS, 3e19, np.float32)  # squares overflow float32: inf, as numpy's
    assert np.isposinf(sos.sum_of_squares(big))


def _loss(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * 2.0
        loss = tf.reduce_sum(y * y) * 0.5 + tf.reduce_sum(tf.square(x), axis=[0, 1, 2, -1])
    return loss, tape.gradient(loss, x)


def _ops(compiled, args):
    return compiled.get_concrete_function(*args).graph.op_types()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pass_keeps_every_bit(dtype):
    args = (tf.constant(RNG.standard_normal((4, 64, 64, 16)).astype(dtype)),)  # 262k values: the tree path
    on = traced_with(_loss, args)
    off = traced_with(_loss, args, sum_of_squares=False)
    plain = traced_with(_loss, args, disable_all=True)
    ops = _ops(on, args)
    assert ops.count("sum_of_squares") == 2 and "reduce_sum" not in ops and "square" not in ops
    assert "sum_of_squares" not in _ops(off, args)
    got = on(*args)
    for other in (off(*args), plain(*args), _loss(*args)):
        for a, b in zip(got, other):
            np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))


def test_gradient_matches_finite_differences():
    x = RNG.standard_normal((2, 3, 4, 5))
    _, grad = traced_with(_loss, (tf.constant(x),))(tf.constant(x))
    eps = 1e-6
    for index in [(0, 0, 0, 0), (1, 2, 3, 4), (0, 1, 2, 3)]:
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        numeric = (float(_loss(tf.constant(up))[0]) - float(_loss(tf.constant(down))[0])) / (2 * eps)
        np.testing.assert_allclose(grad.numpy()[index], numeric, rtol=1e-6)


def test_squares_that_must_stay():
    x = tf.constant(RNG.standard_normal((8, 9)).astype(np.float32))
    y = tf.constant(RNG.standard_normal((8, 9)).astype(np.float32))
    cases = {
        "square also returned": lambda x: (tf.reduce_sum(x * x), x * x),
        "per-row sum": lambda x: tf.reduce_sum(x * x, axis=1),
        "keepdims": lambda x: tf.reduce_sum(x * x, keepdims=True),
        "two different factors": lambda x: tf.reduce_sum(x * (x + 0.0) * y),
        "int32": lambda x: tf.reduce_sum(tf.cast(x, tf.int32) * tf.cast(x, tf.int32)),
    }
    for name, fn in cases.items():
        compiled = traced_with(fn, (x,))
        assert "sum_of_squares" not in _ops(compiled, (x,)), name
        got, expect = compiled(x), fn(x)
        for a, b in zip(tf.nest.flatten(got), tf.nest.flatten(expect)):
            np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)


def test_l2_loss_takes_the_kernel_with_numpys_bits():
    x = RNG.standard_normal((300, 700)).astype(np.float32)
    assert _bits(tf.nn.l2_loss(x).numpy()) == _bits(np.sum(np.square(x)) / 2)
    assert _bits(tf.function(tf.nn.l2_loss)(tf.constant(x)).numpy()) == _bits(np.sum(np.square(x)) / 2)
    assert tf.nn.l2_loss(tf.constant([3.0, 4.0], tf.float16)).numpy() == np.float16(12.5)


def test_op_refuses_integers():
    with pytest.raises(TypeError, match="sum_of_squares: x must be float32 or float64, got int32"):
        sos._infer(tf.constant([[1, 2]]))
