"""DenseHashTables in SavedModels, both ways with TensorFlow 2.21 (tools/dense_table_saved_model.py): tinytf
loads TF's SavedModel (tests/tf_files/saved_models/dense_table) and computes TF's numbers; TF loaded the one
tinytf writes and computed the same numbers (tests/tf_reference/dense_table_read_by_tf.json), which tinytf's own
loader gives too. The buckets are TF's, key for key: TF's import copies them, so this is what makes TF find the
keys. Also the bucket layout against TF's for collisions, removal and growth, and the errors."""

import importlib.util
import json
import os

import numpy as np
import pytest

import tinytf as tf

HERE = os.path.dirname(__file__)
SAVED = os.path.join(HERE, "tf_files", "saved_models")


def _tool():
    spec = importlib.util.spec_from_file_location(
        "dense_table_saved_model", os.path.join(HERE, os.pardir, "tools", "dense_table_saved_model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _json(path):
    with open(path) as f:
        return json.load(f)


def _same(got, expected):
    assert got.keys() == expected.keys()
    for key in expected:
        np.testing.assert_allclose(np.asarray(got[key], float), np.asarray(expected[key], float), rtol=1e-6,
                                   err_msg=key)


def test_tf_saved_dense_table_loads_with_tfs_numbers():
    tool = _tool()
    _same(tool.outcomes(tf, os.path.join(SAVED, "dense_table")), _json(os.path.join(SAVED, "dense_table.json")))


def test_tinytf_saved_dense_table_is_what_tf_read(tmp_path):
    tool = _tool()
    tool.save(tf, str(tmp_path / "dense_table"))
    expected = _json(os.path.join(HERE, "tf_reference", "dense_table_read_by_tf.json"))
    _same(tool.outcomes(tf, str(tmp_path / "dense_table")), expected)
    _same(expected, _json(os.path.join(SAVED, "dense_table.json")))  # and TF computed its own file's numbers


def test_buckets_follow_tfs_probing():
    """TF 2.21's exports for the same inserts and removals (recorded by hand from TF's DenseHashTable)."""
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, default_value=-1.0, empty_key=0,
                                                  deleted_key=-1, initial_num_buckets=8)
    table.insert(tf.constant([5, 13, 21, 9, -7], tf.int64), tf.constant([0.5, 1.3, 2.1, 0.9, -0.7]))
    keys, values = table.export()
    assert keys.numpy().ravel().tolist() == [21, 9, -7, 0, 0, 5, 13, 0]
    np.testing.assert_allclose(values.numpy().ravel(), [2.1, 0.9, -0.7, 0, 0, 0.5, 1.3, 0])
    table.remove(tf.constant([13], tf.int64))
    assert table.export()[0].numpy().ravel().tolist() == [21, 9, -7, 0, 0, 5, -1, 0]
    table.insert(tf.constant([29], tf.int64), tf.constant([2.9]))  # reuses the deleted bucket
    assert table.export()[0].numpy().ravel().tolist() == [21, 9, -7, 0, 0, 5, 29, 0]
    grown = tf.lookup.experimental.DenseHashTable(tf.int32, tf.float32, default_value=-1.0, empty_key=-5,
                                                  deleted_key=-6, initial_num_buckets=4)
    grown.insert(tf.constant([1, 2, 3, 4], tf.int32), tf.constant([1.0, 2.0, 3.0, 4.0]))
    assert grown.export()[0].numpy().ravel().tolist() == [-5, 1, 2, 3, 4, -5, -5, -5]

    @tf.function
    def in_graph(k):
        table.insert(k, tf.cast(k, tf.float32) / 10.0)
        return table.lookup(k)

    np.testing.assert_allclose(in_graph(tf.constant([37], tf.int64)).numpy(), [3.7], rtol=1e-6)
    assert table.export()[0].numpy().ravel().tolist() == [21, 9, -7, 37, 0, 5, 29, 0]


def test_string_keyed_dense_table_is_not_saved(tmp_path):
    """Its buckets would not be TF's (TF hashes strings its own way): the save names it instead."""
    table = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, default_value=-1, empty_key="",
                                                  deleted_key="$", initial_num_buckets=8)
    table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))

    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = table

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def find(self, k):
            return self.table.lookup(k)

    with pytest.raises(NotImplementedError, match="DenseHashTable"):
        tf.saved_model.save(Holder(), str(tmp_path / "dense"))
