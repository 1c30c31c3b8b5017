"""Does TensorFlow load the lookup tables tinytf saves, and compute tinytf's numbers? Two steps, two Pythons:

    python tools/savetab_tables_read_by_tf.py write DIR           # with tinytf: writes DIR/tables_module
    TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH=. /path/to/tf-venv/bin/python tools/savetab_tables_read_by_tf.py read DIR \\
        tests/tf_reference/savetab_tables_read_by_tf.json       # with TensorFlow: loads and runs it

The module holds a StaticHashTable of a KeyValueTensorInitializer, one of a vocabulary file (an asset: the file
is deleted after the save, so the loader must read the SavedModel's copy), StaticVocabularyTables of strings
and of integers, and a MutableHashTable whose entries were inserted before the save (the checkpoint carries them);
a tf.train.Checkpoint of a MutableHashTable's entries, which TensorFlow restores (`checkpoint`); and a Keras
model of StringLookup and IntegerLookup layers (`keras`, against Keras 3's own layers: `keras_own`). The
JSON holds the SavedModel's digest (saved_model.pb parsed and serialized deterministically, the variables' and
assets' bytes) and what TensorFlow computed: the lookups, an insert through a saved function, the signature.
tests/test_savetab_tables.py writes the files again with tinytf, checks the digest, and that tinytf's own
loader computes TF's numbers."""

from __future__ import annotations

import hashlib
import json
import os
import sys

WORDS = ["banana", "kiwi", "apple", "cherry", "fig", "a", "c"]


def tables_module(tf, vocab_path):
    """The module both libraries save (tf is tinytf or TensorFlow)."""

    class Tables(tf.Module):
        def __init__(self):
            super().__init__()
            self.by_key = tf.lookup.StaticHashTable(
                tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)), -1)
            self.from_file = tf.lookup.StaticHashTable(
                tf.lookup.TextFileInitializer(vocab_path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                              tf.lookup.TextFileIndex.LINE_NUMBER), -1)
            self.vocabulary = tf.lookup.StaticVocabularyTable(
                tf.lookup.KeyValueTensorInitializer(["apple", "banana"], tf.constant([0, 1], tf.int64)), 3)
            self.ids = tf.lookup.StaticVocabularyTable(
                tf.lookup.KeyValueTensorInitializer(tf.constant([3, 5], tf.int64), tf.constant([0, 1], tf.int64)), 2)
            self.counts = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
            self.counts.insert(["apple", "fig"], [1.5, 2.5])

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def lookup(self, words):
            return {"by_key": self.by_key.lookup(words), "from_file": self.from_file.lookup(words),
                    "vocabulary": self.vocabulary.lookup(words), "counts": self.counts.lookup(words),
                    "size": self.counts.size()}

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
        def lookup_ids(self, numbers):
            return self.ids.lookup(numbers)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.float32)])
        def insert(self, words, values):
            self.counts.insert(words, values)
            return self.counts.size()

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def remove(self, words):
            self.counts.remove(words)
            return self.counts.size()

        @tf.function(input_signature=[])
        def export(self):
            return self.counts.export()

    return Tables()


KERAS_WORDS = ["apple", "kiwi", "", "cherry", "zz"]
KERAS_NUMBERS = [3, 42, 0, 7, 9]


def keras_lookup_model(keras):
    """A Functional model of StringLookup and IntegerLookup layers: one OOV index, several (hashed strings,
    floormod integers), mask tokens (keras: tinytf's or Keras 3's)."""
    text = keras.Input(shape=(), dtype="string", name="text")
    number = keras.Input(shape=(), dtype="int64", name="number")
    outputs = [keras.layers.StringLookup(vocabulary=["apple", "banana", "cherry"], num_oov_indices=1)(text),
               keras.layers.StringLookup(vocabulary=["apple", "banana", "cherry"], num_oov_indices=3,
                                         mask_token="")(text),
               keras.layers.IntegerLookup(vocabulary=[3, 5, 7], num_oov_indices=2)(number),
               keras.layers.IntegerLookup(vocabulary=[3, 5, 7], mask_token=0)(number)]
    return keras.Model([text, number], outputs)


def keras_model_with_table(tf):
    """A subclassed Keras model that holds a StaticHashTable beside its Dense layer (fixed weights)."""
    import numpy as np

    keras = tf.keras

    class Tagger(keras.Model):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.StaticHashTable(
                tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([1, 2], tf.int64)), -1)
            self.dense = keras.layers.Dense(2)

        def call(self, x):
            ids = self.table.lookup(x)
            return self.dense(tf.cast(tf.expand_dims(ids, -1), tf.float32))

    model = Tagger()
    model(tf.constant(["a"]))
    model.dense.set_weights([np.array([[0.5, -1.0]], "float32"), np.array([0.25, 0.0], "float32")])
    model.serve = tf.function(lambda x: model(x), input_signature=[tf.TensorSpec([None], tf.string)])
    return model


def run_keras(tf, path) -> dict:
    loaded = tf.saved_model.load(path)
    out = loaded.signatures["serving_default"](inputs=tf.constant(KERAS_WORDS),
                                               inputs_1=tf.constant(KERAS_NUMBERS, tf.int64))
    return {k: v.numpy().tolist() for k, v in out.items()}


def run_keras_table(tf, path) -> list:
    loaded = tf.saved_model.load(path)
    return loaded.signatures["serving_default"](x=tf.constant(["a", "b", "z"]))["output_0"].numpy().tolist()


def checkpoint_holder(tf):
    """A module with a MutableHashTable, a StaticHashTable and a variable, for tf.train.Checkpoint."""

    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
            self.static = tf.lookup.StaticHashTable(
                tf.lookup.KeyValueTensorInitializer(["x"], tf.constant([7], tf.int64)), -1)
            self.v = tf.Variable(2.0)

    return Holder()


def write_checkpoint(tf, prefix) -> None:
    holder = checkpoint_holder(tf)
    holder.table.insert(["a", "b"], tf.constant([10, 20], tf.int64))
    holder.v.assign(5.0)
    tf.train.Checkpoint(model=holder).write(prefix)


def read_checkpoint(tf, prefix) -> dict:
    holder = checkpoint_holder(tf)
    tf.train.Checkpoint(model=holder).read(prefix).assert_consumed()
    return {"table": holder.table.lookup(tf.constant(["a", "b", "c"])).numpy().tolist(), "v": float(holder.v),
            "size": int(holder.table.size())}


def write(tf, folder) -> None:
    os.makedirs(folder, exist_ok=True)
    vocab = os.path.join(folder, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("apple\nbanana\ncherry\n")
    module = tables_module(tf, vocab)
    tf.saved_model.save(module, os.path.join(folder, "tables_module"), signatures={"serving_default": module.lookup})
    os.remove(vocab)  # the loader must read the SavedModel's own copy
    write_checkpoint(tf, os.path.join(folder, "checkpoint", "ckpt"))
    if hasattr(tf, "keras") and tf.__name__ == "tinytf":
        tf.saved_model.save(keras_lookup_model(tf.keras), os.path.join(folder, "keras_lookup"))
        tagger = keras_model_with_table(tf)
        tf.saved_model.save(tagger, os.path.join(folder, "keras_table"), signatures={"serving_default": tagger.serve})


def digest(path) -> str:
    from tinytf.saved_model.load import read_meta_graph  # (run with this worktree on PYTHONPATH)

    h = hashlib.sha256(read_meta_graph(path).SerializeToString(deterministic=True))
    for sub in ("variables", "assets"):
        for name in sorted(os.listdir(os.path.join(path, sub))):
            with open(os.path.join(path, sub, name), "rb") as f:
                h.update(name.encode() + f.read())
    return h.hexdigest()


def run(tf, path) -> dict:
    """What the loaded module computes (tf: the library that loads it)."""
    loaded = tf.saved_model.load(path)
    words = tf.constant(WORDS)
    out = {"lookup": {k: v.numpy().tolist() for k, v in loaded.lookup(words).items()},
           "lookup_ids": loaded.lookup_ids(tf.constant([5, 3, 9, 42, 0], tf.int64)).numpy().tolist(),
           "insert": int(loaded.insert(tf.constant(["kiwi", "apple"]), tf.constant([9.0, 7.0]))),
           "after_insert": loaded.lookup(words)["counts"].numpy().tolist()}
    keys, values = loaded.export()
    out["export"] = sorted([k.decode(), v] for k, v in zip(keys.numpy().tolist(), values.numpy().tolist()))
    out["remove"] = int(loaded.remove(tf.constant(["apple", "nothing"])))
    out["after_remove"] = loaded.lookup(words)["counts"].numpy().tolist()
    signature = loaded.signatures["serving_default"](words=tf.constant(["kiwi", "apple", "zzz"]))
    out["signature"] = {k: v.numpy().tolist() for k, v in signature.items()}
    return out


def main(argv) -> None:
    mode, folder = argv[1], argv[2]
    if mode == "write":
        import tinytf

        write(tinytf, folder)
        return
    import tensorflow as tf

    record = {"digest": digest(os.path.join(folder, "tables_module")),
              "keras_digest": digest(os.path.join(folder, "keras_lookup")),
              "read": run(tf, os.path.join(folder, "tables_module")),
              "checkpoint": read_checkpoint(tf, os.path.join(folder, "checkpoint", "ckpt"))}
    import keras

    record["keras"] = run_keras(tf, os.path.join(folder, "keras_lookup"))
    record["keras_table"] = run_keras_table(tf, os.path.join(folder, "keras_table"))
    record["keras_table_own"] = keras_model_with_table(tf)(tf.constant(["a", "b", "z"])).numpy().tolist()
    model = keras_lookup_model(keras)
    own = model([tf.constant(KERAS_WORDS), tf.constant(KERAS_NUMBERS, tf.int64)])
    record["keras_own"] = {f"output_{i}": v.numpy().tolist() for i, v in enumerate(own)}
    # the same module built and saved by TensorFlow itself: what tinytf's file must compute
    write(tf, os.path.join(folder, "by_tf"))
    record["tf_own"] = run(tf, os.path.join(folder, "by_tf", "tables_module"))
    with open(argv[3], "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
