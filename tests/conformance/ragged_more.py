"""tf.ragged leftovers: TF's docstring examples of boolean_mask, stack, stack_dynamic_partitions, cross,
cross_hashed and row_splits_to_segment_ids, and more cases (mixed ragged / sparse / dense crosses, stacking
along axis 1, segment ids to row splits), eagerly and in a tf.function."""

from __future__ import annotations

from . import program, val


def _texts(x):
    """Bytes as str (JSON has no bytes), through nested lists."""
    if isinstance(x, list):
        return [_texts(v) for v in x]
    return x.decode() if isinstance(x, bytes) else x


@program
def p_ragged_boolean_mask_docstring(tf):
    T, F = (True, False)
    out = [tf.ragged.boolean_mask(data=[[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                  mask=[[T, F, T], [F, F, F], [T, F, F]]).to_list(),
           tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]),
                                  tf.ragged.constant([[F, F, T], [F], [T, T]])).to_list(),
           tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]),
                                  tf.ragged.constant([True, False, True])).to_list(),
           tf.ragged.boolean_mask(tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6]]]), [T, F, T]).to_list()]
    graph = tf.function(lambda d, m: tf.ragged.boolean_mask(d, m).flat_values)
    out.append(val(graph(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[T, F, T], [F, T, F]]))))
    return out


@program
def p_ragged_stack_docstring(tf):
    t1 = tf.ragged.constant([[1, 2], [3, 4, 5]])
    t2 = tf.ragged.constant([[6], [7, 8, 9]])
    t3 = tf.constant([[1, 2, 3], [4, 5, 6]])
    t4 = tf.constant([[5], [6], [7]])
    return [tf.ragged.stack([t1, t2], axis=0).to_list(), tf.ragged.stack([t1, t2], axis=1).to_list(),
            tf.ragged.stack([t3, t4], axis=0).to_list(),
            tf.ragged.stack([t1, tf.constant([[8, 9], [7, 6]]), t2], axis=1).to_list(),
            tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4])]).to_list()]


@program
def p_ragged_stack_dynamic_partitions_docstring(tf):
    data = ["a", "b", "c", "d", "e"]
    partitions = [3, 0, 2, 2, 3]
    return [_texts(tf.ragged.stack_dynamic_partitions(data, partitions, 5).to_list()),
            tf.ragged.stack_dynamic_partitions(tf.ragged.constant([[1], [2, 3], [], [4]]), [1, 0, 1, 1],
                                               3).to_list(),
            tf.ragged.stack_dynamic_partitions(tf.constant([[1.0, 2], [3, 4], [5, 6]]), [1, 1, 0], 2).to_list()]


@program
def p_ragged_cross_docstring(tf):
    inputs = [tf.ragged.constant([["a"], ["b", "c"]]), tf.ragged.constant([["d"], ["e"]]),
              tf.ragged.constant([["f"], ["g"]])]
    r = tf.ragged.constant([["a", "b"], ["c"]])
    d = tf.constant([["x"], ["y"]])
    s = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([1, 2, 3], tf.int64), [2, 3])
    return [_texts(tf.ragged.cross(inputs).to_list()), tf.ragged.cross_hashed(inputs, num_buckets=100).to_list(),
            _texts(tf.ragged.cross([d, r, s]).to_list()),
            tf.ragged.cross_hashed([d, r, s], num_buckets=50).to_list(), _texts(tf.ragged.cross([r, r]).to_list())]


@program
def p_ragged_segment_ids(tf):
    return [val(tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9])),
            val(tf.ragged.row_splits_to_segment_ids(tf.constant([0, 1, 3], tf.int32))),
            val(tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2])),
            val(tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2], num_segments=4)),
            val(tf.ragged.segment_ids_to_row_splits(tf.constant([1, 1], tf.int64), out_type=tf.int32)),
            val(tf.function(lambda s: tf.ragged.row_splits_to_segment_ids(s))(tf.constant([0, 2, 2, 4], tf.int64)))]
