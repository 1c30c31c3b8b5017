"""tf.lookup: static and mutable tables eagerly, inside tf.function (passes on and off) and dataset.map,
TF's errors, and MutableHashTable checkpoints in TF's layout."""

import numpy as np
import pytest

import tinytf as tf

L = tf.lookup


def _strings(values):
    return [v.decode() for v in values.numpy().reshape(-1)]


@pytest.fixture(params=["eager", "function", "function_no_passes"])
def run(request):
    """Run a case eagerly, in a tf.function with every pass on, and in one with every pass off."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": request.param == "function_no_passes"})
    if request.param == "eager":
        yield lambda fn, *args: fn(*args)
    else:
        yield lambda fn, *args: tf.function(fn)(*args)
    tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


def test_static_hash_table_lookup(run):
    table = L.StaticHashTable(L.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9]), -1)
    keys = tf.constant([["a", "zz"], ["c", "b"]])
    out = run(lambda k: table.lookup(k), keys)
    np.testing.assert_array_equal(out.numpy(), [[7, -1], [9, 8]])
    assert out.dtype == tf.int32 and table.size().numpy() == 3
    exported_keys, exported_values = table.export()
    assert dict(zip(_strings(exported_keys), exported_values.numpy().tolist())) == {"a": 7, "b": 8, "c": 9}


def test_static_vocabulary_table_hashes_oov_keys_as_tf():
    # ids recorded from TF 2.21: 'zz' and 'c' fall in bucket 2, 'hello' in bucket 1 (Fingerprint64 % 5)
    table = L.StaticVocabularyTable(L.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64)), 5)
    np.testing.assert_array_equal(table.lookup(tf.constant(["a", "zz", "c", "hello"])).numpy(), [0, 4, 4, 3])
    assert table.size().numpy() == 7
    ints = L.StaticVocabularyTable(L.KeyValueTensorInitializer(tf.constant([7, 9], tf.int64),
                                                               tf.constant([0, 1], tf.int64)), 5)
    np.testing.assert_array_equal(tf.function(ints.lookup)(tf.constant([7, 1, 2, 3], tf.int64)).numpy(), [0, 6, 6, 3])


def test_text_file_initializer(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a\tx\nb\ty\nc\tz\n")
    by_line = L.StaticHashTable(
        L.TextFileInitializer(str(path), tf.string, 0, tf.int64, L.TextFileIndex.LINE_NUMBER), -1)
    np.testing.assert_array_equal(by_line.lookup(tf.constant([["a", "c"], ["q", "b"]])).numpy(), [[0, 2], [-1, 1]])
    whole = L.StaticHashTable(L.TextFileInitializer(str(path), tf.string, L.TextFileIndex.WHOLE_LINE, tf.int64,
                                                    L.TextFileIndex.LINE_NUMBER, value_index_offset=3), -1)
    np.testing.assert_array_equal(whole.lookup(tf.constant(["a\tx", "q"])).numpy(), [3, -1])
    columns = L.StaticHashTable(L.TextFileInitializer(str(path), tf.string, 1, tf.string, 0), "?")
    assert _strings(columns.lookup(tf.constant(["y", "q"]))) == ["b", "?"]
    short = L.TextFileInitializer(str(path), tf.string, 0, tf.int64, L.TextFileIndex.LINE_NUMBER, vocab_size=2)
    assert L.StaticHashTable(short, -1).size().numpy() == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid vocab_size"):
        L.StaticHashTable(L.TextFileInitializer(str(path), tf.string, 0, tf.int64, L.TextFileIndex.LINE_NUMBER,
                                                vocab_size=5), -1)


def test_errors_as_tf():
    init = L.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    with pytest.raises(ValueError, match="num_oov_buckets"):
        L.StaticVocabularyTable(init, 0)
    with pytest.raises(TypeError, match="Invalid `value_dtype`"):
        L.StaticVocabularyTable(L.KeyValueTensorInitializer(["a"], [0]), 2)
    with pytest.raises(TypeError, match="Dtype of argument `keys`"):
        L.StaticHashTable(init, -1).lookup(tf.constant([1], tf.int64))
    with pytest.raises(tf.errors.FailedPreconditionError, match="different value for same key"):
        L.StaticHashTable(L.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    dense = L.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty_key"):
        dense.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64))


def test_mutable_hash_table_in_order_inside_function(run):
    table = L.experimental.MutableHashTable(tf.string, tf.int64, -1)

    def step(keys, values):
        table.insert(keys, values)
        before = table.lookup(keys)
        table.remove(keys[:1])
        return before, table.lookup(keys), table.size()

    before, after, size = run(step, tf.constant(["x", "y"]), tf.constant([3, 4], tf.int64))
    np.testing.assert_array_equal(before.numpy(), [3, 4])
    np.testing.assert_array_equal(after.numpy(), [-1, 4])
    assert size.numpy() == 1


def test_mutable_table_vector_values_and_dense_table():
    table = L.experimental.MutableHashTable(tf.string, tf.float32, [0.0, 0.0])
    table.insert(["a"], [[1.0, 2.0]])
    np.testing.assert_array_equal(table.lookup(["a", "b"]).numpy(), [[1, 2], [0, 0]])
    dense = L.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1, initial_num_buckets=8)
    dense.insert(tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64))
    np.testing.assert_array_equal(dense.lookup(tf.constant([5, 7], tf.int64)).numpy(), [50, -1])
    keys, values = dense.export()
    assert keys.shape == (8, 1) and sorted(keys.numpy().reshape(-1).tolist()) == [0] * 6 + [5, 6]
    dense.erase(tf.constant([5], tf.int64))
    assert dense.size().numpy() == 1


def test_tables_in_dataset_map():
    table = L.StaticVocabularyTable(L.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64)), 5)
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "zz"]).map(table.lookup)
    assert [int(v) for v in ds.as_numpy_iterator()] == [0, 1, 4]


def test_mutable_table_checkpoint_in_tf_layout(tmp_path):
    table = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
    checkpoint = tf.train.Checkpoint(t=table)
    path = checkpoint.write(str(tmp_path / "c"))
    names = dict(tf.train.list_variables(path))
    assert names["t/.ATTRIBUTES/table-keys"] == [2] and names["t/.ATTRIBUTES/table-values"] == [2]
    table.insert(["c"], [5])
    table.remove(["a"])
    checkpoint.read(path)
    np.testing.assert_array_equal(table.lookup(["a", "b", "c"]).numpy(), [1, 2, -1])
    fresh = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    tf.train.Checkpoint(t=fresh).read(path)
    np.testing.assert_array_equal(fresh.lookup(["b"]).numpy(), [2])


def test_get_vocabulary_prints_as_keras_3_does():
    """Keras 3 reads the vocabulary back from its table as numpy scalars (TF 2.21's printed forms below); the
    OOV and mask tokens stay Python values. The text classification tutorial prints this list."""
    strings = tf.keras.layers.StringLookup()
    strings.adapt(["x", "y", "x"])
    assert repr(strings.get_vocabulary()) == "['[UNK]', np.str_('x'), np.str_('y')]"
    integers = tf.keras.layers.IntegerLookup(vocabulary=[3, 4])
    assert repr(integers.get_vocabulary()) == "[-1, np.int64(3), np.int64(4)]"
    import json
    json.dumps(integers.get_config())  # the config keeps plain Python values
