"""Lookup tables in SavedModels and checkpoints, both ways between tinytf and TensorFlow 2.21.

- TF wrote tests/tf_files/saved_models/tables_module (StaticHashTable of keys and values and of a vocabulary file,
  StaticVocabularyTable, MutableHashTable with entries), tables_keras (StringLookup and IntegerLookup) and
  tables_checkpoint (a MutableHashTable's entries) with make_tables.py; tinytf loads them and computes TF's numbers.
- tinytf writes the module of tools/savetab_tables_read_by_tf.py; TF 2.21 loaded that file and recorded what it
  computed (tests/tf_reference/savetab_tables_read_by_tf.json): the file tinytf writes today must be the one TF
  loaded (its digest), and TF's numbers must be TF's own for the same module built with TensorFlow.
Each graph case runs with passes on and off (the `passes` fixture)."""

import importlib.util
import json
import os

import pytest

import tinytf as tf

HERE = os.path.dirname(__file__)
TF_FILES = os.path.join(HERE, "tf_files", "saved_models")


def _tool():
    path = os.path.join(HERE, os.pardir, "tools", "savetab_tables_read_by_tf.py")
    spec = importlib.util.spec_from_file_location("savetab_tables_read_by_tf", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tf_outputs():
    with open(os.path.join(TF_FILES, "tables.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def recorded():
    with open(os.path.join(HERE, "tf_reference", "savetab_tables_read_by_tf.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("savetab_tables"))
    _tool().write(tf, folder)
    return folder


def _numbers(outputs) -> dict:
    return {k: v.numpy().tolist() for k, v in outputs.items()}


# --- SavedModels TensorFlow wrote ----------------------------------------------------------------------------------
def test_tf_module_of_tables_loads_with_tfs_outputs(tf_outputs, passes):
    loaded = tf.saved_model.load(os.path.join(TF_FILES, "tables_module"))
    words = tf.constant(tf_outputs["words"])
    assert _numbers(loaded.lookup(words)) == tf_outputs["module"]
    signature = loaded.signatures["serving_default"](words=words)
    assert _numbers(signature) == tf_outputs["module"]
    # the MutableHashTable's entries came from the checkpoint; a saved function still updates it
    assert int(loaded.insert(tf.constant(["kiwi"]), tf.constant([4.0]))) == 3
    assert loaded.lookup(tf.constant(["kiwi", "apple"]))["counts"].numpy().tolist() == [4.0, 1.5]


def test_tf_tables_are_tinytf_tables(tf_outputs):
    """What the loader rebuilt: tinytf tables, usable from new code eagerly and in a tf.function."""
    loaded = tf.saved_model.load(os.path.join(TF_FILES, "tables_module"))
    assert isinstance(loaded.counts, tf.lookup.experimental.MutableHashTable)
    assert int(loaded.by_key.size()) == 3 and int(loaded.from_file.size()) == 3
    assert int(tf.function(lambda: loaded.from_file.size())()) == 3
    assert not hasattr(loaded.by_key, "lookup")  # as TF's restored table: the default lives in the functions
    got = loaded.counts.lookup(tf.constant(["fig", "x"]), dynamic_default_values=tf.constant([0.0, -7.0]))
    assert got.numpy().tolist() == [2.5, -7.0]
    with pytest.raises(ValueError, match="dynamic_default_values"):
        loaded.counts.lookup(tf.constant(["fig"]))
    keys, values = loaded.counts.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"apple", 1.5), (b"fig", 2.5)]


def test_tf_keras_lookup_layers_load(tf_outputs, passes):
    loaded = tf.saved_model.load(os.path.join(TF_FILES, "tables_keras"))
    out = loaded.signatures["serving_default"](inputs=tf.constant(tf_outputs["keras_ints"], tf.int64),
                                               inputs_1=tf.constant(tf_outputs["words"][:5]))
    assert _numbers(out) == tf_outputs["keras"]


def test_tf_checkpoint_of_a_mutable_table_restores(tf_outputs):
    tool = _tool()
    assert tool.read_checkpoint(tf, os.path.join(TF_FILES, "tables_checkpoint", "ckpt")) == tf_outputs["checkpoint"]


# --- SavedModels tinytf writes, as TensorFlow read them -----------------------------------------------------------
def test_the_file_is_the_one_tensorflow_loaded(written, recorded):
    assert _tool().digest(os.path.join(written, "tables_module")) == recorded["digest"]


def test_tensorflow_computed_its_own_numbers_from_tinytfs_file(recorded):
    """TF's outputs from tinytf's file equal TF's outputs from the same module saved by TensorFlow."""
    assert recorded["read"] == recorded["tf_own"]


def test_tinytf_loads_its_file_with_tfs_numbers(written, recorded, passes):
    assert _tool().run(tf, os.path.join(written, "tables_module")) == recorded["read"]


def test_tensorflow_restored_tinytfs_checkpoint(written, recorded):
    assert _tool().read_checkpoint(tf, os.path.join(written, "checkpoint", "ckpt")) == recorded["checkpoint"]


def test_the_saved_graph_is_tfs(written):
    """The object graph and functions TF's loader needs: a resource node per table with its three functions, the
    table ops under TF's names, the vocabulary file as an asset, a MutableHashTable's saveable."""
    from tinytf.saved_model.load import read_meta_graph

    meta = read_meta_graph(os.path.join(written, "tables_module"))
    nodes = meta.object_graph_def.nodes
    root = {c.local_name: c.node_id for c in nodes[0].children}
    for name in ("by_key", "from_file", "vocabulary", "ids", "counts"):
        node = nodes[root[name]]
        assert node.WhichOneof("kind") == "resource"
        assert {"_create_resource", "_initialize", "_destroy_resource"} <= {c.local_name for c in node.children}
    assert "table" in nodes[root["counts"]].saveable_objects
    assert [a.filename for a in meta.asset_file_def] == ["vocab.txt"]
    assert os.path.isfile(os.path.join(written, "tables_module", "assets", "vocab.txt"))
    ops = {n.op for f in meta.graph_def.library.function for n in f.node_def}
    assert {"HashTableV2", "MutableHashTableV2", "LookupTableImportV2", "InitializeTableFromTextFileV2",
            "LookupTableFindV2", "LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableSizeV2",
            "LookupTableExportV2", "StringToHashBucketFast", "AsString", "SelectV2"} <= ops


# --- tinytf round trips ---------------------------------------------------------------------------------------------
def _module(tmp_path):
    vocab = tmp_path / "words.txt"
    vocab.write_text("apple\nbanana\ncherry\n")
    return _tool().tables_module(tf, str(vocab))


def test_round_trip_matches_the_live_module(tmp_path, passes):
    module = _module(tmp_path)
    words = tf.constant(_tool().WORDS)
    live = _numbers(module.lookup(words))
    tf.saved_model.save(module, str(tmp_path / "saved"))
    loaded = tf.saved_model.load(str(tmp_path / "saved"))
    assert _numbers(loaded.lookup(words)) == live
    numbers = tf.constant([5, 3, 9, 42, 0], tf.int64)
    assert loaded.lookup_ids(numbers).numpy().tolist() == module.lookup_ids(numbers).numpy().tolist()
    # the live module's tables, eagerly: the same numbers as the graph
    assert module.by_key.lookup(words).numpy().tolist() == live["by_key"]
    assert module.vocabulary.lookup(words).numpy().tolist() == live["vocabulary"]


def test_mutations_after_the_save_do_not_leak_into_the_file(tmp_path):
    module = _module(tmp_path)
    tf.saved_model.save(module, str(tmp_path / "saved"))
    module.counts.insert(tf.constant(["late"]), tf.constant([3.0]))
    loaded = tf.saved_model.load(str(tmp_path / "saved"))
    assert loaded.lookup(tf.constant(["late", "apple"]))["counts"].numpy().tolist() == [-1.0, 1.5]


def test_vocabulary_buckets_eagerly_in_a_function_and_by_fingerprint(passes):
    """StaticVocabularyTable's OOV ids: vocabulary size + Fingerprint64(key) % buckets (integers by their
    decimal text), the same eagerly and in a tf.function; TF's numbers are recorded in the JSON."""
    from tinytf.runtime.ops.fingerprint import fingerprint64

    table = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([3, 5], tf.int64), tf.constant([0, 1], tf.int64)), 2)
    keys = tf.constant([5, 3, 9, 42, 0], tf.int64)
    expected = [1, 0] + [2 + fingerprint64(str(k).encode()) % 2 for k in (9, 42, 0)]
    assert table.lookup(keys).numpy().tolist() == expected
    assert tf.function(table.lookup)(keys).numpy().tolist() == expected
    assert int(table.size()) == 4


# --- Keras lookup layers --------------------------------------------------------------------------------------------
def test_keras_lookup_file_is_the_one_tensorflow_loaded(written, recorded):
    assert _tool().digest(os.path.join(written, "keras_lookup")) == recorded["keras_digest"]


def test_tensorflow_computes_keras_3s_numbers_from_tinytfs_keras_file(recorded):
    assert recorded["keras"] == recorded["keras_own"]


def test_tinytf_loads_its_keras_lookup_file(written, recorded, passes):
    assert _tool().run_keras(tf, os.path.join(written, "keras_lookup")) == recorded["keras"]


def test_keras_lookup_layers_round_trip_eagerly_and_in_a_function(tmp_path, recorded, passes):
    tool = _tool()
    model = tool.keras_lookup_model(tf.keras)
    inputs = [tf.constant(tool.KERAS_WORDS), tf.constant(tool.KERAS_NUMBERS, tf.int64)]
    eager = [x.numpy().tolist() for x in model(inputs)]
    graph = [x.numpy().tolist() for x in tf.function(lambda a, b: model([a, b]))(*inputs)]
    assert eager == graph == [recorded["keras_own"][f"output_{i}"] for i in range(4)]
    tf.saved_model.save(model, str(tmp_path / "m"))
    assert tool.run_keras(tf, str(tmp_path / "m")) == recorded["keras_own"]


def test_keras_lookup_with_no_oov_index_is_named(tmp_path):
    text = tf.keras.Input(shape=(), dtype="string")
    model = tf.keras.Model(text, tf.keras.layers.StringLookup(vocabulary=["a"], num_oov_indices=0)(text))
    with pytest.warns(UserWarning, match="num_oov_indices=0"):
        tf.saved_model.save(model, str(tmp_path / "m"))


def test_keras_model_holding_a_table_goes_both_ways(written, recorded, passes):
    """A subclassed Keras model with a StaticHashTable attribute: TF 2.21 loaded tinytf's file and computed what
    the same model computes in TF (`keras_table_own`); tinytf's loader computes it too."""
    assert recorded["keras_table"] == recorded["keras_table_own"]
    assert _tool().run_keras_table(tf, os.path.join(written, "keras_table")) == recorded["keras_table"]
    model = _tool().keras_model_with_table(tf)
    assert model(tf.constant(["a", "b", "z"])).numpy().tolist() == recorded["keras_table"]
