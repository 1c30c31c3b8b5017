"""Dataset.save / load / snapshot in TF's snapshot format: tinytf loads the datasets TF 2.21 saved
(tests/tf_files/data_saved, tools/make_tf_saved_datasets.py), TF loaded what tinytf saves (the record of
tools/check_tf_loads_tinytf_datasets.py), tinytf reads back what it writes (shards, compression, reader_func,
inside tf.function with passes on and off), and snapshot writes once and then reads, per pipeline."""

import importlib.util
import json
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.data.saving import decode_metadata
from tinytf.data.snapshot_fingerprint import fingerprint

HERE = os.path.dirname(__file__)
TF_SAVED = os.path.join(HERE, "tf_files", "data_saved")


def _tool():
    spec = importlib.util.spec_from_file_location(
        "check_tf_loads_tinytf_datasets", os.path.join(HERE, os.pardir, "tools", "check_tf_loads_tinytf_datasets.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_loads_what_tensorflow_saved_with_its_spec_shards_and_strings():
    ds = tf.data.Dataset.load(os.path.join(TF_SAVED, "plain"))
    spec = ds.element_spec
    assert spec[0]["id"] == tf.TensorSpec([], tf.int64) and spec[0]["x"] == tf.TensorSpec([2], tf.float32)
    assert spec[1] == tf.TensorSpec([], tf.string)
    assert int(ds.cardinality()) == 5
    by_shard = tf.data.Dataset.load(os.path.join(TF_SAVED, "plain"), reader_func=lambda s: s.flat_map(lambda x: x))
    got = [(int(f["id"]), f["x"].numpy().tolist(), s.numpy()) for f, s in by_shard]
    words = [b"a", b"bb", b"ccc", b"dddd", b""]
    expected = [(i, [2.0 * i, 2.0 * i + 1], words[i]) for i in (0, 2, 4, 1, 3)]  # shard 0 (even ids), then 1
    assert got == expected


def test_loads_a_gzip_dataset_tensorflow_saved():
    ds = tf.data.Dataset.load(os.path.join(TF_SAVED, "gzip"), compression="GZIP")
    assert ds.element_spec == tf.TensorSpec([None, None], tf.int32)
    got = [b.numpy().tolist() for b in ds]
    assert got == [[[0, 0], [1, 1]], [[2, 2, 2]]]
    with pytest.raises(tf.errors.DataLossError):
        list(tf.data.Dataset.load(os.path.join(TF_SAVED, "gzip")))


def test_tensorflow_loaded_what_tinytf_saves():
    tool = _tool()
    with open(os.path.join(HERE, "tf_reference", "tinytf_datasets_loaded_by_tf.json")) as f:
        loaded_by_tf = json.load(f)
    for name, (dataset, _) in tool.datasets(tf).items():
        assert loaded_by_tf[name]["elements"] == tool.elements(dataset), name
        assert loaded_by_tf[name]["element_spec"] == tool.spec_text(dataset.element_spec)


def test_tinytf_reads_back_what_it_saves(tmp_path):
    tool = _tool()
    tool.write(tf, str(tmp_path))
    for name, record in tool.read(tf, str(tmp_path)).items():
        dataset = tool.datasets(tf)[name][0]
        assert record["elements"] == tool.elements(dataset), name
        assert record["cardinality"] == int(dataset.cardinality())


def test_saved_layout_is_tensorflows(tmp_path):
    tf.data.Dataset.range(6).save(str(tmp_path), shard_func=lambda x: x % 3)
    entries = sorted(os.listdir(tmp_path))
    assert "snapshot.metadata" in entries and "dataset_spec.pb" in entries
    (run,) = [e for e in entries if e.isdigit()]
    assert sorted(os.listdir(tmp_path / run)) == ["00000000.shard", "00000001.shard", "00000002.shard"]
    metadata = decode_metadata((tmp_path / "snapshot.metadata").read_bytes())
    assert metadata["run_id"] == run and metadata["version"] == 2 and metadata["finalized"]
    assert metadata["num_elements"] == 6 and metadata["dtypes"] == [tf.int64.as_datatype_enum]
    shard = [int(tf.io.parse_tensor(r, tf.int64)) for r in
             tf.data.TFRecordDataset(str(tmp_path / run / "00000001.shard" / "00000000.snapshot"))]
    assert shard == [1, 4]


def test_load_inside_a_function(tmp_path, passes):
    tf.data.Dataset.range(1, 5).map(lambda x: tf.cast(x, tf.float32) / 2).save(str(tmp_path), compression="GZIP")

    @tf.function
    def total():
        ds = tf.data.Dataset.load(str(tmp_path), compression="GZIP")
        s = tf.constant(0.0)
        for x in ds:
            s += x
        return s

    assert float(total()) == 5.0 and float(total()) == 5.0


def test_save_refuses_composite_elements_and_unknown_compression(tmp_path):
    ragged = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    with pytest.raises(TypeError, match="composite"):
        ragged.save(str(tmp_path / "r"))
    with pytest.raises(ValueError, match="SNAPPY"):
        tf.data.Dataset.range(2).save(str(tmp_path / "s"), compression="SNAPPY")


def _counted(calls):
    def noted(x):
        calls.append(int(x))
        return x
    return noted


def test_snapshot_writes_on_the_first_pass_and_reads_after(tmp_path):
    calls = []
    ds = tf.data.Dataset.range(5).map(lambda x: tf.py_function(_counted(calls), [x], tf.int64)).snapshot(str(tmp_path))
    assert [int(x) for x in ds] == [0, 1, 2, 3, 4] and len(calls) == 5
    assert [int(x) for x in ds] == [0, 1, 2, 3, 4] and len(calls) == 5  # read from the snapshot
    (directory,) = os.listdir(tmp_path)
    assert decode_metadata((tmp_path / directory / "snapshot.metadata").read_bytes())["num_elements"] == 5


def test_an_interrupted_first_pass_is_not_finalized(tmp_path):
    calls = []
    ds = tf.data.Dataset.range(4).map(lambda x: tf.py_function(_counted(calls), [x], tf.int64)).snapshot(str(tmp_path))
    it = iter(ds)
    next(it), next(it)
    del it
    assert [int(x) for x in ds] == [0, 1, 2, 3]
    assert len(calls) == 2 + 4
    assert [int(x) for x in ds] == [0, 1, 2, 3] and len(calls) == 6


def test_fingerprints_name_equal_pipelines_alike_and_others_apart():
    def pipeline(k, scale=2):
        return tf.data.Dataset.from_tensor_slices(np.arange(k)).map(lambda x: x * scale).batch(2)

    assert fingerprint(pipeline(4)) == fingerprint(pipeline(4))  # rebuilt: a later run finds the snapshot
    assert fingerprint(pipeline(4)) != fingerprint(pipeline(5))  # other source values
    assert fingerprint(pipeline(4)) != fingerprint(pipeline(4, scale=3))  # another constant in the function
    assert fingerprint(pipeline(4)) != fingerprint(pipeline(4).unbatch())
    c = tf.constant(7, tf.int64)
    captured = tf.data.Dataset.range(3).map(lambda x: x + c)
    assert fingerprint(captured) != fingerprint(tf.data.Dataset.range(3).map(lambda x: x + tf.constant(8, tf.int64)))


def test_snapshots_of_different_pipelines_do_not_mix(tmp_path):
    a = tf.data.Dataset.range(3).snapshot(str(tmp_path))
    b = tf.data.Dataset.range(3).map(lambda x: x * 10).snapshot(str(tmp_path))
    assert [int(x) for x in a] == [0, 1, 2]
    assert [int(x) for x in b] == [0, 10, 20]
    assert [int(x) for x in a] == [0, 1, 2] and len(os.listdir(tmp_path)) == 2


def test_snapshot_inside_a_function_reads_its_second_pass(tmp_path, passes):
    @tf.function
    def twice():
        ds = tf.data.Dataset.range(5).map(lambda x: x * x).snapshot(str(tmp_path / passes))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x) * 100 + ds.reduce(
            tf.constant(0, tf.int64), lambda s, x: s + x)

    assert int(twice()) == 30 * 100 + 30
    assert len(os.listdir(tmp_path / passes)) == 1


def test_save_inside_a_function_saves_each_call_its_dataset(tmp_path, passes):
    @tf.function
    def save(n, where):
        tf.data.Dataset.range(n).map(lambda x: x * 2).save(str(tmp_path / where))

    save(tf.constant(3, tf.int64), "a")
    save(tf.constant(5, tf.int64), "b")
    assert [int(x) for x in tf.data.Dataset.load(str(tmp_path / "a"))] == [0, 2, 4]
    assert [int(x) for x in tf.data.Dataset.load(str(tmp_path / "b"))] == [0, 2, 4, 6, 8]
