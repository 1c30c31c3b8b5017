"""tf.lookup as TF 2.21 documents it: the `>>>` examples of KeyValueTensorInitializer, TextFileInitializer,
StaticHashTable, StaticVocabularyTable, MutableHashTable and DenseHashTable, plus tables inside tf.function,
dataset.map, vector values and TF's errors."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program
from .keras_text_prep_lookup import val


def _vocab_file(lines, sep="\n"):
    f = tempfile.NamedTemporaryFile(delete=False, suffix=".txt")
    f.write(sep.join(lines).encode("utf-8"))
    f.close()
    return f.name


@program
def p_lookup_static_hash_table_docs(tf):
    keys_tensor = tf.constant(["a", "b", "c"])
    vals_tensor = tf.constant([7, 8, 9])
    input_tensor = tf.constant(["a", "f"])
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys_tensor, vals_tensor),
                                      default_value=-1)
    exported = table.export()
    return [val(table.lookup(input_tensor)), val(table[input_tensor]),
            val(table[tf.constant([["a", "b"], ["c", "d"]])]), val(table.size()), val(table.default_value),
            sorted(zip([k.decode() for k in exported[0].numpy()], exported[1].numpy().tolist())),
            [table.key_dtype.name, table.value_dtype.name]]


@program
def p_lookup_text_file_initializer_docs(tf):
    path = _vocab_file(["emerson 10", "lake 20", "palmer 30"])
    try:
        init = tf.lookup.TextFileInitializer(filename=path, key_dtype=tf.string, key_index=0, value_dtype=tf.int64,
                                             value_index=1, delimiter=" ")
        table = tf.lookup.StaticHashTable(init, default_value=-1)
        whole = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            filename=path, key_dtype=tf.string, key_index=tf.lookup.TextFileIndex.WHOLE_LINE, value_dtype=tf.int64,
            value_index=tf.lookup.TextFileIndex.LINE_NUMBER), -1)
        numbers = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            path, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER, tf.string, 0, delimiter=" "), "?")
        return [val(table.lookup(tf.constant(["palmer", "lake", "tarkus"]))),
                val(whole.lookup(tf.constant("palmer 30"))), val(numbers.lookup(tf.constant([2, 0, 7], tf.int64))),
                [init.key_dtype.name, init.value_dtype.name]]
    finally:
        os.remove(path)


@program
def p_lookup_static_vocabulary_table_docs(tf):
    init = tf.lookup.KeyValueTensorInitializer(keys=tf.constant(["emerson", "lake", "palmer"]),
                                               values=tf.constant([0, 1, 2], dtype=tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    out = [val(table[tf.constant(["emerson", "lake", "palmer", "king", "crimson"])]), val(table.size())]
    path = _vocab_file(["emerson", "lake", "palmer", "crimnson"])
    try:
        from_file = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
            path, key_dtype=tf.string, key_index=tf.lookup.TextFileIndex.WHOLE_LINE, value_dtype=tf.int64,
            value_index=tf.lookup.TextFileIndex.LINE_NUMBER), 3)
        out.append(val(from_file.lookup(tf.constant(["palmer", "crimnson", "king", "tarkus", "black", "moon"]))))
    finally:
        os.remove(path)
    one = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        keys=tf.constant(["emerson", "lake", "palmer"]), values=tf.constant([1, 2, 3], dtype=tf.int64)),
        num_oov_buckets=1)
    out.append(val(one[tf.constant(["emerson", "lake", "palmer", "king"])]))
    ints = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 7, lookup_key_dtype=tf.int64)
    out.append(val(ints.lookup(tf.constant([20, 5, -3, 123456789], tf.int64))))
    words = ["".join(chr(97 + (i * 7 + j) % 26) for j in range(1 + i % 70)) for i in range(40)]
    out.append(val(tf.lookup.StaticVocabularyTable(None, 1000).lookup(tf.constant(words))))
    return out


@program
def p_lookup_mutable_hash_table_docs(tf):
    table = tf.lookup.experimental.MutableHashTable(key_dtype=tf.string, value_dtype=tf.int64, default_value=-1)
    keys_tensor = tf.constant(["a", "b", "c"])
    table.insert(keys_tensor, tf.constant([7, 8, 9], dtype=tf.int64))
    out = [val(table.lookup(tf.constant(["a", "f"])))]
    table.remove(tf.constant(["c"]))
    out.append(val(table.lookup(keys_tensor)))
    out.append([k.decode() for k in sorted(table.export()[0].numpy())])
    out.append([a.item() for a in sorted(table.export()[1].numpy())])
    vectors = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=[0.0, -1.0])
    vectors.insert(tf.constant([3, 4], tf.int64), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    out.append(val(vectors.lookup(tf.constant([[4, 5], [3, 3]], tf.int64))))
    out.append(outcome(lambda: table.insert(tf.constant(["x"]), tf.constant([1.5])), "values"))
    return out


@program
def p_lookup_dense_hash_table_docs(tf):
    table = tf.lookup.experimental.DenseHashTable(key_dtype=tf.string, value_dtype=tf.int64, default_value=-1,
                                                  empty_key="", deleted_key="$")
    table.insert(tf.constant(["a", "b", "c"]), tf.constant([0, 1, 2], dtype=tf.int64))
    table.remove(tf.constant(["c"]))
    out = [val(table.lookup(tf.constant(["a", "b", "c", "d"]))), val(table.size())]
    ints = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1,
                                                 initial_num_buckets=4)
    ints.insert(tf.constant([5, 6, 7, 8], tf.int64), tf.constant([50, 60, 70, 80], tf.int64))
    ints.erase(tf.constant([6], tf.int64))
    keys, values = ints.export()
    out.append([val(ints.lookup(tf.constant([5, 6, 8], tf.int64))), keys.shape.as_list(),
                sorted(keys.numpy().tolist()), sorted(values.numpy().tolist())])
    out.append(outcome(lambda: ints.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64)), "empty_key"))
    out.append(outcome(lambda: ints.insert(tf.constant([-1], tf.int64), tf.constant([1], tf.int64)), "deleted_key"))
    return out


@program
def p_lookup_tables_in_function_and_dataset(tf):
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["x", "y"], [1.5, 2.5]), 0.0)
    counts = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)

    @tf.function
    def count(words):
        before = counts.lookup(words)
        counts.insert(words, before + 1)
        return table.lookup(words), counts.lookup(words), counts.size()

    first = count(tf.constant(["x", "z"]))
    second = count(tf.constant(["x", "y"]))
    dataset = tf.data.Dataset.from_tensor_slices(["y", "q", "x"]).map(table.lookup)
    return [val(first), val(second), [float(v) for v in dataset]]


@program
def p_lookup_errors(tf):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    return [
        outcome(lambda: tf.lookup.StaticVocabularyTable(init, 0), "num_oov_buckets"),
        outcome(lambda: tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], [0]), 2),
                "value_dtype"),
        outcome(lambda: tf.lookup.StaticHashTable(init, -1).lookup(tf.constant([1], tf.int64)), "keys"),
        outcome(lambda: tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1),
                "different value for same key"),
        outcome(lambda: tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            "/nonexistent/vocab.txt", tf.string, 0, tf.int64, -1), -1), "nonexistent"),
    ]
