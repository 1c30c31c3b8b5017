"""tf.sets (intersection, union, difference, size on dense tensors and SparseTensors, ints and strings) and
tf.bitwise (and, or, xor, invert, shifts with out-of-range amounts) as TensorFlow 2.21 computes them."""

from __future__ import annotations

from . import outcome, program, val


def _sparse(st):
    return [val(st.indices), val(st.values) if st.values.dtype.name != "string" else
            [v.decode() for v in st.values.numpy().tolist()], val(st.dense_shape)]


@program
def p_sets(tf):
    a = tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    b = tf.constant([[[1, 3], [2, 2]], [[5, 5], [7, 8]]])
    sa = tf.sparse.from_dense(a)
    sb = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0]], tf.constant([4, 1, 9, 4], tf.int64), [3, 3])
    dense = tf.constant([[1, 4, 4], [9, 9, 2], [0, 0, 0]], tf.int64)
    words = tf.constant([["a", "b", "c"], ["b", "b", "d"]])
    other = tf.constant([["c", "x"], ["d", "b"]])
    return [_sparse(tf.sets.intersection(a, b)), _sparse(tf.sets.union(a, b)), _sparse(tf.sets.difference(a, b)),
            _sparse(tf.sets.difference(a, b, aminusb=False)), val(tf.sets.size(sa)), _sparse(tf.sets.union(sa, b)),
            _sparse(tf.sets.difference(b, sa)), _sparse(tf.sets.intersection(dense, sb)),
            _sparse(tf.sets.difference(dense, sb)), val(tf.sets.size(sb)),
            _sparse(tf.sets.intersection(words, other)), _sparse(tf.sets.union(words, other)),
            _sparse(tf.function(lambda x, y: tf.sets.difference(x, y))(a, b)),
            outcome(lambda: tf.sets.size(a), ""), outcome(lambda: tf.sets.union(a, tf.cast(b, tf.int64)), "")]


@program
def p_bitwise(tf):
    x = tf.constant([-8, 5, 127, -1], tf.int8)
    s = tf.constant([1, 3, 9, -2], tf.int8)
    u = tf.constant([0, 1, 200, 255], tf.uint8)
    return [val(tf.bitwise.bitwise_and(tf.constant([5, 12]), tf.constant([3, 10]))),
            val(tf.bitwise.bitwise_or(u, tf.constant(6, tf.uint8))),
            val(tf.bitwise.bitwise_xor(x, tf.constant(-1, tf.int8))),
            val(tf.bitwise.invert(u)), val(tf.bitwise.invert(tf.constant([0, -1, 7], tf.int64))),
            val(tf.bitwise.left_shift(x, s)), val(tf.bitwise.right_shift(x, s)),
            val(tf.bitwise.left_shift(tf.constant([1], tf.uint8), tf.constant([8], tf.uint8))),
            val(tf.bitwise.right_shift(tf.constant([-100, 100], tf.int32), tf.constant([2, 40], tf.int32))),
            val(tf.function(lambda a, b: tf.bitwise.left_shift(a, b))(tf.constant([3, 4], tf.int16),
                                                                      tf.constant([2, 15], tf.int16))),
            outcome(lambda: tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0])), "")]
