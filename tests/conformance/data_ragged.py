"""tf.data with ragged (and sparse) elements: from_tensor_slices / from_tensors of RaggedTensors, batch and
unbatch of ragged components (RaggedTensorSpec in element_spec, ragged_rank 0 for the rows of a ragged tensor),
ragged_batch / dense_to_ragged_batch of dense elements of varying shape, map returning and taking ragged tensors
(tf.strings.split, tf.io.parse_example with RaggedFeature), zip, concatenate, from_generator with a
RaggedTensorSpec signature, padded_batch's refusal, as_numpy_iterator of ragged and sparse elements, and iteration
inside tf.function (a graph loop, next() of an iterator)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def texts(x):
    """Nested lists with bytes as str (JSON has no bytes)."""
    if isinstance(x, list):
        return [texts(v) for v in x]
    return x.decode() if isinstance(x, bytes) else x


def rv(x):
    """An element: a RaggedTensor as its dtype, static shape, rows and splits dtype; a tensor as val()."""
    if isinstance(x, dict):
        return {str(k): rv(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [rv(v) for v in x]
    if hasattr(x, "to_list") and hasattr(x, "row_splits"):
        return {"ragged": [x.dtype.name, x.shape.as_list(), texts(x.to_list()), x.row_splits.dtype.name,
                           x.ragged_rank]}
    if hasattr(x, "dtype") and x.dtype.name == "string":
        return ["string", x.shape.as_list(), texts(x.numpy().tolist())]
    return val(x)


def described(ds):
    """A dataset as its element_spec's printed form and its elements."""
    return [str(ds.element_spec), rv(list(ds))]


def numpy_elements(ds):
    """as_numpy_iterator's elements: arrays (object arrays of rows included) as nested lists of their items."""
    def plain(x):
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [plain(v) for v in x]
        if isinstance(x, np.ndarray) and x.dtype == np.dtype(object):
            return ["object", list(x.shape), [plain(v) for v in x.reshape(-1)]]
        if isinstance(x, (np.ndarray, np.generic)):
            return [str(x.dtype), list(np.shape(x)), x.tolist()]
        return x if not isinstance(x, bytes) else x.decode()
    return [plain(e) for e in ds.as_numpy_iterator()]


def _rt(tf):
    return tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])


def _rt3(tf):
    return tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6], [], [7]]])


@program
def p_ragged_slices_batch_unbatch(tf):
    ds = tf.data.Dataset.from_tensor_slices(_rt(tf))
    batched = ds.batch(2)
    return [described(ds), described(batched), described(batched.unbatch()),
            described(ds.batch(3, drop_remainder=True)), val(ds.cardinality()), val(batched.cardinality()),
            repr(ds), repr(batched)]


@program
def p_ragged_from_tensors_unbatch(tf):
    ds = tf.data.Dataset.from_tensors(_rt(tf))
    return [described(ds), described(ds.unbatch()), described(ds.unbatch().batch(3))]


@program
def p_ragged_rank2_slices_and_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices(_rt3(tf))
    return [described(ds), described(ds.batch(2)), described(ds.batch(2).unbatch()), described(ds.ragged_batch(2))]


@program
def p_ragged_map_strings_split(tf):
    lines = tf.constant([["a b c", "d"], ["", "e f"], ["g", "h"]])
    ds = tf.data.Dataset.from_tensor_slices(lines).map(lambda s: tf.strings.split(s))
    return [rv(list(ds)), ds.element_spec.ragged_rank, ds.batch(2).element_spec.ragged_rank, rv(list(ds.batch(2))),
            rv(list(ds.batch(2).unbatch()))]


@program
def p_ragged_strings_split_static_rows(tf):
    lines = tf.constant([["a b c", "d"], ["", "e f"], ["g", "h"]])
    ds = tf.data.Dataset.from_tensor_slices(lines).map(lambda s: tf.strings.split(s))
    return [str(ds.element_spec), str(ds.batch(2).element_spec)]


@program
def p_ragged_map_in_and_out(tf):
    ds = tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)
    counts = tf.data.Dataset.range(1, 4).map(lambda n: tf.RaggedTensor.from_row_lengths(tf.range(n), [n]))
    return [described(ds.map(lambda r: r.row_lengths())), described(ds.map(lambda r: r * 2 + 1)),
            described(ds.map(lambda r: tf.reduce_sum(r, axis=1))), described(counts),
            described(ds.filter(lambda r: tf.reduce_sum(r.flat_values) > 3)),
            described(tf.data.Dataset.from_tensor_slices(_rt(tf)).map(lambda x: x * 2))]


@program
def p_ragged_batch_of_dense_elements(tf):
    d = tf.data.Dataset.range(1, 4).map(lambda n: tf.cast(n, tf.int32))
    return [described(d.map(lambda n: tf.range(n)).ragged_batch(2)),
            described(d.ragged_batch(2)),
            described(d.map(lambda n: tf.fill([3], n)).ragged_batch(2)),
            described(d.map(lambda n: tf.fill([n, 2], n)).ragged_batch(2)),
            described(d.map(lambda n: tf.fill([n, n], n)).ragged_batch(2)),
            described(d.map(lambda n: tf.range(n)).ragged_batch(2, row_splits_dtype=tf.int32)),
            described(d.map(lambda n: tf.range(n)).ragged_batch(2, drop_remainder=True)),
            described(d.map(lambda n: (tf.range(n), n)).ragged_batch(2)),
            described(d.map(lambda n: tf.range(n)).apply(tf.data.experimental.dense_to_ragged_batch(3)))]


@program
def p_ragged_zip_concatenate_generator(tf):
    rt = _rt(tf)
    zipped = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(rt), tf.data.Dataset.range(4))).batch(3)
    joined = tf.data.Dataset.from_tensor_slices(rt).batch(2).concatenate(
        tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[7]])).batch(1))

    def gen():
        yield tf.ragged.constant([[1], [2, 3]])
        yield tf.ragged.constant([[4, 5, 6]])
    generated = tf.data.Dataset.from_generator(gen, output_signature=tf.RaggedTensorSpec([None, None], tf.int32))
    return [described(zipped), described(joined), described(generated), described(generated.batch(2))]


@program
def p_ragged_padded_batch_refused(tf):
    ds = tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)
    return outcome(lambda: ds.padded_batch(2), "only supported for datasets that produce tensor elements")


@program
def p_ragged_and_sparse_as_numpy(tf):
    sparse = tf.data.Dataset.from_tensors(tf.sparse.SparseTensor([[0, 1]], [5], [2, 3]))
    sparse_batch = tf.data.Dataset.from_tensor_slices(
        tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 2])).batch(2)
    words = tf.data.Dataset.from_tensors(tf.sparse.SparseTensor([[1]], [b"w"], [3]))
    return [numpy_elements(tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)),
            numpy_elements(tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2]])).batch(2)),
            numpy_elements(tf.data.Dataset.from_tensor_slices(_rt3(tf)).batch(2)),
            numpy_elements(tf.data.Dataset.from_tensor_slices(_rt(tf))),
            numpy_elements(sparse), numpy_elements(sparse_batch),
            outcome(lambda: numpy_elements(words), "")["error"]]


@program
def p_ragged_in_tf_function(tf):
    ds = tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)

    @tf.function
    def lengths(ds):
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for r in ds:
            out = out.write(i, tf.reduce_sum(r.row_lengths()))
            i += 1
        return out.stack()

    @tf.function
    def first():
        it = iter(tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(3))
        x = next(it)
        return x.flat_values, x.row_splits

    @tf.function
    def rows_total(ds):
        total = tf.constant(0, tf.int32)
        for row in ds:
            total += tf.reduce_sum(row)
        return total

    @tf.function
    def reduced(ds):
        return ds.reduce(tf.constant(0, tf.int32), lambda s, r: s + tf.reduce_sum(r.flat_values))

    @tf.function
    def built_inside():
        ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).ragged_batch(2)
        total = tf.constant(0, tf.int64)
        for r in ds:
            total += tf.reduce_sum(r.flat_values) * 10 + tf.cast(r.nrows(), tf.int64)
        return total
    @tf.function
    def sliced_argument(rt):
        total = tf.constant(0, tf.int32)
        for r in tf.data.Dataset.from_tensor_slices(rt).batch(2):
            total = total * 10 + tf.reduce_sum(r.flat_values)
        return total

    @tf.function
    def whole_argument(rt):
        return tf.data.Dataset.from_tensors(rt).unbatch().reduce(tf.constant(0, tf.int32),
                                                                  lambda s, row: s + tf.reduce_sum(row))
    return [val(lengths(ds)), val(first()), val(rows_total(tf.data.Dataset.from_tensor_slices(_rt(tf)))),
            val(rows_total(ds.unbatch())), val(reduced(ds)), val(built_inside()), val(sliced_argument(_rt(tf))),
            val(sliced_argument(_rt3(tf).values)), val(whole_argument(_rt(tf)))]


def _example(tf, **features):
    def feature(values):
        if values and isinstance(values[0], bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(
        feature={k: feature(v) for k, v in features.items()})).SerializeToString()


@program
def p_ragged_parse_example_in_map(tf):
    R = tf.io.RaggedFeature
    records = [_example(tf, v=[1, 2, 3], lens=[2, 1], w=[b"a", b"b"]), _example(tf, v=[4], lens=[0, 1], w=[b"c"]),
               _example(tf, v=[5, 6], lens=[2], w=[b"d", b"e", b"f"])]
    features = {"plain": R(tf.int64, value_key="v"), "words": R(tf.string, value_key="w"),
                "nested": R(tf.int64, value_key="v", partitions=[R.RowLengths("lens")])}
    single = tf.data.Dataset.from_tensor_slices(records).map(lambda s: tf.io.parse_single_example(s, features))
    batched = tf.data.Dataset.from_tensor_slices(records).batch(2).map(lambda b: tf.io.parse_example(b, features))

    @tf.function
    def total(ds):
        t = tf.constant(0, tf.int64)
        for e in ds:
            t += tf.reduce_sum(e["plain"].flat_values)
        return t
    return [str(single.element_spec["plain"]), str(single.element_spec["nested"]), rv(list(single)),
            str(batched.element_spec["plain"]), str(batched.element_spec["nested"]), rv(list(batched)),
            rv(list(single.ragged_batch(3))), rv(list(batched.unbatch())), val(total(batched)),
            str(single.ragged_batch(3).element_spec["nested"])]
