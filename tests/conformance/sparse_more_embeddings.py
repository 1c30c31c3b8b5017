"""Sparse embeddings and the tf.sparse functions they are built from: tf.nn.embedding_lookup_sparse (TF's
docstring examples, combiners, weights, max_norm, empty rows), safe_embedding_lookup_sparse (invalid ids, bad
weights, default_id, shards, rank-3 ids), their gradients wrt the table, and tf.sparse.retain,
fill_empty_rows, reset_shape, reshape and segment_sum / mean / sqrt_n, eagerly and in a tf.function."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_embedding_lookup_sparse_docstring(tf):
    params = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]], dtype=tf.float32)
    sp_ids = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0]], values=[0, 1, 3, 2], dense_shape=(3, 2))
    out = [val(tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights=None, combiner="sum"))]
    sparse_weights = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0]], values=[0.1, 1.0, 0.5, 2.0],
                                     dense_shape=(3, 2))
    out.append(val(tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights=sparse_weights, combiner="sum")))
    return out


def _inputs(tf):
    params = tf.Variable(data([10, 4], seed=1))
    indices = [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]]
    ids = tf.SparseTensor(indices, tf.constant([1, 3, 1, 7, 2, 9], tf.int64), [5, 3])
    weights = tf.SparseTensor(indices, [2.0, 0.5, 1.0, -1.0, 3.0, 0.25], [5, 3])
    return params, ids, weights


@program
def p_embedding_lookups_combiners_and_gradients(tf):
    params, ids, weights = _inputs(tf)
    out = []
    with tf.GradientTape() as tape:
        for combiner in ("sum", "mean", "sqrtn"):
            for w in (None, weights):
                out.append(tf.nn.embedding_lookup_sparse(params, ids, w, combiner=combiner))
                out.append(tf.nn.safe_embedding_lookup_sparse(params, ids, w, combiner=combiner))
                out.append(tf.nn.safe_embedding_lookup_sparse(params, ids, w, combiner=combiner, default_id=4))
        out.append(tf.nn.embedding_lookup_sparse(params, ids, None, max_norm=1.0))
        out.append(tf.nn.safe_embedding_lookup_sparse([params[:5], params[5:]], ids, weights, max_norm=1.0))
        ids3 = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]], tf.constant([-1, 3, 5, 2], tf.int64),
                               [2, 2, 2])
        out.append(tf.nn.safe_embedding_lookup_sparse(params, ids3))
        total = tf.add_n([tf.reduce_sum(o * (i + 1.0)) for i, o in enumerate(out)])
    grad = tape.gradient(total, params)
    return [[val(o) for o in out], type(grad).__name__, val(tf.convert_to_tensor(grad))]


@program
def p_embedding_lookups_in_a_function(tf):
    params, ids, weights = _inputs(tf)

    @tf.function
    def lookups(sp_ids, sp_weights):
        with tf.GradientTape() as tape:
            a = tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights, combiner="sqrtn")
            b = tf.nn.safe_embedding_lookup_sparse(params, sp_ids, sp_weights, default_id=0)
            total = tf.reduce_sum(a) + tf.reduce_sum(b * b)
        return a, b, tf.convert_to_tensor(tape.gradient(total, params))

    return [val(t) for t in lookups(ids, weights)]


@program
def p_embedding_lookup_sparse_errors(tf):
    params, ids, weights = _inputs(tf)
    return [outcome(lambda: tf.nn.embedding_lookup_sparse(params, ids, None, combiner="max"), "combiner"),
            outcome(lambda: tf.nn.embedding_lookup_sparse(params, tf.constant([[1]]), None), "SparseTensor"),
            outcome(lambda: tf.nn.safe_embedding_lookup_sparse(None, ids), "embedding_weights")]


@program
def p_sparse_entries(tf):
    _, ids, _ = _inputs(tf)
    filled, empty = tf.sparse.fill_empty_rows(ids, tf.constant(-5, tf.int64))
    floats = tf.SparseTensor([[1, 0], [1, 2], [3, 1]], [1.5, -2.0, 4.0], [4, 3])
    filled_floats, empty_floats = tf.sparse.fill_empty_rows(floats, 0.5)
    reshaped = tf.sparse.reshape(ids, [3, -1])
    out = [val(filled.indices), val(filled.values), val(empty), val(tf.sparse.to_dense(filled_floats)),
           val(empty_floats), val(reshaped.indices), val(reshaped.dense_shape), reshaped.shape.as_list(),
           val(tf.sparse.reshape(floats, [2, 2, 3]).indices),
           val(tf.sparse.reset_shape(ids).dense_shape), val(tf.sparse.reset_shape(ids, [6, 4]).dense_shape),
           val(tf.sparse.retain(ids, [True, False, True, False, True, True]).indices),
           val(tf.sparse.retain(floats, tf.constant([False, True, True])).values)]
    out.append(outcome(lambda: tf.sparse.reshape(ids, [4, 4]), "reshape"))
    out.append(outcome(lambda: tf.sparse.reset_shape(ids, [2, 3]), "new_shape"))

    @tf.function
    def graph(sp):
        f, e = tf.sparse.fill_empty_rows(sp, 9.0)
        return tf.sparse.to_dense(f), e, tf.sparse.reshape(sp, [-1, 6]).indices

    out.append([val(t) for t in graph(floats)])
    return out


@program
def p_sparse_segment_reductions(tf):
    d = tf.constant(np.arange(12.0).reshape(4, 3))
    f = tf.constant(data([4, 3], seed=2))
    out = [val(tf.sparse.segment_sum(d, [0, 2, 1, 1], [0, 0, 2, 2])),
           val(tf.sparse.segment_mean(d, [0, 2, 1], [0, 0, 2], num_segments=4)),
           val(tf.sparse.segment_sqrt_n(d, [0, 2, 1], [0, 0, 1])),
           val(tf.sparse.segment_sum(tf.constant([[1, 2], [3, 4]]), [1, 1, 0], [0, 1, 1])),
           val(tf.sparse.segment_sum(d, tf.constant([0, 1], tf.int64), tf.constant([1, 3], tf.int64),
                                     num_segments=5))]
    with tf.GradientTape() as tape:
        tape.watch(f)
        total = (tf.reduce_sum(tf.sparse.segment_mean(f, [0, 2, 2, 3], [0, 0, 1, 1]) * [[1.0, 2.0, 3.0]])
                 + tf.reduce_sum(tf.sparse.segment_sqrt_n(f, [1, 1, 3], [0, 1, 1]) ** 2))
    out.append(val(tf.convert_to_tensor(tape.gradient(total, f))))
    graph = tf.function(lambda x: tf.sparse.segment_mean(x, [0, 2, 1], [0, 1, 1]))
    out.append(val(graph(f)))
    return out
