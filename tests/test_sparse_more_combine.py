"""The tf.sparse and tf.ragged leftovers against numpy (maximum / minimum, softmax, split, to_indicator,
bincount, sampled_addmm; ragged boolean_mask, stack, stack_dynamic_partitions, segment ids), eager against
tf.function (passes on and off), gradients against finite differences. TF's numbers:
tests/conformance/sparse_more_combine.py and ragged_more.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

RNG = np.random.default_rng(5)


def _random_sparse(shape, density, seed):
    rng = np.random.default_rng(seed)
    dense = np.where(rng.uniform(size=shape) < density, rng.normal(size=shape), 0.0)
    return dense, tf.sparse.from_dense(dense)


def test_maximum_minimum_over_the_union_of_entries():
    da, a = _random_sparse((4, 5), 0.4, 1)
    db, b = _random_sparse((4, 5), 0.4, 2)
    union = (da != 0) | (db != 0)
    for fn, ref in ((tf.sparse.maximum, np.maximum), (tf.sparse.minimum, np.minimum)):
        got = fn(a, b)
        np.testing.assert_array_equal(got.indices.numpy(), np.argwhere(union))
        np.testing.assert_array_equal(tf.sparse.to_dense(got).numpy(), np.where(union, ref(da, db), 0))


def test_softmax_over_each_rows_entries_and_gradient(passes):
    dense, sp = _random_sparse((3, 2, 5), 0.6, 3)
    present = dense != 0
    want = np.where(present, np.exp(dense - np.where(present, dense, -np.inf).max(-1, keepdims=True)), 0)
    want = want / np.maximum(want.sum(-1, keepdims=True), 1e-300)
    fn = lambda v: tf.sparse.softmax(tf.SparseTensor(sp.indices, v, sp.dense_shape)).values  # noqa: E731
    np.testing.assert_allclose(fn(sp.values).numpy(), want[present], rtol=1e-12)
    np.testing.assert_allclose(tf.function(fn)(sp.values).numpy(), want[present], rtol=1e-12)
    check_gradients(fn, [sp.values.numpy()])


@pytest.mark.parametrize("axis,num_split", [(0, 2), (1, 3), (-1, 5), (1, 1)])
def test_split_against_numpy(axis, num_split, passes):
    dense, sp = _random_sparse((3, 7), 0.5, 4)
    fn = lambda s: [tf.sparse.to_dense(p) for p in tf.sparse.split(sp_input=s, num_split=num_split, axis=axis)]  # noqa
    for parts in (fn(sp), tf.function(fn)(sp)):
        for got, want in zip(parts, np.array_split(dense, num_split, axis=axis)):
            np.testing.assert_array_equal(got.numpy(), want)


def test_to_indicator_and_bincount_against_numpy():
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1]], tf.constant([3, 1, 4, 4], tf.int64), [3, 2])
    want = np.zeros((3, 6), bool)
    want[[0, 0, 2], [3, 1, 4]] = True
    np.testing.assert_array_equal(tf.sparse.to_indicator(ids, 6).numpy(), want)
    x = RNG.integers(0, 7, size=(4, 9))
    got = tf.sparse.to_dense(tf.sparse.bincount(x, axis=-1)).numpy()
    np.testing.assert_array_equal(got, [np.bincount(r, minlength=got.shape[1]) for r in x])
    w = RNG.normal(size=(4, 9))
    got = tf.sparse.to_dense(tf.sparse.bincount(x, weights=w, minlength=10)).numpy()
    np.testing.assert_allclose(got, np.bincount(x.ravel(), w.ravel(), minlength=10), rtol=1e-12)
    graph = tf.function(lambda v: tf.sparse.bincount(v, axis=-1, binary_output=True).values)
    np.testing.assert_array_equal(graph(tf.constant(x)).numpy(), np.ones(sum(len(set(r)) for r in x)))


def test_sampled_addmm_and_its_gradient():
    indices = np.array([[0, 1], [2, 0], [1, 1]])
    a, b, v = RNG.normal(size=(3, 4)), RNG.normal(size=(4, 2)), RNG.normal(size=3)
    _, got, _ = tf.sparse.sampled_addmm(indices, v, [3, 2], a, b, beta=0.5, alpha=2.0, output_type=tf.float64)
    np.testing.assert_allclose(got.numpy(), 2.0 * (a @ b)[indices[:, 0], indices[:, 1]] + 0.5 * v, rtol=1e-12)
    check_gradients(lambda m1, m2, vv: tf.sparse.sampled_addmm(indices, vv, [3, 2], m1, m2,
                                                               output_type=tf.float64)[1], [a, b, v])


def test_ragged_boolean_mask_keeps_gradients(passes):
    data = RNG.normal(size=(3, 4))
    mask = RNG.uniform(size=(3, 4)) < 0.5
    fn = lambda d: tf.ragged.boolean_mask(d, mask).flat_values  # noqa: E731
    np.testing.assert_array_equal(fn(data).numpy(), data[mask])
    np.testing.assert_array_equal(tf.function(fn)(data).numpy(), data[mask])
    check_gradients(fn, [data])
    rows = tf.ragged.boolean_mask(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [False, True, True])
    assert rows.to_list() == [[3], [4, 5, 6]]


def test_ragged_stack_and_partitions():
    t1, t2 = tf.ragged.constant([[1, 2], [3, 4, 5]]), tf.ragged.constant([[6], [7, 8, 9]])
    assert tf.ragged.stack([t1, t2], axis=1).to_list() == [[[1, 2], [6]], [[3, 4, 5], [7, 8, 9]]]
    data, parts = RNG.normal(size=(7, 2)), np.array([2, 0, 2, 1, 0, 2, 2])
    got = tf.ragged.stack_dynamic_partitions(data, parts, 4)
    for p in range(4):
        np.testing.assert_array_equal(np.array(got[p].numpy()).reshape(-1, 2), data[parts == p])


def test_segment_ids_and_row_splits_round_trip():
    splits = np.array([0, 0, 3, 4, 4, 9])
    ids = tf.ragged.row_splits_to_segment_ids(splits)
    np.testing.assert_array_equal(ids.numpy(), np.repeat(np.arange(5), np.diff(splits)))
    np.testing.assert_array_equal(tf.ragged.segment_ids_to_row_splits(ids, num_segments=5).numpy(), splits)
