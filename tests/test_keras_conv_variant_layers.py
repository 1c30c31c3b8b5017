"""DepthwiseConv2D, SeparableConv2D, Conv2DTranspose and Conv1D on the ops TF's Keras uses (one kernel each
way, not composites): the ops in their graphs, values and gradients against numpy eagerly, in tf.function and
with every pass off, an unknown batch size, Conv2DTranspose's output_padding and errors. TF's own numbers
for these layers are in tests/conformance/keras_conv_variant_layers.py."""

import numpy as np
import pytest
from test_depthwise_kernels import reference as depthwise_reference

import tinytf as tf
from tinytf.runtime.ops import array, conv, conv_transpose_backprop, conv_variants, nn_grad

rng = np.random.default_rng(3)


def _ops(fn, *args):
    return [n.op for n in tf.function(fn).get_concrete_function(*args).graph.walk()]


def _built(layer, x):
    layer(x)
    layer.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.5 for w in layer.get_weights()])
    return layer


def _values_and_grads(layer, x):
    """layer(x) and the gradients of sum(y * weights) for x and every weight."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)) % 7, tf.shape(y)), tf.float32))
    return [y] + tape.gradient(loss, [x] + list(layer.trainable_weights))


def _three_ways(layer, x):
    """Eagerly, in tf.function with the default passes and with every pass off: the same numbers."""
    eager = [t.numpy() for t in _values_and_grads(layer, x)]
    saved = tf.config.optimizer.get_experimental_options()
    for disable in (False, True):
        tf.config.optimizer.set_experimental_options({"disable_all": disable})
        try:
            graph = [t.numpy() for t in tf.function(lambda a: _values_and_grads(layer, a))(x)]
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
        for a, b in zip(graph, eager):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    return eager


@pytest.mark.parametrize("kwargs", [dict(kernel_size=3), dict(kernel_size=(2, 3), strides=2, padding="same",
                                                                   depth_multiplier=3),
                                    dict(kernel_size=3, dilation_rate=2, padding="same", depth_multiplier=2),
                                    dict(kernel_size=3, strides=2, dilation_rate=2, padding="same")])
def test_depthwise_layer_runs_the_op_and_matches_numpy(kwargs):
    x = tf.constant(rng.standard_normal((2, 9, 8, 3)).astype(np.float32))
    layer = _built(tf.keras.layers.DepthwiseConv2D(**kwargs), x)
    ops = _ops(lambda a: _values_and_grads(layer, a), x)
    assert conv_variants.depthwise_conv2d_op in ops and conv.conv2d_op not in ops and array.concat_op not in ops
    assert conv_variants.depthwise_backprop_input_op in ops and conv_variants.depthwise_backprop_filter_op in ops
    y = _three_ways(layer, x)[0]
    kernel, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    strides = layer.strides
    expected = depthwise_reference(x.numpy().astype(np.float64), kernel, strides, layer.padding.upper(),
                                   layer.dilation_rate) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)


def test_separable_layer_is_depthwise_then_pointwise():
    x = tf.constant(rng.standard_normal((2, 7, 6, 3)).astype(np.float32))
    layer = _built(tf.keras.layers.SeparableConv2D(4, 3, padding="same", depth_multiplier=2), x)
    ops = _ops(lambda a: layer(a), x)
    assert conv_variants.depthwise_conv2d_op in ops and array.concat_op not in ops
    y = _three_ways(layer, x)[0]
    depthwise, pointwise, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    mid = depthwise_reference(x.numpy().astype(np.float64), depthwise, (1, 1), "SAME", (1, 1))
    np.testing.assert_allclose(y, mid @ pointwise[0, 0] + bias, rtol=1e-4, atol=1e-4)


def _transpose_reference(x, kernel, strides, out_hw, padding, dilations=(1, 1)):
    """Scatter every input pixel's kernel-weighted contribution over the output, then crop as TF pads."""
    kh, kw, out_c, _ = kernel.shape
    n, height, width, _ = x.shape
    geo = conv.conv_geometry(out_hw, (kh, kw), strides, dilations, padding)
    top, left = geo.pads[0], geo.pads[2]
    full = np.zeros((n, out_hw[0] + top + kh * dilations[0] + strides[0] * height,
                     out_hw[1] + left + kw * dilations[1] + strides[1] * width, out_c))
    for h in range(height):
        for w in range(width):
            for i in range(kh):
                for j in range(kw):
                    full[:, h * strides[0] + i * dilations[0], w * strides[1] + j * dilations[1]] += \
                        x[:, h, w] @ kernel[i, j].T
    return full[:, top:top + out_hw[0], left:left + out_hw[1]]


@pytest.mark.parametrize("kwargs, out_hw", [
    (dict(filters=2, kernel_size=3), (7, 6)), (dict(filters=2, kernel_size=3, strides=2), (11, 9)),
    (dict(filters=3, kernel_size=(2, 3), strides=(2, 3), padding="same"), (10, 12)),
    (dict(filters=2, kernel_size=2, strides=3), (15, 12)),
    (dict(filters=2, kernel_size=3, strides=2, padding="same", output_padding=1), (10, 8)),
    (dict(filters=2, kernel_size=3, dilation_rate=2, padding="same"), (5, 4))])
def test_conv2d_transpose_layer_runs_conv2d_backprop_input(kwargs, out_hw):
    x = tf.constant(rng.standard_normal((2, 5, 4, 3)).astype(np.float32))
    layer = _built(tf.keras.layers.Conv2DTranspose(**kwargs), x)
    ops = _ops(lambda a: _values_and_grads(layer, a), x)
    assert nn_grad.conv2d_backprop_input_op in ops
    # the input gradient of a transposed convolution is a convolution, its filter gradient a conv2d filter
    # gradient of the same input: one op on one window matrix when the conv_transpose_backprop pass runs
    options = tf.config.optimizer.get_experimental_options()
    if not options.get("disable_all") and options.get("conv_transpose_backprop", True):
        assert conv_transpose_backprop.conv2d_and_filter_grad_op in ops
    else:
        assert conv.conv2d_op in ops and nn_grad.conv2d_backprop_filter_op in ops
    assert array.pad_op not in ops  # no zero-dilated, padded copy of the input
    y = _three_ways(layer, x)[0]
    assert y.shape == (2, *out_hw, kwargs["filters"])
    kernel, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    expected = _transpose_reference(x.numpy().astype(np.float64), kernel, layer.strides, out_hw,
                                    layer.padding.upper(), layer.dilation_rate) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_with_unknown_batch():
    x = rng.standard_normal((3, 4, 5, 2)).astype(np.float32)
    layer = _built(tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same"), tf.constant(x))
    fn = tf.function(lambda a: layer(a), input_signature=[tf.TensorSpec([None, 4, 5, 2], tf.float32)])
    for batch in (3, 1):
        np.testing.assert_allclose(fn(tf.constant(x[:batch])).numpy(), layer(tf.constant(x[:batch])).numpy(),
                                   rtol=1e-6, atol=1e-6)
    assert fn.get_concrete_function().structured_outputs.shape.as_list() == [None, 8, 10, 3]


def test_conv2d_transpose_config_and_errors():
    layer = tf.keras.layers.Conv2DTranspose(2, 3, strides=2, output_padding=1)
    config = layer.get_config()
    assert config["output_padding"] == (1, 1) and "groups" not in config
    assert tf.keras.layers.Conv2DTranspose.from_config(config).output_padding == (1, 1)
    with pytest.raises(ValueError, match="output padding"):
        tf.keras.layers.Conv2DTranspose(2, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match="dilation_rate > 1"):
        tf.keras.layers.Conv2DTranspose(2, 3, strides=2, dilation_rate=2)


def test_conv1d_layer_is_one_conv2d():
    x = tf.constant(rng.standard_normal((2, 11, 3)).astype(np.float32))
    layer = _built(tf.keras.layers.Conv1D(4, 3, strides=2, padding="same"), x)
    ops = _ops(lambda a: _values_and_grads(layer, a), x)
    assert ops.count(conv.conv2d_op) == 1 and nn_grad.conv2d_backprop_filter_op in ops
    y = _three_ways(layer, x)[0]
    kernel, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    xp = np.pad(x.numpy().astype(np.float64), ((0, 0), (1, 1), (0, 0)))  # SAME, stride 2, 11 -> 6: pads 1 and 1
    expected = np.stack([sum(xp[:, 2 * t + j] @ kernel[j] for j in range(3)) for t in range(6)], 1) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)


def test_layers_export_to_graph_def_under_tf_op_names():
    """The exported training step names TF's ops: DepthwiseConv2dNative and its two backprops for the
    depthwise layers, Conv2DBackpropInput (forward) and Conv2D + Conv2DBackpropFilter (gradients) for the
    transposed convolution. (TF 2.21 ran each of these ops' exports on tinytf's samples:
    tests/tf_reference/graph_def_export_ops.json.)"""
    x = tf.constant(rng.standard_normal((2, 6, 6, 3)).astype(np.float32))
    layers = [_built(tf.keras.layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2), x)]
    layers.append(_built(tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="same"), layers[0](x)))
    traced = tf.function(lambda a: _values_and_grads(_Chain(layers), a)).get_concrete_function(x)
    graph_def = traced.graph.as_graph_def()
    ops = {n.op for n in graph_def.node} | {n.op for f in graph_def.library.function for n in f.node_def}
    assert {"DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter",
            "Conv2DBackpropInput", "Conv2D", "Conv2DBackpropFilter"} <= ops


class _Chain:
    """Layers applied in turn, with their weights in order (enough for _values_and_grads)."""

    def __init__(self, layers):
        self.layers = layers
        self.trainable_weights = [w for layer in layers for w in layer.trainable_weights]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
