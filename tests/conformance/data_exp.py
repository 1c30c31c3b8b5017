"""tf.data.experimental's transformations and utilities (the `>>>` examples of their docstrings, their
errors, and each inside a tf.function): assert_cardinality, group_by_reducer + Reducer, dense_to_sparse_batch /
Dataset.sparse_batch, pad_to_cardinality, get_structure, get_next_as_optional, map_and_batch,
parallel_interleave, shuffle_and_repeat, copy_to_device / prefetch_to_device, at, table_from_dataset,
index_table_from_dataset, DatasetInitializer, IteratorSpec, the Options groups."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _plain(x):
    """Tensors (in nests) as Python values, strings decoded (bytes are not JSON)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    value = x.numpy() if hasattr(x, "numpy") else x
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray) and value.dtype == object:
        return [v.decode() for v in value.reshape(-1).tolist()]
    return [str(x.dtype.name), value.tolist()] if hasattr(x, "dtype") else value


def _sp(e):
    return [e.indices.numpy().tolist(), _plain(e.values), e.dense_shape.numpy().tolist()]


def _in_function(tf, build, initial=0):
    """The sum of a dataset's elements, the dataset built and reduced inside a tf.function."""
    @tf.function
    def run():
        return build().reduce(tf.constant(initial, tf.int64), lambda s, x: s + x)
    return val(run())


@program
def p_data_exp_assert_cardinality(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0)
    before = ds.cardinality().numpy().item()
    asserted = ds.apply(E.assert_cardinality(5))
    short = tf.data.Dataset.range(3).apply(E.assert_cardinality(5))
    long = tf.data.Dataset.range(3).apply(E.assert_cardinality(2))
    infinite = tf.data.Dataset.range(3).apply(E.assert_cardinality(E.INFINITE_CARDINALITY))
    return [before, E.cardinality(asserted).numpy().item(), [x.numpy().item() for x in asserted],
            outcome(lambda: list(short), "expected to contain 5 elements but contained only 3 elements"),
            outcome(lambda: list(long), "expected to contain 2 elements but contained at least 3 elements"),
            outcome(lambda: list(infinite), "expected to contain an infinite number of elements"),
            _in_function(tf, lambda: tf.data.Dataset.range(10).filter(lambda x: x > 5).apply(E.assert_cardinality(4))),
            outcome(lambda: _in_function(tf, lambda: tf.data.Dataset.range(3).apply(E.assert_cardinality(4))),
                    "expected to contain 4 elements")]


@program
def p_data_exp_group_by_reducer(tf):
    E = tf.data.experimental
    summing = E.Reducer(lambda key: tf.constant(0, tf.int64), lambda state, x: state + x, lambda state: state)
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([5, 3, 8, 1, 4, 7, 2], tf.int64))
    sums = ds.apply(E.group_by_reducer(lambda x: x % 3, summing))
    means = E.Reducer(lambda _: (0.0, 0.0), lambda s, v: (s[0] + v, s[1] + 1), lambda s, n: s / n)
    floats = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0, 5.0])
    averaged = floats.apply(E.group_by_reducer(lambda x: tf.cast(x > 2.5, tf.int64), means))
    keyed = E.Reducer(lambda key: key * 100, lambda s, x: s + x, lambda s: (s, s * 2))
    by_key = ds.apply(E.group_by_reducer(lambda x: x % 2, keyed))
    return [[x.numpy().item() for x in sums], val(sums.element_spec.dtype.name), sums.cardinality().numpy().item(),
            [x.numpy().item() for x in averaged], [val(x) for x in by_key],
            _in_function(tf, lambda: tf.data.Dataset.range(10).apply(E.group_by_reducer(lambda x: x % 4, summing))),
            outcome(lambda: floats.apply(E.group_by_reducer(lambda x: tf.cast(x, tf.int32), means)),
                    "Expected `key_func` to return a scalar tf.int64 tensor")]


@program
def p_data_exp_sparse_batch(tf):
    E = tf.data.experimental
    words = tf.data.Dataset.from_generator(lambda: iter([["a", "b", "c"], ["a", "b"], ["a", "b", "c", "d"]]),
                                           output_signature=tf.TensorSpec([None], tf.string))
    rows = tf.data.Dataset.from_tensor_slices([[1, 0], [0, 2], [3, 3]])
    grid = tf.data.Dataset.range(1, 4).map(lambda n: tf.reshape(tf.range(n * 2), [n, 2]))

    @tf.function
    def batched_in_graph():
        total = tf.constant(0, tf.int64)
        for b in grid.sparse_batch(2, [3, 2]):
            total += tf.reduce_sum(tf.sparse.to_dense(b)) + b.dense_shape[0] * 1000
        return total

    return [[_sp(s) for s in words.apply(E.dense_to_sparse_batch(batch_size=2, row_shape=[6]))],
            str(words.sparse_batch(2, [6]).element_spec),
            [_sp(s) for s in rows.sparse_batch(2, [2])],
            [_sp(s) for s in tf.data.Dataset.range(3).sparse_batch(2, [])],
            [_sp(s) for s in grid.sparse_batch(2, [3, 2])],
            val(batched_in_graph()),
            outcome(lambda: list(words.sparse_batch(2, [3])), "larger than the row shape"),
            outcome(lambda: list(words.sparse_batch(2, [3, 4])), "incompatible with the row shape")]


@program
def p_data_exp_pad_to_cardinality(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1.0, 2.0], [3.0, 4.0]], "s": ["x", "y"]})
    padded = ds.apply(E.pad_to_cardinality(3))
    masked = tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(E.pad_to_cardinality(4, mask_key="real"))

    @tf.function
    def valid_count():
        return padded.reduce(tf.constant(0), lambda s, x: s + tf.cast(x["valid"], tf.int32))

    return [[_plain(e) for e in padded], str(padded.element_spec["valid"]), padded.cardinality().numpy().item(),
            [val(e) for e in masked], val(valid_count()),
            [val(e) for e in tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(E.pad_to_cardinality(2))],
            outcome(lambda: tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(E.pad_to_cardinality(1)),
                    "must have a cardinalty less than the target cardinality (1)"),
            outcome(lambda: tf.data.Dataset.from_tensor_slices([1, 2]).apply(E.pad_to_cardinality(3)),
                    "requires its input dataset to be a dictionary"),
            outcome(lambda: tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).filter(lambda x: True).apply(
                E.pad_to_cardinality(3)), "must have a known cardinalty")]


@program
def p_data_exp_structure_and_optional(tf):
    E = tf.data.experimental
    dataset = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    pairs = E.from_list([(1, "a"), (2, "b"), (3, "c")])
    it = iter(tf.data.Dataset.range(1))
    first = E.get_next_as_optional(it)
    second = E.get_next_as_optional(it)

    @tf.function
    def optional_sum(it):
        o = E.get_next_as_optional(it)
        return tf.cond(o.has_value(), lambda: o.get_value(), lambda: tf.constant(-1, tf.int64))

    it2 = iter(tf.data.Dataset.range(5, 6))
    return [str(E.get_structure(dataset)), str(E.get_structure(pairs)), str(E.get_structure(iter(dataset))),
            val(first.has_value()), val(first.get_value()), val(second.has_value()),
            val(optional_sum(it2)), val(optional_sum(it2)),
            outcome(lambda: E.get_structure(3), "must be a `tf.data.Dataset` or tf.data.Iterator")]


@program
def p_data_exp_fused_aliases(tf):
    E = tf.data.experimental
    r = tf.data.Dataset.range(5)
    nested = tf.data.Dataset.range(1, 4)

    def repeated(x):
        return tf.data.Dataset.from_tensors(x).repeat(x)

    shuffled = tf.data.Dataset.range(3).apply(E.shuffle_and_repeat(3, count=2, seed=1))
    return [[val(x) for x in r.apply(E.map_and_batch(lambda x: x * 2, 2))],
            str(r.apply(E.map_and_batch(lambda x: x * 2, 2, drop_remainder=True)).element_spec),
            [val(x) for x in r.apply(E.map_and_batch(lambda x: x + 1, 2, num_parallel_calls=2))],
            [val(x) for x in r.apply(E.map_and_batch(lambda x: x + 1, 3, num_parallel_batches=1))],
            outcome(lambda: r.apply(E.map_and_batch(lambda x: x, 2, num_parallel_batches=2, num_parallel_calls=2)),
                    "allows only one of `num_parallel_batches` and `num_parallel_calls`"),
            [x.numpy().item() for x in nested.apply(E.parallel_interleave(repeated, cycle_length=2))],
            [x.numpy().item() for x in nested.apply(E.parallel_interleave(repeated, cycle_length=2, block_length=2))],
            len(list(shuffled)), sorted(x.numpy().item() for x in shuffled),
            tf.data.Dataset.range(3).apply(E.shuffle_and_repeat(3)).cardinality().numpy().item(),
            _in_function(tf, lambda: tf.data.Dataset.range(5).apply(E.map_and_batch(lambda x: x * 3, 2)).map(
                lambda b: tf.reduce_sum(b))),
            _in_function(tf, lambda: tf.data.Dataset.range(1, 4).apply(E.parallel_interleave(repeated, 2)))]


@program
def p_data_exp_devices(tf):
    E = tf.data.experimental
    dataset = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    prefetched = dataset.apply(E.prefetch_to_device("/cpu:0"))
    copied = dataset.apply(E.copy_to_device("/cpu:0"))
    return [[f"Tensor {e} is on device {e.device}" for e in prefetched],
            [x.numpy().item() for x in copied], str(copied.element_spec),
            [x.numpy().item() for x in dataset.apply(E.prefetch_to_device("/device:CPU:0", 2))]]


@program
def p_data_exp_at(tf):
    E = tf.data.experimental
    r = tf.data.Dataset.range(10)
    return [val(E.at(r.map(lambda x: x * 3), 4)), val(E.at(r.batch(3), 3)),
            val(E.at(r.filter(lambda x: x > 2).cache(), 1)),
            val(E.at(tf.data.Dataset.zip((r, r.skip(2))), 5)), val(E.at(r.concatenate(r), 12)),
            outcome(lambda: E.at(r.enumerate(), 2), "infinite cardinality"), val(E.at(r.repeat(2).take(15), 13)),
            val(E.at(r.shard(3, 1), 2)),
            _plain(E.at(tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": ["x", "y"]}), 1)),
            outcome(lambda: E.at(r, 10), "Index out of range [0, 10):10"),
            outcome(lambda: E.at(r, -1), "Index out of range"),
            outcome(lambda: E.at(r.filter(lambda x: x > 2), 1), "Random access is not implemented"),
            outcome(lambda: E.at(tf.data.Dataset.range(3).repeat(), 7), "infinite cardinality")]


@program
def p_data_exp_tables(tf):
    E = tf.data.experimental
    ds = tf.data.Dataset.range(100).map(lambda x: tf.strings.as_string(x * 2))
    index = E.index_table_from_dataset(ds, key_dtype=tf.string)
    keys = tf.data.Dataset.range(100)
    values = tf.data.Dataset.range(100).map(lambda x: tf.strings.as_string(x * 2))
    table = E.table_from_dataset(tf.data.Dataset.zip((keys, values)), default_value="n/a", key_dtype=tf.int64)
    init = E.DatasetInitializer(tf.data.Dataset.zip((keys, values)))
    static = tf.lookup.StaticHashTable(init, "")
    numbers = E.table_from_dataset(tf.data.Dataset.zip((keys, keys.map(lambda k: k * 10))), key_dtype=tf.int64)
    small = E.index_table_from_dataset(ds, vocab_size=3)
    with_oov = E.index_table_from_dataset(tf.data.Dataset.from_tensor_slices(["a", "b"]), num_oov_buckets=3)
    oov_ids = with_oov.lookup(tf.constant(["a", "b", "zz", "q"])).numpy().tolist()

    @tf.function
    def look(k):
        return static.lookup(k)

    return [val(index.lookup(tf.constant(["0", "2", "4", "5"]))),
            _plain(table.lookup(tf.constant([0, 1, 2, 500], tf.int64))),
            _plain(static.lookup(tf.constant([0, 1, 2], dtype=tf.int64))),
            val(numbers.lookup(tf.constant([3, 7000], tf.int64))),
            val(small.lookup(tf.constant(["0", "2", "4", "6"]))), oov_ids[:2], all(2 <= i < 5 for i in oov_ids[2:]),
            _plain(look(tf.constant([5, 6], tf.int64))), val(small.size()),
            outcome(lambda: E.DatasetInitializer(tf.data.Dataset.range(3)), "has no len()"),
            outcome(lambda: E.DatasetInitializer(tf.data.Dataset.range(3).map(lambda x: (x, x, x))),
                    "must produce elements in the form (key, value)"),
            outcome(lambda: E.table_from_dataset(tf.data.Dataset.zip((keys, values)), key_dtype=tf.int64),
                    "`default_value` must be specified"),
            outcome(lambda: E.index_table_from_dataset(ds, num_oov_buckets=-1), "must be greater than or equal to 0")]


@program
def p_data_exp_iterator_spec(tf):
    @tf.function(input_signature=[tf.data.IteratorSpec(tf.TensorSpec(shape=(), dtype=tf.int32, name=None))])
    def square(iterator):
        x = iterator.get_next()
        return x * x

    traces = []

    @tf.function
    def total(it):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in it:
            s += x
        return s

    it = iter(tf.data.Dataset.range(6))

    @tf.function
    def two(it):
        return next(it) + 10 * next(it)

    spec = tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))
    return [val(square(iter(tf.data.Dataset.from_tensors(5)))),
            val(total(iter(tf.data.Dataset.range(4)))), val(total(iter(tf.data.Dataset.range(10)))), len(traces),
            val(two(it)), val(two(it)), val(next(it)), str(spec),
            iter(tf.data.Dataset.range(1))._type_spec == spec]


@program
def p_data_exp_options(tf):
    E = tf.data.experimental
    options = tf.data.Options()
    defaults = [options.autotune.enabled, options.autotune.cpu_budget,
                str(options.experimental_distribute.auto_shard_policy),
                options.experimental_optimization.map_fusion, options.threading.private_threadpool_size,
                options.experimental_external_state_policy]
    options.autotune.enabled = False
    options.autotune.ram_budget = 1 << 20
    options.autotune.autotune_algorithm = E.AutotuneAlgorithm.HILL_CLIMB
    options.experimental_optimization.map_and_batch_fusion = False
    options.experimental_distribute.auto_shard_policy = E.AutoShardPolicy.DATA
    options.experimental_external_state_policy = E.ExternalStatePolicy.IGNORE
    options.threading.private_threadpool_size = 2
    options.deterministic = False
    later = tf.data.Options()
    later.autotune.cpu_budget = 3
    later.deterministic = True
    ds = tf.data.Dataset.range(3).with_options(options).map(lambda x: x + 1).with_options(later)
    got = ds.options()
    errors = [outcome(lambda: setattr(tf.data.Options(), "foo", 1), "Cannot set the property foo on Options"),
              outcome(lambda: setattr(tf.data.Options().autotune, "foo", 1), "Cannot set the property foo"),
              outcome(lambda: setattr(tf.data.Options().autotune, "cpu_budget", "x"), "must be of type"),
              outcome(lambda: setattr(tf.data.Options(), "deterministic", 3), "must be of type")]
    return [defaults, [got.autotune.enabled, got.autotune.ram_budget, str(got.autotune.autotune_algorithm),
                       got.autotune.cpu_budget, got.experimental_optimization.map_and_batch_fusion,
                       str(got.experimental_distribute.auto_shard_policy), str(got.experimental_external_state_policy),
                       got.threading.private_threadpool_size, got.deterministic],
            [x.numpy().item() for x in ds], errors, options == tf.data.Options(),
            tf.data.Options() == tf.data.Options(),
            [m.name for m in E.ExternalStatePolicy], [m.value for m in E.AutotuneAlgorithm],
            type(E.AutotuneOptions()).__name__, E.OptimizationOptions().noop_elimination,
            str(E.DistributeOptions().auto_shard_policy), E.ThreadingOptions().max_intra_op_parallelism]
