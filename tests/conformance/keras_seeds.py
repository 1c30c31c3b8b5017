"""Keras 3's seeds on TensorFlow: seeded initializers draw through the stateless ops with the pair (seed, 0);
unseeded ones, and the seed generators of Dropout and the RNN cells, draw default seeds from Python's `random`
in construction order, so after keras.utils.set_random_seed a model starts from TensorFlow's weights (and a
fit without shuffling follows TensorFlow's)."""

from __future__ import annotations

import numpy as np

from . import data, program, val


@program
def p_keras_seeded_initializers(tf):
    init = tf.keras.initializers
    made = [init.RandomNormal(0.5, 2.0, seed=1), init.TruncatedNormal(stddev=0.3, seed=2),
            init.RandomUniform(-2.0, 1.0, seed=3), init.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=4),
            init.VarianceScaling(0.5, "fan_avg", "truncated_normal", seed=5), init.GlorotUniform(seed=6),
            init.GlorotNormal(seed=7), init.HeNormal(seed=8), init.HeUniform(seed=9), init.LecunNormal(seed=10),
            init.LecunUniform(seed=11)]
    values = [val(i((3, 5))) for i in made]
    repeat = bool(np.array_equal(np.asarray(made[0]((3, 5))), np.asarray(made[0]((3, 5)))))
    orthogonal = val(init.Orthogonal(gain=1.5, seed=12)((4, 3)))
    wide = val(init.Orthogonal(seed=13)((2, 2, 5)))
    return [values, repeat, orthogonal, wide, val(init.GlorotUniform(seed=2**31)((2, 2))),
            val(init.RandomNormal(seed=3)((2, 2), dtype="float64"))]


@program
def p_keras_initial_weights_after_set_random_seed(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(5)
    dense = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dropout(0.5),
                              keras.layers.Dense(2)])
    keras.utils.set_random_seed(7)
    tokens = keras.Input((None,), dtype="int32")
    hidden = keras.layers.Embedding(10, 3)(tokens)
    hidden = keras.layers.LSTM(2, return_sequences=True)(hidden)
    hidden = keras.layers.GRU(2, dropout=0.1)(hidden)
    text = keras.Model(tokens, keras.layers.Dense(1, kernel_initializer="he_normal")(hidden))
    keras.utils.set_random_seed(9)
    conv = keras.Sequential([keras.Input((6, 6, 2)), keras.layers.Conv2D(2, 3), keras.layers.BatchNormalization(),
                             keras.layers.Flatten(), keras.layers.Dense(2, kernel_initializer="lecun_normal")])
    simple = keras.layers.SimpleRNN(2)
    simple(tf.ones((1, 2, 2)))
    return [[val(w) for w in model.get_weights()] for model in (dense, text, conv, simple)]


@program
def p_keras_fit_from_default_weights(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(3)])
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    x = data((32, 4))
    y = (np.arange(32) % 3).astype("int32")
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    return [val(history.history), [val(w) for w in model.get_weights()]]
