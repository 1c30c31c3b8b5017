"""tf.io.SparseFeature with tf.io.parse_example / parse_single_example: one or several index keys, sorted or as
given, beside other features, inside tf.function and a dataset map, and TF's error when the index and value
features disagree."""

from __future__ import annotations

from . import outcome, program, val


def _examples(tf):
    def example(ix, iy, vals):
        return tf.train.Example(features=tf.train.Features(feature={
            "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=ix)),
            "iy": tf.train.Feature(int64_list=tf.train.Int64List(value=iy)),
            "val": tf.train.Feature(float_list=tf.train.FloatList(value=vals))})).SerializeToString()
    return [example([3, 0, 5], [1, 1, 0], [1.5, -2.0, 4.0]), example([2], [0], [7.0]), example([], [], [])], example


def _sparse(t):
    return [val(t.indices), val(t.values), val(t.dense_shape)]


@program
def p_sparse_feature_parse(tf):
    records, example = _examples(tf)
    one = tf.io.parse_example(records, {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10)})
    two = tf.io.parse_example(records, {"sp": tf.io.SparseFeature(["ix", "iy"], "val", tf.float32, [6, 2]),
                                        "ix": tf.io.VarLenFeature(tf.int64)})
    single = tf.io.parse_single_example(records[0], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10,
                                                                              already_sorted=True)})
    unsorted = tf.io.parse_single_example(records[0], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10)})
    return [sorted(one), _sparse(one["sp"]), sorted(two), _sparse(two["sp"]), val(two["ix"].values),
            _sparse(single["sp"]), _sparse(unsorted["sp"]), repr(tf.io.SparseFeature("ix", "val", tf.float32, 10)),
            outcome(lambda: tf.io.parse_example([example([1, 2], [0, 0], [1.0])],
                                                {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10)}),
                    "not compatible")]


@program
def p_sparse_feature_in_graphs(tf):
    records, _ = _examples(tf)
    features = {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10), "iy": tf.io.VarLenFeature(tf.int64)}
    parsed = tf.function(lambda s: tf.io.parse_example(s, features))(tf.constant(records))
    mapped = tf.data.Dataset.from_tensor_slices(records).map(
        lambda r: tf.sparse.to_dense(tf.io.parse_single_example(r, features)["sp"]))
    return [_sparse(parsed["sp"]), _sparse(parsed["iy"]), [val(x) for x in mapped]]
