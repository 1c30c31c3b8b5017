"""File datasets and file ops: TextLineDataset, TFRecordDataset, list_files, tf.io.read_file / write_file,
tf.io.gfile; eagerly, in graphs with passes on and off, against plain Python reading of the same files, and
on the files TensorFlow 2.21 wrote (tests/tf_files/data_io). Also datasets as tf.function arguments (keyed by
element_spec) and datasets built from graph tensors."""

import gzip
import os
import zlib

import numpy as np
import pytest

import tinytf as tf

TF_FILES = os.path.join(os.path.dirname(__file__), "tf_files", "data_io")
LINES_TEXT = "first line\nsecond, with comma\r\n\nünïcode\nno newline at the end"  # what lines.txt holds


def python_lines(text: str) -> list:
    """TF's line splitting in plain Python: split at \\n, drop one \\r before it, no empty last line."""
    data = text.encode()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def graph_lines(ds, passes: bool) -> list:
    """The elements of a string dataset collected by a graph loop (TensorArray), passes on or off."""
    @tf.function
    def collect(ds):
        out = tf.TensorArray(tf.string, size=0, dynamic_size=True)
        i = 0
        for line in ds:
            out = out.write(i, line)
            i += 1
        return out.stack()
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": not passes})
    try:
        return list(collect(ds).numpy())
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
@pytest.mark.parametrize("text", [LINES_TEXT, "", "\n", "one", "a\r\nb\r\n", "x\n\n\ny\n"])
def test_text_lines_all_ways(tmp_path, compression, text):
    raw = text.encode()
    data = {None: raw, "GZIP": gzip.compress(raw), "ZLIB": zlib.compress(raw)}[compression]
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    expected = python_lines(text)
    ds = tf.data.TextLineDataset(str(path), compression_type=compression)
    assert list(ds.as_numpy_iterator()) == expected
    if expected:
        assert graph_lines(ds, True) == expected
        assert graph_lines(ds, False) == expected


def test_text_lines_tf_wrote():
    expected = python_lines(LINES_TEXT)
    assert list(tf.data.TextLineDataset(os.path.join(TF_FILES, "lines.txt")).as_numpy_iterator()) == expected
    gz = tf.data.TextLineDataset(os.path.join(TF_FILES, "lines.txt.gz"), compression_type="GZIP", buffer_size=7)
    assert list(gz.as_numpy_iterator()) == expected


def test_filenames_in_every_form(tmp_path):
    paths = []
    for k in range(3):
        paths.append(str(tmp_path / f"{k}.txt"))
        with open(paths[-1], "w") as f:
            f.write(f"{k}a\n{k}b\n")
    expected = [f"{k}{c}".encode() for k in range(3) for c in "ab"]
    forms = [paths, tuple(paths), np.array(paths), tf.constant(paths), tf.data.Dataset.from_tensor_slices(paths)]
    for form in forms:
        assert list(tf.data.TextLineDataset(form).as_numpy_iterator()) == expected
    assert list(tf.data.TextLineDataset(paths[0]).as_numpy_iterator()) == expected[:2]
    with pytest.raises(TypeError):
        tf.data.TextLineDataset(tf.constant([1, 2]))


def interleave_order(files_lengths, cycle):
    """TF's deterministic interleave with block_length 1 in plain Python: a file that ends hands its slot to
    the next file, which is first read on the following round."""
    pending = list(range(len(files_lengths)))
    slots = [[k, 0] for k in pending[:cycle]]
    pending = pending[cycle:]
    out = []
    while slots:
        i = 0
        while i < len(slots):
            k, at = slots[i]
            if at == files_lengths[k]:
                if pending:
                    slots[i] = [pending.pop(0), 0]
                    i += 1
                else:
                    del slots[i]
                continue
            out.append((k, at))
            slots[i][1] += 1
            i += 1
    return out


@pytest.mark.parametrize("cycle", [1, 2, 3, 5, tf.data.AUTOTUNE])
def test_parallel_reads_interleave(tmp_path, cycle):
    lengths = [2, 0, 3, 1, 4]
    paths = []
    for k, n in enumerate(lengths):
        paths.append(str(tmp_path / f"{k}.tfrecord"))
        with tf.io.TFRecordWriter(paths[-1]) as w:
            for i in range(n):
                w.write(f"{k}-{i}")
    got = list(tf.data.TFRecordDataset(paths, num_parallel_reads=cycle).as_numpy_iterator())
    n_cycle = len(paths) if cycle == tf.data.AUTOTUNE else cycle
    assert got == [f"{k}-{i}".encode() for k, i in interleave_order(lengths, n_cycle)]


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_tfrecord_dataset_round_trip(tmp_path, compression):
    rng = np.random.default_rng(0)
    records = [rng.bytes(int(n)) for n in rng.integers(0, 300, size=40)]
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression)) as w:
        for r in records:
            w.write(r)
    ds = tf.data.TFRecordDataset(path, compression_type=compression)
    assert list(ds.as_numpy_iterator()) == records
    assert [r for r in graph_lines(ds, True)] == records
    assert [r for r in graph_lines(ds.map(lambda r: r), False)] == records


def test_tfrecord_errors_reach_the_consumer(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        w.write(b"good")
        w.write(b"damaged")
    data = bytearray(open(path, "rb").read())
    data[-6] ^= 0xFF
    open(path, "wb").write(bytes(data))
    it = iter(tf.data.TFRecordDataset(path))
    assert next(it).numpy() == b"good"
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at offset 20"):
        next(it)
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        list(tf.data.TFRecordDataset(str(tmp_path / "missing")))
    with pytest.raises(ValueError, match="compression_type"):
        tf.data.TFRecordDataset(path, compression_type="LZMA")


def test_tfrecord_gzip_tf_wrote_matches_plain():
    plain = list(tf.data.TFRecordDataset(os.path.join(TF_FILES, "examples.tfrecord")).as_numpy_iterator())
    gz = list(tf.data.TFRecordDataset(os.path.join(TF_FILES, "examples.tfrecord.gz"), "GZIP").as_numpy_iterator())
    assert plain == gz and len(plain) == 6


def test_list_files(tmp_path):
    for name in ["b.py", "a.py", "c.txt", "d.py"]:
        (tmp_path / name).write_text(name)
    pattern = str(tmp_path / "*.py")
    ordered = [p.decode() for p in tf.data.Dataset.list_files(pattern, shuffle=False).as_numpy_iterator()]
    assert ordered == sorted(str(tmp_path / n) for n in ["a.py", "b.py", "d.py"])
    first = list(tf.data.Dataset.list_files(pattern, seed=4).as_numpy_iterator())
    assert sorted(p.decode() for p in first) == ordered
    assert list(tf.data.Dataset.list_files(pattern, seed=4).as_numpy_iterator()) == first  # a seed repeats
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern"):
        tf.data.Dataset.list_files(str(tmp_path / "*.zip"))


def test_read_and_write_file_all_ways(tmp_path):
    path = str(tmp_path / "deep" / "er" / "f.bin")
    payload = bytes(range(256))
    tf.io.write_file(path, payload)
    assert open(path, "rb").read() == payload

    def read(name):
        return tf.io.read_file(name)
    for passes in (True, False):
        saved = tf.config.optimizer.get_experimental_options()
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            graph = tf.function(read)
            assert graph(tf.constant(path)).numpy() == payload
            with open(path, "wb") as f:  # a graph reads the file each run, never a folded copy
                f.write(b"changed")
            assert graph(tf.constant(path)).numpy() == b"changed"
            tf.function(lambda: tf.io.read_file(path))()
            with open(path, "wb") as f:
                f.write(payload)
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    assert read(path).numpy() == payload
    with pytest.raises(tf.errors.NotFoundError, match="No such file"):
        tf.io.read_file(str(tmp_path / "nope"))
    with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
        tf.io.read_file(str(tmp_path))
    with pytest.raises(ValueError, match="scalar"):
        tf.io.read_file(tf.constant(["a", "b"]))


def test_write_file_in_graph_keeps_program_order(tmp_path):
    path = str(tmp_path / "o.txt")

    @tf.function
    def write_then_read():
        tf.io.write_file(path, "first")
        a = tf.io.read_file(path)
        tf.io.write_file(path, "second")
        return a, tf.io.read_file(path)
    a, b = write_then_read()
    assert (a.numpy(), b.numpy()) == (b"first", b"second")


def test_gfile(tmp_path):
    g = tf.io.gfile
    root = str(tmp_path)
    g.makedirs(os.path.join(root, "x", "y"))
    assert g.exists(os.path.join(root, "x", "y")) and g.isdir(os.path.join(root, "x"))
    with g.GFile(os.path.join(root, "x", "f.txt"), "w") as f:
        f.write("a\r\nb\n")
    with g.GFile(os.path.join(root, "x", "f.txt"), "rb") as f:
        assert f.read() == b"a\r\nb\n"
    with g.GFile(os.path.join(root, "x", "f.txt")) as f:
        assert list(f) == ["a\r\n", "b\n"]
    assert sorted(g.listdir(os.path.join(root, "x"))) == ["f.txt", "y"]  # in the directory's order, as TF
    assert g.glob(os.path.join(root, "x", "*")) == sorted([os.path.join(root, "x", "f.txt"),
                                                           os.path.join(root, "x", "y")])
    g.copy(os.path.join(root, "x", "f.txt"), os.path.join(root, "g.txt"))
    with pytest.raises(tf.errors.OpError):
        g.copy(os.path.join(root, "x", "f.txt"), os.path.join(root, "g.txt"))
    g.rename(os.path.join(root, "g.txt"), os.path.join(root, "h.txt"))
    assert g.stat(os.path.join(root, "h.txt")).length == 5
    g.remove(os.path.join(root, "h.txt"))
    g.rmtree(os.path.join(root, "x"))
    assert not g.exists(os.path.join(root, "x"))
    for fn in (g.listdir, g.remove, g.rmtree, g.stat):
        with pytest.raises(tf.errors.NotFoundError):
            fn(os.path.join(root, "missing"))
    with pytest.raises(tf.errors.NotFoundError):
        g.GFile(os.path.join(root, "missing")).read()


# --- datasets and tf.function ----------------------------------------------------------------------------------
def test_dataset_argument_is_keyed_by_element_spec():
    traces = []

    @tf.function
    def total(ds):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s
    assert int(total(tf.data.Dataset.range(5))) == 10
    assert int(total(tf.data.Dataset.range(10))) == 45           # another dataset of the same spec: no retrace
    assert int(total(tf.data.Dataset.range(3).map(lambda x: x * 2))) == 6
    assert len(traces) == 1
    assert int(total(tf.data.Dataset.range(4).batch(2).map(tf.reduce_sum))) == 6  # spec (): the same trace
    assert len(traces) == 1
    with pytest.raises(TypeError):
        total(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.int32)))  # int32 elements: a new trace
    assert len(traces) == 2
    text = total.pretty_printed_concrete_signatures()
    assert "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))" in text


@pytest.mark.parametrize("passes", [True, False])
def test_datasets_built_from_graph_tensors(passes):
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": not passes})
    try:
        @tf.function
        def f(ds, x):
            pairs = tf.data.Dataset.zip((ds.map(lambda v: v * 2).batch(2), tf.data.Dataset.from_tensor_slices(x)
                                         .batch(2)))
            s = tf.constant(0, tf.int64)
            for a, b in pairs:
                s += tf.reduce_sum(a) * 100 + tf.reduce_sum(b)
            it = iter(ds)
            first = next(it)
            total = tf.data.Dataset.from_tensors(x).reduce(tf.constant(0, tf.int64), lambda acc, v: acc + v[0])
            return s, first, total

        def python(r, x):
            doubled = [2 * v for v in r]
            pairs = zip([doubled[i:i + 2] for i in range(0, len(r), 2)], [x[i:i + 2] for i in range(0, len(x), 2)])
            return sum(sum(a) * 100 + sum(b) for a, b in pairs), r[0], x[0]
        for r, x in ((range(4), [1, 2, 3, 4]), (range(2, 6), [10, 20, 30, 40]), (range(3), [5, 6, 7, 8])):
            out = f(tf.data.Dataset.range(r.start, r.stop), tf.constant(x, tf.int64))
            assert tuple(int(v) for v in out) == python(list(r), x)
        assert len(f._concrete) == 1
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


def test_reader_with_a_filename_argument(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("x\nyy\n")
    b.write_text("zzz\n")

    @tf.function
    def length(names):
        n = tf.constant(0)
        for line in tf.data.TextLineDataset(names):
            n += tf.strings.length(line)
        return n
    assert int(length(tf.constant(str(a)))) == 3
    assert int(length(tf.constant(str(b)))) == 3
    assert int(length(tf.constant([str(a), str(b)]))) == 6


def test_from_tensor_slices_of_a_constant_in_a_graph_keeps_its_cardinality():
    @tf.function
    def f():
        ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
        return ds.cardinality(), ds.reduce(0, lambda a, b: a + b)
    n, s = f()
    assert int(n) == 3 and int(s) == 6
