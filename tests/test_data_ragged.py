"""Dataset elements with ragged components: from_tensor_slices / from_tensors of RaggedTensors, batch (one more
ragged dimension), unbatch (rows; ragged_rank 0 rows are dense tensors), rebatch, ragged_batch of dense elements of
varying shape, map taking and returning ragged tensors, from_generator with a RaggedTensorSpec, int32 row splits
kept, and iteration inside tf.function (passes on and off), each against plain Python lists."""

import random

import numpy as np
import pytest

import tinytf as tf


def random_rows(seed, n, depth=1, longest=4):
    """n random rows of ints, nested `depth` ragged levels deep."""
    rng = random.Random(seed)

    def row(level):
        if level == 0:
            return rng.randrange(100)
        return [row(level - 1) for _ in range(rng.randrange(longest))]
    return [row(depth) for _ in range(n)]


def as_lists(x):
    return x.to_list() if hasattr(x, "to_list") else x.numpy().tolist()


def chunks(rows, size, drop=False):
    out = [rows[i:i + size] for i in range(0, len(rows), size)]
    return [c for c in out if len(c) == size] if drop else out


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("size,drop", [(1, False), (3, False), (3, True), (10, False)])
@pytest.mark.parametrize("splits_dtype", [tf.int64, tf.int32])
def test_slices_batch_and_unbatch_against_python(depth, size, drop, splits_dtype):
    rows = random_rows(depth * 10 + size, 8, depth + 1)
    rt = tf.ragged.constant(rows, dtype=tf.int64, row_splits_dtype=splits_dtype)
    ds = tf.data.Dataset.from_tensor_slices(rt)
    assert ds.element_spec == tf.RaggedTensorSpec([None] * (depth + 1), tf.int64, depth, splits_dtype)
    assert [as_lists(e) for e in ds] == rows
    batched = ds.batch(size, drop_remainder=drop)
    spec = batched.element_spec
    assert (spec.ragged_rank, spec.row_splits_dtype, spec.shape[0]) == (depth + 1, splits_dtype, size if drop else None)
    got = list(batched)
    assert [b.to_list() for b in got] == chunks(rows, size, drop)
    assert all(b.row_splits.dtype is splits_dtype and b._type_spec.ragged_rank == depth + 1 for b in got)
    assert [as_lists(e) for e in batched.unbatch()] == [r for c in chunks(rows, size, drop) for r in c]
    assert [b.to_list() for b in batched.rebatch(2)] == chunks([r for c in chunks(rows, size, drop) for r in c], 2)


def test_rows_of_ragged_rank_1_are_dense_tensors():
    ds = tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3], []])).unbatch()
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0)
    items = list(ds)
    assert all(type(e).__name__ == "EagerTensor" for e in items)
    assert [e.numpy().tolist() for e in items] == [[1, 2], [3], []]
    # and batching them makes the ragged tensor again
    (again,) = list(ds.batch(5))
    assert again.to_list() == [[1, 2], [3], []]


def test_element_spec_of_components_zip_and_dicts():
    rt = tf.ragged.constant([[1.5], [], [2.5, 3.5]])
    ds = tf.data.Dataset.from_tensor_slices({"r": rt, "n": tf.constant([1, 2, 3])}).batch(2)
    assert isinstance(ds.element_spec["r"], tf.RaggedTensorSpec)
    assert ds.element_spec["n"] == tf.TensorSpec([None], tf.int32)
    got = [(e["r"].to_list(), e["n"].numpy().tolist()) for e in ds]
    assert got == [([[1.5], []], [1, 2]), ([[2.5, 3.5]], [3])]


@pytest.mark.parametrize("graph", [False, True])
def test_map_takes_and_returns_ragged(graph, passes):
    rows = random_rows(3, 7)
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(rows, dtype=tf.int64)).batch(3)
    doubled = ds.map(lambda r: r * 2 + 1)
    sums = ds.map(lambda r: tf.reduce_sum(r, axis=1))
    built = tf.data.Dataset.range(1, 5).map(lambda n: tf.RaggedTensor.from_row_lengths(
        tf.range(n), tf.stack([tf.constant(1, tf.int64), n - 1])))
    expected_doubled = [[[2 * v + 1 for v in r] for r in c] for c in chunks(rows, 3)]
    expected_sums = [[sum(r) for r in c] for c in chunks(rows, 3)]
    expected_built = [[list(range(n))[:1], list(range(n))[1:]] for n in range(1, 5)]
    if not graph:
        assert [b.to_list() for b in doubled] == expected_doubled
        assert [s.numpy().tolist() for s in sums] == expected_sums
        assert [b.to_list() for b in built] == expected_built
        return

    @tf.function
    def collect(ds):
        total = tf.constant(0, tf.int64)
        for r in ds:
            total = total * 3 + tf.reduce_sum(r.flat_values) + tf.cast(r.nrows(), tf.int64)
        return total

    def python(batches):
        total = 0
        for b in batches:
            flat = [v for row in b for v in row]
            total = total * 3 + sum(flat) + len(b)
        return total
    assert int(collect(doubled)) == python(expected_doubled)
    assert int(collect(built)) == python(expected_built)


@pytest.mark.parametrize("graph", [False, True])
def test_ragged_batch_of_dense_elements_of_varying_shape(graph, passes):
    d = tf.data.Dataset.range(1, 6)
    vectors = d.map(lambda n: tf.range(n))
    matrices = d.map(lambda n: tf.reshape(tf.range(n * 2), tf.stack([n, tf.constant(2, tf.int64)])))
    rb = vectors.ragged_batch(2)
    assert rb.element_spec == tf.RaggedTensorSpec([None, None], tf.int64, 1)
    assert matrices.ragged_batch(2).element_spec == tf.RaggedTensorSpec([None, None, 2], tf.int64, 1)
    assert vectors.ragged_batch(2, row_splits_dtype=tf.int32).element_spec.row_splits_dtype is tf.int32
    expected = chunks([list(range(n)) for n in range(1, 6)], 2)
    expected_m = chunks([[[2 * i, 2 * i + 1] for i in range(n)] for n in range(1, 6)], 2)
    if not graph:
        assert [b.to_list() for b in rb] == expected
        assert [b.to_list() for b in matrices.ragged_batch(2)] == expected_m
        assert [b.to_list() for b in vectors.apply(tf.data.experimental.dense_to_ragged_batch(4))] == \
            chunks([list(range(n)) for n in range(1, 6)], 4)
        return

    @tf.function
    def lengths(ds):
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for b in ds:
            out = out.write(i, tf.reduce_sum(b.row_lengths()) * 100 + tf.reduce_sum(b.flat_values))
            i += 1
        return out.stack()
    assert lengths(rb).numpy().tolist() == [sum(len(r) for r in c) * 100 + sum(sum(r) for r in c) for c in expected]


def test_generator_with_ragged_signature_checks_what_it_yields():
    def gen():
        yield tf.ragged.constant([[1], [2, 3]])
        yield tf.ragged.constant([[[4]]])  # ragged_rank 2: not the signature's

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.RaggedTensorSpec([None, None], tf.int32))
    it = iter(ds)
    assert next(it).to_list() == [[1], [2, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected structure"):
        next(it)
    assert [b.to_list() for b in ds.take(1).batch(2)] == [[[[1], [2, 3]]]]


def test_padded_batch_refuses_ragged_components():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]])).batch(2)
    with pytest.raises(TypeError, match="padded_batch` is only supported for datasets that produce tensor"):
        ds.padded_batch(2)


def test_as_numpy_iterator_of_ragged_and_sparse_elements():
    ragged = list(tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5]])).batch(2)
                  .as_numpy_iterator())
    assert ragged[0].dtype == object and [r.tolist() for r in ragged[0]] == [[1, 2], [3]]
    assert ragged[1].tolist() == [[4, 5]]  # rows of one length: a plain array, as TF
    sparse = list(tf.data.Dataset.from_tensors(tf.sparse.SparseTensor([[0, 1], [1, 2]], [5, 7], [2, 3]))
                  .as_numpy_iterator())
    np.testing.assert_array_equal(sparse[0], np.array([[0, 5, 0], [0, 0, 7]], np.int32))
    words = tf.data.Dataset.from_tensors(tf.sparse.SparseTensor([[1]], [b"w"], [3]))
    with pytest.raises(TypeError, match="sparse component of strings"):
        list(words.as_numpy_iterator())


def _example(**features):
    return tf.train.Example(features=tf.train.Features(feature={
        k: tf.train.Feature(int64_list=tf.train.Int64List(value=v)) for k, v in features.items()})).SerializeToString()


@pytest.mark.parametrize("splits_dtype", [None, tf.int32, tf.int64])
@pytest.mark.parametrize("graph", [False, True])
def test_parse_example_with_ragged_features_in_map(splits_dtype, graph):
    """RaggedFeature's row_splits_dtype (TF's default int32) is the splits dtype of what parsing gives."""
    R = tf.io.RaggedFeature
    kwargs = {} if splits_dtype is None else {"row_splits_dtype": splits_dtype}
    features = {"v": R(tf.int64, **kwargs), "nested": R(tf.int64, value_key="v", partitions=[R.RowLengths("n")],
                                                         **kwargs)}
    rows = [([1, 2, 3], [2, 1]), ([4], [0, 1]), ([], [])]
    records = [_example(v=v, n=n) for v, n in rows]
    expected_dtype = splits_dtype or tf.int32
    direct = tf.io.parse_example(records, features)
    assert direct["v"].row_splits_dtype is expected_dtype and direct["nested"].row_splits_dtype is expected_dtype
    ds = tf.data.Dataset.from_tensor_slices(records).batch(2).map(lambda b: tf.io.parse_example(b, features))
    assert ds.element_spec["nested"] == tf.RaggedTensorSpec([None, None, None], tf.int64, 2, expected_dtype)
    expected_v = [[1, 2, 3], [4]], [[]]
    if not graph:
        got = list(ds)
        assert [g["v"].to_list() for g in got] == list(expected_v)
        assert got[0]["nested"].to_list() == [[[1, 2], [3]], [[], [4]]]
        assert got[0]["nested"].row_splits.dtype is expected_dtype
        return

    @tf.function
    def total(ds):
        t = tf.constant(0, tf.int64)
        for e in ds:
            t = t * 10 + tf.reduce_sum(e["nested"].flat_values) + tf.cast(tf.reduce_sum(e["v"].row_lengths()),
                                                                          tf.int64)
        return t
    assert int(total(ds)) == (6 + 3 + 4 + 1) * 10 + 0
