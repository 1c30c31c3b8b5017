"""tf.RaggedTensor: construction, row partitions, to_tensor, indexing, ragged dispatch of elementwise math and
reductions, eagerly and as graphs (passes on and off; the RaggedTensor passed as a composite argument), against
numpy on padded arrays."""

from __future__ import annotations

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf

ROWS = [[3.0, 1.0, 4.0, 1.0], [], [5.0, 9.0, 2.0], [6.0], []]
SPLITS = [0, 4, 4, 7, 8, 8]
FLAT = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.float32)


def _rt():
    return tf.ragged.constant(ROWS)


def _padded(fill=0.0):
    out = np.full([5, 4], fill, np.float32)
    for i, row in enumerate(ROWS):
        out[i, :len(row)] = row
    return out


def test_constructors_agree():
    a = _rt()
    b = tf.RaggedTensor.from_row_splits(FLAT, SPLITS)
    c = tf.RaggedTensor.from_row_lengths(FLAT, [4, 0, 3, 1, 0])
    d = tf.RaggedTensor.from_value_rowids(FLAT, [0, 0, 0, 0, 2, 2, 2, 3], nrows=5)
    e = tf.RaggedTensor.from_row_starts(FLAT, [0, 4, 4, 7, 8])
    f = tf.RaggedTensor.from_row_limits(FLAT, [4, 4, 7, 8, 8])
    for rt in (a, b, c, d, e, f):
        assert rt.to_list() == ROWS
        np.testing.assert_array_equal(rt.row_splits.numpy(), SPLITS)
        assert rt.shape.as_list() == [5, None] and rt.dtype is tf.float32 and rt.ragged_rank == 1


def test_partition_methods():
    rt = _rt()
    np.testing.assert_array_equal(rt.row_lengths().numpy(), [4, 0, 3, 1, 0])
    np.testing.assert_array_equal(rt.value_rowids().numpy(), [0, 0, 0, 0, 2, 2, 2, 3])
    np.testing.assert_array_equal(rt.bounding_shape().numpy(), [5, 4])
    assert rt.nrows().numpy() == 5 and rt.row_splits.dtype is tf.int64


def test_to_tensor_all_ways_against_numpy():
    run_all_ways(lambda r: r.to_tensor(), _rt(), expected=_padded())
    run_all_ways(lambda r: r.to_tensor(default_value=-1.0), _rt(), expected=_padded(-1.0))
    run_all_ways(lambda r: r.to_tensor(shape=[3, 2]), _rt(), expected=_padded()[:3, :2])
    run_all_ways(lambda r: r.to_tensor(shape=[6, None]), _rt(), expected=np.vstack([_padded(), np.zeros([1, 4])]))


def test_nested_ragged_to_tensor_against_numpy():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert rt.shape.as_list() == [3, None, None] and rt.ragged_rank == 2
    want = np.zeros([3, 2, 3], np.int32)
    want[0, 0, :2], want[0, 1, 0], want[2, 0] = [1, 2], 3, [4, 5, 6]
    run_all_ways(lambda r: r.to_tensor(), rt, expected=want)


def test_elementwise_math_keeps_the_partition_all_ways():
    def fn(r):
        out = tf.math.sqrt(r * 2.0 + 1.0) - tf.abs(-r)
        return out.flat_values, out.row_splits

    run_all_ways(fn, _rt(), expected=(np.sqrt(FLAT * 2 + 1) - FLAT, np.array(SPLITS)))


@pytest.mark.parametrize("name,fill", [("reduce_sum", 0.0), ("reduce_max", -np.inf), ("reduce_min", np.inf)])
def test_row_reductions_against_numpy(name, fill):
    reducer = getattr(tf, name)
    want = [getattr(np, name[len("reduce_"):])(r) if r else fill for r in ROWS] if name != "reduce_sum" else \
        [sum(r) for r in ROWS]
    run_all_ways(lambda r: reducer(r, axis=1), _rt(), expected=np.array(want, np.float32))


def test_reduce_mean_over_rows_and_columns():
    means = tf.reduce_mean(_rt(), axis=1).numpy()
    np.testing.assert_allclose(means[[0, 2, 3]], [9 / 4, 16 / 3, 6])
    assert np.isnan(means[1]) and np.isnan(means[4])  # 0 / 0, as TF
    np.testing.assert_allclose(tf.reduce_mean(_rt(), axis=0).numpy(), [14 / 3, 5, 3, 1])
    assert tf.reduce_sum(_rt()).numpy() == FLAT.sum()


def test_indexing_the_outer_dimension():
    rt = _rt()
    np.testing.assert_array_equal(rt[0].numpy(), ROWS[0])
    np.testing.assert_array_equal(rt[-2].numpy(), ROWS[3])
    assert rt[2:].to_list() == ROWS[2:]
    assert rt[:, :2].to_list() == [r[:2] for r in ROWS]
    row = tf.function(lambda r, i: r[i])(rt, tf.constant(2))
    np.testing.assert_array_equal(row.numpy(), ROWS[2])
    with pytest.raises(IndexError):
        rt[5]


def test_function_argument_keyed_by_spec():
    traces = []

    @tf.function
    def f(r):
        traces.append(1)
        return r + 1.0

    out = f(_rt())
    assert isinstance(out, tf.RaggedTensor) and out.to_list() == [[x + 1 for x in r] for r in ROWS]
    f(tf.ragged.constant([[1.0], [], [2.0, 3.0], [], [4.0]]))  # same nrows, other lengths: same trace
    assert len(traces) == 1
    f(tf.ragged.constant([[1.0]]))  # TF's spec holds the number of rows
    assert len(traces) == 2


def test_input_signature_with_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32)])
    def f(r):
        return tf.reduce_sum(r, axis=1)

    np.testing.assert_allclose(f(_rt()).numpy(), [9, 0, 16, 6, 0])
    np.testing.assert_allclose(f(tf.ragged.constant([[1.0, 2.0]])).numpy(), [3])


def test_ragged_as_a_while_loop_variable():
    def body(i, r):
        return i + 1, r * 2.0

    eager = tf.while_loop(lambda i, r: i < 3, body, [tf.constant(0), _rt()])[1]
    graph = tf.function(lambda r: tf.while_loop(lambda i, r: i < 3, body, [tf.constant(0), r])[1])(_rt())
    assert eager.to_list() == graph.to_list() == [[x * 8 for x in r] for r in ROWS]


def test_printing_as_tf():
    assert repr(tf.ragged.constant([[1, 2], [3]])) == "<tf.RaggedTensor [[1, 2], [3]]>"
    assert str(tf.math.log(tf.ragged.constant([[4.0]]))) == "<tf.RaggedTensor [[1.3862944]]>"
    assert repr(_rt()._type_spec) == "RaggedTensorSpec(TensorShape([5, None]), tf.float32, 1, tf.int64)"


def test_gradient_through_to_tensor_and_math():
    v = tf.constant(FLAT)
    with tf.GradientTape() as tape:
        tape.watch(v)
        rt = tf.RaggedTensor.from_row_splits(v, SPLITS)
        y = tf.reduce_sum((rt * rt).to_tensor())
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), 2 * FLAT)


def test_errors():
    with pytest.raises(ValueError, match="same nesting depth"):
        tf.ragged.constant([[1, 2], [[3]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):  # TF wording
        tf.ragged.constant([[1, 2], [3]]) + tf.ragged.constant([[1], [2, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="valid RaggedTensor"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])
    with pytest.raises(ValueError, match="private"):
        tf.RaggedTensor([1, 2], [0, 2])


def test_ragged_as_an_autograph_loop_variable():
    @tf.function
    def doubled(rt, n):
        for _ in tf.range(n):
            rt = rt * 2.0
        return rt

    @tf.function
    def row_sums(rt):
        total = tf.constant(0.0)
        for row in rt:  # a Python loop over the (known number of) rows
            total += tf.reduce_sum(row)
        return total

    assert doubled(_rt(), tf.constant(3)).to_list() == [[x * 8 for x in r] for r in ROWS]
    assert row_sums(_rt()).numpy() == FLAT.sum()
