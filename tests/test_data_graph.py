"""tf.data inside graphs: functions that read the enclosing tf.function's tensors, datasets whose arguments are
graph tensors, datasets of graph tensors passed on to another tf.function, and sparse elements through
unbatch / rebatch / from_tensor_slices. Each case runs eagerly and inside @tf.function, with the optimizer's
passes on and off, against plain Python."""

import os

import numpy as np
import pytest

import tinytf as tf


def elements(ds) -> list:
    return [e.numpy().tolist() for e in ds]


def in_graph(make, *args) -> list:
    """The elements of make(*args) collected by a loop inside a tf.function (a TensorArray)."""
    @tf.function
    def run(*a):
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for e in make(*a):
            out = out.write(i, tf.cast(e, tf.int64))
            i += 1
        return out.stack()
    return run(*[tf.constant(a, tf.int64) for a in args]).numpy().tolist()


# --- functions reading the enclosing function's tensors -------------------------------------------------------
CAPTURING = {
    "map": (lambda x: tf.data.Dataset.range(6).map(lambda e: e * x + 1),
            lambda x: [e * x + 1 for e in range(6)]),
    "filter": (lambda x: tf.data.Dataset.range(12).filter(lambda e: e % x == 0),
               lambda x: [e for e in range(12) if e % x == 0]),
    "take_while": (lambda x: tf.data.Dataset.range(12).take_while(lambda e: e * e < x),
                   lambda x: [e for e in range(12) if all(k * k < x for k in range(e + 1))]),
    "scan": (lambda x: tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, e: (s + e * x, s + x)),
             lambda x: [sum(k * x for k in range(e)) + x for e in range(5)]),
    "flat_map": (lambda x: tf.data.Dataset.range(3).flat_map(
        lambda e: tf.data.Dataset.from_tensor_slices(tf.stack([e, e * x]))),
                 lambda x: [v for e in range(3) for v in (e, e * x)]),
    "interleave": (lambda x: tf.data.Dataset.range(3).interleave(
        lambda e: tf.data.Dataset.range(e * x, e * x + 2), cycle_length=2),
                   None),
    "parallel_map": (lambda x: tf.data.Dataset.range(30).map(lambda e: e - x, num_parallel_calls=3),
                     lambda x: [e - x for e in range(30)]),
    "map_then_batch": (lambda x: tf.data.Dataset.range(7).map(lambda e: e + x).batch(3).unbatch(),
                       lambda x: [e + x for e in range(7)]),
}


def _interleave_expected(x):
    """cycle_length 2 over [0, 2), [x, x+2), [2x, 2x+2), one element each in turn."""
    blocks = [list(range(e * x, e * x + 2)) for e in range(3)]
    return [blocks[0][0], blocks[1][0], blocks[0][1], blocks[1][1], blocks[2][0], blocks[2][1]]


@pytest.mark.parametrize("name", sorted(CAPTURING))
def test_capturing_function_matches_python(name, passes):
    make, expected = CAPTURING[name]
    expected = expected or _interleave_expected
    for x in (2, 3, 5):
        assert elements(make(tf.constant(x, tf.int64))) == expected(x)  # eagerly: the closure's value
        assert in_graph(make, x) == expected(x)  # in a graph: the argument's value on each call


def test_reduce_reads_argument_and_traces_once(passes):
    traces = []

    def add(a, b):
        traces.append(1)
        return a + b * w

    @tf.function
    def f(x):
        nonlocal w
        w = x
        return tf.data.Dataset.range(1, 5).reduce(tf.constant(0, tf.int64), add)

    w = None
    assert [int(f(tf.constant(k, tf.int64))) for k in (1, 2, 7)] == [10 * k for k in (1, 2, 7)]
    assert len(traces) == 1  # one trace of the function, one trace of the reducer inside it


def test_map_function_traced_once_per_outer_trace(passes):
    traces = []

    def scale(e):
        traces.append(1)
        return e * 2

    @tf.function
    def f(x):
        return tf.data.Dataset.range(4).map(lambda e: scale(e) + x).reduce(tf.constant(0, tf.int64),
                                                                           lambda a, b: a + b)
    assert [int(f(tf.constant(k, tf.int64))) for k in (0, 1, 10)] == [12, 16, 52]
    assert len(traces) == 1


def test_map_reads_variable_value_of_each_run(passes):
    v = tf.Variable(3.0)
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0])

    @tf.function
    def f(x):
        return ds.map(lambda e: e * v + x).reduce(tf.constant(0.0), lambda a, b: a + b)
    assert float(f(tf.constant(1.0))) == 11.0
    v.assign(-1.0)
    assert float(f(tf.constant(1.0))) == -1.0


def test_capture_from_two_functions_up_and_from_a_loop_body(passes):
    @tf.function
    def outer(x):
        @tf.function
        def inner(y):
            return tf.data.Dataset.range(3).map(lambda e: e * x - y).reduce(tf.constant(0, tf.int64),
                                                                            lambda a, b: a + b)
        total = tf.constant(0, tf.int64)
        for k in tf.range(x):
            total += tf.data.Dataset.range(2).map(lambda e: e + k).reduce(tf.constant(0, tf.int64),  # noqa: B023
                                                                        lambda a, b: a + b)
        return inner(tf.constant(1, tf.int64)), total

    for x in (2, 4):
        got = [int(t) for t in outer(tf.constant(x, tf.int64))]
        assert got == [sum(e * x - 1 for e in range(3)), sum(e + k for k in range(x) for e in range(2))]


def test_capturing_map_inside_cond_branch_of_the_function(passes):
    @tf.function
    def f(x):
        def mapped(e):
            if e > 1:
                return e * x
            return -x
        return tf.data.Dataset.range(4).map(mapped).reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)
    assert int(f(tf.constant(3, tf.int64))) == ((-3 * 10 - 3) * 10 + 6) * 10 + 9


def test_capturing_map_with_dict_elements_and_float_captures(passes):
    @tf.function
    def f(offset):
        ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(4, dtype=np.float32), "b": np.arange(4)})
        ds = ds.map(lambda d: {"a": d["a"] + offset, "b": d["b"] * 2})
        return ds.reduce((tf.constant(0.0), tf.constant(0, tf.int64)), lambda s, d: (s[0] + d["a"], s[1] + d["b"]))
    a, b = f(tf.constant(0.5))
    assert float(a) == 0 + 1 + 2 + 3 + 4 * 0.5 and int(b) == 12


def test_map_output_of_captured_tensor_only(passes):
    @tf.function
    def f(x):
        return tf.data.Dataset.range(3).map(lambda e: x).reduce(tf.constant(0.0), lambda a, b: a + b)
    assert float(f(tf.constant(2.5))) == 7.5


# --- datasets whose arguments are graph tensors ------------------------------------------------------------------
@pytest.mark.parametrize("bounds", [(5,), (0,), (2, 9), (9, 2), (1, 10, 3), (10, 1, -4), (-3, 3, 2)])
def test_range_of_tensors_matches_python(bounds, passes):
    assert elements(tf.data.Dataset.range(*bounds)) == list(range(*bounds))
    assert in_graph(lambda *b: tf.data.Dataset.range(*b), *bounds) == list(range(*bounds))


def test_range_of_tensors_spec_and_zero_step(passes):
    @tf.function
    def f(n):
        ds = tf.data.Dataset.range(n, output_type=tf.int32)
        assert ds.element_spec == tf.TensorSpec((), tf.int32)
        return ds.reduce(tf.constant(0), lambda a, b: a + b)
    assert int(f(tf.constant(5, tf.int64))) == 10

    @tf.function
    def g(step):
        return tf.data.Dataset.range(0, 4, step).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
    assert int(g(tf.constant(2, tf.int64))) == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="step"):
        g(tf.constant(0, tf.int64))


@pytest.mark.parametrize("args", [(3, 2, 2, 2), (0, 1, 1, 5), (4, 9, 3, 1), (2, 0, 2, 3)])
def test_counts_of_tensors_match_python(args, passes):
    take, skip, repeat, batch = args

    def make(t, s, r, b):
        return tf.data.Dataset.range(10).skip(s).take(t).repeat(r).batch(b).map(tf.reduce_sum)
    expected_rows = [e for _ in range(repeat) for e in list(range(10))[skip:][:take]]
    expected = [sum(expected_rows[i:i + batch]) for i in range(0, len(expected_rows), batch)]
    assert in_graph(make, *args) == expected
    assert elements(make(*[tf.constant(a, tf.int64) for a in args])) == expected


def test_shard_and_shuffle_of_tensors(passes):
    def make(n, i):
        return tf.data.Dataset.range(10).shard(n, i).shuffle(n * 2, seed=1)
    assert sorted(in_graph(make, 3, 1)) == [1, 4, 7]
    assert sorted(in_graph(make, 4, 0)) == [0, 4, 8]


def test_graph_constants_are_values(passes):
    @tf.function
    def f():
        ds = tf.data.Dataset.range(tf.constant(4, tf.int64)).take(tf.constant(3, tf.int64))
        assert ds.cardinality().numpy() == 3  # known while tracing: constants are not graph inputs
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
    assert int(f()) == 3


def _write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_list_files_and_readers_of_graph_strings(tmp_path, passes):
    folder = str(tmp_path)
    _write(folder, "a.csv", "x,y\n1,2\n3,4\n")
    _write(folder, "b.csv", "x,y\n5,6\n")
    _write(folder, "c.txt", "hello\nworld\n")

    @tf.function
    def csv_total(pattern):
        files = tf.data.Dataset.list_files(pattern, shuffle=False)
        total = tf.constant(0)
        for name in files:
            for x, y in tf.data.experimental.CsvDataset(name, [tf.int32, tf.int32], header=True):
                total += x * y
        return total

    @tf.function
    def line_count(pattern):
        n = tf.constant(0, tf.int64)
        for _ in tf.data.TextLineDataset(tf.data.Dataset.list_files(pattern, shuffle=False)):
            n += 1
        return n
    assert int(csv_total(tf.constant(os.path.join(folder, "*.csv")))) == 1 * 2 + 3 * 4 + 5 * 6
    assert int(csv_total(tf.constant(os.path.join(folder, "b.csv")))) == 30
    assert int(line_count(tf.constant(os.path.join(folder, "*")))) == 3 + 2 + 2  # lines of a.csv, b.csv, c.txt
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched"):
        line_count(tf.constant(os.path.join(folder, "*.none")))
    with pytest.raises(TypeError, match="tf.string"):
        tf.function(lambda n: tf.data.experimental.CsvDataset(n, [tf.int32]).reduce(
            tf.constant(0), lambda a, b: a + b[0]))(tf.constant(1))


# --- a dataset of graph tensors passed on to another tf.function ---------------------------------------------------
def test_dataset_of_graph_tensors_passes_to_inner_function(passes):
    inner_traces = []

    @tf.function
    def consume(ds):
        inner_traces.append(ds.element_spec)
        return ds.reduce(tf.constant(0.0), lambda a, b: a + b)

    @tf.function
    def outer(x, scale):
        return consume(tf.data.Dataset.from_tensor_slices(x).map(lambda e: e * scale)), \
            consume(tf.data.Dataset.range(3).map(lambda e: tf.cast(e, tf.float32) + scale))

    for x, scale in (([1.0, 2.0], 3.0), ([4.0], -1.0), ([0.5, 0.5, 1.0], 2.0)):
        a, b = outer(tf.constant(x), tf.constant(scale))
        assert float(a) == sum(v * scale for v in x) and float(b) == sum(e + scale for e in range(3))
    assert len(inner_traces) == 1  # keyed by element spec: both datasets have float32 scalar elements
    ops = outer.get_concrete_function(tf.constant([1.0]), tf.constant(1.0)).graph.op_types()
    assert "dataset_bind" in ops


# --- sparse elements -------------------------------------------------------------------------------------------------
def _sparse_rows_dataset():
    """Sparse vectors of dense shapes [2], [3], [4] with 1, 2, 3 values."""
    def row(i):
        n = i + 1
        return tf.sparse.SparseTensor(tf.reshape(tf.range(n), [-1, 1]), tf.cast(tf.range(n) + 10 * i, tf.float32),
                                      tf.stack([n + 1]))
    return tf.data.Dataset.range(3).map(row)


def _dense(s):
    return tf.sparse.to_dense(s).numpy().tolist()


def test_sparse_unbatch_rows_keep_the_batch_dense_shape(passes):
    unbatched = _sparse_rows_dataset().batch(2).unbatch()
    assert str(unbatched.element_spec) == "SparseTensorSpec(TensorShape([None]), tf.float32)"
    assert [_dense(s) for s in unbatched] == [[0.0, 0.0, 0.0], [10.0, 11.0, 0.0], [20.0, 21.0, 22.0, 0.0]]

    @tf.function
    def total():
        t = tf.constant(0.0)
        for s in unbatched:
            t += tf.sparse.reduce_sum(s) * tf.cast(s.dense_shape[0], tf.float32)
        return t
    assert float(total()) == 0 * 3 + 21 * 3 + 63 * 4


def test_sparse_rebatch_and_from_tensor_slices(passes):
    batched = _sparse_rows_dataset().batch(3)
    rebatched = list(batched.rebatch(2))
    assert [s.dense_shape.numpy().tolist() for s in rebatched] == [[2, 4], [1, 4]]
    assert _dense(rebatched[0]) == [[0.0, 0.0, 0.0, 0.0], [10.0, 11.0, 0.0, 0.0]]
    matrix = tf.sparse.SparseTensor([[0, 1], [2, 0], [2, 3]], [1, 2, 3], [3, 4])
    rows = list(tf.data.Dataset.from_tensor_slices(matrix))
    assert [_dense(r) for r in rows] == tf.sparse.to_dense(matrix).numpy().tolist()
    assert [_dense(b) for b in tf.data.Dataset.from_tensor_slices(matrix).batch(2)] == [
        [[0, 1, 0, 0], [0, 0, 0, 0]], [[2, 0, 0, 3]]]
    assert [_dense(s) for s in tf.data.Dataset.from_tensors(matrix).unbatch()] == _dense(matrix)


def test_sparse_padded_batch_raises_tf_type_error():
    with pytest.raises(TypeError, match="padded_batch.*SparseTensorSpec"):
        _sparse_rows_dataset().padded_batch(2)


def test_group_by_window_and_buckets_read_arguments(passes):
    @tf.function
    def grouped(k):
        ds = tf.data.Dataset.range(10).group_by_window(lambda e: e % k, lambda key, w: w.batch(10), window_size=10)
        return ds.map(tf.reduce_sum).reduce(tf.constant(0, tf.int64), lambda a, b: a * 100 + b)

    @tf.function
    def bucketed(limit):
        ds = tf.data.Dataset.range(1, 7).map(lambda n: tf.fill([n], n))
        ds = ds.bucket_by_sequence_length(lambda v: tf.cast(tf.size(v), tf.int32) + limit, [4], [2, 10])
        return ds.map(lambda b: tf.shape(b, out_type=tf.int64)[0]).reduce(tf.constant(0, tf.int64),
                                                                           lambda a, b: a * 10 + b)

    def python_grouped(k):
        sums = [sum(e for e in range(10) if e % k == key) for key in range(k)]
        total = 0
        for s in sums:
            total = total * 100 + s
        return total
    for k in (2, 3):
        assert int(grouped(tf.constant(k, tf.int64))) == python_grouped(k)
    assert int(bucketed(tf.constant(0))) == 2 * 100 + 1 * 10 + 3  # lengths 1..3 in bucket 0 (batches 2, 1)
    assert int(bucketed(tf.constant(2))) == 1 * 10 + 5  # only length 1 below 4


# --- per-element calls of traced functions (the compiled graph called directly) -----------------------------------
def test_eager_map_reads_variable_per_iteration_and_raises_element_errors():
    v = tf.Variable(2, dtype=tf.int64)
    ds = tf.data.Dataset.range(4).map(lambda e: e * v)
    assert elements(ds) == [0, 2, 4, 6]
    v.assign(5)
    assert elements(ds) == [0, 5, 10, 15]  # the variable is read when each element is computed
    table = tf.constant([10, 20, 30], tf.int64)
    looked_up = tf.data.Dataset.range(5).map(lambda i: tf.gather(table, i))
    with pytest.raises(tf.errors.InvalidArgumentError):
        elements(looked_up)
    assert elements(looked_up.ignore_errors()) == [10, 20, 30]
    with tf.GradientTape():  # a recording tape: the ConcreteFunction's own call path, same results
        assert elements(ds.filter(lambda e: e > 5)) == [10, 15]
    strings = tf.data.Dataset.from_tensor_slices(["a", "bb"]).map(lambda s: tf.strings.length(s) * 2)
    assert elements(strings) == [2, 4]


def test_window_prefetch_enumerate_of_tensors_and_captures_with_counts(passes):
    def windows(size, shift):
        return tf.data.Dataset.range(7).window(size, shift, drop_remainder=True).flat_map(
            lambda w: w.batch(size)).map(tf.reduce_sum)

    for size, shift in ((2, 1), (3, 2)):
        expected = [sum(range(s, s + size)) for s in range(0, 7 - size + 1, shift)]
        assert in_graph(windows, size, shift) == expected
        assert elements(windows(tf.constant(size, tf.int64), tf.constant(shift, tf.int64))) == expected

    def pipeline(x, n, start):
        return tf.data.Dataset.range(10).map(lambda e: e * x).take(n).prefetch(n).enumerate(start).map(
            lambda i, e: i * 100 + e)

    for x, n, start in ((2, 3, 0), (3, 5, 7)):
        expected = [(start + i) * 100 + e * x for i, e in enumerate(range(n))]
        assert in_graph(pipeline, x, n, start) == expected
