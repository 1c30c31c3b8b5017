"""tf.train.Example and tf.io.parse_example / parse_single_example: TensorFlow's wire bytes both ways (records
TF 2.21 wrote in tests/tf_files/data_io; files tinytf writes, read by TF in tools/check_tf_reads_tinytf_files.py
with the result in tests/tf_reference/tinytf_files_read_by_tf.json), and parsing eagerly, in graphs with
passes on and off, inside dataset.map, against a plain-Python decoding of the same protos."""

import hashlib
import importlib.util
import json
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.io.tfrecord import read_records

HERE = os.path.dirname(__file__)
TF_FILES = os.path.join(HERE, "tf_files", "data_io")


def _tool():
    path = os.path.join(HERE, os.pardir, "tools", "check_tf_reads_tinytf_files.py")
    spec = importlib.util.spec_from_file_location("check_tf_reads_tinytf_files", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tf_example(i: int) -> bytes:
    """tools/make_tf_data_files.py's example(i), built with tinytf."""
    feature = {
        "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, -i * 1000003])),
        "score": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5 - 1.25])),
        "tokens": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"t{j}".encode() for j in range(i % 4)])),
        "seq": tf.train.Feature(float_list=tf.train.FloatList(value=[float(j) for j in range(2 * (i % 3))])),
    }
    if i % 2:
        feature["optional"] = tf.train.Feature(int64_list=tf.train.Int64List(value=[7 * i]))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString(deterministic=True)


@pytest.mark.parametrize("name,kind", [("examples.tfrecord", None), ("examples.tfrecord.gz", "GZIP")])
def test_examples_serialize_to_tensorflows_bytes(name, kind):
    records = list(read_records(os.path.join(TF_FILES, name), kind))
    assert records == [tf_example(i) for i in range(6)]
    for i, record in enumerate(records):
        parsed = tf.train.Example.FromString(record)
        assert list(parsed.features.feature["id"].int64_list.value) == [i, -i * 1000003]
        assert parsed.features.feature["tokens"].WhichOneof("kind") == "bytes_list"
        assert tf.train.Example.FromString(parsed.SerializeToString()) == parsed


def test_example_writing_is_byte_identical_to_tensorflow(tmp_path):
    path = str(tmp_path / "e.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(6):
            w.write(tf_example(i))
    assert open(path, "rb").read() == open(os.path.join(TF_FILES, "examples.tfrecord"), "rb").read()


def test_tensorflow_reads_the_files_tinytf_writes(tmp_path):
    tool = _tool()
    with open(os.path.join(HERE, "tf_reference", "tinytf_files_read_by_tf.json")) as f:
        recorded = json.load(f)
    tool.write(tf, str(tmp_path))
    assert tool.hashes(str(tmp_path)) == recorded["sha256"]  # the bytes TensorFlow read are the bytes we write
    assert json.loads(json.dumps(tool.read(tf, str(tmp_path)))) == recorded["read"]  # and we read what TF read


def test_message_api():
    f = tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, 2.0]))
    assert f.WhichOneof("kind") == "float_list"
    ex = tf.train.Example()
    ex.features.feature["x"].int64_list.value.extend([1, 2, 3])
    data = ex.SerializeToString()
    # Example{features(1): Features{feature(1): entry{key(1) "x", value(2): Feature{int64_list(3): {packed 1 2 3}}}}}
    assert data.hex() == "0a0e" "0a0c" "0a0178" "1207" "1a05" "0a03010203"
    assert list(tf.train.Example.FromString(data).features.feature["x"].int64_list.value) == [1, 2, 3]
    seq = tf.train.SequenceExample()
    seq.feature_lists.feature_list["f"].feature.add().bytes_list.value.append(b"z")
    assert tf.train.SequenceExample.FromString(seq.SerializeToString()) == seq


# --- parsing ------------------------------------------------------------------------------------------------------
def random_examples(n, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        feature = {"fixed": tf.train.Feature(float_list=tf.train.FloatList(value=rng.normal(size=6).tolist())),
                   "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(rng.integers(-9, 9))])),
                   "words": tf.train.Feature(bytes_list=tf.train.BytesList(
                       value=[rng.bytes(int(rng.integers(0, 4))) for _ in range(int(rng.integers(0, 4)))])),
                   "frames": tf.train.Feature(int64_list=tf.train.Int64List(
                       value=rng.integers(0, 100, size=2 * int(rng.integers(0, 4))).tolist()))}
        if rng.random() < 0.5:
            feature["maybe"] = tf.train.Feature(float_list=tf.train.FloatList(value=[float(rng.normal())]))
        out.append(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return out


FEATURES = {"fixed": tf.io.FixedLenFeature([2, 3], tf.float32),
            "label": tf.io.FixedLenFeature([], tf.int64),
            "words": tf.io.VarLenFeature(tf.string),
            "frames": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True, default_value=-1),
            "maybe": tf.io.FixedLenFeature([1], tf.float32, default_value=[7.0])}


def python_parse(records):
    """parse_example's result computed in plain Python from the protos."""
    protos = [tf.train.Example.FromString(r).features.feature for r in records]
    fixed = np.array([list(p["fixed"].float_list.value) for p in protos], np.float32).reshape(-1, 2, 3)
    label = np.array([p["label"].int64_list.value[0] for p in protos], np.int64)
    words = [list(p["words"].bytes_list.value) for p in protos]
    indices = [[i, j] for i, w in enumerate(words) for j in range(len(w))]
    frames = [list(p["frames"].int64_list.value) for p in protos]
    longest = max(len(f) for f in frames) // 2
    padded = np.full((len(records), longest, 2), -1, np.int64)
    for i, f in enumerate(frames):
        padded[i, :len(f) // 2] = np.reshape(f, (-1, 2))
    maybe = np.array([[p["maybe"].float_list.value[0]] if "maybe" in p else [7.0] for p in protos], np.float32)
    return {"fixed": fixed, "label": label, "words": (np.array(indices, np.int64).reshape(-1, 2),
                                                      [x for w in words for x in w],
                                                      [len(records), max(len(w) for w in words)]),
            "frames": padded, "maybe": maybe}


def check(parsed, expected):
    for key in ("fixed", "label", "frames", "maybe"):
        np.testing.assert_array_equal(parsed[key].numpy(), expected[key])
        assert parsed[key].dtype is (tf.float32 if key in ("fixed", "maybe") else tf.int64)
    indices, values, shape = expected["words"]
    np.testing.assert_array_equal(parsed["words"].indices.numpy(), indices)
    assert list(parsed["words"].values.numpy()) == values
    assert parsed["words"].dense_shape.numpy().tolist() == shape


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_parse_example_all_ways(seed):
    records = random_examples(7, seed)
    expected = python_parse(records)
    check(tf.io.parse_example(records, FEATURES), expected)
    for passes in (True, False):
        saved = tf.config.optimizer.get_experimental_options()
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            graph = tf.function(lambda r: tf.io.parse_example(r, FEATURES))
            check(graph(tf.constant(records)), expected)
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    out = tf.function(lambda r: tf.io.parse_example(r, FEATURES)).get_concrete_function(
        tf.TensorSpec([None], tf.string)).structured_outputs
    assert out["fixed"].shape.as_list() == [None, 2, 3] and out["frames"].shape.as_list() == [None, None, 2]


def test_parse_single_example_matches_row_of_batch():
    records = random_examples(4, 5)
    batch = tf.io.parse_example(records, FEATURES)
    for i, r in enumerate(records):
        one = tf.io.parse_single_example(r, FEATURES)
        np.testing.assert_array_equal(one["fixed"].numpy(), batch["fixed"].numpy()[i])
        assert one["label"].shape == ()
        words = [w for (row, _), w in zip(batch["words"].indices.numpy(), batch["words"].values.numpy()) if row == i]
        assert list(one["words"].values.numpy()) == words
        assert one["words"].indices.numpy().tolist() == [[j] for j in range(len(words))]


def test_parse_in_dataset_map_eager_and_graph():
    records = random_examples(9, 3)
    expected = python_parse(records)
    features = {k: FEATURES[k] for k in ("fixed", "label", "words")}
    ds = tf.data.Dataset.from_tensor_slices(records).map(lambda s: tf.io.parse_single_example(s, features))
    assert isinstance(ds.element_spec["words"], tf.SparseTensorSpec)
    got = list(ds)
    np.testing.assert_array_equal(np.stack([e["fixed"].numpy() for e in got]), expected["fixed"])
    batched = list(ds.batch(4))
    assert [len(b["label"]) for b in batched] == [4, 4, 1]
    assert batched[0]["words"].dense_shape[0] == 4   # sparse components batch as TF: a batch index in front
    with pytest.raises(TypeError, match="sparse component of strings"):  # TF 2.21's as_numpy_iterator raises too
        list(ds.batch(4).as_numpy_iterator())

    @tf.function
    def total(ds):
        s, n = tf.constant(0, tf.int64), tf.constant(0, tf.int64)
        for e in ds:
            s += e["label"]
            n += tf.size(e["words"].values, out_type=tf.int64)
        return s, n
    s, n = total(ds)
    assert int(s) == int(expected["label"].sum()) and int(n) == len(expected["words"][1])
    vectorized = tf.data.Dataset.from_tensor_slices(records).batch(3).map(lambda b: tf.io.parse_example(b, features))
    assert np.concatenate([b["label"].numpy() for b in vectorized]).tolist() == \
        expected["label"].tolist()


def test_parse_errors():
    data = random_examples(1, 0)[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature: nope .* is required but could not be found"):
        tf.io.parse_single_example(data, {"nope": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Key: label.  Data types don't match"):
        tf.io.parse_single_example(data, {"label": tf.io.FixedLenFeature([], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Key: fixed"):
        tf.io.parse_single_example(data, {"fixed": tf.io.FixedLenFeature([4], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example input"):
        tf.io.parse_single_example(b"\xff\xff\xff", {"x": tf.io.VarLenFeature(tf.int64)})
    with pytest.raises(ValueError, match="allow_missing"):
        tf.io.parse_example([data], {"x": tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="Unsupported dtype"):
        tf.io.parse_example([data], {"x": tf.io.VarLenFeature(tf.int32)})
    with pytest.raises(ValueError, match="default_value"):
        tf.io.parse_example([data], {"x": tf.io.FixedLenFeature([3], tf.int64, default_value=[1, 2])})
    with pytest.raises(ValueError, match="vector"):
        tf.function(lambda r: tf.io.parse_example(r, FEATURES)).get_concrete_function(tf.TensorSpec([2, 2], tf.string))


def test_read_records_speed_path_reads_large_records(tmp_path):
    path = str(tmp_path / "big.tfrecord")
    big = os.urandom(3 << 20)
    with tf.io.TFRecordWriter(path) as w:
        w.write(big)
        w.write(b"")
    assert [hashlib.sha256(r).hexdigest() for r in read_records(path)] == [hashlib.sha256(big).hexdigest(),
                                                                         hashlib.sha256(b"").hexdigest()]
