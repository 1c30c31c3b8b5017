"""Recorded with TensorFlow 2.21: `python make_tables.py tests/tf_files/saved_models` writes the SavedModels of
lookup tables tinytf's tests load (tests/test_savetab_tables.py): a tf.Module holding a StaticHashTable filled
by a KeyValueTensorInitializer, one filled from a vocabulary file (an asset), a StaticVocabularyTable, a
MutableHashTable with entries inserted before the save, and a Keras model with StringLookup and IntegerLookup
layers; a tf.train.Checkpoint of a MutableHashTable (tables_checkpoint); and tables.json, TF's outputs for fixed
inputs."""

import json
import os
import shutil
import sys
import tempfile

import keras
import tensorflow as tf

out = sys.argv[1]
NAMES = ("tables_module", "tables_keras")
for name in NAMES:
    shutil.rmtree(os.path.join(out, name), ignore_errors=True)
scratch = tempfile.mkdtemp()
vocab = os.path.join(scratch, "vocab.txt")
with open(vocab, "w") as f:
    f.write("apple\nbanana\ncherry\n")
WORDS = ["banana", "kiwi", "apple", "cherry", "fig"]
INTS = [3, 7, 42, 5, 0]


class Tables(tf.Module):
    def __init__(self):
        self.by_key = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)), -1)
        self.from_file = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                          tf.lookup.TextFileIndex.LINE_NUMBER), -1)
        self.vocabulary = tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(["apple", "banana"], tf.constant([0, 1], tf.int64)), 3)
        self.counts = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
        self.counts.insert(["apple", "fig"], [1.5, 2.5])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def lookup(self, words):
        return {"by_key": self.by_key.lookup(words), "from_file": self.from_file.lookup(words),
                "vocabulary": self.vocabulary.lookup(words), "counts": self.counts.lookup(words),
                "size": self.counts.size()}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.float32)])
    def insert(self, words, values):
        self.counts.insert(words, values)
        return self.counts.size()


def outputs(d):
    return {k: v.numpy().tolist() for k, v in d.items()}


words = tf.constant(WORDS + ["a", "c"])
m = Tables()
tf.saved_model.save(m, f"{out}/tables_module", signatures={"serving_default": m.lookup})
ref = {"words": WORDS + ["a", "c"], "module": outputs(m.lookup(words))}

keras.utils.set_random_seed(0)
text = keras.Input(shape=(), dtype="string", name="text")
number = keras.Input(shape=(), dtype="int64", name="number")
string_ids = keras.layers.StringLookup(vocabulary=["apple", "banana", "cherry"], num_oov_indices=1)(text)
int_ids = keras.layers.IntegerLookup(vocabulary=[3, 5, 7], num_oov_indices=2)(number)
model = keras.Model({"text": text, "number": number}, {"string_ids": string_ids, "int_ids": int_ids})
tf.saved_model.save(model, f"{out}/tables_keras")
ref["keras_ints"] = INTS
ref["keras"] = outputs(model({"text": tf.constant(WORDS), "number": tf.constant(INTS, tf.int64)}))
# a tf.train.Checkpoint of a MutableHashTable's entries (tools/savetab_tables_read_by_tf.py's holder)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir, "tools"))
from savetab_tables_read_by_tf import read_checkpoint, write_checkpoint  # noqa: E402

shutil.rmtree(os.path.join(out, "tables_checkpoint"), ignore_errors=True)
write_checkpoint(tf, os.path.join(out, "tables_checkpoint", "ckpt"))
ref["checkpoint"] = read_checkpoint(tf, os.path.join(out, "tables_checkpoint", "ckpt"))
with open(os.path.join(out, "tables.json"), "w") as f:
    json.dump(ref, f, indent=1)
shutil.rmtree(scratch)
