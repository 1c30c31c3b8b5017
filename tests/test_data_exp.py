"""tf.data.experimental's transformations, sources and utilities beyond the conformance programs
(tests/conformance/data_exp*.py): against numpy and plain Python, inside tf.function with passes on and off
(datasets built from a function's arguments too), and the behaviours TF documents without an example."""

import os
import sqlite3
import zlib

import numpy as np
import pytest

import tinytf as tf

E = tf.data.experimental


def test_sparse_batch_is_the_dense_padded_batch(passes):
    rng = np.random.default_rng(0)
    rows = [rng.integers(1, 9, size=(n, 3 - n % 2)) for n in (1, 3, 2, 2, 1)]
    ds = tf.data.Dataset.from_generator(lambda: iter(rows), output_signature=tf.TensorSpec([None, None], tf.int64))
    got = [tf.sparse.to_dense(b).numpy() for b in ds.sparse_batch(2, [4, 3])]
    for i, batch in enumerate(got):
        chunk = rows[2 * i:2 * i + 2]
        expected = np.zeros((len(chunk), 4, 3), np.int64)
        for j, r in enumerate(chunk):
            expected[j, :r.shape[0], :r.shape[1]] = r
        np.testing.assert_array_equal(batch, expected)

    @tf.function
    def entries(n):
        total = tf.constant(0, tf.int64)
        for b in tf.data.Dataset.range(n).map(lambda k: tf.fill([k], k)).sparse_batch(3, [10]):
            total += tf.size(b.values, out_type=tf.int64) * 100 + tf.reduce_sum(b.values)
        return total

    expected = sum(k * 100 + k * k for k in range(6))  # k entries of value k
    assert int(entries(tf.constant(6, tf.int64))) == expected


def test_group_by_reducer_matches_python_and_reads_function_arguments(passes):
    values = [5, 3, 8, 1, 4, 7, 2, 9, 6]
    reducer = E.Reducer(lambda key: (tf.constant(0, tf.int64), tf.constant(0, tf.int64)),
                        lambda s, x: (s[0] + x, s[1] + 1), lambda total, count: tf.stack([total, count]))

    @tf.function
    def grouped(modulus):
        ds = tf.data.Dataset.from_tensor_slices(tf.constant(values, tf.int64))
        out = ds.apply(E.group_by_reducer(lambda x: x % modulus, reducer))
        return out.reduce(tf.zeros([2], tf.int64), lambda acc, row: acc * 1000 + row)

    for m in (2, 3):
        groups = {}
        for v in values:
            groups.setdefault(v % m, []).append(v)
        expected = np.zeros(2, np.int64)
        for key in sorted(groups):
            expected = expected * 1000 + np.array([sum(groups[key]), len(groups[key])])
        np.testing.assert_array_equal(grouped(tf.constant(m, tf.int64)).numpy(), expected)


def test_assert_cardinality_inside_a_function_fails_when_it_runs(passes):
    @tf.function
    def total(n):
        ds = tf.data.Dataset.range(n).apply(E.assert_cardinality(3))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    assert int(total(tf.constant(3, tf.int64))) == 3
    with pytest.raises(tf.errors.FailedPreconditionError, match="expected to contain 3 elements"):
        total(tf.constant(5, tf.int64))


def test_fixed_length_records_of_compressed_files_and_function_arguments(tmp_path, passes):
    body = bytes(range(40))
    plain, packed = tmp_path / "plain.bin", tmp_path / "packed.z"
    plain.write_bytes(b"HEAD" + body + b"FT")
    packed.write_bytes(zlib.compress(b"HEAD" + body + b"FT"))
    expected = [body[i:i + 8] for i in range(0, 40, 8)]
    assert list(tf.data.FixedLengthRecordDataset(str(plain), 8, 4, 2).as_numpy_iterator()) == expected
    zipped = tf.data.FixedLengthRecordDataset(str(packed), 8, 4, 2, compression_type="ZLIB")
    assert list(zipped.as_numpy_iterator()) == expected

    @tf.function
    def first_bytes(name):
        ds = tf.data.FixedLengthRecordDataset(name, 8, header_bytes=4, footer_bytes=2)
        ds = ds.map(lambda r: tf.cast(tf.io.decode_raw(r, tf.uint8)[0], tf.int32))
        return ds.reduce(tf.constant(0), lambda s, x: s * 100 + x)

    assert int(first_bytes(tf.constant(str(plain)))) == int("".join(f"{b:02d}" for b in (0, 8, 16, 24, 32)))


def test_sql_dataset_reads_a_query_each_iteration(tmp_path, passes):
    db = str(tmp_path / "t.db")
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE t (k INTEGER, v TEXT)")
        c.executemany("INSERT INTO t VALUES (?, ?)", [(i, "v%d" % i) for i in range(5)])
    ds = E.SqlDataset("sqlite", db, "SELECT k, v FROM t WHERE k % 2 = 0", (tf.int64, tf.string))
    assert [(int(k), v.numpy()) for k, v in ds] == [(0, b"v0"), (2, b"v2"), (4, b"v4")]
    with sqlite3.connect(db) as c:
        c.execute("INSERT INTO t VALUES (6, 'v6')")
    assert [int(k) for k, _ in ds] == [0, 2, 4, 6]  # the query runs when iteration starts

    @tf.function
    def keys():
        return ds.reduce(tf.constant(0, tf.int64), lambda s, row: s + row[0])

    assert int(keys()) == 12


def test_tf_record_writer_inside_python_and_its_round_trip(tmp_path):
    path = str(tmp_path / "out.tfrecord")
    records = tf.data.Dataset.range(20).map(lambda x: tf.strings.as_string(x * x))
    E.TFRecordWriter(path, compression_type="ZLIB").write(records)
    back = [r.decode() for r in tf.data.TFRecordDataset(path, "ZLIB").as_numpy_iterator()]
    assert back == [str(k * k) for k in range(20)]


def test_parse_example_dataset_equals_parse_example_per_batch(tmp_path):
    path = str(tmp_path / "e.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(5):
            feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i / 2])),
                       "tags": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i))))}
            w.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    features = {"x": tf.io.FixedLenFeature([2], tf.float32), "tags": tf.io.VarLenFeature(tf.int64)}
    batches = tf.data.TFRecordDataset(path).batch(2)
    for got, raw in zip(batches.apply(E.parse_example_dataset(features, num_parallel_calls=2)), batches):
        expected = tf.io.parse_example(raw, features)
        np.testing.assert_array_equal(got["x"].numpy(), expected["x"].numpy())
        np.testing.assert_array_equal(tf.sparse.to_dense(got["tags"]).numpy(),
                                      tf.sparse.to_dense(expected["tags"]).numpy())


def test_make_batched_features_dataset_repeats_forever_by_default(tmp_path):
    path = str(tmp_path / "e.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(3):
            feature = {"n": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}
            w.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    ds = E.make_batched_features_dataset(path, 2, {"n": tf.io.FixedLenFeature([], tf.int64)}, shuffle=False)
    assert ds.element_spec["n"].shape.as_list() == [2]  # drop_remainder: repeated forever, every batch is full
    got = [b["n"].numpy().tolist() for b in ds.take(4)]
    assert got == [[0, 1], [2, 0], [1, 2], [0, 1]]


def test_table_from_dataset_in_a_function(passes):
    keys = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])
    table = E.index_table_from_dataset(keys)

    @tf.function
    def ids(words):
        return table.lookup(words)

    assert ids(tf.constant(["c", "a", "zz"])).numpy().tolist() == [2, 0, -1]


def test_to_variant_and_from_variant(passes):
    ds = tf.data.Dataset.range(4).map(lambda x: x * 3)
    variant = E.to_variant(ds)
    assert variant.dtype.name == "variant" and variant.shape.as_list() == []
    again = E.from_variant(variant, ds.element_spec)
    assert [int(x) for x in again] == [0, 3, 6, 9]

    @tf.function
    def through(d):
        return E.from_variant(E.to_variant(d), d.element_spec).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    assert int(through(ds)) == 18


def test_enable_debug_mode_makes_parallel_maps_sequential(monkeypatch):
    from tinytf.data import debug_mode

    monkeypatch.setattr(debug_mode, "enabled", False)
    E.enable_debug_mode()
    assert debug_mode.enabled
    seen = []

    def note(x):
        seen.append(int(x))
        return x

    ds = tf.data.Dataset.range(30).map(lambda x: tf.py_function(note, [x], tf.int64), num_parallel_calls=8,
                                       deterministic=False)
    assert [int(x) for x in ds] == list(range(30)) and seen == list(range(30))

    @tf.function
    def in_graph():
        E.enable_debug_mode()

    with pytest.raises(ValueError, match="eager mode"):
        in_graph()


def test_device_transformations_refuse_other_devices():
    ds = tf.data.Dataset.range(2)
    assert [int(x) for x in ds.apply(E.copy_to_device("/job:localhost/replica:0/task:0/device:CPU:0"))] == [0, 1]
    with pytest.raises(ValueError, match="CPU only"):
        E.prefetch_to_device("/gpu:0")
    with pytest.raises(ValueError, match="CPU only"):
        E.copy_to_device("/device:GPU:1")


def test_options_groups_merge_later_settings_over_earlier_ones():
    first, second = tf.data.Options(), tf.data.Options()
    first.autotune.ram_budget = 10
    first.experimental_optimization.map_fusion = True
    second.experimental_optimization.map_fusion = False
    second.threading.private_threadpool_size = 4
    merged = first.merge(second)
    assert merged.autotune.ram_budget == 10 and merged.experimental_optimization.map_fusion is False
    assert merged.threading.private_threadpool_size == 4 and merged.experimental_threading.private_threadpool_size == 4
    assert first.experimental_optimization.map_fusion is True  # merge makes a new Options
    with pytest.raises(TypeError):
        first.experimental_distribute.auto_shard_policy = "FILE"
    first.experimental_distribute.auto_shard_policy = 1  # an int value of the enum, as TF accepts
    assert tf.data.Dataset.range(2).with_options(first).options().experimental_distribute.auto_shard_policy == 1


def test_at_reads_the_element_without_changing_iteration():
    ds = tf.data.Dataset.range(100).map(lambda x: x * x).batch(7)
    np.testing.assert_array_equal(E.at(ds, 3).numpy(), [k * k for k in range(21, 28)])
    assert [b.shape[0] for b in ds][-1] == 2


def test_lookup_table_initializer_reads_the_dataset_once(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("x\ny\nz\n")
    keys = tf.data.TextLineDataset(str(path))
    table = tf.lookup.StaticHashTable(E.DatasetInitializer(tf.data.Dataset.zip((keys, keys.map(tf.strings.upper)))),
                                      "?")
    os.remove(path)  # the table holds its entries: the file is no longer needed
    assert table.lookup(tf.constant(["y", "q"])).numpy().tolist() == [b"Y", b"?"]


def test_tf_record_writer_inside_a_function_writes_when_it_runs(tmp_path, passes):
    path = str(tmp_path / "out.tfrecord")
    writer = E.TFRecordWriter(path)

    @tf.function
    def write(n):
        writer.write(tf.data.Dataset.range(n).map(lambda x: tf.strings.as_string(x)))

    assert not os.path.exists(path)  # nothing written while tracing
    write(tf.constant(3, tf.int64))
    assert list(tf.data.TFRecordDataset(path).as_numpy_iterator()) == [b"0", b"1", b"2"]
    write(tf.constant(5, tf.int64))  # the same trace, the call's count
    assert list(tf.data.TFRecordDataset(path).as_numpy_iterator()) == [b"0", b"1", b"2", b"3", b"4"]
