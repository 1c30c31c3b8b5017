"""The ragged operations TF's ragged guide uses (tinytf/ragged/row_slicing.py, array_ops.py, broadcast.py,
ragged_range.py, shape_ops.py): each against a plain-Python reference on nested lists, eagerly and as graphs with
passes on and off, and their gradients (through the flat values and dense operands) against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients
from ways import run_all_ways

import tinytf as tf

ROWS = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
NESTED = [[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]]


def parts(rt):
    """A RaggedTensor as its flat values and row splits (what run_all_ways compares)."""
    return (rt.flat_values,) + tuple(rt.nested_row_splits)


def as_lists(result):
    return result.to_list() if hasattr(result, "to_list") else result.numpy().tolist()


def ragged_from_lists(rows, ragged_rank):
    return tf.ragged.constant(rows, ragged_rank=ragged_rank)


@pytest.mark.parametrize("key", [slice(1, 3), slice(-1, None), slice(None, None, -1), slice(None, None, 2),
                                 slice(5, -7, -2), slice(-2, 1, -1), slice(0, 0)])
def test_slice_inside_rows_matches_python(key):
    rt = tf.ragged.constant(NESTED)
    expected = [row[key] for row in NESTED]
    result = run_all_ways(lambda r: parts(r[:, key]), rt)
    assert tf.RaggedTensor.from_nested_row_splits(result[0], result[1:]).to_list() == expected
    inner = [[sub[key] for sub in row] for row in NESTED]
    assert rt[:, :, key].to_list() == inner


def test_integer_on_a_ragged_dimension_raises_as_tf():
    rt = tf.ragged.constant(NESTED)
    for key in [(slice(None), 0), (Ellipsis, 0), (slice(None), slice(None), 0)]:
        with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension"):
            rt[key]


def test_uniform_inner_dimension_takes_integers():
    rows = [[[1, 2], [3, 4]], [[5, 6]]]
    rt = tf.ragged.constant(rows, ragged_rank=1)
    assert rt[:, :, 0].to_list() == [[1, 3], [5]]
    assert rt[..., 1].to_list() == [[2, 4], [6]]
    assert rt[:, 1:, ::-1].to_list() == [[[4, 3]], []]


@pytest.mark.parametrize("multiples", [[1, 2], [2, 3], [3, 1], [1, 0]])
def test_tile_matches_python(multiples):
    rt = tf.ragged.constant(ROWS)
    expected = [row * multiples[1] for row in ROWS] * multiples[0]
    result = run_all_ways(lambda r: parts(tf.tile(r, multiples)), rt)
    assert tf.RaggedTensor.from_row_splits(result[0], result[1]).to_list() == expected


def test_tile_three_dimensions():
    rt = tf.ragged.constant(NESTED)
    expected = [[sub * 2 for sub in row] * 2 for row in NESTED]
    assert tf.tile(rt, [1, 2, 2]).to_list() == expected


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_reverse_matches_python(axis):
    rt = tf.ragged.constant(NESTED)
    reverse = {0: lambda x: x[::-1], 1: lambda x: [r[::-1] for r in x],
               2: lambda x: [[s[::-1] for s in r] for r in x]}[axis % 3]
    result = run_all_ways(lambda r: parts(tf.reverse(r, [axis])), rt)
    assert tf.RaggedTensor.from_nested_row_splits(result[0], result[1:]).to_list() == reverse(NESTED)


def test_concat_along_inner_axes_matches_python():
    a, b = tf.ragged.constant(ROWS), tf.ragged.constant([[1], [2, 2], [], [3], [4, 4, 4]])
    result = run_all_ways(lambda x, y: parts(tf.concat([x, y, x], axis=1)), a, b)
    expected = [r + s + r for r, s in zip(ROWS, b.to_list())]
    assert tf.RaggedTensor.from_row_splits(result[0], result[1]).to_list() == expected
    nested = tf.ragged.constant(NESTED)
    assert tf.concat([nested, nested * 10], axis=2).to_list() == [
        [s + [v * 10 for v in s] for s in row] for row in NESTED]
    marker = tf.fill([5, 1], 0)
    assert tf.concat([marker, a, marker], axis=1).to_list() == [[0] + r + [0] for r in ROWS]


def test_concat_axis1_needs_equal_row_counts():
    with pytest.raises(tf.errors.InvalidArgumentError, match="same number of rows"):
        tf.concat([tf.ragged.constant([[1], [2]]), tf.ragged.constant([[1]])], axis=1)


def test_broadcasting_against_dense_matches_numpy():
    rt = tf.ragged.constant(ROWS)
    per_row = np.array([[10], [20], [30], [40], [50]], np.int32)
    result = run_all_ways(lambda r, d: parts(r + d), rt, tf.constant(per_row))
    expected = [[v + per_row[i, 0] for v in row] for i, row in enumerate(ROWS)]
    assert tf.RaggedTensor.from_row_splits(result[0], result[1]).to_list() == expected
    assert (tf.constant(per_row) - rt).to_list() == [[per_row[i, 0] - v for v in row] for i, row in enumerate(ROWS)]
    x3 = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert (x3 * tf.constant([[[1, 10]], [[100, 1000]]])).to_list() == [[[1, 20], [3, 40]], [[500, 6000]]]
    assert (x3 + tf.constant([[7]])).to_list() == [[[8, 9], [10, 11]], [[12, 13]]]


def test_broadcast_mismatch_raises_tfs_assert_in_a_graph_too():
    x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])
    y = tf.ragged.constant([[1, 2, 3], [4, 5], [6, 7]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        x + y
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.function(lambda a, b: a + b)(x, y)


@pytest.mark.parametrize("args", [([3, 5, 2],), ([0, 5, 8], [3, 3, 12]), (0, [3, 3, 5], 2), (5, -1, [-1, -2]),
                                  ([0.5, 1.0], 3.0, 0.75)])
def test_ragged_range_matches_numpy(args):
    result = run_all_ways(lambda *a: parts(tf.ragged.range(*a)), *[tf.constant(a) for a in args])
    full = args if len(args) == 3 else (args + (1,) if len(args) == 2 else (0, args[0], 1))
    starts, limits, deltas = np.broadcast_arrays(*[np.asarray(v) for v in full])
    expected = [np.arange(s, lim, d).tolist() for s, lim, d in zip(starts, limits, deltas)]
    got = tf.RaggedTensor.from_row_splits(result[0], result[1]).to_list()
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e)


def test_dynamic_shape_builds_ragged_tensors_in_graphs():
    rt = tf.ragged.constant(ROWS)

    def build(r):
        shape = tf.shape(r)
        return parts(tf.zeros(shape)) + parts(tf.ones(shape, tf.int32)) + parts(tf.fill(shape, 7))

    zeros, _, ones, _, sevens, splits = run_all_ways(build, rt)
    assert zeros.numpy().tolist() == [0.0] * 8 and ones.numpy().tolist() == [1] * 8
    assert sevens.numpy().tolist() == [7] * 8 and splits.numpy().tolist() == [0, 4, 4, 7, 8, 8]
    shape = tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 2])
    assert tf.reshape(tf.range(6), shape).to_list() == [[[0, 1], [2, 3]], [[4, 5]]]


def test_row_partition_round_trips():
    rp = tf.experimental.RowPartition.from_value_rowids([0, 0, 2, 2, 2], nrows=4)
    assert rp.row_splits().numpy().tolist() == [0, 2, 2, 5, 5]
    assert rp.row_lengths().numpy().tolist() == [2, 0, 3, 0]
    assert rp.offsets_in_rows().numpy().tolist() == [0, 1, 0, 1, 2]
    again = tf.experimental.RowPartition.from_row_lengths(rp.row_lengths())
    assert again.value_rowids().numpy().tolist() == [0, 0, 2, 2, 2]
    with pytest.raises(ValueError, match="private"):
        tf.experimental.RowPartition(tf.constant([0, 1]))


def test_uniform_row_length_keeps_its_static_dimension():
    rt = tf.RaggedTensor.from_uniform_row_length(tf.ragged.constant([[1], [2, 3], [], [4]]), 2)
    assert rt.shape.as_list() == [2, 2, None]
    assert (rt * 2).shape.as_list() == [2, 2, None]
    assert rt.with_row_splits_dtype(tf.int32).shape.as_list() == [2, 2, None]
    with pytest.raises(ValueError, match="must equal nvals"):
        tf.RaggedTensor.from_uniform_row_length([1, 2, 3], 2, nrows=2)


# --- gradients: through the flat values (and a dense operand) against finite differences -----------------------
SPLITS = [0, 4, 4, 7, 8, 8]
FLAT = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])


def _ragged(values):
    return tf.RaggedTensor.from_row_splits(values, tf.constant(SPLITS, tf.int64))


@pytest.mark.parametrize("op", [
    lambda r: r[:, ::-1], lambda r: r[:, 1:3], lambda r: tf.tile(r, [2, 3]), lambda r: tf.reverse(r, [1]),
    lambda r: tf.concat([r, r * r], axis=1), lambda r: tf.gather(r, [4, 2, 0, 2]),
], ids=["reverse_slice", "slice", "tile", "reverse", "concat_axis1", "gather_rows"])
def test_gradients_through_ragged_ops(op):
    check_gradients(lambda v: op(_ragged(v)).flat_values, [FLAT.copy()])


def test_gradient_of_per_row_broadcast_reaches_the_dense_operand():
    per_row = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]])
    check_gradients(lambda v, d: (_ragged(v) * d).flat_values, [FLAT.copy(), per_row])


def test_gradient_of_ragged_ids_embedding_lookup():
    table = np.arange(20.0).reshape(10, 2) / 10.0
    ids = tf.ragged.constant([[1, 3], [], [3, 9, 0]])
    check_gradients(lambda t: tf.nn.embedding_lookup(t, ids).flat_values, [table])


def test_gradient_of_ragged_range_values():
    # float ranges: d values / d starts and d deltas
    check_gradients(lambda s, d: tf.ragged.range(s, 4.0, d).flat_values, [np.array([0.5, 1.0]),
                                                                          np.array([0.75, 1.25])])


def test_ragged_fill_empty_rows_matches_python_and_differentiates():
    rowids, values = [0, 0, 2, 2, 4], [1.0, 2.0, 3.0, 4.0, 5.0]

    def fill(v, d):
        return tf.ragged_fill_empty_rows(tf.constant(rowids, tf.int64), v, tf.constant(6, tf.int64), d)

    out = run_all_ways(lambda v, d: tuple(fill(v, d)), tf.constant(values), tf.constant(-1.0))
    assert out[0].numpy().tolist() == [0, 0, 1, 2, 2, 3, 4, 5]
    assert out[1].numpy().tolist() == [1.0, 2.0, -1.0, 3.0, 4.0, -1.0, 5.0, -1.0]
    assert out[2].numpy().tolist() == [False, True, False, True, False, True]
    assert out[3].numpy().tolist() == [0, 1, 3, 4, 6]
    check_gradients(lambda v, d: fill(v, d).output_values, [np.array(values), np.array(-1.0)])
    grad = tf.ragged_fill_empty_rows_grad(out[3], tf.range(8, dtype=tf.float64))
    assert grad.d_values.numpy().tolist() == [0, 1, 3, 4, 6] and float(grad.d_default_value) == 2 + 5 + 7


def test_assertions_on_ragged_operands_eager_and_in_graphs():
    a = tf.ragged.constant([[1, 2], [3]])
    tf.debugging.assert_equal(a, tf.ragged.constant([[1, 2], [3]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.debugging.assert_equal(a, tf.ragged.constant([[1, 5], [3]]))

    @tf.function
    def check(x, y):
        tf.debugging.assert_less(x, y)
        return x.flat_values

    check(a, tf.ragged.constant([[5, 5], [5]]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        check(a, tf.ragged.constant([[0, 5], [5]]))


def test_broadcast_to_a_dynamic_ragged_shape():
    shape = tf.shape(tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]]))
    per_row = tf.constant([[1], [2], [3], [4]])
    assert tf.broadcast_to(per_row, shape).to_list() == [[1], [2, 2, 2], [], [4, 4]]
    traced = tf.function(lambda r, x: tf.broadcast_to(x, tf.shape(r)).flat_values)
    assert traced(tf.ragged.constant([[1], [2, 3]]), tf.constant(9)).numpy().tolist() == [9, 9, 9]
