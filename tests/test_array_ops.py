"""Array ops (range, linspace, concat, unstack, split, squeeze, expand_dims, transpose, reverse, tile, pad,
broadcast_to, size, rank): eagerly, as graphs with and without passes, against numpy, with partial shapes,
and with bad inputs."""

import numpy as np
import pytest
from ways import check, check_partial, raises

import tinytf as tf
from tinytf.runtime.errors import InvalidArgumentError

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.arange(12, dtype=np.int32).reshape(3, 4)


# --- range and linspace -------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, kwargs, want", [
    ((5,), {}, np.arange(5, dtype=np.int32)),
    ((2, 9, 3), {}, np.arange(2, 9, 3, dtype=np.int32)),
    ((10, 0, -3), {}, np.arange(10, 0, -3, dtype=np.int32)),
    ((1, 2.5, 0.5), {}, np.arange(1, 2.5, 0.5, dtype=np.float32)),
    ((0, 1, 0.3), {}, np.arange(0, 1, 0.3, dtype=np.float32)),
    ((4,), {"dtype": tf.float64}, np.arange(4, dtype=np.float64)),
    ((0,), {}, np.arange(0, dtype=np.int32)),
])
def test_range(args, kwargs, want):
    result = check(lambda: tf.range(*args, **kwargs), expected=want)
    assert result.dtype.np == want.dtype


def test_range_infers_the_widest_dtype_and_takes_tensors():
    assert tf.range(tf.constant(3, tf.int64)).dtype is tf.int64
    assert tf.range(tf.constant(1), 4.0).dtype is tf.float32
    check(lambda n: tf.range(n), tf.constant(np.int64(4)), expected=np.arange(4), exact=False)


def test_range_is_a_node_with_scalar_inputs_and_a_symbolic_limit():
    def f(n):
        return tf.range(1, n, 2)

    concrete = tf.function(f).get_concrete_function(tf.TensorSpec([], tf.int32))
    node = concrete.outputs[0].node
    assert node.op.name == "range" and len(node.inputs) == 3
    assert node.inputs[1] is concrete.graph.inputs[0]
    assert concrete.outputs[0]._shape == (None,)
    np.testing.assert_array_equal(concrete(tf.constant(8)).numpy(), [1, 3, 5, 7])
    inner = tf.function(lambda: tf.range(1, 8, 2)).get_concrete_function()
    assert inner.outputs[0]._shape == (4,)  # constant bounds give a static length


def test_range_errors():
    raises(lambda: tf.range(5, 1), "range", "start <= limit")
    raises(lambda: tf.range(0, 5, 0), "range", "delta must not be zero")
    raises(lambda: tf.range(tf.constant([3])), "range", "scalar")
    raises(lambda: tf.range(2.5, dtype=tf.int32), "Cannot convert")
    concrete = tf.function(lambda n: tf.range(0, n, -1)).get_concrete_function(tf.TensorSpec([], tf.int32))
    with pytest.raises(InvalidArgumentError, match="range.*start >= limit"):
        concrete(tf.constant(3))


def test_linspace():
    check(lambda: tf.linspace(0, 1, 5), expected=np.linspace(0, 1, 5))
    check(lambda: tf.linspace(tf.constant([0.0, 1.0], tf.float64), 3.0, 3, axis=1),
          expected=np.linspace([0.0, 1.0], 3.0, 3, axis=1))
    assert tf.linspace(0, 1, 5).dtype is tf.float32
    raises(lambda: tf.linspace(tf.constant(0), tf.constant(1), 3), "linspace", "int32")


# --- joining and splitting ------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    a, b = X[:, :2], X[:, 1:]
    if axis == 0:
        a, b = X[:1], X
    elif axis == -1:
        a, b = X[..., :1], X
    check(lambda a, b: tf.concat([a, b], axis), tf.constant(a), tf.constant(b),
          expected=np.concatenate([a, b], axis))


def test_concat_one_value_and_python_lists():
    check(lambda: tf.concat([tf.constant(M)], 0), expected=M)
    check(lambda: tf.concat([tf.constant([1, 2]), [3]], 0), expected=np.array([1, 2, 3]))


def test_concat_partial_shapes():
    check_partial(lambda x: tf.concat([x, x], 0), tf.TensorSpec([None, 3]), X[0, :, :3], (None, 3))
    check_partial(lambda x: tf.concat([x, x], 1), tf.TensorSpec([None, 3]), X[0, :, :3], (None, 6))


def test_concat_errors():
    raises(lambda: tf.concat([tf.constant(M), tf.constant(X[0])], 0), "concat", "same dtype")
    raises(lambda: tf.concat([tf.constant(M), tf.constant(M[0])], 0), "concat", "same rank")
    raises(lambda: tf.concat([tf.constant(M), tf.constant(M[:, :2])], 0), "concat", "dimension 1")
    raises(lambda: tf.concat([tf.constant(1), tf.constant(2)], 0), "concat", "scalars")
    raises(lambda: tf.concat([tf.constant(M)], 2), "concat", "axis 2 is out of range")


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis):
    check(lambda x: tf.unstack(x, axis=axis), tf.constant(X), expected=list(np.moveaxis(X, axis, 0)))


def test_unstack_vector_gives_scalars_and_num_works_with_unknown_dims():
    parts = check(lambda: tf.unstack(tf.constant([1, 2, 3])), expected=(1, 2, 3))
    assert [p.shape for p in parts] == [(), (), ()]
    concrete = tf.function(lambda x: tf.unstack(x, num=2)).get_concrete_function(tf.TensorSpec([None, 3]))
    assert [t._shape for t in concrete.outputs] == [(3,), (3,)]
    np.testing.assert_array_equal(concrete(tf.constant(X[0, :2, :3]))[1].numpy(), X[0, 1, :3])
    with pytest.raises(InvalidArgumentError, match="unstack"):
        concrete(tf.constant(X[0, :, :3]))


def test_unstack_errors():
    raises(lambda: tf.unstack(tf.constant(M), num=4), "unstack", "num=4")
    raises(lambda: tf.unstack(tf.constant(1)), "cannot infer num")
    with pytest.raises(ValueError, match="pass num="):
        tf.function(lambda x: tf.unstack(x)).get_concrete_function(tf.TensorSpec([None, 3]))


@pytest.mark.parametrize("spec, axis", [(2, 0), (4, 2), ([1, 2], 1), ([1, -1, 1], 2), ([3, 0], 1), (1, 0)])
def test_split(spec, axis):
    if isinstance(spec, int):
        want = np.split(X, spec, axis)
    else:
        sizes = list(spec)
        if -1 in sizes:
            sizes[sizes.index(-1)] = X.shape[axis] - (sum(sizes) + 1)
        want = np.split(X, np.cumsum(sizes)[:-1], axis)
    check(lambda x: tf.split(x, spec, axis), tf.constant(X), expected=want)


def test_split_partial_shapes_and_errors():
    concrete = tf.function(lambda x: tf.split(x, [1, 2], 1)).get_concrete_function(tf.TensorSpec([None, 3]))
    assert [t._shape for t in concrete.outputs] == [(None, 1), (None, 2)]
    concrete = tf.function(lambda x: tf.split(x, 2, 0)).get_concrete_function(tf.TensorSpec([None, 3]))
    assert [t._shape for t in concrete.outputs] == [(None, 3), (None, 3)]
    with pytest.raises(InvalidArgumentError, match="split.*evenly"):
        concrete(tf.constant(X[0, :, :3]))
    raises(lambda: tf.split(tf.constant(X), 3, 2), "split", "evenly")
    raises(lambda: tf.split(tf.constant(X), [1, 1], 1), "split", "add up")
    raises(lambda: tf.split(tf.constant(X), [1, -1, -1], 1), "at most one -1")


# --- shape edits ---------------------------------------------------------------------------------------
def test_squeeze_and_expand_dims():
    y = X.reshape(1, 2, 1, 12)
    check(lambda x: tf.squeeze(x), tf.constant(y), expected=np.squeeze(y))
    check(lambda x: tf.squeeze(x, [0, -2]), tf.constant(y), expected=np.squeeze(y, (0, 2)))
    check(lambda x: tf.squeeze(x, 2), tf.constant(y), expected=np.squeeze(y, 2))
    check(lambda: tf.squeeze(tf.constant([[5]])), expected=5)
    for axis in (0, 1, 3, -1, -4):
        check(lambda x, axis=axis: tf.expand_dims(x, axis), tf.constant(X), expected=np.expand_dims(X, axis))
    check(lambda: tf.expand_dims(tf.constant(2.0), 0), expected=np.array([2.0]))


def test_squeeze_expand_dims_partial_shapes_and_errors():
    check_partial(lambda x: tf.squeeze(x, 1), tf.TensorSpec([None, 1]), np.ones((4, 1), np.float32), (None,))
    concrete = tf.function(lambda x: tf.squeeze(x)).get_concrete_function(tf.TensorSpec([None, 1]))
    assert concrete.outputs[0]._shape is None  # which dims go depends on the run-time shape
    assert concrete(tf.constant(np.ones((1, 1), np.float32))).shape == ()
    check_partial(lambda x: tf.expand_dims(x, 1), tf.TensorSpec([None, 3]), X[0, :, :3], (None, 1, 3))
    raises(lambda: tf.squeeze(tf.constant(X), 1), "squeeze", "dimension 1 of size 3")
    raises(lambda: tf.expand_dims(tf.constant(X), 4), "expand_dims", "axis 4 is out of range")


@pytest.mark.parametrize("perm", [None, [0, 2, 1], [2, 0, 1], (1, 2, 0)])
def test_transpose(perm):
    check(lambda x: tf.transpose(x, perm), tf.constant(X), expected=np.transpose(X, perm))


def test_transpose_partial_and_errors():
    check_partial(lambda x: tf.transpose(x), tf.TensorSpec([None, 3]), X[0, :, :3], (3, None))
    raises(lambda: tf.transpose(tf.constant(X), [0, 1]), "transpose", "rank 3")
    raises(lambda: tf.transpose(tf.constant(X), [0, 1, 1]), "transpose", "not a permutation")


@pytest.mark.parametrize("axis", [[0], [1, 2], [-1], []])
def test_reverse(axis):
    check(lambda x: tf.reverse(x, axis), tf.constant(X), expected=np.flip(X, tuple(axis)))


def test_reverse_errors():
    raises(lambda: tf.reverse(tf.constant(X), [3]), "reverse", "out of range")
    raises(lambda: tf.reverse(tf.constant(X), [1, -2]), "reverse", "twice")


@pytest.mark.parametrize("multiples", [[1, 1, 1], [2, 1, 3], [1, 0, 2]])
def test_tile(multiples):
    check(lambda x: tf.tile(x, multiples), tf.constant(X), expected=np.tile(X, multiples))


def test_tile_partial_and_errors():
    check_partial(lambda x: tf.tile(x, [2, 2]), tf.TensorSpec([None, 3]), X[0, :, :3], (None, 6))
    raises(lambda: tf.tile(tf.constant(X), [2, 2]), "tile", "one entry per dimension")
    raises(lambda: tf.tile(tf.constant(M), [2, -1]), "tile", "non-negative")


@pytest.mark.parametrize("signature", [[None, 3, 4], [None, None, 4], [None, None, None]])
def test_tile_gradient_with_dimensions_unknown_when_tracing(signature):
    """One unknown dimension is inferred by the gradient's reshape; more are read from the input's shape."""
    @tf.function(input_signature=[tf.TensorSpec(signature, tf.float64)])
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.tile(x, [2, 1, 3])
            loss = tf.reduce_sum(y * tf.reshape(tf.cast(tf.range(tf.size(y)), tf.float64), tf.shape(y)))
        return tape.gradient(loss, x)

    x = tf.constant(X.astype(np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tile(x, [2, 1, 3])
        loss = tf.reduce_sum(y * tf.reshape(tf.cast(tf.range(tf.size(y)), tf.float64), tf.shape(y)))
    np.testing.assert_allclose(grad(x).numpy(), tape.gradient(loss, x).numpy())
    weights = np.arange(np.tile(X, [2, 1, 3]).size, dtype=np.float64).reshape(np.tile(X, [2, 1, 3]).shape)
    want = sum(weights[i * X.shape[0]:(i + 1) * X.shape[0], :, j * X.shape[2]:(j + 1) * X.shape[2]]
               for i in range(2) for j in range(3))
    np.testing.assert_allclose(grad(x).numpy(), want)


@pytest.mark.parametrize("mode", ["CONSTANT", "reflect", "SYMMETRIC"])
def test_pad(mode):
    paddings = [[1, 2], [2, 1]]
    want = np.pad(M, paddings, mode=mode.lower())
    check(lambda x: tf.pad(x, paddings, mode), tf.constant(M), expected=want)


def test_pad_constant_value_and_partial_shapes():
    check(lambda x: tf.pad(x, [[0, 1], [1, 0], [0, 0]], constant_values=-1.5), tf.constant(X),
          expected=np.pad(X, [[0, 1], [1, 0], [0, 0]], constant_values=-1.5))
    check_partial(lambda x: tf.pad(x, [[1, 1], [0, 2]]), tf.TensorSpec([None, 3]), X[0, :, :3], (None, 5))
    concrete = tf.function(lambda x: tf.pad(x, [[2, 2], [0, 0]], "REFLECT")).get_concrete_function(
        tf.TensorSpec([None, 3]))
    want = np.pad(X[0, :, :3], [[2, 2], [0, 0]], "reflect")
    np.testing.assert_array_equal(concrete(tf.constant(X[0, :, :3])).numpy(), want)
    with pytest.raises(InvalidArgumentError, match="pad.*REFLECT padding of dimension 0"):
        concrete(tf.constant(X[0, :2, :3]))  # a mirror pad of 2 needs at least 3 rows; checked at run time too


def test_pad_errors():
    raises(lambda: tf.pad(tf.constant(M), [[1, 1]]), "pad", "[2, 2]")
    raises(lambda: tf.pad(tf.constant(M), [[3, 0], [0, 0]], "REFLECT"), "pad", "at most 2")
    raises(lambda: tf.pad(tf.constant(M), [[4, 0], [0, 0]], "SYMMETRIC"), "pad", "at most 3")
    raises(lambda: tf.pad(tf.constant(M), [[-1, 0], [0, 0]]), "pad", "non-negative")
    raises(lambda: tf.pad(tf.constant(M), [[1, 0], [0, 0]], "WRAP"), "mode must be")


def test_broadcast_to():
    check(lambda x: tf.broadcast_to(x, [2, 3, 4]), tf.constant(M[0]), expected=np.broadcast_to(M[0], (2, 3, 4)))
    check(lambda: tf.broadcast_to(tf.constant(7), [2, 2]), expected=np.full((2, 2), 7))
    check(lambda x: tf.broadcast_to(x, tf.shape(x)), tf.constant(M), expected=M)
    check_partial(lambda x: tf.broadcast_to(x, [2, 4, 3]), tf.TensorSpec([None, 3]), X[0, :1, :3], (2, 4, 3))
    raises(lambda: tf.broadcast_to(tf.constant(M), [3, 3]), "broadcast_to", "cannot broadcast")
    raises(lambda: tf.broadcast_to(tf.constant(M), [4]), "broadcast_to", "lower rank")


def test_broadcast_to_a_shape_known_only_at_run_time():
    got = check_partial(lambda x: tf.broadcast_to(1.0, tf.shape(x)), tf.TensorSpec([None, 3]), X[0, :, :3],
                        (None, 3))
    np.testing.assert_array_equal(got.numpy(), np.ones((3, 3), np.float32))


def test_size_and_rank():
    check(lambda x: (tf.size(x), tf.rank(x)), tf.constant(X), expected=(24, 3))
    check(lambda: (tf.size(tf.constant(1.0), out_type=tf.int64), tf.rank(tf.constant(1.0))), expected=(1, 0))
    assert tf.size(tf.constant(X)).dtype is tf.int32 and tf.rank(tf.constant(X)).dtype is tf.int32
    concrete = tf.function(lambda x: (tf.size(x), tf.rank(x))).get_concrete_function(tf.TensorSpec([None, 3]))
    size, rank = concrete(tf.constant(X[0, :, :3]))
    assert size.numpy() == 9 and rank.numpy() == 2 and size.dtype is tf.int32
    assert "np.int32(np.size(" in concrete.code


def test_static_arguments_may_be_tensors_known_at_trace_time():
    def f(x):
        return tf.tile(x, [tf.shape(x)[0], 1]), tf.range(tf.shape(x)[1] * 2), tf.pad(x, tf.constant([[1, 0], [0, 1]]))

    check(f, tf.constant(M), expected=(np.tile(M, [3, 1]), np.arange(8), np.pad(M, [[1, 0], [0, 1]])))
    # with the first dimension unknown, tile takes its multiples as a run-time input (TF's Tile)
    concrete = tf.function(f).get_concrete_function(tf.TensorSpec([None, 4], tf.int32))
    assert [out._shape for out in concrete.outputs] == [(None, 4), (8,), (None, 5)]
    got = concrete(tf.constant(M))
    np.testing.assert_array_equal(got[0].numpy(), np.tile(M, [3, 1]))
