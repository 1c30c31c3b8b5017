"""tf.data's file and database sources and sinks: FixedLengthRecordDataset, experimental.SqlDataset,
experimental.TFRecordWriter, Dataset.save / load (and the experimental aliases), Dataset.snapshot,
parse_example_dataset and make_batched_features_dataset; eagerly and inside tf.function. Each program works in
a fresh temporary directory."""

from __future__ import annotations

import os
import sqlite3
import tempfile

import numpy as np

from . import outcome, program, val


def _plain(x):
    """Tensors (in nests) as Python values, strings decoded (bytes are not JSON)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return ["sparse", x.indices.numpy().tolist(), _plain(x.values), x.dense_shape.numpy().tolist()]
    value = x.numpy() if hasattr(x, "numpy") else x
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, np.ndarray) and value.dtype == object:
        return [v.decode("latin-1") if isinstance(v, bytes) else _plain(v) for v in value.tolist()]
    return value.tolist() if hasattr(value, "tolist") else value


def _fixed_length_files(d):
    names = [os.path.join(d, "fixed_length0.bin"), os.path.join(d, "fixed_length1.bin")]
    with open(names[0], "wb") as f:
        f.write(b"HEADER012345FOOTER")
    with open(names[1], "wb") as f:
        f.write(b"HEADER6789abFOOTER")
    return names


@program
def p_data_exp_fixed_length_records(tf):
    d = tempfile.mkdtemp()
    names = _fixed_length_files(d)
    dataset1 = tf.data.FixedLengthRecordDataset(filenames=names, record_bytes=2, header_bytes=6, footer_bytes=6)
    whole = tf.data.FixedLengthRecordDataset(names[0], record_bytes=6, header_bytes=6, footer_bytes=6)
    plain = os.path.join(d, "plain.bin")
    with open(plain, "wb") as f:
        f.write(bytes(range(12)))
    numbers = tf.data.FixedLengthRecordDataset(plain, 4).map(lambda r: tf.io.decode_raw(r, tf.uint8))
    interleaved = tf.data.FixedLengthRecordDataset(names, 2, 6, 6, num_parallel_reads=2)

    @tf.function
    def total_length(filenames):
        ds = tf.data.FixedLengthRecordDataset(filenames, record_bytes=3, header_bytes=6, footer_bytes=6)
        return ds.reduce(tf.constant(0), lambda s, r: s + tf.strings.length(r))

    return [[_plain(e) for e in dataset1.as_numpy_iterator()], [_plain(e) for e in whole],
            str(dataset1.element_spec), [_plain(e) for e in numbers], [_plain(e) for e in interleaved],
            val(total_length(tf.constant(names))),
            outcome(lambda: list(tf.data.FixedLengthRecordDataset(names[0], 5)),
                    "which is not an exact multiple of the record length (5 bytes)"),
            outcome(lambda: list(tf.data.FixedLengthRecordDataset(os.path.join(d, "missing.bin"), 3)),
                    "No such file or directory")]


def _database(d):
    path = os.path.join(d, "people.db")
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE people (name TEXT, age INTEGER, height REAL, ok INTEGER)")
        c.executemany("INSERT INTO people VALUES (?, ?, ?, ?)",
                      [("ada", 36, 1.65, 1), ("alan", 41, 1.8, 0), ("grace", 85, 1.55, 1)])
    return path


@program
def p_data_exp_sql_dataset(tf):
    E = tf.data.experimental
    db = _database(tempfile.mkdtemp())
    ds = E.SqlDataset("sqlite", db, "SELECT name, age, height FROM people ORDER BY age",
                      (tf.string, tf.int32, tf.float64))
    single = E.SqlDataset("sqlite", db, "SELECT age FROM people WHERE ok = 1", tf.int64)
    flags = E.SqlDataset("sqlite", db, "SELECT ok, name FROM people", (tf.bool, tf.string))

    @tf.function
    def total_age():
        rows = E.SqlDataset("sqlite", db, "SELECT age FROM people", (tf.int32,))
        return rows.reduce(tf.constant(0), lambda s, x: s + x[0])

    return [[_plain(e) for e in ds], str(ds.element_spec), [_plain(e) for e in single], [_plain(e) for e in flags],
            val(total_age()),
            outcome(lambda: list(E.SqlDataset("sqlite", db, "SELECT name, age FROM people", (tf.string,))),
                    "must match the number of elements in output_types"),
            outcome(lambda: list(E.SqlDataset("mysql", db, "SELECT age FROM people", (tf.int32,))),
                    "is not supported by SqlDataset"),
            outcome(lambda: list(E.SqlDataset("sqlite", db, "SELECT nope FROM people", (tf.string,))),
                    "no such column: nope")]


@program
def p_data_exp_tfrecord_writer(tf):
    E = tf.data.experimental
    d = tempfile.mkdtemp()
    path = os.path.join(d, "records.tfrecord")
    writer = E.TFRecordWriter(path)
    result = writer.write(tf.data.Dataset.from_tensor_slices([b"x", b"yy", b"zzz"]))
    back = [_plain(e) for e in tf.data.TFRecordDataset(path)]
    gz = os.path.join(d, "records.gz")
    E.TFRecordWriter(gz, "GZIP").write(tf.data.Dataset.range(3).map(lambda x: tf.strings.as_string(x * 7)))
    return [result, back, [_plain(e) for e in tf.data.TFRecordDataset(gz, "GZIP")],
            outcome(lambda: writer.write(tf.data.Dataset.range(3)), "produces scalar `tf.string` elements"),
            outcome(lambda: writer.write(tf.data.Dataset.from_tensor_slices([[b"x"]])),
                    "produces scalar `tf.string` elements"),
            outcome(lambda: writer.write([b"x"]), "Expected a `tf.data.Dataset` object")]


@program
def p_data_exp_save_and_load(tf):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "saved_data")
    dataset = tf.data.Dataset.range(2)
    tf.data.experimental.save(dataset, path)
    new_dataset = tf.data.experimental.load(path)
    first = [val(e) for e in new_dataset]
    pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3], "b": [[1.0], [2.0], [3.0]]}, ["x", "y", "z"]))
    pairs.save(os.path.join(d, "pairs"), shard_func=lambda f, s: tf.cast(f["a"] % 2, tf.int64))
    loaded = tf.data.Dataset.load(os.path.join(d, "pairs"))
    sequential = tf.data.Dataset.load(os.path.join(d, "pairs"), reader_func=lambda shards: shards.flat_map(lambda x: x))
    tf.data.Dataset.range(5).save(os.path.join(d, "gz"), compression="GZIP")
    spec = tf.TensorSpec([], tf.int64)

    @tf.function
    def total():
        return tf.data.Dataset.load(os.path.join(d, "gz"), spec, compression="GZIP").reduce(
            tf.constant(0, tf.int64), lambda s, x: s + x)

    return [first, str(new_dataset.element_spec), new_dataset.cardinality().numpy().item(),
            sorted(str(k) for k in loaded.element_spec[0]), str(loaded.element_spec[1]),
            loaded.cardinality().numpy().item(),
            sorted(_plain(e)[1] for e in loaded), [_plain(e) for e in sequential],
            [val(e) for e in tf.data.Dataset.load(os.path.join(d, "gz"), compression="GZIP")], val(total()),
            outcome(lambda: tf.data.Dataset.load(os.path.join(d, "none")), "element_spec file not found"),
            outcome(lambda: tf.data.Dataset.load(os.path.join(d, "none"), element_spec=spec),
                    "Could not find metadata file"),
            outcome(lambda: list(tf.data.Dataset.load(os.path.join(d, "gz"))), "corrupted record")]


@program
def p_data_exp_snapshot(tf):
    d = tempfile.mkdtemp()
    calls = []

    def noted(x):
        calls.append(1)
        return x

    source = tf.data.Dataset.range(4).map(lambda x: tf.py_function(noted, [x * 10], tf.int64))
    snap = source.snapshot(os.path.join(d, "snap"))
    first = [val(e) for e in snap]
    after_first = len(calls)
    second = [val(e) for e in snap]
    written = sorted(os.listdir(os.path.join(d, "snap")))
    other = [val(e) for e in tf.data.Dataset.range(3).apply(tf.data.experimental.snapshot(os.path.join(d, "snap")))]

    @tf.function
    def twice():
        ds = tf.data.Dataset.range(5).map(lambda x: x * x).snapshot(os.path.join(d, "in_graph"))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x) + ds.reduce(tf.constant(0, tf.int64),
                                                                                  lambda s, x: s + x)

    return [first, after_first, second, len(calls), len(written), other, val(twice()),
            len(os.listdir(os.path.join(d, "in_graph")))]


def _examples(tf, d):
    path = os.path.join(d, "examples.tfrecord")

    def example(age, gender, kws):
        feature = {"gender": tf.train.Feature(bytes_list=tf.train.BytesList(value=[gender])),
                   "kws": tf.train.Feature(bytes_list=tf.train.BytesList(value=kws))}
        if age is not None:  # a missing feature takes its default (an empty list would be an error)
            feature["age"] = tf.train.Feature(int64_list=tf.train.Int64List(value=age))
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()

    with tf.io.TFRecordWriter(path) as w:
        w.write(example([0], b"f", [b"code", b"art"]))
        w.write(example(None, b"f", [b"sports"]))
        w.write(example([7], b"m", []))
    return path


def _features(tf):
    return {"age": tf.io.FixedLenFeature([], dtype=tf.int64, default_value=-1),
            "gender": tf.io.FixedLenFeature([], dtype=tf.string),
            "kws": tf.io.VarLenFeature(dtype=tf.string)}


@program
def p_data_exp_parse_examples(tf):
    E = tf.data.experimental
    d = tempfile.mkdtemp()
    path = _examples(tf, d)
    parsed = tf.data.TFRecordDataset(path).batch(2).apply(E.parse_example_dataset(_features(tf)))
    made = E.make_batched_features_dataset(path, 2, _features(tf), num_epochs=1, shuffle=False)
    labelled = E.make_batched_features_dataset([path], 3, _features(tf), label_key="gender", num_epochs=2,
                                               shuffle=False)
    endless = E.make_batched_features_dataset(path, 2, _features(tf), shuffle=True, shuffle_seed=3)

    @tf.function
    def ages():
        ds = tf.data.TFRecordDataset(path).batch(3).apply(E.parse_example_dataset(_features(tf)))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + tf.reduce_sum(x["age"]))

    return [[_plain(e) for e in parsed], sorted(parsed.element_spec), str(parsed.element_spec["age"]),
            [_plain(e) for e in made], [_plain(e) for e in labelled], str(endless.element_spec["age"]),
            endless.cardinality().numpy().item(), val(ages()),
            outcome(lambda: tf.data.TFRecordDataset(path).apply(E.parse_example_dataset(_features(tf))),
                    "dataset of vectors of strings"),
            outcome(lambda: E.make_batched_features_dataset(path, 2, _features(tf), label_key="nope"),
                    "must be one of the `features` keys")]
