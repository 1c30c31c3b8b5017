"""tf.data inside graphs: functions of transformations that capture tensors of an enclosing tf.function (an
argument, a variable, a tensor two functions up), datasets whose arguments are graph tensors (range, take,
list_files, the file readers), a dataset built from graph tensors passed on to another tf.function, and
padded_batch / unbatch / rebatch of elements with sparse components."""

from __future__ import annotations

import os
import shutil
import tempfile

from . import KNOWN_DIFFERENCES, outcome, program, val

KNOWN_DIFFERENCES["capture_of_a_finished_function"] = (
    "a tensor leaked from a tf.function that finished tracing: the engine's Graph.capture raises "
    "InaccessibleTensorError (a ValueError) for it, in dataset functions as in any tf.function; TF raises "
    "TypeError '... is out of scope and cannot be used here'")


def items(ds):
    """Elements as tensors, each sparse tensor as its three parts."""
    def plain(x):
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        if hasattr(x, "dense_shape"):
            return {"sparse": [val(x.indices), val(x.values), val(x.dense_shape)]}
        return val(x)
    return [plain(e) for e in ds]


# --- functions that capture the enclosing function's tensors ------------------------------------------------
@program
def p_map_captures_argument(tf):
    ds = tf.data.Dataset.range(5)

    @tf.function
    def f(x):
        return ds.map(lambda e: e * x).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
    return [val(f(tf.constant(3, tf.int64))), val(f(tf.constant(-2, tf.int64)))]


@program
def p_map_captures_in_loop(tf):
    @tf.function
    def f(x, scale):
        total = tf.constant(0.0)
        for e in tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * scale + 1.0):
            total += e
        return total
    return [val(f(tf.constant([1.0, 2.0, 3.0]), tf.constant(2.0))),
            val(f(tf.constant([0.5, 4.0]), tf.constant(-1.0)))]


@program
def p_map_reads_variable(tf):
    v = tf.Variable(2, dtype=tf.int64)
    ds = tf.data.Dataset.range(4)

    @tf.function
    def f():
        return ds.map(lambda e: e * v).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
    first = val(f())
    v.assign(10)
    return [first, val(f())]


@program
def p_capture_two_levels_up(tf):
    @tf.function
    def outer(x):
        @tf.function
        def inner(y):
            return tf.data.Dataset.range(4).map(lambda e: e * x + y).reduce(
                tf.constant(0, tf.int64), lambda a, b: a + b)
        return inner(tf.constant(100, tf.int64))
    return [val(outer(tf.constant(2, tf.int64))), val(outer(tf.constant(3, tf.int64)))]


@program
def p_capture_in_loop_body(tf):
    @tf.function
    def f(n):
        out = tf.constant(0, tf.int64)
        for k in tf.range(n):
            out += tf.data.Dataset.range(3).map(lambda e: e + k).reduce(tf.constant(0, tf.int64),  # noqa: B023
                                                                      lambda a, b: a + b)
        return out
    return val(f(tf.constant(4, tf.int64)))


@program
def p_filter_captures(tf):
    @tf.function
    def f(limit):
        return tf.data.Dataset.range(10).filter(lambda e: e % 3 != limit).reduce(
            tf.constant(0, tf.int64), lambda a, b: a + b)
    return [val(f(tf.constant(0, tf.int64))), val(f(tf.constant(1, tf.int64)))]


@program
def p_reduce_captures(tf):
    @tf.function
    def f(w):
        return tf.data.Dataset.range(1, 5).reduce(tf.constant(0.0), lambda a, b: a + tf.cast(b, tf.float32) * w)
    return [val(f(tf.constant(0.5))), val(f(tf.constant(2.0)))]


@program
def p_scan_captures(tf):
    @tf.function
    def f(step):
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for e in tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, e: (s + e * step, s)):
            out = out.write(i, e)
            i += 1
        return out.stack()
    return [val(f(tf.constant(1, tf.int64))), val(f(tf.constant(3, tf.int64)))]


@program
def p_flat_map_captures(tf):
    @tf.function
    def f(x):
        ds = tf.data.Dataset.range(3).flat_map(lambda e: tf.data.Dataset.from_tensors(e * x).repeat(2))
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)
    return [val(f(tf.constant(1, tf.int64))), val(f(tf.constant(2, tf.int64)))]


@program
def p_interleave_captures(tf):
    @tf.function
    def f(x):
        ds = tf.data.Dataset.range(1, 4).interleave(
            lambda e: tf.data.Dataset.from_tensor_slices(tf.stack([e, e + x])), cycle_length=2)
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for e in ds:
            out = out.write(i, e)
            i += 1
        return out.stack()
    return [val(f(tf.constant(10, tf.int64))), val(f(tf.constant(20, tf.int64)))]


@program
def p_take_while_captures(tf):
    @tf.function
    def f(limit):
        return tf.data.Dataset.range(10).take_while(lambda e: e < limit).reduce(
            tf.constant(0, tf.int64), lambda a, b: a + b)
    return [val(f(tf.constant(4, tf.int64))), val(f(tf.constant(7, tf.int64)))]


@program
def p_map_captures_dict_and_tuple(tf):
    @tf.function
    def f(offset, scale):
        ds = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0], "b": [3, 4]})
        ds = ds.map(lambda d: (d["a"] * scale + offset, d["b"] + tf.cast(offset, tf.int32)))
        return ds.reduce((tf.constant(0.0), tf.constant(0)), lambda s, e: (s[0] + e[0], s[1] + e[1]))
    return val(f(tf.constant(1.0), tf.constant(3.0)))


@program
def p_map_parallel_captures(tf):
    @tf.function
    def f(x):
        ds = tf.data.Dataset.range(20).map(lambda e: e * x, num_parallel_calls=4).batch(5)
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.reduce_sum(b))
    return val(f(tf.constant(2, tf.int64)))


# --- datasets with graph-tensor arguments -----------------------------------------------------------------------
@program
def p_range_of_tensors(tf):
    @tf.function
    def f(start, stop, step):
        return tf.data.Dataset.range(start, stop, step).reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)

    @tf.function
    def g(n):
        total = tf.constant(0, tf.int64)
        for e in tf.data.Dataset.range(n):
            total += e
        return total
    return [val(f(tf.constant(1, tf.int64), tf.constant(8, tf.int64), tf.constant(3, tf.int64))),
            val(f(tf.constant(9, tf.int64), tf.constant(0, tf.int64), tf.constant(-4, tf.int64))),
            val(g(tf.constant(5, tf.int64))), val(g(tf.constant(0, tf.int64)))]


@program
def p_range_of_tensors_spec(tf):
    specs = []

    @tf.function
    def f(n):
        ds = tf.data.Dataset.range(n, output_type=tf.int32)
        specs.append(str(ds.element_spec))
        return ds.reduce(tf.constant(0), lambda a, b: a + b)
    return [val(f(tf.constant(4, tf.int64))), specs]


@program
def p_range_zero_step_in_graph(tf):
    @tf.function
    def f(step):
        return tf.data.Dataset.range(0, 5, step).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
    return outcome(lambda: f(tf.constant(0, tf.int64)), "step")


@program
def p_take_skip_repeat_of_tensors(tf):
    @tf.function
    def f(n, k, r):
        ds = tf.data.Dataset.range(10).skip(k).take(n).repeat(r)
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)
    return [val(f(tf.constant(3, tf.int64), tf.constant(2, tf.int64), tf.constant(2, tf.int64))),
            val(f(tf.constant(2, tf.int64), tf.constant(7, tf.int64), tf.constant(1, tf.int64)))]


@program
def p_batch_size_of_tensor(tf):
    @tf.function
    def f(n):
        out = tf.constant(0, tf.int64)
        for b in tf.data.Dataset.range(7).batch(n):
            out = out * 10 + tf.size(b, out_type=tf.int64)
        return out
    return [val(f(tf.constant(2, tf.int64))), val(f(tf.constant(3, tf.int64)))]


class _Folder:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="data_graph_")
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

    def file(self, name, text):
        path = os.path.join(self.path, name)
        with open(path, "w") as f:
            f.write(text)
        return path


@program
def p_list_files_symbolic_pattern(tf):
    with _Folder() as d:
        d.file("a1.txt", "x\n")
        d.file("a2.txt", "yy\nzzz\n")
        d.file("b1.txt", "q\n")

        @tf.function
        def count(pattern):
            n = tf.constant(0)
            for name in tf.data.Dataset.list_files(pattern, shuffle=False):
                for line in tf.data.TextLineDataset(name):
                    n += tf.strings.length(line)
            return n
        return [val(count(tf.constant(os.path.join(d.path, "a*.txt")))),
                val(count(tf.constant(os.path.join(d.path, "*.txt"))))]


@program
def p_list_files_symbolic_no_match(tf):
    with _Folder() as d:
        @tf.function
        def count(pattern):
            n = tf.constant(0, tf.int64)
            for _ in tf.data.Dataset.list_files(pattern):
                n += 1
            return n
        return outcome(lambda: count(tf.constant(os.path.join(d.path, "*.none"))), "No files matched")


@program
def p_text_line_and_csv_symbolic_filename(tf):
    with _Folder() as d:
        text = d.file("t.txt", "one\ntwo\nthree\n")
        csv = d.file("c.csv", "a,b\n1,2.5\n3,4.5\n")

        @tf.function
        def lines(name):
            n = tf.constant(0)
            for line in tf.data.TextLineDataset(name):
                n += tf.strings.length(line)
            return n

        @tf.function
        def csv_sum(name):
            ds = tf.data.experimental.CsvDataset(name, [tf.int32, tf.float32], header=True)
            return ds.reduce((tf.constant(0), tf.constant(0.0)), lambda s, e: (s[0] + e[0], s[1] + e[1]))
        return [val(lines(tf.constant(text))), val(csv_sum(tf.constant(csv)))]


@program
def p_tfrecord_symbolic_filename(tf):
    with _Folder() as d:
        path = os.path.join(d.path, "r.tfrecord")
        with tf.io.TFRecordWriter(path) as w:
            for s in (b"a", b"bcd", b"ef"):
                w.write(s)

        @tf.function
        def total(name):
            n = tf.constant(0)
            for r in tf.data.TFRecordDataset(name):
                n += tf.strings.length(r)
            return n
        return val(total(tf.constant(path)))


@program
def p_reader_of_symbolic_file_dataset(tf):
    with _Folder() as d:
        for k in range(3):
            with tf.io.TFRecordWriter(os.path.join(d.path, f"r{k}.tfrecord")) as w:
                for i in range(k + 1):
                    w.write(b"x" * (k + i))

        @tf.function
        def total(pattern):
            n = tf.constant(0)
            for r in tf.data.TFRecordDataset(tf.data.Dataset.list_files(pattern, shuffle=False)):
                n = n * 10 + tf.strings.length(r)
            return n
        return [val(total(tf.constant(os.path.join(d.path, "r*.tfrecord")))),
                val(total(tf.constant(os.path.join(d.path, "r2.tfrecord"))))]


@program
def p_bad_graph_tensor_arguments(tf):
    @tf.function
    def batch_of(n):
        return tf.data.Dataset.range(5).batch(n).reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.size(
            b, out_type=tf.int64))

    @tf.function
    def range_of(x):
        return tf.data.Dataset.range(x).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    @tf.function
    def files_of(n):
        return tf.data.TextLineDataset(n).reduce(tf.constant(0), lambda a, b: a + 1)
    return [outcome(lambda: batch_of(tf.constant(0, tf.int64)), "batch"),
            outcome(lambda: batch_of(tf.constant(-2, tf.int64)), "batch"),
            outcome(lambda: files_of(tf.constant(3)), "string")]


@program
def p_capture_of_a_finished_function(tf):
    leaked = []

    @tf.function
    def leak(x):
        leaked.append(x * 2)
        return x

    leak(tf.constant(1, tf.int64))

    @tf.function
    def use():
        return tf.data.Dataset.range(3).map(lambda e: e + leaked[0]).reduce(tf.constant(0, tf.int64),
                                                                             lambda a, b: a + b)
    return outcome(use, "")


# --- a dataset built from graph tensors passed on to another tf.function --------------------------------------
@program
def p_dataset_of_arguments_to_inner_function(tf):
    @tf.function
    def consume(ds):
        total = tf.constant(0.0)
        for e in ds:
            total += e
        return total

    @tf.function
    def outer(x, scale):
        return consume(tf.data.Dataset.from_tensor_slices(x).map(lambda e: e * scale))
    return [val(outer(tf.constant([1.0, 2.0]), tf.constant(3.0))),
            val(outer(tf.constant([5.0, 1.0, 1.0]), tf.constant(-1.0)))]


@program
def p_dataset_of_range_to_inner_function(tf):
    @tf.function
    def consume(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    @tf.function
    def outer(n):
        return consume(tf.data.Dataset.range(n).batch(2).unbatch())
    return [val(outer(tf.constant(5, tf.int64))), val(outer(tf.constant(3, tf.int64)))]


@program
def p_dataset_of_graph_tensors_returned(tf):
    @tf.function
    def make(n, x):
        return tf.data.Dataset.range(n).map(lambda e: e * x)
    first = make(tf.constant(4, tf.int64), tf.constant(3, tf.int64))
    second = make(tf.constant(2, tf.int64), tf.constant(5, tf.int64))
    return [items(first), items(second), items(first), str(first.element_spec)]


# --- sparse elements ---------------------------------------------------------------------------------------------
def _sparse_rows(tf):
    """Three sparse vectors of dense shapes [3], [2], [4], through a map (as parse_example's VarLenFeature)."""
    ds = tf.data.Dataset.range(3)

    def row(i):
        n = i + 1
        idx = tf.reshape(tf.range(n), [-1, 1])
        return tf.sparse.SparseTensor(idx, tf.cast(tf.range(n) + 10 * i, tf.float32), tf.stack([n + 1]))
    return ds.map(row)


@program
def p_sparse_batch_unbatch(tf):
    ds = _sparse_rows(tf)
    batched = ds.batch(2)
    back = batched.unbatch()
    return [items(batched), str(batched.element_spec), items(back), str(back.element_spec)]


@program
def p_sparse_padded_batch(tf):
    ds = _sparse_rows(tf)
    return outcome(lambda: items(ds.padded_batch(2)), "")


@program
def p_sparse_padded_batch_with_dense(tf):
    ds = tf.data.Dataset.zip((_sparse_rows(tf), tf.data.Dataset.range(3).map(lambda i: tf.fill([i + 1], i))))
    return outcome(lambda: items(ds.padded_batch(2, padded_shapes=(None, [None]))), "")


@program
def p_sparse_unbatch_in_function(tf):
    ds = _sparse_rows(tf).batch(3)

    @tf.function
    def f():
        total = tf.constant(0.0)
        for s in ds.unbatch():
            total += tf.sparse.reduce_sum(s) + tf.cast(s.dense_shape[0], tf.float32)
        return total
    return val(f())


@program
def p_sparse_rebatch(tf):
    ds = _sparse_rows(tf).batch(3)
    if not hasattr(ds, "rebatch"):
        return "no rebatch"
    return outcome(lambda: items(ds.rebatch(2)), "")


@program
def p_sparse_matrix_unbatch(tf):
    s = tf.sparse.SparseTensor([[0, 0, 1], [0, 1, 0], [1, 1, 2]], [1, 2, 3], [2, 2, 3])
    ds = tf.data.Dataset.from_tensors(s).unbatch()
    return [items(ds), str(ds.element_spec)]


@program
def p_sparse_from_tensor_slices(tf):
    s = tf.sparse.SparseTensor([[0, 1], [2, 0], [2, 2]], [1.0, 2.0, 3.0], [3, 4])
    ds = tf.data.Dataset.from_tensor_slices(s)
    return [items(ds), str(ds.element_spec), items(ds.batch(2))]
