"""tf.data file readers and tf.io parsing: the docstring examples of TextLineDataset, TFRecordDataset,
Dataset.list_files, tf.io.TFRecordWriter, read_file/write_file, tf.train.Example, parse_single_example /
parse_example, decode_csv, CsvDataset and make_csv_dataset (files written to temporary folders, as the
docstrings do), eagerly and inside tf.function, and the files TensorFlow 2.21 wrote in tests/tf_files/data_io/
(tools/make_tf_data_files.py) read back."""

from __future__ import annotations

import os
import shutil
import tempfile

import numpy as np

from . import outcome, program, val

TF_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tf_files", "data_io")


def sval(x):
    """`val` for these programs: bytes as text (JSON has none), sparse tensors as their three parts, numpy
    values from as_numpy_iterator as plain values."""
    if isinstance(x, dict):
        return {str(k): sval(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [sval(v) for v in x]
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return {"sparse": [sval(x.indices), sval(x.values), sval(x.dense_shape)]}
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return [x.dtype.name, x.shape.as_list(), _plain(x.numpy())]
    if isinstance(x, (bytes, np.ndarray, np.generic)):
        return _plain(x)
    return val(x)


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value] if value.ndim else _plain(value[()])
    if isinstance(value, bytes):
        return "b:" + value.decode("utf-8", "backslashreplace")
    if isinstance(value, np.generic):
        return value.item()
    return value


def items(ds):
    return sval(list(ds.as_numpy_iterator()))


class Folder:
    """A temporary folder, removed afterwards (a program must not leave files behind)."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="data_io_")
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

    def file(self, name, text=None):
        path = os.path.join(self.path, name)
        if text is not None:
            with open(path, "w", newline="") as f:
                f.write(text)
        return path


def tf_file(name):
    return os.path.join(TF_FILES, name)


# --- TextLineDataset -------------------------------------------------------------------------------------------
@program
def p_doc_text_line_dataset(tf):
    with Folder() as d:
        a = d.file("text_lines0.txt", "the cow\njumped over\nthe moon\n")
        b = d.file("text_lines1.txt", "jack and jill\nwent up\nthe hill\n")
        ds = tf.data.TextLineDataset([a, b])
        return [items(ds), str(ds.element_spec)]


@program
def p_doc_text_line_dataset_parallel_reads(tf):
    with Folder() as d:
        a = d.file("text_lines0.txt", "the cow\njumped over\nthe moon\n")
        b = d.file("text_lines1.txt", "jack and jill\nwent up\nthe hill\n")
        return items(tf.data.TextLineDataset([a, b], num_parallel_reads=2))


@program
def p_text_lines_tf_wrote(tf):
    return [items(tf.data.TextLineDataset(tf_file("lines.txt"))),
            items(tf.data.TextLineDataset(tf.constant([tf_file("lines.txt.gz")]), compression_type="GZIP"))]


@program
def p_text_lines_zlib_and_buffer(tf):
    with Folder() as d:
        path = d.file("z.txt")
        tf.io.write_file(path + ".plain", "a\nbb\n")
        import zlib
        with open(path, "wb") as f:
            f.write(zlib.compress(b"one\ntwo\r\nthree"))
        return [items(tf.data.TextLineDataset(path, compression_type="ZLIB", buffer_size=3)),
                items(tf.data.TextLineDataset(path + ".plain").map(tf.strings.length))]


@program
def p_text_lines_in_function(tf):
    with Folder() as d:
        path = d.file("n.txt", "1\n22\n333\n")

        @tf.function
        def total():
            n = tf.constant(0)
            for line in tf.data.TextLineDataset(path):
                n += tf.strings.length(line)
            return n
        return sval(total())


@program
def p_text_lines_missing_file(tf):
    with Folder() as d:
        return outcome(lambda: list(tf.data.TextLineDataset(os.path.join(d.path, "nope.txt"))),
                       "No such file or directory")


# --- TFRecordDataset / TFRecordWriter --------------------------------------------------------------------------
@program
def p_doc_tfrecord_dataset(tf):
    with Folder() as d:
        path = d.file("example.tfrecords")
        with tf.io.TFRecordWriter(path) as writer:
            writer.write(b"abc")
            writer.write(b"xyz")
        ds = tf.data.TFRecordDataset(path)
        return [items(ds), str(ds.element_spec)]


@program
def p_tfrecord_gzip_writer_and_dataset(tf):
    with Folder() as d:
        path = d.file("c.tfrecord.gz")
        options = tf.io.TFRecordOptions(compression_type="GZIP")
        with tf.io.TFRecordWriter(path, options) as writer:
            for i in range(4):
                writer.write(("record %d" % i).encode() * i)
        return items(tf.data.TFRecordDataset([path], compression_type="GZIP"))


@program
def p_tfrecord_interleaved_files(tf):
    with Folder() as d:
        paths = []
        for k in range(3):
            paths.append(d.file(f"f{k}.tfrecord"))
            with tf.io.TFRecordWriter(paths[-1]) as writer:
                for i in range(k + 2):
                    writer.write(f"{k}-{i}".encode())
        return [items(tf.data.TFRecordDataset(paths, num_parallel_reads=2)),
                items(tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(paths)))]


@program
def p_tfrecord_corrupted(tf):
    with Folder() as d:
        path = d.file("bad.tfrecord")
        with tf.io.TFRecordWriter(path) as writer:
            writer.write(b"hello world")
        data = bytearray(open(path, "rb").read())
        data[14] ^= 1
        open(path, "wb").write(bytes(data))
        return outcome(lambda: list(tf.data.TFRecordDataset(path)), "corrupted record")


# --- list_files, read_file, write_file -------------------------------------------------------------------------
@program
def p_doc_list_files(tf):
    with Folder() as d:
        for name in ("file0.py", "file1.py", "notes.txt", "file2.py"):
            d.file(name, name)
        names = tf.data.Dataset.list_files(os.path.join(d.path, "*.py"), shuffle=False)
        shuffled = tf.data.Dataset.list_files(os.path.join(d.path, "file?.py"), seed=3)
        base = tf.data.Dataset.list_files([os.path.join(d.path, "*.txt"), os.path.join(d.path, "file0.py")],
                                          shuffle=False)
        return [[os.path.basename(p.decode()) for p in names.as_numpy_iterator()],
                sorted(os.path.basename(p.decode()) for p in shuffled.as_numpy_iterator()),
                [os.path.basename(p.decode()) for p in base.as_numpy_iterator()], str(names.element_spec)]


@program
def p_list_files_no_match(tf):
    with Folder() as d:
        return outcome(lambda: tf.data.Dataset.list_files(os.path.join(d.path, "*.zz")), "No files matched pattern")


@program
def p_read_and_write_file(tf):
    with Folder() as d:
        path = os.path.join(d.path, "sub", "dir", "f.bin")
        tf.io.write_file(path, tf.constant(b"\x00bytes\xff"))
        eager = tf.io.read_file(path)

        @tf.function
        def roundtrip(name, text):
            tf.io.write_file(name, text)
            return tf.io.read_file(name)
        graph = roundtrip(tf.constant(path), tf.constant("again"))
        missing = outcome(lambda: tf.io.read_file(os.path.join(d.path, "nope")), "No such file or directory")
        folder = outcome(lambda: tf.io.read_file(d.path), "Is a directory")
        return [sval(eager), sval(graph), missing, folder]


@program
def p_gfile_basics(tf):
    with Folder() as d:
        g = tf.io.gfile
        g.makedirs(os.path.join(d.path, "a", "b"))
        with g.GFile(os.path.join(d.path, "a", "x.txt"), "w") as f:
            f.write("hi\nthere\n")
        with g.GFile(os.path.join(d.path, "a", "x.txt")) as f:
            lines = f.readlines()
        return [g.exists(os.path.join(d.path, "a", "b")), g.isdir(os.path.join(d.path, "a")), sorted(g.listdir(
            os.path.join(d.path, "a"))), [os.path.basename(p) for p in g.glob(os.path.join(d.path, "a", "*"))], lines,
            outcome(lambda: g.listdir(os.path.join(d.path, "zz")), "")]


# --- tf.train.Example and parsing ------------------------------------------------------------------------------
def _example(tf, i):
    return tf.train.Example(features=tf.train.Features(feature={
        "age": tf.train.Feature(int64_list=tf.train.Int64List(value=[20 + i])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"n%d" % i])),
        "scores": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5 * j for j in range(i)])),
    }))


@program
def p_example_proto_round_trip(tf):
    example = _example(tf, 2)
    data = example.SerializeToString(deterministic=True)
    back = tf.train.Example.FromString(data)
    return [data.hex(), back == example, list(back.features.feature["scores"].float_list.value),
            str(tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])))]


def _features(tf):
    return {"age": tf.io.FixedLenFeature([], tf.int64),
            "name": tf.io.FixedLenFeature([], tf.string, default_value=""),
            "scores": tf.io.VarLenFeature(tf.float32),
            "missing": tf.io.FixedLenFeature([2], tf.float32, default_value=[-1.0, -2.0])}


@program
def p_doc_parse_single_example(tf):
    out = tf.io.parse_single_example(_example(tf, 3).SerializeToString(), _features(tf))
    return sval(dict(out))


@program
def p_parse_example_batch_eager_and_graph(tf):
    batch = [_example(tf, i).SerializeToString() for i in range(3)]
    eager = tf.io.parse_example(batch, _features(tf))
    graph = tf.function(lambda b: tf.io.parse_example(b, _features(tf)))(tf.constant(batch))
    return [sval(dict(eager)), sval(dict(graph))]


@program
def p_parse_example_sequence_feature(tf):
    batch = [_example(tf, i).SerializeToString() for i in range(4)]
    out = tf.io.parse_example(batch, {"scores": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                                                              default_value=9.0)})
    return sval(dict(out))


@program
def p_parse_example_errors(tf):
    data = _example(tf, 1).SerializeToString()
    return [outcome(lambda: tf.io.parse_single_example(data, {"nope": tf.io.FixedLenFeature([], tf.int64)}),
                    "is required but could not be found"),
            outcome(lambda: tf.io.parse_single_example(data, {"age": tf.io.FixedLenFeature([], tf.float32)}),
                    "Data types don't match"),
            outcome(lambda: tf.io.parse_single_example(data, {"age": tf.io.FixedLenFeature([3], tf.int64)}),
                    "Key: age"),
            outcome(lambda: tf.io.parse_single_example(data, {"s": tf.io.FixedLenSequenceFeature([], tf.int64)}),
                    "allow_missing")]


@program
def p_parse_in_dataset_map(tf):
    batch = [_example(tf, i).SerializeToString() for i in range(5)]
    features = {"age": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.FixedLenFeature([], tf.string)}
    ds = tf.data.Dataset.from_tensor_slices(batch).map(lambda s: tf.io.parse_single_example(s, features))
    batched = tf.data.Dataset.from_tensor_slices(batch).batch(2).map(lambda s: tf.io.parse_example(s, features))
    return [items(ds), items(batched), str(ds.element_spec)]


@program
def p_examples_tf_wrote(tf):
    features = {"id": tf.io.FixedLenFeature([2], tf.int64), "score": tf.io.FixedLenFeature([], tf.float32),
                "tokens": tf.io.VarLenFeature(tf.string),
                "seq": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                "optional": tf.io.FixedLenFeature([], tf.int64, default_value=-1)}
    out = []
    for name, compression in (("examples.tfrecord", None), ("examples.tfrecord.gz", "GZIP")):
        ds = tf.data.TFRecordDataset(tf_file(name), compression_type=compression).batch(4)
        out.append([sval(dict(tf.io.parse_example(records, features))) for records in ds])
    return out


# --- CSV -------------------------------------------------------------------------------------------------------
@program
def p_doc_decode_csv(tf):
    records = tf.constant(['1,2.5,"a,b"', '3,,x', '4,NA,"say ""hi"""'])
    eager = tf.io.decode_csv(records, [[0], [9.0], [""]], na_value="NA")
    graph = tf.function(lambda r: tf.io.decode_csv(r, [tf.constant(0, tf.int64), [1.5], ["?"]],
                                                   na_value="NA"))(records)
    tabs = tf.io.decode_csv(["a\t1\tz"], [[""], [0]], field_delim="\t", select_cols=[0, 1])
    scalar = tf.io.decode_csv("7,8", [[0], [0.0]])
    return sval([eager, graph, tabs, scalar])


@program
def p_decode_csv_errors(tf):
    return [outcome(lambda: tf.io.decode_csv(["1,2"], [[1], [2], [3]]), "Expect 3 fields but have 2 in record 0"),
            outcome(lambda: tf.io.decode_csv(["1,a"], [[1], [2]]), "Field 1 in record 0 is not a valid int32: a"),
            outcome(lambda: tf.io.decode_csv(["1,"], [[1], tf.constant([], tf.int32)]),
                    "Field 1 is required but missing in record 0!"),
            outcome(lambda: tf.io.decode_csv(["1.5,2"], [[1], [2]]), "not a valid int32: 1.5"),
            outcome(lambda: tf.io.decode_csv(['a"b,2'], [[""], [2]]), "Unquoted fields cannot have quotes"),
            outcome(lambda: tf.io.decode_csv(["99999999999,2"], [[1], [2]]), "not a valid int32")]


CSV_TEXT = 'name,age,score,flag\n"Smith, J",30,1.5,a\nbob,,2,b\nal,25,NA,c\n'


@program
def p_doc_csv_dataset(tf):
    with Folder() as d:
        path = d.file("a.csv", CSV_TEXT)
        ds = tf.data.experimental.CsvDataset(path, [tf.string, tf.constant(0, tf.int64), [0.0], ""], header=True,
                                             na_value="NA")
        selected = tf.data.experimental.CsvDataset(path, [tf.string, [0]], header=True, select_cols=[0, 1])
        excluded = tf.data.experimental.CsvDataset(path, [tf.string, tf.string], header=True, exclude_cols=[1, 2])
        return [items(ds), str(ds.element_spec), items(selected), items(excluded)]


@program
def p_csv_dataset_errors(tf):
    with Folder() as d:
        path = d.file("a.csv", CSV_TEXT)
        return [outcome(lambda: list(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32, tf.float32],
                                                                     header=True)), "Expect 3 fields but have more"),
                outcome(lambda: list(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32], header=False,
                                                                     select_cols=[0, 1])),
                        "Field 1 in record is not a valid int32: age"),
                outcome(lambda: list(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32], header=True,
                                                                     select_cols=[0, 1])),
                        "Field 1 is required but missing in record!")]


@program
def p_doc_make_csv_dataset(tf):
    with Folder() as d:
        path = d.file("a.csv", CSV_TEXT)
        plain = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False, num_epochs=1,
                                                      na_value="NA")
        labeled = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False, num_epochs=1,
                                                        na_value="NA", label_name="age",
                                                        select_columns=["name", "age", "score"])
        forever = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=True, shuffle_seed=1,
                                                        column_defaults=["", 0, 0.0, ""], na_value="NA")
        batch = next(iter(forever))
        return [items(plain), str(plain.element_spec), items(labeled), str(labeled.element_spec),
                str(forever.element_spec), len(sval(batch["flag"])[2]),
                # which rows a shuffled batch holds is TF's shuffle order (not reproduced): only that they are rows
                sorted(set(sval(batch["flag"])[2]) - {"b:a", "b:b", "b:c"})]


@program
def p_csv_tf_wrote(tf):
    path = tf_file("table.csv")
    ds = tf.data.experimental.CsvDataset(path, [tf.string, tf.constant(-1), tf.constant(0.0, tf.float64), ""],
                                         header=True, na_value="NA")
    lines = tf.data.TextLineDataset(path).skip(1).take(1)
    return [items(ds), sval([tf.io.decode_csv(line, [[""], [0], [0.0], [""]]) for line in lines])]


# --- datasets and tf.function ----------------------------------------------------------------------------------
@program
def p_dataset_argument_keyed_by_element_spec(tf):
    traces = []

    @tf.function
    def total(ds):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s
    values = [int(total(tf.data.Dataset.range(5))), int(total(tf.data.Dataset.range(10))),
              int(total(tf.data.Dataset.range(3).map(lambda x: x * 2)))]
    return [values, len(traces)]


@program
def p_dataset_from_function_arguments(tf):
    @tf.function
    def f(x, ds):
        s = tf.constant(0.0)
        for a, b in tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2.0), ds)):
            s += a * tf.cast(b, tf.float32)
        return s
    return sval([f(tf.constant([1.0, 2.0, 3.0]), tf.data.Dataset.range(1, 4)),
                 f(tf.constant([5.0, 6.0]), tf.data.Dataset.range(10, 20))])


@program
def p_var_len_feature_in_dataset_map(tf):
    records = [_example(tf, i).SerializeToString() for i in range(4)]
    ds = tf.data.Dataset.from_tensor_slices(records).map(
        lambda s: tf.io.parse_single_example(s, {"scores": tf.io.VarLenFeature(tf.float32)})["scores"])
    dense = ds.map(lambda sp: tf.sparse.to_dense(sp))
    batched = ds.batch(3).map(lambda sp: tf.sparse.to_dense(sp))
    return [str(ds.element_spec), items(dense), items(batched), [sval(sp) for sp in ds]]
