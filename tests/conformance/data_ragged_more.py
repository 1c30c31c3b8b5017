"""Ragged elements through the rest of tf.data (window, group_by_window, unique, bucket_by_sequence_length,
shuffle, cache, prefetch, take_while, scan, enumerate, filter, flat_map, interleave, padded_batch's refusal), and
the dtype of a RaggedTensor's partition accessors (nrows, value_rowids, bounding_shape, row_lengths, ...) with
int32 row splits, eagerly and inside tf.function: TF answers in the row splits' dtype."""

from __future__ import annotations

from . import outcome, program, val
from .data_ragged import described, rv


def _rt(tf):
    return tf.ragged.constant([[1, 2], [3], [], [4, 5, 6], [7]])


def _rows(tf):
    return tf.data.Dataset.from_tensor_slices(_rt(tf))


def _sorted(ds):
    """A dataset's elements in a fixed order (for transformations whose order is TF's own)."""
    return sorted(repr(rv(e)) for e in ds)


def _accessors(rt):
    """Each partition accessor's dtype and value."""
    out = {}
    for name in ("nrows", "value_rowids", "bounding_shape", "row_lengths", "row_starts", "row_limits"):
        out[name] = val(getattr(rt, name)())
    out["nested_row_lengths"] = val(list(rt.nested_row_lengths()))
    out["nested_value_rowids"] = val(list(rt.nested_value_rowids()))
    out["nrows_int64"] = val(rt.nrows(out_type="int64"))
    out["bounding_shape_int64"] = val(rt.bounding_shape(out_type="int64"))
    out["bounding_shape_axis0"] = val(rt.bounding_shape(axis=0))
    return out


def _accessor_dtypes(rt):
    """Each accessor's dtype (inside a traced function, where there are no values)."""
    out = {}
    for name in ("nrows", "value_rowids", "bounding_shape", "row_lengths", "row_starts", "row_limits"):
        out[name] = getattr(rt, name)().dtype.name
    out["nested_row_lengths"] = [t.dtype.name for t in rt.nested_row_lengths()]
    out["nested_value_rowids"] = [t.dtype.name for t in rt.nested_value_rowids()]
    out["nrows_int64"] = rt.nrows(out_type="int64").dtype.name
    out["bounding_shape_axis0"] = rt.bounding_shape(axis=0).dtype.name
    return out


@program
def p_ragged_accessors_int32_splits_eager(tf):
    i32 = tf.constant([0, 2, 2, 5], tf.int32)
    rt = tf.RaggedTensor.from_row_splits([1, 2, 3, 4, 5], i32)
    rank2 = tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4, 5], [tf.constant([0, 1, 3], tf.int32), i32])
    return [_accessors(rt), _accessors(rank2), _accessors(rt.with_row_splits_dtype(tf.int64)),
            _accessors(tf.ragged.constant([[1.5], [2.5, 3.5]], row_splits_dtype=tf.int32))]


@program
def p_ragged_accessors_int32_splits_in_function(tf):
    seen = []

    @tf.function
    def f(rt):
        seen.append(_accessor_dtypes(rt))
        return rt.nrows(), rt.value_rowids(), rt.bounding_shape(), rt.row_lengths()

    rt = tf.ragged.constant([[1, 2], [], [3]], row_splits_dtype=tf.int32)
    return [val(f(rt)), seen, val(f(rt.with_row_splits_dtype(tf.int64))), seen[-1]]


@program
def p_ragged_constructors_keep_int32_partitions(tf):
    i32 = lambda x: tf.constant(x, tf.int32)  # noqa: E731
    R, v = tf.RaggedTensor, tf.constant([1, 2, 3])
    made = [R.from_row_lengths(v, i32([1, 2])), R.from_row_lengths(v, [1, 2]), R.from_row_starts(v, i32([0, 1])),
            R.from_row_limits(v, i32([1, 3])), R.from_value_rowids(v, i32([0, 1, 1])),
            R.from_value_rowids(v, i32([0, 1, 1]), i32(3)), R.from_tensor(tf.constant([[1, 2], [3, 4]])),
            R.from_tensor(tf.constant([[1, 2], [3, 4]]), lengths=i32([1, 2])),
            R.from_sparse(tf.sparse.from_dense(tf.constant([[1, 0], [2, 3]])), row_splits_dtype=tf.int32)]
    rt = tf.ragged.constant([[1], [2, 3], []], row_splits_dtype=tf.int32)
    sparse = rt.to_sparse()
    return [[r.row_splits.dtype.name, r.to_list(), val(r.nrows())] for r in made] + [
        val(sparse.indices), val(sparse.dense_shape), val(rt.to_tensor())]


@program
def p_ragged_window_and_flat_map(tf):
    windows = _rows(tf).window(2)
    flat = windows.flat_map(lambda w: w.batch(2))
    shifted = _rows(tf).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
    return [str(windows.element_spec), described(flat), described(shifted), val(windows.cardinality())]


@program
def p_ragged_shuffle_cache_prefetch_repeat(tf):
    ds = _rows(tf)
    cached = ds.map(lambda r: r * 10).cache()
    shuffled = _sorted(ds.batch(2).shuffle(10, seed=3))
    return [described(ds.prefetch(2)), described(cached), described(cached), shuffled,
            described(ds.repeat(2).batch(4)), str(ds.shuffle(4).element_spec), described(ds.take(2).cache().skip(1))]


@program
def p_ragged_take_while_filter_enumerate(tf):
    ds = _rows(tf)
    return [described(ds.take_while(lambda r: tf.size(r) > 0)),
            described(ds.filter(lambda r: tf.reduce_sum(r) > 2)),
            described(ds.enumerate(start=5)), described(ds.enumerate().batch(2)),
            described(ds.batch(2).take_while(lambda r: r.nrows() == 2))]


@program
def p_ragged_scan(tf):
    ds = _rows(tf)
    running = ds.scan(tf.constant(0, tf.int32), lambda s, r: (s + tf.reduce_sum(r), (s, r)))
    as_state = ds.batch(2).scan(tf.constant(0, tf.int64), lambda s, r: (s + r.nrows(), r.row_lengths()))
    return [described(running), described(as_state)]


@program
def p_ragged_group_by_window(tf):
    ds = _rows(tf)
    grouped = ds.group_by_window(key_func=lambda r: tf.cast(tf.size(r) % 2, tf.int64),
                                 reduce_func=lambda key, w: w.batch(3), window_size=3)
    return [str(grouped.element_spec), _sorted(grouped)]


@program
def p_ragged_bucket_by_sequence_length(tf):
    ds = _rows(tf)
    # the rows of a ragged tensor are RaggedTensorSpec(ragged_rank=0) elements: padded_batch refuses them
    bucketed = outcome(lambda: ds.bucket_by_sequence_length(
        lambda r: tf.cast(tf.size(r), tf.int32), bucket_boundaries=[2], bucket_batch_sizes=[2, 2]), "padded_batch")
    dense = ds.map(lambda r: r + 0).bucket_by_sequence_length(
        lambda r: tf.cast(tf.size(r), tf.int32), bucket_boundaries=[2], bucket_batch_sizes=[2, 2])
    # elements that are RaggedTensors themselves (rows of a ragged_rank 2 tensor): bucketing pads them
    nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6], [], [7]]]))
    return [bucketed["error"], bucketed["found"], str(dense.element_spec), _sorted(dense),
            outcome(lambda: _sorted(nested.bucket_by_sequence_length(
                lambda r: tf.cast(r.nrows(), tf.int32), bucket_boundaries=[2], bucket_batch_sizes=[2, 2])),
                "padded_batch")]


@program
def p_ragged_interleave(tf):
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda n: tf.data.Dataset.from_tensor_slices(tf.RaggedTensor.from_row_lengths(tf.range(n * 2), [n, n])),
        cycle_length=2)
    return [described(ds), described(ds.batch(3))]


@program
def p_ragged_unique_refused(tf):
    split = tf.data.Dataset.from_tensor_slices(["a b", "c"]).map(lambda s: tf.strings.split(s))
    floats = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1.5], [2.5]]))
    return [outcome(lambda: _rows(tf).unique(), "UniqueDataset only supports"),
            outcome(lambda: split.batch(1).unique(), "UniqueDataset only supports"),
            outcome(lambda: floats.unique(), "")["error"]]


@program
def p_ragged_padded_batch_of_rows_refused(tf):
    return [outcome(lambda: _rows(tf).padded_batch(2), "padded_batch"),
            outcome(lambda: tf.data.Dataset.zip((_rows(tf), tf.data.Dataset.range(5))).padded_batch(2),
                    "padded_batch")]


@program
def p_ragged_in_function_loops_over_transforms(tf):
    @tf.function
    def total(ds):
        t = tf.constant(0, tf.int32)
        for i, r in ds:
            t += tf.reduce_sum(r) * tf.cast(i + 1, tf.int32)
        return t

    ds = _rows(tf)
    return [val(total(ds.enumerate())), val(total(ds.shuffle(3, seed=1).enumerate().take(0))),
            val(total(ds.cache().enumerate())), val(total(ds.prefetch(1).enumerate()))]


@program
def p_ragged_rank1_elements_through_transforms(tf):
    """Elements that are RaggedTensors themselves (the rows of a ragged_rank 2 tensor)."""
    ds = tf.data.Dataset.from_tensor_slices(
        tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6], [], [7]], [[8, 9]]]))
    grouped = ds.group_by_window(lambda r: r.nrows() % 2, lambda key, w: w.batch(2), window_size=2)
    return [described(ds.window(2).flat_map(lambda w: w.batch(2))), _sorted(ds.shuffle(8, seed=2)),
            described(ds.cache()), described(ds.prefetch(1)), described(ds.take_while(lambda r: r.nrows() < 3)),
            described(ds.filter(lambda r: tf.reduce_sum(r.flat_values) > 5)), described(ds.enumerate(1)),
            described(ds.scan(tf.constant(0, tf.int64), lambda s, r: (s + r.nrows(), r * 2))),
            str(grouped.element_spec), _sorted(grouped), described(ds.repeat(2).skip(3).take(2)),
            described(ds.map(lambda r: r.row_lengths()))]


@program
def p_ragged_tf_shape_dynamic_ragged_shape(tf):
    """tf.shape of a RaggedTensor is a DynamicRaggedShape: its printed lengths, rank, partitions and dtype, and
    its uniform dimensions by index (a ragged one raises ValueError), eagerly and inside tf.function."""
    def described_shape(s):
        out = [repr(s), s.rank, s.num_row_partitions, s.dtype.name, s.static_lengths()]
        for i in range(-4, 4):
            out.append(outcome(lambda i=i: s[i], "")["error"] if i < -3 or i >= 2 else outcome(lambda i=i: s[i], ""))
        return out

    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    rt32 = tf.ragged.constant([[[1], [2]], [[3]]], row_splits_dtype=tf.int32)
    seen = []

    @tf.function
    def f(r):
        s = tf.shape(r)
        seen.append([repr(s), s.static_lengths(), s.rank])
        return s[0] * 10

    uniform_inner = tf.RaggedTensor.from_row_lengths(tf.zeros([3, 2]), [1, 2])
    return [described_shape(tf.shape(rt)), described_shape(tf.shape(rt, out_type=tf.int64)),
            described_shape(tf.shape(rt32)), val(f(rt)), seen, repr(tf.shape(uniform_inner)),
            val(tf.shape(uniform_inner)[2]), tf.shape(uniform_inner).static_lengths(),
            isinstance(tf.shape(rt), tf.experimental.DynamicRaggedShape)]
