"""tf.io.RaggedFeature (every partition kind, in parse_example and parse_single_example) and
tf.io.parse_sequence_example / parse_single_sequence_example (context and feature lists, the lengths output),
eagerly and inside tf.function, with TF's error classes for bad input; and parse_example on records that
exercise the vectorized decoder (missing features, defaults, empty lists, several batch sizes)."""

from __future__ import annotations

from . import KNOWN_DIFFERENCES, outcome, program
from .data_io import sval


def rval(x):
    """sval, with ragged tensors as their nested lists and static shape (row-splits dtype aside: tinytf's
    ragged tensors have int64 splits only)."""
    if isinstance(x, dict):
        return {str(k): rval(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [rval(v) for v in x]
    if hasattr(x, "to_list") and hasattr(x, "row_splits"):
        return {"ragged": [x.dtype.name, x.shape.as_list(), sval(x.to_list())]}
    return sval(x)


FLOAT_KEYS = {"f", "weights", "scale"}  # what an empty list of these keys is written as
BYTES_KEYS = {"words", "s", "name", "tags", "labels"}


def _feature(tf, values, key=""):
    if (values and isinstance(values[0], float)) or (not values and key in FLOAT_KEYS):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if (values and isinstance(values[0], bytes)) or (not values and key in BYTES_KEYS):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _example(tf, **features):
    return tf.train.Example(features=tf.train.Features(
        feature={k: _feature(tf, v, k) for k, v in features.items()})).SerializeToString()


def _records(tf):
    return [
        _example(tf, v=[1, 2, 3, 4, 5, 6], lens=[2, 1, 3], splits=[0, 2, 3, 6], starts=[0, 2, 3], limits=[2, 3, 6],
                 ids=[0, 0, 2, 2, 2, 3], words=[b"a", b"bc", b"", b"d"], f=[0.5, 1.5]),
        _example(tf, v=[7, 8], lens=[0, 2], splits=[0, 0, 2], starts=[0, 0], limits=[0, 2], ids=[1, 1],
                 words=[b"e", b"f"], f=[2.5, 3.5]),
        _example(tf, v=[], lens=[], splits=[0], starts=[], limits=[], ids=[], words=[], f=[]),
    ]


def _ragged_features(tf):
    R = tf.io.RaggedFeature
    return {
        "plain": R(tf.int64, value_key="v"),
        "words": R(tf.string),
        "f": R(tf.float32),
        "by_lengths": R(tf.int64, value_key="v", partitions=[R.RowLengths("lens")]),
        "by_splits": R(tf.int64, value_key="v", partitions=[R.RowSplits("splits")]),
        "by_starts": R(tf.int64, value_key="v", partitions=[R.RowStarts("starts")]),
        "by_limits": R(tf.int64, value_key="v", partitions=[R.RowLimits("limits")]),
        "by_rowids": R(tf.int64, value_key="v", partitions=[R.ValueRowIds("ids")]),
        "missing": R(tf.float32, value_key="absent"),
    }


@program
def p_ragged_feature_partitions_batch(tf):
    return rval(dict(tf.io.parse_example(_records(tf), _ragged_features(tf))))


@program
def p_ragged_feature_partitions_single(tf):
    return [rval(dict(tf.io.parse_single_example(r, _ragged_features(tf)))) for r in _records(tf)[:2]]


@program
def p_ragged_feature_in_tf_function(tf):
    features = _ragged_features(tf)
    batch = tf.function(lambda x: tf.io.parse_example(x, features))(tf.constant(_records(tf)))
    single = tf.function(lambda x: tf.io.parse_single_example(x, features))(tf.constant(_records(tf)[0]))
    return [rval(dict(batch)), rval(dict(single))]


@program
def p_ragged_feature_uniform_row_length(tf):
    R = tf.io.RaggedFeature
    records = [_example(tf, v=[1, 2, 3, 4, 5, 6], lens=[2, 1]), _example(tf, v=[7, 8], lens=[0, 1])]
    features = {
        "pairs": R(tf.int64, value_key="v", partitions=[R.UniformRowLength(2)]),
        "nested": R(tf.int64, value_key="v", partitions=[R.RowLengths("lens"), R.UniformRowLength(2)]),
        "twice": R(tf.int64, value_key="v", partitions=[R.UniformRowLength(1), R.UniformRowLength(2)]),
    }
    return [rval(dict(tf.io.parse_example(records, features))),
            rval(dict(tf.io.parse_single_example(records[0], features)))]


KNOWN_DIFFERENCES["ragged_feature_outer_uniform_row_length"] = (
    "values right, static shape not: a UniformRowLength partition outside a ragged one has TF's uniform row "
    "length as a static dimension; tinytf's RaggedTensor keeps row splits only (shape None there)")


@program
def p_ragged_feature_outer_uniform_row_length(tf):
    R = tf.io.RaggedFeature
    records = [_example(tf, v=[1, 2, 3, 4, 5, 6], thirds=[3, 1, 2]), _example(tf, v=[7, 8], thirds=[2])]
    features = {"outer_uniform": R(tf.int64, value_key="v", partitions=[R.UniformRowLength(1),
                                                                         R.RowLengths("thirds")])}
    return [rval(dict(tf.io.parse_example(records, features))),
            rval(dict(tf.io.parse_single_example(records[0], features)))]


@program
def p_ragged_feature_mixed_with_other_features(tf):
    records = _records(tf)[:2]
    features = {"plain": tf.io.RaggedFeature(tf.int64, value_key="v"), "f": tf.io.FixedLenFeature([2], tf.float32),
                "words": tf.io.VarLenFeature(tf.string), "lens": tf.io.FixedLenSequenceFeature(
                    [], tf.int64, allow_missing=True, default_value=-1)}
    return rval(dict(tf.io.parse_example(records, features)))


@program
def p_ragged_feature_errors(tf):
    R = tf.io.RaggedFeature
    records = _records(tf)
    return [
        outcome(lambda: tf.io.parse_example(records, {"x": R(tf.float32, value_key="v")}), "Data types"),
        outcome(lambda: tf.io.parse_example(records, {"x": R(tf.int64, value_key="v", partitions=[
            R.RowLengths("splits")], validate=True)}), "valid RaggedTensor"),
        outcome(lambda: tf.io.parse_example(records, {"x": R(tf.int64, value_key="v", partitions=[
            R.RowLengths("f")])}), "Data types"),
        outcome(lambda: tf.io.parse_example(records, {"v": tf.io.VarLenFeature(tf.int64), "x": R(
            tf.int64, value_key="v")}), "must not intersect"),
        outcome(lambda: tf.io.parse_example(records, {"lens": tf.io.FixedLenSequenceFeature(
            [], tf.int64, allow_missing=True), "x": R(tf.int64, value_key="v", partitions=[R.RowLengths("lens")])}),
            "must not intersect"),
        outcome(lambda: R(tf.int32), "dtype"),
    ]


def _sequence_example(tf, context, lists):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(tf, v, k) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(tf, s, k) for s in steps]) for k, steps in lists.items()}),
    ).SerializeToString()


def _sequences(tf):
    return [
        _sequence_example(tf, {"length": [3], "name": [b"first"], "labels": [b"p", b"q"]},
                          {"tokens": [[1, 2], [3, 4], [5, 6]], "weights": [[0.5], [1.5], [2.5]],
                           "tags": [[b"x"], [b"y", b"z"], []], "pieces": [[1], [2, 3]], "cuts": [[1], [1, 1]]}),
        _sequence_example(tf, {"length": [1], "name": [b"second"], "scale": [2.0, 3.0]},
                          {"tokens": [[7, 8]], "weights": [[3.5]], "tags": [[b"w", b"v", b"u"]],
                           "pieces": [[4, 5, 6]], "cuts": [[2, 1]]}),
    ]


def _context_features(tf):
    return {"length": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.VarLenFeature(tf.string),
            "scale": tf.io.FixedLenFeature([2], tf.float32, default_value=[1.0, 1.0]),
            "labels": tf.io.RaggedFeature(tf.string)}


def _sequence_features(tf):
    R = tf.io.RaggedFeature
    return {"tokens": tf.io.FixedLenSequenceFeature([2], tf.int64),
            "weights": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True),
            "absent": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
            "tags": tf.io.VarLenFeature(tf.string),
            "pieces": R(tf.int64),
            "cut_pieces": R(tf.int64, value_key="pieces", partitions=[R.RowLengths("cuts")]),
            "unit_pieces": R(tf.int64, value_key="pieces", partitions=[R.UniformRowLength(1)])}


@program
def p_parse_sequence_example_batch(tf):
    context, lists, lengths = tf.io.parse_sequence_example(_sequences(tf), _context_features(tf),
                                                           _sequence_features(tf))
    return [rval(dict(context)), rval(dict(lists)), rval(dict(lengths))]


@program
def p_parse_single_sequence_example(tf):
    out = []
    for record in _sequences(tf):
        context, lists = tf.io.parse_single_sequence_example(record, _context_features(tf), _sequence_features(tf))
        out.append([rval(dict(context)), rval(dict(lists))])
    return out


@program
def p_parse_sequence_example_in_tf_function(tf):
    @tf.function
    def parse(records):
        return tf.io.parse_sequence_example(records, _context_features(tf), _sequence_features(tf))

    @tf.function
    def parse_one(record):
        return tf.io.parse_single_sequence_example(record, sequence_features={
            "tokens": tf.io.FixedLenSequenceFeature([2], tf.int64), "tags": tf.io.VarLenFeature(tf.string)})

    context, lists, lengths = parse(tf.constant(_sequences(tf)))
    one_context, one_lists = parse_one(tf.constant(_sequences(tf)[1]))
    return [rval(dict(context)), rval(dict(lists)), rval(dict(lengths)), rval(dict(one_context)),
            rval(dict(one_lists))]


@program
def p_parse_sequence_example_only_one_side(tf):
    records = _sequences(tf)
    c1, l1, n1 = tf.io.parse_sequence_example(records, context_features={"length": tf.io.FixedLenFeature(
        [], tf.int64)})
    c2, l2, n2 = tf.io.parse_sequence_example(records, sequence_features={"tokens": tf.io.FixedLenSequenceFeature(
        [2], tf.int64)})
    return rval([dict(c1), dict(l1), dict(n1), dict(c2), dict(l2), dict(n2)])


@program
def p_parse_sequence_example_in_dataset_map(tf):
    features = {"tokens": tf.io.FixedLenSequenceFeature([2], tf.int64), "tags": tf.io.VarLenFeature(tf.string)}
    ds = tf.data.Dataset.from_tensor_slices(_sequences(tf)).map(
        lambda r: tf.io.parse_single_sequence_example(r, {"length": tf.io.FixedLenFeature([], tf.int64)},
                                                      features))
    out = []
    for context, lists in ds:
        out.append(rval([dict(context), dict(lists)]))
    batched = tf.data.Dataset.from_tensor_slices(_sequences(tf)).batch(2).map(
        lambda r: tf.io.parse_sequence_example(r, sequence_features=features)[1:])
    for lists, lengths in batched:
        out.append(rval([dict(lists), dict(lengths)]))
    return out


@program
def p_parse_sequence_example_errors(tf):
    records = _sequences(tf)
    seq = tf.io.FixedLenSequenceFeature
    return [
        outcome(lambda: tf.io.parse_sequence_example(records, sequence_features={"nope": seq([], tf.int64)}),
                "is required but could not be found"),
        outcome(lambda: tf.io.parse_sequence_example(records, sequence_features={"tokens": seq([3], tf.int64)}),
                "Number of values != expected"),
        outcome(lambda: tf.io.parse_sequence_example(records, sequence_features={"tokens": seq([2], tf.float32)}),
                "Data types don't match"),
        outcome(lambda: tf.io.parse_sequence_example(records, context_features={
            "nope": tf.io.FixedLenFeature([], tf.int64)}), "nope"),
        outcome(lambda: tf.io.parse_sequence_example(records, sequence_features={
            "tokens": tf.io.FixedLenFeature([2], tf.int64)}), "Unsupported FixedLenFeature"),
        outcome(lambda: tf.io.parse_sequence_example(records, sequence_features={
            "weights": seq([], tf.float32, allow_missing=True, default_value=1.0)}), "must be None"),
        outcome(lambda: tf.io.parse_sequence_example(records), "at least one should have values"),
        outcome(lambda: tf.io.parse_single_sequence_example(records[0], sequence_features={
            "nope": seq([], tf.int64)}), "is required but could not be found"),
    ]


@program
def p_parse_example_missing_and_defaults(tf):
    """Records where features are missing, empty, or present: the decoder's per-record bookkeeping."""
    records = [_example(tf, a=[1, 2], s=[b"x"], f=[0.25]), _example(tf, s=[b"y", b"zz"]),
               _example(tf, a=[3, 4], f=[]), _example(tf), _example(tf, a=[-5, 2**40], s=[], f=[1e30, -0.0])]
    features = {"a": tf.io.FixedLenFeature([2], tf.int64, default_value=[9, 9]),
                "s": tf.io.VarLenFeature(tf.string), "f": tf.io.VarLenFeature(tf.float32),
                "q": tf.io.FixedLenFeature([], tf.string, default_value="none"),
                "seq": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=0.5)}
    out = [rval(dict(tf.io.parse_example(records, features)))]
    for size in (1, 2, 5):
        out.append(rval(dict(tf.io.parse_example(records[:size], {"a": features["a"], "f": features["f"]}))))
    return out


@program
def p_parse_example_decoder_errors(tf):
    records = [_example(tf, a=[1, 2]), _example(tf, a=[1, 2, 3]), _example(tf, b=[1.0])]
    return [
        outcome(lambda: tf.io.parse_example(records, {"a": tf.io.FixedLenFeature([2], tf.int64)}),
                "values != expected"),
        outcome(lambda: tf.io.parse_example(records[:1], {"a": tf.io.FixedLenFeature([2], tf.float32)}),
                "Data types don't match"),
        outcome(lambda: tf.io.parse_example([_example(tf, f=[])], {"f": tf.io.VarLenFeature(tf.int64)}),
                "Data types don't match"),
        outcome(lambda: tf.io.parse_example(records[:1] + records[2:], {"a": tf.io.FixedLenFeature([2], tf.int64)}),
                "required"),
        outcome(lambda: tf.io.parse_example(records, {"b": tf.io.VarLenFeature(tf.string)}), "Data types"),
        outcome(lambda: tf.io.parse_example([b"\x0a\x05\x0a\x03"], {"b": tf.io.VarLenFeature(tf.string)}),
                "Could not parse example input"),
    ]
