"""tf.nn.dropout's where(keep, x * scale, 0) as one dropout_select op (an AND of x's bits with the mask): bit for
bit np.where's result, in every float dtype, eagerly and in graphs, with passes off, and its gradient."""

import numpy as np
import pytest

import tinytf as tf
from tests.ways import traced_with
from tinytf.runtime.ops import nn


def _bits(a):
    a = np.asarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_kernel_is_where_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 7)).astype(dtype)
    x.flat[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, -3.0]
    keep = rng.random((5, 7)) > 0.4
    keep.flat[:6] = [True, True, False, True, False, False]
    got = nn._dropout_select(keep, x)
    assert got.dtype == dtype
    np.testing.assert_array_equal(_bits(got), _bits(np.where(keep, x, dtype(0))))
    strided = x[:, ::2]  # a view: the kernel reads it as it is
    np.testing.assert_array_equal(_bits(nn._dropout_select(keep[:, ::2], strided)),
                                  _bits(np.where(keep[:, ::2], strided, dtype(0))))


def test_dropout_zeros_are_positive_and_graph_matches_eager():
    x = tf.constant(-np.abs(np.random.default_rng(1).standard_normal((40, 30))).astype(np.float32))

    def fn(x):
        return tf.nn.dropout(x, 0.5, seed=3)

    tf.random.set_seed(7)
    eager = fn(x).numpy()
    assert (_bits(eager[eager == 0]) == 0).all()  # +0.0, never x * 0 = -0.0
    assert 0 < np.count_nonzero(eager) < eager.size
    for options in ({}, {"disable_all": True}):
        tf.random.set_seed(7)
        graph = traced_with(fn, (x,), **options)(x).numpy()
        np.testing.assert_array_equal(_bits(graph), _bits(eager))
    ops = tf.function(fn).get_concrete_function(x).graph.op_types()
    assert "dropout_select" in ops and "where" not in ops


def test_dropout_gradient_is_the_mask_times_the_scale():
    x = tf.constant(np.random.default_rng(2).standard_normal((20, 10)).astype(np.float32))

    def fn(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.dropout(x, 0.25, seed=5)
            loss = tf.reduce_sum(y * 3.0)
        return y, tape.gradient(loss, x)

    for run in (fn, traced_with(fn, (x,)), traced_with(fn, (x,), disable_all=True)):
        tf.random.set_seed(11)
        y, g = (t.numpy() for t in run(x))
        kept = y != 0
        np.testing.assert_array_equal(g, np.where(kept, np.float32(3.0) * np.float32(1 / 0.75), 0))


def test_noise_shape_keeps_the_broadcasting_where():
    x = tf.ones([4, 6])
    y = tf.nn.dropout(x, 0.5, noise_shape=[4, 1], seed=1).numpy()
    assert all(len(set(row)) == 1 for row in y.tolist())  # one decision per row


def test_bad_inputs_name_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match="dropout_select: needs a bool mask"):
        nn.apply(nn.dropout_select_op, (tf.ones([2]), tf.ones([2])), {})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"dropout_select: mask shape \(3,\) and x shape \(2,"):
        nn.apply(nn.dropout_select_op, (tf.constant([True, False, True]), tf.ones([2])), {})
