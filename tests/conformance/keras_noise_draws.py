"""Keras 3's random layers draw TF's own numbers: each layer's SeedGenerator (seeded by
keras.utils.set_random_seed in construction order) gives the next seed pair to TF's stateless ops, so
Dropout masks, Gaussian noise, spatial and recurrent dropout masks equal TF's, eagerly and traced, call after
call; and fit passes `training` only to a call() that takes it (a subclassed model without it trains with its
dropouts off, as Keras 3 does)."""

from __future__ import annotations

import numpy as np

from . import fixed_weights, program, val


@program
def p_dropout_and_noise_layers_draw_tfs_numbers(tf):
    tf.keras.utils.set_random_seed(0)
    x = tf.reshape(tf.range(1.0, 25.0), (2, 3, 4))
    dropout = tf.keras.layers.Dropout(0.3)
    noise = tf.keras.layers.GaussianNoise(0.5)
    gaussian_dropout = tf.keras.layers.GaussianDropout(0.2)
    spatial = tf.keras.layers.SpatialDropout1D(0.5)
    shared = tf.keras.layers.Dropout(0.5, noise_shape=(None, 1, 4))
    seeded = tf.keras.layers.Dropout(0.4, seed=42)
    traced = tf.function(lambda t: dropout(t, training=True))
    return [val(dropout(x, training=True)), val(dropout(x, training=True)), val(traced(x)), val(traced(x)),
            val(noise(x, training=True)), val(gaussian_dropout(x, training=True)), val(spatial(x, training=True)),
            val(shared(x, training=True)), val(seeded(x, training=True)), val(dropout(x))]


@program
def p_recurrent_dropout_masks(tf):
    tf.keras.utils.set_random_seed(1)
    inputs = tf.keras.Input((5, 3))
    lstm = tf.keras.layers.LSTM(4, dropout=0.3, recurrent_dropout=0.2, return_sequences=True)
    gru = tf.keras.layers.GRU(2, dropout=0.25)
    model = tf.keras.Model(inputs, gru(lstm(inputs)))
    fixed_weights(model)
    x = np.linspace(-1, 1, 30).reshape(2, 5, 3).astype("float32")
    return [val(model(x, training=True)), val(model(x, training=True)), val(model(x))]


@program
def p_fit_training_flag_follows_the_call_signature(tf):
    def run(with_training_arg):
        tf.keras.utils.set_random_seed(0)

        class Block(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.seq = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dropout(0.5)])

            def call(self, x):
                return self.seq(x)

        class WithTraining(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def call(self, inputs, training=None):
                return self.block(inputs, training=training)

        class WithoutTraining(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def call(self, inputs):
                return self.block(inputs)

        model = WithTraining() if with_training_arg else WithoutTraining()
        x = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
        model(x)
        fixed_weights(model)
        model.compile(optimizer="sgd", loss="mse")
        evaluated = model.evaluate(x, np.zeros((4, 4), "float32"), verbose=0)
        history = model.fit(x, np.zeros((4, 4), "float32"), epochs=2, verbose=0)
        return [round(evaluated, 6), [round(v, 6) for v in history.history["loss"]]]

    return [run(True), run(False)]


@program
def p_attention_layers_dropout_draws(tf):
    tf.keras.utils.set_random_seed(3)
    attention = tf.keras.layers.Attention(dropout=0.5)
    alpha = tf.keras.layers.AlphaDropout(0.3)
    dropout = tf.keras.layers.Dropout(0.2)
    mha = tf.keras.layers.MultiHeadAttention(2, 2, dropout=0.5)
    q = tf.reshape(tf.range(12.0), (1, 3, 4)) / 10
    attended = attention([q, q], training=True)
    alpha_dropped = alpha(q, training=True)
    dropped = dropout(q, training=True)
    mha_out = mha(q, q, training=True)
    fixed = [np.full(w.shape, 0.1 * (i + 1), np.float32) for i, w in enumerate(mha.get_weights())]
    mha.set_weights(fixed)
    return [val(attended), val(alpha_dropped), val(dropped), val(tf.shape(mha_out)), val(mha(q, q, training=True))]
