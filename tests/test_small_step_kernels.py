"""The kernels a small model's train step spends its time in (the Keras fit step of issue 11's speed bar): the
mean and sum kernels run np.add.reduce directly, divide_no_nan takes a branch for two scalars, and the
simplifier drops reductions of a scalar. Each must give exactly what the general path gives."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops.math import _divide_no_nan
from tinytf.runtime.ops.reduce import _mean, _sum

RNG = np.random.default_rng(7)


def _cases(dtype):
    """Random arrays of rank 0 to 3 and every axis choice, including a tuple of axes."""
    for _ in range(150):
        shape = tuple(int(d) for d in RNG.integers(1, 7, RNG.integers(0, 4)))
        x = (RNG.standard_normal(shape) * 10.0 ** RNG.integers(-3, 4)).astype(dtype)
        axes = [None, *range(len(shape))] + ([(0, len(shape) - 1)] if len(shape) > 1 else [])
        for axis in axes:
            for keepdims in (False, True):
                yield x, axis, keepdims


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_mean_kernel_gives_np_mean_bits(dtype):
    for x, axis, keepdims in _cases(dtype):
        expected = np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
        got = _mean(x, axis=axis, keepdims=keepdims)
        assert np.shape(got) == np.shape(expected) and got.dtype == expected.dtype
        assert np.array_equal(got, expected), (x.shape, axis, keepdims)


def test_mean_kernel_counts_too_large_for_the_dtype_take_np_mean():
    x = (RNG.standard_normal(3000) * 100).astype(np.float16)  # 3000 > 2048: not exact in float16
    assert _mean(x, axis=None, keepdims=False) == np.mean(x, dtype=np.float16)


def test_mean_kernel_of_nothing_is_nan_and_of_integers_truncates():
    with np.errstate(invalid="ignore"):  # kernels run under tinytf's error state, which has 0/0 quiet
        assert np.isnan(_mean(np.zeros((0, 3), np.float32), axis=None, keepdims=False))
        assert np.isnan(_mean(np.zeros((0, 3), np.float32), axis=0, keepdims=False)).all()
    assert _mean(np.array([1, 2, 2], np.int32), axis=None, keepdims=False) == 1


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_sum_kernel_gives_np_sum_bits(dtype):
    for x, axis, keepdims in _cases(np.float32):
        x = x.astype(dtype)
        expected = np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
        got = _sum(x, axis=axis, keepdims=keepdims)
        assert type(got) is type(expected) and np.array_equal(got, expected)


def test_reduce_mean_and_sum_eager_graph_and_numpy_agree():
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    graph = tf.function(lambda t: (tf.reduce_mean(t, axis=-1), tf.reduce_sum(t, axis=0), tf.reduce_mean(t)))
    for got in (graph(tf.constant(x)), (tf.reduce_mean(x, axis=-1), tf.reduce_sum(x, axis=0), tf.reduce_mean(x))):
        np.testing.assert_array_equal(got[0].numpy(), np.mean(x, axis=-1, dtype=np.float32))
        np.testing.assert_array_equal(got[1].numpy(), np.sum(x, axis=0, dtype=np.float32))
        np.testing.assert_array_equal(got[2].numpy(), np.mean(x, dtype=np.float32))


# (x, y, TF 2.21's divide_no_nan, checked with TF: y == 0 gives 0 whatever x is; a NaN y gives NaN)
SCALAR_DIVISIONS = [(1.0, 0.0, 0.0), (np.nan, 0.0, 0.0), (np.inf, 0.0, 0.0), (1.0, np.nan, np.nan),
                    (3.0, 2.0, 1.5), (-0.0, 0.0, 0.0), (-4.0, -0.0, 0.0)]


@pytest.mark.parametrize("x, y, expected", SCALAR_DIVISIONS)
def test_divide_no_nan_of_scalars(x, y, expected):
    graph = tf.function(lambda a, b: tf.math.divide_no_nan(a, b))
    for dtype in (np.float32, np.float64):
        a, b = dtype(x), dtype(y)
        for got in (_divide_no_nan(np.asarray(a), np.asarray(b)), _divide_no_nan(a, b),
                    tf.math.divide_no_nan(a, b).numpy(), graph(tf.constant(a), tf.constant(b)).numpy()):
            assert got.dtype == dtype
            np.testing.assert_array_equal(got, dtype(expected))
            assert not np.signbit(got) or expected != 0.0  # 0, not -0, where y is 0
        # the general (masked) path gives the same, broadcast against an array
        general = _divide_no_nan(np.full(2, a), np.full(2, b))
        np.testing.assert_array_equal(general, np.full(2, expected, dtype))


def test_divide_no_nan_of_scalars_gradient_matches_finite_differences():
    x, y = tf.Variable(3.0, dtype=tf.float64), tf.Variable(2.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        z = tf.math.divide_no_nan(x, y)
    dx, dy = tape.gradient(z, [x, y])
    eps = 1e-6
    assert abs(dx.numpy() - ((3 + eps) / 2 - (3 - eps) / 2) / (2 * eps)) < 1e-6
    assert abs(dy.numpy() - (3 / (2 + eps) - 3 / (2 - eps)) / (2 * eps)) < 1e-6


def test_reductions_of_a_scalar_leave_the_graph_and_keep_its_value():
    @tf.function
    def f(s):
        return (tf.reduce_sum(s), tf.reduce_mean(s), tf.reduce_max(s, axis=[]), tf.reduce_min(s),
                tf.reduce_sum(tf.reshape(s, [1])))

    s = tf.constant(2.5)
    assert [v.numpy() for v in f(s)] == [2.5] * 5
    assert all(v.dtype == tf.float32 for v in f(s))
    code = f.get_concrete_function(s).code
    if tf.config.optimizer.get_experimental_options().get("disable_all"):  # TINYTF_PASSES=none: nothing removed
        return
    assert code.count("np.add.reduce") == 1 and "reduce_mean" not in code and "np.max" not in code


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_reduce_mean_rendered_inline_gives_the_kernel_bits(dtype):
    """With the reduced dimensions known (the batch may not be), the generated code divides the sum by the count
    itself; eager runs the kernel: both give np.mean's bits."""
    x = (RNG.standard_normal((6, 3, 5)) * 50).astype(dtype.as_numpy_dtype)
    f = tf.function(lambda t: (tf.reduce_mean(t, axis=-1), tf.reduce_mean(t, axis=[1, 2], keepdims=True),
                               tf.reduce_mean(t[:, :1], axis=1), tf.reduce_mean(t)))
    spec = tf.TensorSpec([None, 3, 5], dtype)
    code = f.get_concrete_function(spec).code
    assert "/ 5.0" in code and "/ 15.0" in code  # the batch's mean (unknown count) stays the kernel's
    for got in (f(tf.constant(x)), f.get_concrete_function(spec)(tf.constant(x))):
        expected = (np.mean(x, axis=-1, dtype=x.dtype), np.mean(x, axis=(1, 2), keepdims=True, dtype=x.dtype),
                    np.mean(x[:, :1], axis=1, dtype=x.dtype), np.mean(x, dtype=x.dtype))
        for g, e in zip(got, expected):
            assert g.dtype == dtype and g.shape == e.shape
            np.testing.assert_array_equal(g.numpy(), e)


def test_broadcast_to_the_shape_a_value_has_leaves_the_graph():
    @tf.function
    def f(s, m):
        return tf.broadcast_to(s, []) * 2.0, tf.broadcast_to(m, [2, 3]) + 1.0, tf.broadcast_to(s, [2])

    s, m = tf.constant(1.5), tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    got = f(s, m)
    assert got[0].numpy() == 3.0 and got[2].numpy().tolist() == [1.5, 1.5]
    np.testing.assert_array_equal(got[1].numpy(), np.arange(6, dtype=np.float32).reshape(2, 3) + 1)
    code = f.get_concrete_function(s, m).code
    if not tf.config.optimizer.get_experimental_options().get("disable_all"):
        assert code.count("np.broadcast_to(") == 1  # only the one that changes the shape


def test_a_mean_metric_weighted_by_batch_size_in_a_relaxed_step_matches_numpy():
    """A Keras fit whose batch size varies (7 samples, batches of 2) traces its step with the batch unknown:
    the loss tracker's count and total then come from the batch's shape at run time."""
    keras = tf.keras
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((7, 3)).astype(np.float32), rng.integers(0, 4, 7).astype(np.int32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True), metrics=["accuracy"])  # learning rate 0: the weights stay, numpy can follow
    kernel, bias = [w.astype(np.float64) for w in model.get_weights()]
    history = model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0).history
    logits = x.astype(np.float64) @ kernel + bias
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    losses = -logp[np.arange(7), y]
    batch_means = [losses[i:i + 2].mean() for i in range(0, 7, 2)]
    expected_loss = sum(m * len(losses[i:i + 2]) for m, i in zip(batch_means, range(0, 7, 2))) / 7
    assert abs(history["loss"][0] - expected_loss) < 1e-5
    assert abs(history["accuracy"][0] - np.mean(np.argmax(logits, axis=1) == y)) < 1e-6
