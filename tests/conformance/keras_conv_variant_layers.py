"""Keras 3's DepthwiseConv2D, SeparableConv2D, Conv2DTranspose and Conv1D as TensorFlow 2.21 computes them,
with fixed weights: outputs and the gradients for the input and every weight, over strides, dilations,
'valid'/'same' padding, depth_multiplier, output_padding and a single channel, eagerly and in tf.function
with an unknown batch size. (keras_conv_layers.py has the forward values of the plain cases.)"""

from __future__ import annotations

from . import data, program, val


def _layer_grads(tf, layer, x, seed=0):
    """The layer's output on x with fixed weights, and the gradients of a weighted sum of it for x and for
    every weight, in weight order."""
    tf.keras.backend.clear_session()
    x = tf.constant(x)
    layer(x)
    layer.set_weights([data(w.shape, seed=seed + i, scale=0.5) for i, w in enumerate(layer.get_weights())])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.constant(data(y.shape.as_list(), seed=7)))
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    return [val(y)] + [val(g) for g in grads]


@program
def p_depthwise_layer_variants(tf):
    L = tf.keras.layers
    image = data((1, 9, 8, 3), seed=1)
    return [_layer_grads(tf, L.DepthwiseConv2D(3), image),
            _layer_grads(tf, L.DepthwiseConv2D(3, padding="same", depth_multiplier=2), image),
            _layer_grads(tf, L.DepthwiseConv2D((2, 3), strides=2, padding="same", depth_multiplier=3), image),
            _layer_grads(tf, L.DepthwiseConv2D(3, strides=(2, 1), padding="valid", use_bias=False), image),
            _layer_grads(tf, L.DepthwiseConv2D(3, dilation_rate=2, padding="same", activation="relu"), image),
            _layer_grads(tf, L.DepthwiseConv2D(3, strides=2, dilation_rate=2, padding="same"), image),
            _layer_grads(tf, L.DepthwiseConv2D(3, strides=2, dilation_rate=2), image),
            _layer_grads(tf, L.DepthwiseConv2D(2, depth_multiplier=2, padding="same"), data((1, 5, 6, 1), seed=2))]


@program
def p_separable_layer_variants(tf):
    L = tf.keras.layers
    image = data((1, 8, 7, 3), seed=3)
    return [_layer_grads(tf, L.SeparableConv2D(4, 3), image),
            _layer_grads(tf, L.SeparableConv2D(2, 3, strides=2, padding="same", depth_multiplier=2), image),
            _layer_grads(tf, L.SeparableConv2D(3, 2, dilation_rate=2, use_bias=False), image)]


@program
def p_conv2d_transpose_layer_variants(tf):
    L = tf.keras.layers
    image = data((1, 5, 4, 3), seed=4)
    return [_layer_grads(tf, L.Conv2DTranspose(2, 3), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 3, strides=2), image),
            _layer_grads(tf, L.Conv2DTranspose(3, (2, 3), strides=(2, 3), padding="same"), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 2, strides=3), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 3, strides=2, padding="same", output_padding=1), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 3, strides=2, output_padding=(0, 1)), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 3, dilation_rate=2, padding="same"), image),
            _layer_grads(tf, L.Conv2DTranspose(1, 3, dilation_rate=(2, 1), activation="relu"), image),
            _layer_grads(tf, L.Conv2DTranspose(2, 3, strides=2, padding="same"), data((1, 4, 4, 1), seed=5))]


@program
def p_conv1d_layer_variants(tf):
    L = tf.keras.layers
    seq = data((1, 11, 3), seed=6)
    return [_layer_grads(tf, L.Conv1D(4, 3), seq),
            _layer_grads(tf, L.Conv1D(2, 3, strides=2, padding="same"), seq),
            _layer_grads(tf, L.Conv1D(2, 3, dilation_rate=2, padding="causal"), seq),
            _layer_grads(tf, L.Conv1D(3, 2, strides=3, use_bias=False), seq),
            _layer_grads(tf, L.Conv1D(2, 3, padding="same"), data((1, 6, 1), seed=7))]


@program
def p_conv_variant_layers_unknown_batch(tf):
    """In tf.function with the batch dimension unknown: Conv2DTranspose builds its output shape from the
    input's tf.shape."""
    L = tf.keras.layers
    tf.keras.backend.clear_session()
    layers = [L.Conv2DTranspose(2, 3, strides=2, padding="same"), L.DepthwiseConv2D(3, depth_multiplier=2),
              L.SeparableConv2D(2, 3, padding="same"), L.Conv1D(2, 3)]
    inputs = [data((2, 4, 5, 3), seed=8)] * 3 + [data((2, 7, 3), seed=9)]
    out = []
    for layer, x in zip(layers, inputs):
        layer(tf.constant(x))
        layer.set_weights([data(w.shape, seed=i, scale=0.5) for i, w in enumerate(layer.get_weights())])
        spec = tf.TensorSpec([None, *x.shape[1:]], tf.float32)
        fn = tf.function(lambda a, layer=layer: layer(a), input_signature=[spec])
        out.append([val(fn(tf.constant(x))), val(fn(tf.constant(x[:1])))])
    return out
