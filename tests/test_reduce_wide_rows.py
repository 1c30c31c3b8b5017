"""reduce_sum over leading axes that leave few values per row (a conv's bias gradient) sums through wide rows
(runtime/ops/reduce.py): the same bits eagerly and in graphs (passes on and off), keepdims and negative axes,
remainders that do not fill a row, non-contiguous inputs (numpy's own sum), against float64 sums."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops import reduce as reduce_ops


@pytest.mark.parametrize("shape, axis", [((64, 26, 26, 16), [0, 1, 2]), ((64, 26, 26, 16), [-4, -3, -2]),
                                         ((4099, 17), 0), ((3, 5000, 7), [0, 1]), ((40000, 1), 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_wide_row_sums_match_float64_and_agree_eager_and_graph(shape, axis, keepdims, passes):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    eager = tf.reduce_sum(x, axis=axis, keepdims=keepdims).numpy()
    graph = tf.function(lambda t: tf.reduce_sum(t, axis=axis, keepdims=keepdims))(tf.constant(x)).numpy()
    want = np.sum(x.astype(np.float64), axis=tuple(np.atleast_1d(axis)), keepdims=keepdims)
    assert eager.shape == want.shape and eager.dtype == np.float32
    np.testing.assert_array_equal(eager, graph)
    np.testing.assert_allclose(eager, want, rtol=1e-5, atol=1e-3)


def test_the_wide_path_is_taken_only_where_it_applies():
    assert reduce_ops.leading_axes([0, 1, 2], 4) == 3 and reduce_ops.leading_axes((1, 0), 3) == 2
    assert reduce_ops.leading_axes([1, 2], 4) == 0  # not leading
    assert reduce_ops.leading_axes([0, 1], 2) == 0 and reduce_ops.leading_axes(None, 3) == 0  # reduces all
    x = np.random.default_rng(1).standard_normal((64, 26, 26, 32)).astype(np.float32)
    columns = x[..., :16]  # not contiguous: numpy's own sum
    assert not columns.flags.c_contiguous
    np.testing.assert_array_equal(reduce_ops._sum(columns, axis=(0, 1, 2), keepdims=False),
                                  np.sum(columns, axis=(0, 1, 2), dtype=np.float32))


def test_bias_gradient_of_a_conv_layer_is_the_wide_sum(passes):
    x = tf.constant(np.random.default_rng(2).standard_normal((8, 28, 28, 1)).astype(np.float32))
    layer = tf.keras.layers.Conv2D(16, 3)
    layer(x)

    def bias_gradient(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        return tape.gradient(loss, layer.bias)

    eager, graph = bias_gradient(x), tf.function(bias_gradient)(x)
    out = layer(x).numpy().astype(np.float64)
    np.testing.assert_allclose(eager.numpy(), (2 * out).sum(axis=(0, 1, 2)), rtol=1e-4, atol=1e-2)
    np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-6, atol=1e-4)
