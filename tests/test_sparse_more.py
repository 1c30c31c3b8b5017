"""tf.nn.embedding_lookup_sparse / safe_embedding_lookup_sparse and the tf.sparse functions they use
(fill_empty_rows, retain, reshape, reset_shape, segment_*): against numpy, eager against tf.function (passes on
and off), gradients against finite differences. TF's numbers: tests/conformance/sparse_more_embeddings.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

INDICES = [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]]
IDS = tf.SparseTensor(INDICES, tf.constant([1, 3, 1, 7, 2, 9], tf.int64), [5, 3])
WEIGHTS = np.array([2.0, 0.5, 1.0, -1.0, 3.0, 0.25])
TABLE = np.random.default_rng(0).normal(size=(10, 4))


def _numpy_lookup(table, weights, combiner, rows=None):
    """The reference: per row of IDS, the combination of its embeddings."""
    ids = IDS.values.numpy()
    segments = np.array(INDICES)[:, 0]
    weights = np.ones(len(ids)) if weights is None else weights
    n = segments.max() + 1 if rows is None else rows
    out = np.zeros((n, table.shape[1]))
    for r in range(n):
        pick = segments == r
        total = (table[ids[pick]] * weights[pick, None]).sum(0)
        norm = {"sum": 1.0, "mean": weights[pick].sum(), "sqrtn": np.sqrt((weights[pick] ** 2).sum())}[combiner]
        out[r] = total / norm if norm else 0.0
    return out


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_lookup_sparse_against_numpy(combiner, weighted, passes):
    sp_weights = tf.SparseTensor(INDICES, WEIGHTS, [5, 3]) if weighted else None
    fn = lambda t: tf.nn.embedding_lookup_sparse(t, IDS, sp_weights, combiner=combiner)  # noqa: E731
    want = _numpy_lookup(TABLE, WEIGHTS if weighted else None, combiner)
    np.testing.assert_allclose(fn(TABLE).numpy(), want, rtol=1e-12)  # rows up to the last non-empty one (4)
    np.testing.assert_allclose(tf.function(fn)(tf.constant(TABLE)).numpy(), want, rtol=1e-12)
    check_gradients(fn, [TABLE], rtol=1e-6)


def test_embedding_gradient_is_indexed_slices_of_the_unique_ids():
    table = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup_sparse(table, IDS, None))
    grad = tape.gradient(loss, table)
    assert isinstance(grad, tf.IndexedSlices)


def test_safe_lookup_drops_invalid_entries_and_fills_empty_rows(passes):
    ids = tf.SparseTensor(INDICES, tf.constant([1, -3, 1, 7, 2, 9], tf.int64), [5, 3])
    weights = tf.SparseTensor(INDICES, WEIGHTS, [5, 3])
    got = tf.function(lambda t: tf.nn.safe_embedding_lookup_sparse(t, ids, weights))(tf.constant(TABLE))
    # row 0 keeps ids 1 and 1 (weights 2 and 1; -3 is dropped), row 2 keeps id 2 (weight -1 is dropped)
    want = np.zeros((5, 4))
    want[0] = (2 * TABLE[1] + TABLE[1]) / 3
    want[2], want[3] = TABLE[2], TABLE[9]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    with_default = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, weights, default_id=5)
    np.testing.assert_allclose(with_default.numpy()[[1, 4]], TABLE[[5, 5]], rtol=1e-12)
    check_gradients(lambda t: tf.nn.safe_embedding_lookup_sparse(t, ids, weights, combiner="sqrtn", default_id=0),
                    [TABLE], rtol=1e-6)


def test_safe_lookup_of_rank_three_ids_keeps_the_leading_shape():
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]], tf.constant([4, 3, 5, 2], tf.int64),
                          [2, 2, 2])
    got = tf.nn.safe_embedding_lookup_sparse(TABLE, ids, combiner="sum").numpy()
    assert got.shape == (2, 2, 4)
    np.testing.assert_allclose(got, [[TABLE[4], TABLE[3]], [TABLE[5] + TABLE[2], 0 * TABLE[0]]], rtol=1e-12)


def test_sharded_tables_and_max_norm():
    shards = [TABLE[:4], TABLE[4:7], TABLE[7:]]
    np.testing.assert_allclose(tf.nn.embedding_lookup_sparse(shards, IDS, None).numpy(),
                               tf.nn.embedding_lookup_sparse(TABLE, IDS, None).numpy(), rtol=1e-12)
    clipped = TABLE / np.maximum(np.linalg.norm(TABLE, axis=1, keepdims=True), 1.0)
    np.testing.assert_allclose(tf.nn.embedding_lookup_sparse(TABLE, IDS, None, combiner="sum", max_norm=1.0).numpy(),
                               _numpy_lookup(clipped, None, "sum"), rtol=1e-12)


def test_fill_empty_rows_values_and_gradient(passes):
    sp = tf.SparseTensor([[3, 1], [1, 0], [1, 2]], tf.constant([4.0, 1.5, -2.0], tf.float64), [5, 3])
    filled, empty = tf.sparse.fill_empty_rows(sp, 0.5)
    assert filled.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 2], [2, 0], [3, 1], [4, 0]]
    assert filled.values.numpy().tolist() == [0.5, 1.5, -2.0, 0.5, 4.0, 0.5]
    assert empty.numpy().tolist() == [True, False, True, False, True]
    graph = tf.function(lambda v, d: tf.sparse.fill_empty_rows(tf.SparseTensor(sp.indices, v, [5, 3]), d)[0].values)
    np.testing.assert_array_equal(graph(sp.values, tf.constant(0.5, tf.float64)).numpy(), filled.values.numpy())
    check_gradients(lambda v, d: tf.sparse.fill_empty_rows(tf.SparseTensor(sp.indices, v, [5, 3]), d)[0].values,
                    [np.array([4.0, 1.5, -2.0]), np.array(0.5)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="invalid"):
        tf.sparse.fill_empty_rows(tf.SparseTensor([[7, 0]], [1.0], [5, 3]), 0.0)


def test_reshape_retain_reset_shape():
    dense = np.zeros((5, 3))
    dense[tuple(np.array(INDICES).T)] = [1, 3, 1, 7, 2, 9]
    for shape in ([3, 5], [15], [-1, 5, 1], [5, -1]):
        floats = tf.SparseTensor(IDS.indices, dense[dense != 0], [5, 3])
        got = tf.sparse.to_dense(tf.sparse.reshape(floats, shape))
        np.testing.assert_array_equal(got.numpy(), dense.reshape(shape))
    graph = tf.function(lambda s: tf.sparse.reshape(IDS, s).indices)
    np.testing.assert_array_equal(graph(tf.constant([3, 5])).numpy(),
                                  np.argwhere(dense.reshape(3, 5)))
    kept = tf.sparse.retain(IDS, [True, False, False, True, True, False])
    assert kept.values.numpy().tolist() == [1, 7, 2] and kept.dense_shape.numpy().tolist() == [5, 3]
    assert tf.sparse.reset_shape(IDS).dense_shape.numpy().tolist() == [4, 3]
    with pytest.raises(ValueError, match="new_shape"):
        tf.sparse.reset_shape(IDS, [4, 3])


@pytest.mark.parametrize("name", ["segment_sum", "segment_mean", "segment_sqrt_n"])
def test_sparse_segment_reductions(name, passes):
    data = np.random.default_rng(1).normal(size=(4, 3))
    fn = getattr(tf.sparse, name)
    indices, segments = [0, 2, 2, 3, 1], [0, 0, 2, 2, 3]
    picked = data[indices]
    counts = np.bincount(segments, minlength=5)
    sums = np.array([picked[np.array(segments) == s].sum(0) for s in range(5)])
    scale = {"segment_sum": np.ones(5), "segment_mean": np.maximum(counts, 1),
             "segment_sqrt_n": np.sqrt(np.maximum(counts, 1))}[name]
    want = sums / scale[:, None]
    np.testing.assert_allclose(fn(data, indices, segments, num_segments=5).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(tf.function(lambda d: fn(d, indices, segments))(data).numpy(), want[:4], rtol=1e-12)
    check_gradients(lambda d: fn(d, indices, segments), [data])
