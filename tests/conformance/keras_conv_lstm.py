"""ConvLSTM1D/2D/3D as TF 2.21's Keras 3 computes them: outputs and states for seeded weights (paddings,
strides, dilation, go_backwards, channels_first, return_sequences/return_state), the weights' layout and paths,
dropout and recurrent dropout drawn from the cell's SeedGenerator, an unknown number of time steps, a short fit,
and configs."""

from __future__ import annotations

import numpy as np

from . import outcome, program


def _sequence(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


def _rounded(x):
    """The values as Python floats (compared within float32 tolerance: rounding would flip at boundaries)."""
    return np.asarray(x, np.float64).tolist()


@program
def p_conv_lstm2d_outputs_and_states(tf):
    tf.keras.utils.set_random_seed(1)
    x = _sequence((2, 3, 5, 5, 2))
    layer = tf.keras.layers.ConvLSTM2D(3, 3, padding="same", return_sequences=True, return_state=True)
    out, h, c = layer(x)
    strided = tf.keras.layers.ConvLSTM2D(2, (2, 3), strides=(2, 1), use_bias=False, unit_forget_bias=False)
    dilated = tf.keras.layers.ConvLSTM2D(2, 2, dilation_rate=2, go_backwards=True, activation="relu")
    return {"shapes": [out.shape.as_list(), h.shape.as_list(), c.shape.as_list()],
            "weights": [[w.path, list(w.shape)] for w in layer.weights],
            "bias": _rounded(layer.weights[2].numpy()), "out": _rounded(out), "c": _rounded(c),
            "strided": _rounded(strided(x)), "dilated": _rounded(dilated(x))}


@program
def p_conv_lstm1d_and_3d(tf):
    tf.keras.utils.set_random_seed(2)
    x = _sequence((2, 4, 6, 3), seed=1)
    one = tf.keras.layers.ConvLSTM1D(2, 3, strides=2, padding="same", return_sequences=True)
    three = tf.keras.layers.ConvLSTM3D(2, (1, 2, 2), return_state=True)
    y3, h3, c3 = three(_sequence((1, 2, 2, 3, 3, 1), seed=2))
    first = tf.keras.layers.ConvLSTM2D(2, 2, data_format="channels_first")
    return {"one": _rounded(one(x)), "three": [_rounded(y3), _rounded(c3)],
            "first": _rounded(first(_sequence((1, 2, 3, 4, 4), seed=3))),
            "shapes": [one.compute_output_shape((None, 4, 6, 3)) if hasattr(one, "compute_output_shape") else None]}


@program
def p_conv_lstm_dropout_masks(tf):
    tf.keras.utils.set_random_seed(3)
    x = _sequence((2, 3, 4, 4, 2), seed=4)
    layer = tf.keras.layers.ConvLSTM2D(2, 2, dropout=0.3, recurrent_dropout=0.4, seed=5, return_sequences=True)
    trained = layer(x, training=True)
    again = layer(x, training=True)  # the seed generator moves on: new masks
    inference = layer(x)
    return [_rounded(trained), _rounded(again), _rounded(inference)]


@program
def p_conv_lstm_unknown_steps_and_fit(tf):
    tf.keras.utils.set_random_seed(4)
    inputs = tf.keras.Input((None, 4, 4, 1))
    x = tf.keras.layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True)(inputs)
    x = tf.keras.layers.ConvLSTM2D(1, 2)(x)
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Flatten()(x))
    model = tf.keras.Model(inputs, outputs)
    model.compile(tf.keras.optimizers.Adam(0.01), "mse")
    data = _sequence((6, 3, 4, 4, 1), seed=5)
    target = data.mean(axis=(1, 2, 3, 4))[:, None]
    history = model.fit(data, target, batch_size=3, epochs=2, shuffle=False, verbose=0)
    longer = model.predict(_sequence((2, 5, 4, 4, 1), seed=6), verbose=0)
    return {"output_shape": [x.shape.as_list() if hasattr(x.shape, "as_list") else list(x.shape)],
            "loss": _rounded(history.history["loss"]), "longer": _rounded(longer),
            "params": model.count_params()}


@program
def p_conv_lstm_config_and_errors(tf):
    layer = tf.keras.layers.ConvLSTM1D(4, 3, strides=1, padding="same", dropout=0.1, name="clstm")
    config = layer.get_config()
    clone = tf.keras.layers.ConvLSTM1D.from_config(config)
    return {"config": {k: v for k, v in config.items() if k not in ("dtype",)},
            "clone": [clone.filters, list(clone.kernel_size), clone.padding, clone.dropout],
            "errors": [outcome(lambda: tf.keras.layers.ConvLSTM2D(2, 2, strides=2, dilation_rate=2), "strides"),
                       outcome(lambda: tf.keras.layers.ConvLSTM2D(2, 2)(np.zeros((1, 2, 3, 3), "float32")), "ndim")]}
