"""tf.sparse leftovers that combine or regroup entries: TF's docstring examples of maximum, minimum, softmax,
split, bincount, cross and sampled_addmm, and more cases of each (to_indicator, mask, cross_hashed, gradients of
softmax and sampled_addmm), eagerly and in a tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _texts(x):
    """Bytes as str (JSON has no bytes), through nested lists."""
    if isinstance(x, list):
        return [_texts(v) for v in x]
    return x.decode() if isinstance(x, bytes) else x


def _sp(sp):
    return [val(sp.indices), _texts(val(sp.values)), val(sp.dense_shape)]


@program
def p_sparse_maximum_minimum_docstring(tf):
    sp_zero = tf.sparse.SparseTensor([[0]], [0], [7])
    sp_one = tf.sparse.SparseTensor([[1]], [1], [7])
    a = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3])
    b = tf.SparseTensor([[0, 2], [1, 0], [1, 1]], [-5.0, 4.0, 1.0], [2, 3])
    return [_sp(tf.sparse.maximum(sp_zero, sp_one)), _sp(tf.sparse.minimum(sp_zero, sp_one)),
            _sp(tf.sparse.maximum(a, b)), _sp(tf.sparse.minimum(a, b))]


@program
def p_sparse_softmax(tf):
    st = tf.sparse.from_dense([[[0.0, np.e], [1.0, 0.0]], [[np.e, 0.0], [np.e, np.e]]])
    res = tf.sparse.softmax(st)
    out = [_sp(res), val(tf.sparse.to_dense(res))]
    v = tf.constant([1.0, 2.0, 3.0, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        s = tf.sparse.softmax(tf.SparseTensor([[0, 0, 1], [0, 0, 2], [1, 2, 0], [1, 2, 3]], v, [2, 3, 4]))
        loss = tf.reduce_sum(s.values * [1.0, 2.0, 3.0, 4.0])
    out.append([val(s.values), val(tape.gradient(loss, v))])
    out.append(val(tf.function(lambda x: tf.sparse.softmax(x).values)(st)))
    return out


@program
def p_sparse_split_docstring(tf):
    t = tf.sparse.SparseTensor(indices=[[0, 2], [0, 4], [0, 5], [1, 0], [1, 1]], values=[1, 2, 3, 4, 5],
                               dense_shape=[2, 7])
    out = [[val(tf.sparse.to_dense(o)) for o in tf.sparse.split(sp_input=t, num_split=n, axis=axis)]
           for axis, n in ((1, 2), (0, 2), (-1, 2), (1, 3), (0, 1), (1, 7))]
    out.append(outcome(lambda: tf.sparse.split(sp_input=t, num_split=3, axis=0), "num_split"))
    graph = tf.function(lambda x: [tf.sparse.to_dense(o) for o in tf.sparse.split(sp_input=x, num_split=2, axis=1)])
    out.append([val(o) for o in graph(t)])
    return out


@program
def p_sparse_bincount_docstring(tf):
    data = np.array([[10, 20, 30, 20], [11, 101, 11, 10001]], dtype=np.int64)
    sparse = tf.sparse.SparseTensor(indices=[[0, 3], [0, 7], [0, 8], [0, 11], [1, 9], [1, 11], [1, 18], [1, 27]],
                                    values=[10, 20, 30, 20, 11, 101, 11, 10001], dense_shape=[2, 30])
    weights = [[2, 0.25, 15, 0.5], [2, 17, 3, 0.9]]
    x = tf.constant([[1, 2, 2, 0], [3, 3, 3, 5]])
    return [_sp(tf.sparse.bincount(data, axis=-1)), _sp(tf.sparse.bincount(sparse, axis=-1)),
            _sp(tf.sparse.bincount(data, axis=-1, minlength=500, maxlength=500)),
            _sp(tf.sparse.bincount(data, binary_output=True, axis=-1)),
            _sp(tf.sparse.bincount(data, weights=weights, axis=-1)),
            _sp(tf.sparse.bincount(x)), _sp(tf.sparse.bincount(x, maxlength=10)),
            _sp(tf.sparse.bincount(x, minlength=3, maxlength=2)),
            _sp(tf.sparse.bincount(tf.ragged.constant([[1, 1], [], [4]]), axis=-1)),
            _sp(tf.sparse.bincount(tf.constant([], tf.int32))),
            outcome(lambda: tf.sparse.bincount(tf.constant([1, -1])), "non-negative")]


@program
def p_sparse_cross(tf):
    inp_0 = tf.constant([["a"], ["b"]])
    inp_1 = tf.constant([["c"], ["d"]])
    out = [_texts(val(tf.sparse.cross([inp_0, inp_1], separator="_Y_").values))]
    a = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2])
    b = tf.constant([["x", "y"], ["z", "w"]])
    c = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([1, 2, 3], tf.int64), [2, 3])
    out += [_sp(tf.sparse.cross([a, b, c])), _sp(tf.sparse.cross([a, b], separator="|")),
            _sp(tf.sparse.cross_hashed([a, b, c], num_buckets=100)),
            _sp(tf.sparse.cross_hashed([a, c], num_buckets=0, hash_key=7))]
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.string), [2, 2])
    out.append(_sp(tf.sparse.cross([a, empty])))
    return out


@program
def p_sparse_indicator_mask_addmm(tf):
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([3, 1, 4], tf.int64), [3, 2])
    out = [val(tf.sparse.to_indicator(ids, 5))]
    slices = tf.IndexedSlices(tf.constant([[1.0, 2], [3, 4], [5, 6]]), tf.constant([12, 26, 37]),
                              tf.constant([40, 2]))
    masked = tf.sparse.mask(slices, [12, 37])
    out.append([val(masked.indices), val(masked.values)])
    indices = tf.constant([0, 0, 1, 1], shape=[2, 2])
    mat1 = tf.constant([1, 2, 3, 4, 5, 6], shape=[2, 3], dtype=tf.float32)
    mat2 = tf.constant([7, 8, 9, 10, 11, 12], shape=[3, 2], dtype=tf.float32)
    out.append([val(t) for t in tf.sparse.sampled_addmm(indices, tf.constant([0.5, 0.3]), tf.constant([2, 2]),
                                                         mat1, mat2, alpha=0.75, beta=0.25)])
    indices = tf.constant([0, 1, 1, 0, 0, 0, 1, 0], shape=[2, 2, 2])
    values = tf.constant([3, 5, 2, 7], shape=[2, 2], dtype=tf.float32)
    mat1 = tf.constant(np.arange(1, 13), shape=[2, 2, 3], dtype=tf.float32)
    mat2 = tf.constant(np.arange(13, 25), shape=[2, 3, 2], dtype=tf.float32)
    out.append([val(t) for t in tf.sparse.sampled_addmm(indices, values, tf.constant([2, 2]), mat1, mat2,
                                                         alpha=0.75, beta=0.25)])
    out.append(outcome(lambda: tf.sparse.sampled_addmm(indices, values, tf.constant([3, 2]), mat1, mat2),
                       "does not match"))
    return out
