"""Fixes found by porting TensorFlow's AutoGraph integration tests (tests/conformance/autograph_tf_tests.py),
pinned where the conformance programs alone do not: which calls are set_loop_options directives (only those
that resolve, while converting, through the function's globals and closure to the directive itself), and a
symbolic tensor of another dtype in a list converted with a requested dtype (cast, as TF's graph does)."""

import numpy as np
import pytest

import tinytf as tf
import tinytf.autograph  # noqa: F401  (tf.autograph)
from tinytf.autograph.experimental import set_loop_options

SHAPE_ERROR = "after one iteration"


def grow_through_global(n):
    v = tf.constant([0, 0])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
        i += 1
    return v


def grow_through_imported_name(n):
    v = tf.constant([0, 0])
    i = 0
    while i < n:
        set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
        i += 1
    return v


def grow_through_parameter(n, library):
    v = library.constant([0, 0])
    i = 0
    while i < n:
        library.autograph.experimental.set_loop_options(shape_invariants=[(v, library.TensorShape([None]))])
        v = library.concat((v, [i]), 0)
        i += 1
    return v


def grow_through_local_alias(n):
    options = tf.autograph.experimental.set_loop_options
    v = tf.constant([0, 0])
    i = 0
    while i < n:
        options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
        i += 1
    return v


def _closure_grower(library):
    def grow(n):
        v = library.constant([0, 0])
        i = 0
        while i < n:
            library.autograph.experimental.set_loop_options(shape_invariants=[(v, library.TensorShape([None]))])
            v = library.concat((v, [i]), 0)
            i += 1
        return v

    return grow


class _Recorder:
    def __init__(self):
        self.calls = []

    def set_loop_options(self, **options):
        self.calls.append(sorted(options))


@pytest.mark.parametrize("fn", [grow_through_global, grow_through_imported_name, _closure_grower(tf)])
def test_resolved_set_loop_options_is_a_directive(fn):
    for n in (0, 3):
        got = tf.function(fn)(tf.constant(n))
        np.testing.assert_array_equal(got.numpy(), [0, 0] + list(range(n)))
        np.testing.assert_array_equal(got.numpy(), fn(n).numpy())  # eager: the same, the directive a no-op


@pytest.mark.parametrize("fn, extra", [(grow_through_parameter, (tf,)), (grow_through_local_alias, ())])
def test_unresolvable_set_loop_options_is_an_ordinary_call(fn, extra):
    # TF: no directive, so the loop keeps v's shape and a growing v is the shape error (found while tracing,
    # whatever n is)
    for n in (0, 2):
        with pytest.raises(ValueError, match=SHAPE_ERROR):
            tf.function(fn)(tf.constant(n), *extra)
    np.testing.assert_array_equal(fn(2, *extra).numpy(), [0, 0, 0, 1])  # eager Python: no invariants needed


def test_a_users_own_set_loop_options_method_is_called_not_removed():
    recorder = _Recorder()

    def loop(n):
        s = 0
        i = 0
        while i < n:
            recorder.set_loop_options(maximum_iterations=2)
            s += i
            i += 1
        return s

    assert int(tf.function(loop)(tf.constant(4))) == 6  # no iteration limit: all 4 iterations
    assert recorder.calls == [["maximum_iterations"]]  # traced once: the call stays in the body
    assert "set_loop_options" in tf.autograph.to_code(loop)


@pytest.mark.parametrize("source, value, dtype, expected", [
    (tf.int64, 3, tf.int32, 3), (tf.float32, 2.7, tf.int32, 2), (tf.int64, 3, tf.float32, 3.0),
    (tf.bool, True, tf.float32, 1.0), (tf.float32, 2.7, tf.bool, True)])
def test_symbolic_tensor_in_a_list_is_cast_to_the_requested_dtype(source, value, dtype, expected):
    @tf.function
    def convert(x):
        return tf.convert_to_tensor([x, x], dtype=dtype)

    got = convert(tf.constant(value, source))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy().astype(np.float64), [float(expected)] * 2)


def test_concat_of_int32_and_an_int64_tensor_in_a_list_is_int32_in_a_graph():
    @tf.function
    def concat(i):
        return tf.concat((tf.constant([0, 0]), [i]), 0)

    got = concat(tf.constant(5, tf.int64))
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), [0, 0, 5])


def test_without_a_requested_dtype_mixed_symbolic_dtypes_still_fail():
    @tf.function
    def pack(a, b):
        return tf.convert_to_tensor([a, b])

    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        pack(tf.constant(1), tf.constant(2, tf.int64))


def _sparse():
    return tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])


def sparse_rank_grows(n):
    v = _sparse()
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
        i += 1
    return v


def sparse_rank_grows_without_invariant(n):
    v = _sparse()
    i = 0
    while i < n:
        v = tf.sparse.expand_dims(v)
        i += 1
    return v


@pytest.mark.parametrize("n", [0, 1, 3])
def test_shape_invariant_of_a_sparse_loop_variable_relaxes_its_components(n):
    got = tf.function(sparse_rank_grows)(tf.constant(n))
    expected = np.array([[1, 0, 0], [0, 2, 0], [0, 0, 0]]).reshape([3, 3] + [1] * n)
    np.testing.assert_array_equal(tf.sparse.to_dense(got).numpy(), expected)
    np.testing.assert_array_equal(tf.sparse.to_dense(sparse_rank_grows(n)).numpy(), expected)


def test_sparse_loop_variable_without_invariant_keeps_its_shapes():
    with pytest.raises(ValueError, match=SHAPE_ERROR):
        tf.function(sparse_rank_grows_without_invariant)(tf.constant(1))


def test_tf_while_loop_spreads_a_composite_invariant_over_its_components():
    @tf.function
    def loop(n):
        return tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, tf.sparse.expand_dims(v)), [0, _sparse()],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape(None)])[1]

    got = loop(tf.constant(2))
    assert got.dense_shape.numpy().tolist() == [3, 3, 1, 1]
    np.testing.assert_array_equal(got.values.numpy(), [1, 2])
