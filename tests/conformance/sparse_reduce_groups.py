"""tf.sparse.reduce_max / reduce_sum over groups with and without entries, as TF 2.21's kernels: a group with
no entry is 0 in reduce_max's dense result (not the dtype's lowest value) and absent from the sparse result;
a group whose entries sum to 0 stays in reduce_sum's sparse result."""

from __future__ import annotations

from . import program


def _sparse(r):
    return [r.indices.numpy().tolist(), r.values.numpy().tolist(), r.dense_shape.numpy().tolist()]


@program
def p_sparse_reductions_over_empty_groups(tf):
    st = tf.sparse.SparseTensor([[0, 0], [0, 2], [2, 1]], [1.0, 5.0, -3.0], [3, 3])
    zero_sum = tf.sparse.SparseTensor([[0, 0], [0, 2], [2, 1]], [1.0, -1.0, -3.0], [3, 3])
    empty = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 2])
    ints = tf.sparse.SparseTensor([[1, 0]], [-5], [2, 2])
    out = []
    for axis in (0, 1, None, [0, 1]):
        for keepdims in (False, True):
            out.append([tf.sparse.reduce_max(st, axis, keepdims).numpy().tolist(),
                        _sparse(tf.sparse.reduce_max(st, axis, keepdims, output_is_sparse=True)),
                        _sparse(tf.sparse.reduce_sum(zero_sum, axis, keepdims, output_is_sparse=True))])
    out += [tf.sparse.reduce_max(empty).numpy().tolist(), tf.sparse.reduce_max(empty, 1).numpy().tolist(),
            _sparse(tf.sparse.reduce_max(empty, 1, output_is_sparse=True)),
            tf.sparse.reduce_max(ints, 1).numpy().tolist(),
            tf.function(lambda s: tf.sparse.reduce_max(s, 1))(st).numpy().tolist()]
    return out
