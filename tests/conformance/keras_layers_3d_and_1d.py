"""Keras' 1-D and 3-D convolution, pooling, padding and cropping layers with fixed weights (TF 2.21's numbers),
their configs, weight shapes and output shapes, and Keras' default initial weights after set_random_seed."""

from __future__ import annotations

import numpy as np

from . import program, val


def _data(shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype("float32")


def _fixed(layer, x):
    """The layer's output on x after its weights are set to fixed values (shapes as the layer made them)."""
    layer(x)
    weights = [_data(w.shape, seed=i + 1) for i, w in enumerate(layer.get_weights())]
    layer.set_weights(weights)
    return layer(x)


def _config(layer):
    config = layer.get_config()
    for key in ("name", "dtype", "trainable"):
        config.pop(key, None)
    return {k: [list(v) if isinstance(v, tuple) else v for v in v] if isinstance(v, tuple) and v and
            isinstance(v[0], tuple) else (list(v) if isinstance(v, tuple) else v)
            for k, v in config.items() if not k.endswith(("initializer", "regularizer", "constraint"))}


def _layers_3d(L):
    return [L.Conv3D(3, 2), L.Conv3D(4, (2, 3, 1), strides=(1, 2, 1), padding="same", activation="relu"),
            L.Conv3D(2, 2, dilation_rate=2, use_bias=False), L.Conv3D(4, 2, groups=2),
            L.Conv3DTranspose(3, 2), L.Conv3DTranspose(2, (3, 2, 2), strides=2, padding="same"),
            L.Conv3DTranspose(2, 3, strides=(2, 1, 2), output_padding=(1, 0, 1)),
            L.MaxPooling3D(), L.MaxPooling3D((2, 1, 2), strides=1, padding="same"), L.AveragePooling3D(2),
            L.AveragePooling3D((3, 2, 2), strides=(1, 2, 1), padding="same"), L.GlobalAveragePooling3D(),
            L.GlobalMaxPooling3D(keepdims=True), L.UpSampling3D((1, 2, 3)), L.ZeroPadding3D(1),
            L.ZeroPadding3D(((0, 1), (2, 0), (1, 1))), L.Cropping3D(1), L.Cropping3D(((0, 1), (1, 0), (0, 2)))]


def _layers_1d(L):
    return [L.Conv1DTranspose(3, 3), L.Conv1DTranspose(2, 4, strides=2, padding="same"),
            L.Conv1DTranspose(2, 3, strides=3, output_padding=1, dilation_rate=1),
            L.DepthwiseConv1D(3), L.DepthwiseConv1D(2, strides=2, padding="same", depth_multiplier=2),
            L.DepthwiseConv1D(3, dilation_rate=2, use_bias=False),
            L.SeparableConv1D(4, 3), L.SeparableConv1D(3, 2, strides=2, padding="same", depth_multiplier=2,
                                                       activation="tanh"),
            L.UpSampling1D(3), L.ZeroPadding1D(2), L.ZeroPadding1D((0, 3)), L.Cropping1D(1), L.Cropping1D((2, 0))]


@program
def p_keras_3d_layers_fixed_weights(tf):
    x = _data((2, 4, 5, 6, 2))
    out = []
    for layer in _layers_3d(tf.keras.layers):
        y = _fixed(layer, x)
        out.append([type(layer).__name__, val(y), [list(w.shape) for w in layer.get_weights()], _config(layer),
                    list(layer.compute_output_shape((None, 4, 5, 6, 2)))])
    return out


@program
def p_keras_1d_layers_fixed_weights(tf):
    x = _data((2, 7, 3))
    out = []
    for layer in _layers_1d(tf.keras.layers):
        y = _fixed(layer, x)
        out.append([type(layer).__name__, val(y), [list(w.shape) for w in layer.get_weights()], _config(layer),
                    list(layer.compute_output_shape((None, 7, 3)))])
    return out


@program
def p_keras_3d_1d_default_weights_and_fit(tf):
    keras = tf.keras
    L = keras.layers
    keras.utils.set_random_seed(2)
    volume = keras.Sequential([keras.Input((4, 6, 6, 1)), L.Conv3D(2, 3, padding="same", activation="relu"),
                               L.MaxPooling3D(2), L.Conv3DTranspose(2, 2, strides=2),
                               L.GlobalAveragePooling3D(), L.Dense(2)])
    initial = [val(w) for w in volume.get_weights()]
    dropout = L.SpatialDropout3D(0.3)  # its default seed is drawn here, in Keras' order (its masks are tinytf's)
    dense = L.Dense(2)
    dense.build((None, 3))
    keras.utils.set_random_seed(3)
    sequence = keras.Sequential([keras.Input((8, 3)), L.SeparableConv1D(4, 3, padding="same"),
                                 L.DepthwiseConv1D(2), L.Conv1DTranspose(2, 3, strides=2), L.UpSampling1D(2),
                                 L.Cropping1D(1), L.ZeroPadding1D(1), L.GlobalMaxPooling1D(), L.Dense(1)])
    x3, x1 = _data((4, 4, 6, 6, 1)), _data((4, 8, 3), seed=1)
    volume.compile(optimizer=keras.optimizers.SGD(0.05), loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    history = volume.fit(x3, np.array([0, 1, 1, 0]), batch_size=2, epochs=2, shuffle=False, verbose=0)
    kept = dropout(x3, training=False)
    return [initial, val(np.asarray(dense.kernel)), [val(w) for w in volume.get_weights()],
            [val(w) for w in sequence.get_weights()], bool(np.array_equal(np.asarray(kept), x3)),
            np.round(history.history["loss"], 4).tolist(), val(sequence(x1))]


@program
def p_keras_3d_aliases_and_errors(tf):
    L = tf.keras.layers
    names = [L.MaxPool3D is L.MaxPooling3D, L.AvgPool3D is L.AveragePooling3D, L.Convolution3D is L.Conv3D,
             L.GlobalAvgPool3D is L.GlobalAveragePooling3D, L.GlobalMaxPool3D is L.GlobalMaxPooling3D,
             L.Convolution3DTranspose is L.Conv3DTranspose, L.Convolution1DTranspose is L.Conv1DTranspose,
             L.SeparableConvolution1D is L.SeparableConv1D, L.SeparableConvolution2D is L.SeparableConv2D]
    errors = []
    for make in (lambda: L.Conv3D(0, 2), lambda: L.Conv3D(2, (2, 2)), lambda: L.Conv3DTranspose(2, 2, strides=1,
                                                                                                 output_padding=1),
                 lambda: L.Conv3D(2, 2)(np.zeros((1, 3, 3, 3), "float32")),
                 lambda: L.MaxPooling3D()(np.zeros((1, 3, 3), "float32"))):
        try:
            make()
            errors.append("no error")
        except ValueError:
            errors.append("ValueError")
    return [names, errors]
