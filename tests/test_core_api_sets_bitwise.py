"""tf.sets and tf.bitwise against Python sets and numpy, eagerly and in tf.function (TF's values in
tests/conformance/core_api_sets_bitwise.py)."""

import numpy as np
import pytest

import tinytf as tf


@pytest.mark.parametrize("compiled", [False, True])
def test_set_operations_match_python_sets(compiled):
    rng = np.random.default_rng(0)
    a = rng.integers(0, 6, (3, 4, 5)).astype(np.int32)
    b = rng.integers(0, 6, (3, 4, 3)).astype(np.int32)
    ops = {"intersection": (tf.sets.intersection, set.__and__), "union": (tf.sets.union, set.__or__),
           "difference": (tf.sets.difference, set.__sub__)}
    for name, (fn, py) in ops.items():
        call = tf.function(lambda x, y, f=fn: tf.sparse.to_dense(f(x, y), default_value=-1)) if compiled else (
            lambda x, y, f=fn: tf.sparse.to_dense(f(x, y), default_value=-1))
        dense = call(a, b).numpy()
        for index in np.ndindex(3, 4):
            want = sorted(py(set(a[index].tolist()), set(b[index].tolist())))
            got = [v for v in dense[index].tolist() if v != -1]
            assert got == want, (name, index)


def test_set_size_counts_distinct_values_per_row():
    st = tf.sparse.SparseTensor([[0, 0], [0, 1], [0, 3], [2, 1]], tf.constant([5, 5, 2, 7], tf.int64), [3, 4])
    np.testing.assert_array_equal(tf.sets.size(st).numpy(), [2, 0, 1])
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.sets.size(tf.constant([[1, 2]]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint16])
def test_shifts_clamp_like_tf(dtype):
    bits = np.dtype(dtype).itemsize * 8
    x = np.array([1, 3, 100, 7], dtype)
    y = np.array([0, 2, bits + 3, bits - 1], dtype)
    clamped = np.minimum(y, bits - 1).astype(dtype)
    np.testing.assert_array_equal(tf.bitwise.left_shift(x, y).numpy(), np.left_shift(x, clamped))
    np.testing.assert_array_equal(tf.function(tf.bitwise.right_shift)(x, y).numpy(), np.right_shift(x, clamped))
    np.testing.assert_array_equal(tf.bitwise.invert(x).numpy(), np.invert(x))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.bitwise.left_shift(tf.constant([1.0]), tf.constant([1.0]))
