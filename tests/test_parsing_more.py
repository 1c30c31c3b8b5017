"""tf.io.RaggedFeature and parse_sequence_example against rows computed in plain Python, eagerly, inside
tf.function and in Dataset.map; and the parse_example op's outputs from the vectorized decoder against the
protobuf one for random batches (missing features, defaults, every feature kind)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tinytf as tf
from tinytf.runtime.ops import parsing as parsing_op

R = tf.io.RaggedFeature


def example(**features) -> bytes:
    def feature(values):
        if values and isinstance(values[0], float):
            return tf.train.Feature(float_list=tf.train.FloatList(value=values))
        if values and isinstance(values[0], bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(
        feature={k: feature(v) for k, v in features.items()})).SerializeToString()


def rows_by_lengths(values, lengths):
    out, at = [], 0
    for n in lengths:
        out.append(values[at:at + n])
        at += n
    return out


RECORDS = [dict(v=[1, 2, 3, 4, 5, 6], lens=[2, 1, 3], ids=[0, 0, 2, 2, 2, 3]),
           dict(v=[7, 8], lens=[0, 2], ids=[1, 1]),
           dict(v=[9], lens=[1], ids=[0])]
SERIALIZED = [example(**r) for r in RECORDS]


def expected_by_ids(values, ids):
    rows = [[] for _ in range(max(ids, default=-1) + 1)]
    for value, row in zip(values, ids):
        rows[row].append(value)
    return rows


PARTITIONS = {
    "lengths": ([R.RowLengths("lens")], lambda r: rows_by_lengths(r["v"], r["lens"])),
    "splits": ([R.RowSplits("splits")], lambda r: rows_by_lengths(r["v"], r["lens"])),
    "starts": ([R.RowStarts("starts")], lambda r: rows_by_lengths(r["v"], r["lens"])),
    "limits": ([R.RowLimits("limits")], lambda r: rows_by_lengths(r["v"], r["lens"])),
    "rowids": ([R.ValueRowIds("ids")], lambda r: expected_by_ids(r["v"], r["ids"])),
}


def with_partition_features(record):
    splits = np.concatenate([[0], np.cumsum(record["lens"])]).astype(int).tolist()
    return dict(record, splits=splits, starts=splits[:-1], limits=splits[1:])


FULL = [example(**with_partition_features(r)) for r in RECORDS]


@pytest.mark.parametrize("name", sorted(PARTITIONS))
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_ragged_partitions_against_python(name, mode):
    partitions, rows = PARTITIONS[name]
    features = {"x": R(tf.int64, value_key="v", partitions=partitions, validate=True)}
    batch = tf.io.parse_example
    single = tf.io.parse_single_example
    if mode == "function":
        batch, single = tf.function(batch), tf.function(single)
    got = batch(tf.constant(FULL), features)["x"]
    assert isinstance(got, tf.RaggedTensor) and got.shape.as_list() == [3, None, None]
    assert got.to_list() == [rows(with_partition_features(r)) for r in RECORDS]
    for record, serialized in zip(RECORDS, FULL):
        one = single(tf.constant(serialized), features)["x"]
        assert one.to_list() == rows(with_partition_features(record))


def test_ragged_without_partitions_and_uniform():
    features = {"plain": R(tf.int64, value_key="v"), "pairs": R(tf.int64, value_key="v",
                                                                 partitions=[R.UniformRowLength(1)])}
    out = tf.io.parse_example(SERIALIZED, features)
    assert out["plain"].to_list() == [r["v"] for r in RECORDS]
    assert out["pairs"].shape.as_list() == [3, None, 1]
    assert out["pairs"].to_list() == [[[v] for v in r["v"]] for r in RECORDS]
    one = tf.io.parse_single_example(SERIALIZED[0], features)
    assert not isinstance(one["plain"], tf.RaggedTensor) and one["plain"].numpy().tolist() == RECORDS[0]["v"]
    assert one["pairs"].shape.as_list() == [6, 1]


def test_ragged_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="valid RaggedTensor"):
        tf.io.parse_example(SERIALIZED, {"x": R(tf.int64, value_key="v", partitions=[R.RowLengths("ids")])})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot partition 3 values"):
        tf.io.parse_single_example(example(v=[1, 2, 3]), {"x": R(tf.int64, value_key="v",
                                                                 partitions=[R.UniformRowLength(2)])})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match"):
        tf.io.parse_example(SERIALIZED, {"x": R(tf.string, value_key="v")})
    with pytest.raises(ValueError, match="must not intersect"):
        tf.io.parse_example(SERIALIZED, {"v": tf.io.VarLenFeature(tf.int64), "x": R(tf.int64, value_key="v")})
    with pytest.raises(ValueError, match="dtype"):
        R(tf.int32)
    with pytest.raises(TypeError, match="partition"):
        R(tf.int64, partitions=["lens"])


def sequence(context, lists) -> bytes:
    def feature(values):
        if values and isinstance(values[0], float):
            return tf.train.Feature(float_list=tf.train.FloatList(value=values))
        if values and isinstance(values[0], bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: feature(v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[feature(s) for s in steps]) for k, steps in lists.items()}),
    ).SerializeToString()


SEQUENCES = [
    ({"id": [1]}, {"tok": [[1, 2], [3, 4], [5, 6]], "var": [[1.5], [2.5, 3.5], [4.5]], "rag": [[1], [2, 3], [4]]}),
    ({"id": [2]}, {"tok": [[7, 8]], "var": [[9.5, 8.5, 7.5]], "rag": [[5, 6, 7]]}),
    ({"id": [3]}, {"var": [], "rag": []}),
]
SEQUENCE_FEATURES = {"tok": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True),
                     "var": tf.io.VarLenFeature(tf.float32), "rag": R(tf.int64)}


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_sequence_examples_against_python(mode):
    parse = tf.io.parse_sequence_example if mode == "eager" else tf.function(tf.io.parse_sequence_example)
    records = tf.constant([sequence(c, f) for c, f in SEQUENCES])
    context, lists, lengths = parse(records, {"id": tf.io.FixedLenFeature([], tf.int64)}, SEQUENCE_FEATURES)
    assert context["id"].numpy().tolist() == [1, 2, 3]
    steps = [len(f.get("tok", [])) for _c, f in SEQUENCES]
    assert lengths["tok"].numpy().tolist() == steps
    longest = max(steps)
    expected = [f.get("tok", []) + [[0, 0]] * (longest - len(f.get("tok", []))) for _c, f in SEQUENCES]
    assert lists["tok"].numpy().tolist() == expected
    dense = tf.sparse.to_dense(lists["var"]).numpy()
    for i, (_c, f) in enumerate(SEQUENCES):
        for s, step in enumerate(f["var"]):
            assert dense[i, s, :len(step)].tolist() == step
    assert lists["var"].dense_shape.numpy().tolist() == [3, 3, 3]
    assert lists["rag"].to_list() == [f["rag"] for _c, f in SEQUENCES]


def test_single_sequence_example_and_dataset_map():
    record = sequence(*SEQUENCES[0])
    context, lists = tf.io.parse_single_sequence_example(record, {"id": tf.io.FixedLenFeature([], tf.int64)},
                                                         SEQUENCE_FEATURES)
    assert context["id"].numpy() == 1
    assert lists["tok"].numpy().tolist() == SEQUENCES[0][1]["tok"]
    assert lists["rag"].to_list() == SEQUENCES[0][1]["rag"]
    assert lists["var"].indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [2, 0]]
    features = {"tok": SEQUENCE_FEATURES["tok"], "var": SEQUENCE_FEATURES["var"]}
    ds = tf.data.Dataset.from_tensor_slices([sequence(c, f) for c, f in SEQUENCES]).map(
        lambda r: tf.io.parse_single_sequence_example(r, sequence_features=features)[1])
    got = [(e["tok"].numpy().tolist(), e["var"].values.numpy().tolist()) for e in ds]
    assert got == [(f.get("tok", []), [v for s in f["var"] for v in s]) for _c, f in SEQUENCES]


def test_sequence_errors():
    records = [sequence(c, f) for c, f in SEQUENCES]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'tok' is required"):
        tf.io.parse_sequence_example(records, sequence_features={"tok": tf.io.FixedLenSequenceFeature([2], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of values != expected"):
        tf.io.parse_sequence_example(records, sequence_features={"tok": tf.io.FixedLenSequenceFeature(
            [3], tf.int64, allow_missing=True)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse sequence_example"):
        tf.io.parse_sequence_example([b"\x0a\x05"], sequence_features=SEQUENCE_FEATURES)
    with pytest.raises(ValueError, match="at least one"):
        tf.io.parse_sequence_example(records)


# --- the op from both decoders --------------------------------------------------------------------------------
KINDS = {"i": (tf.int64, st.integers(-2**63, 2**63 - 1)), "f": (tf.float32, st.floats(width=32, allow_nan=False)),
         "s": (tf.string, st.binary(max_size=4))}


@st.composite
def batches(draw):
    n = draw(st.integers(1, 5))
    records, size = [], draw(st.integers(1, 3))
    for _ in range(n):
        features = {}
        for key, (_dtype, values) in KINDS.items():
            for suffix, length in (("fixed", st.just(size)), ("var", st.integers(0, 4))):
                if draw(st.integers(0, 3)):  # sometimes missing
                    count = draw(length)
                    features[key + suffix] = draw(st.lists(values, min_size=count, max_size=count))
        records.append(features)
    return records, size


def _serialize(features):
    out = {}
    for key, values in features.items():
        kind = key[0]
        if kind == "f":
            out[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        elif kind == "s":
            out[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        else:
            out[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature=out)).SerializeToString()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches())
def test_op_outputs_match_between_decoders(batch):
    records, size = batch
    serialized = np.array([_serialize(r) for r in records], dtype=object)
    sparse = [(k + "var", dtype) for k, (dtype, _v) in KINDS.items()]
    dense, defaults = [], []
    for k, (dtype, _v) in KINDS.items():
        default = np.full(size, b"d" if dtype.is_string else 7, dtype=object if dtype.is_string else dtype.np)
        dense.append((k + "fixed", dtype, (size,), False))
        defaults.append(default)
        dense.append((k + "var", dtype, (), True))
        defaults.append(np.array([b"p" if dtype.is_string else 3], dtype=object if dtype.is_string else dtype.np))
    ragged = [(k + "var", dtype, (), False) for k, (dtype, _v) in KINDS.items()]
    outputs = []
    for vectorized in (True, False):
        kwargs = dict(sparse=tuple(sparse), dense=tuple(dense), ragged=tuple(ragged), single=False,
                      vectorized=vectorized)
        outputs.append(parsing_op._parse_kernel(serialized, *defaults, **kwargs))
    for fast, slow in zip(*outputs):
        assert fast.dtype == slow.dtype and fast.shape == slow.shape
        assert fast.tobytes() == slow.tobytes() if fast.dtype != object else fast.tolist() == slow.tolist()
