"""TF's "Time series forecasting" tutorial, small (numpy instead of pandas): WindowGenerator over
timeseries_dataset_from_array (shuffled windows, a new order each epoch as Keras' fit iterates it), a baseline,
linear, conv and LSTM models, a residual wrapper, and the autoregressive FeedBack model with an LSTMCell."""

from __future__ import annotations

import numpy as np

from . import program


def _data():
    rng = np.random.default_rng(0)
    t = np.arange(300)
    data = np.stack([np.sin(t / 24 * 2 * np.pi) + rng.normal(0, .1, 300),
                     np.cos(t / 24 * 2 * np.pi) * 2 + rng.normal(0, .2, 300) + t / 300,
                     rng.normal(0, 1, 300).cumsum() / 10], 1).astype("float32")
    train, val = data[:220], data[220:]
    mean, std = train.mean(0), train.std(0)
    return (train - mean) / std, (val - mean) / std


def _window(tf, train, val, input_width, label_width, shift, label_column=None):
    total = input_width + shift

    def split(features):
        inputs = features[:, :input_width, :]
        labels = features[:, total - label_width:, :]
        if label_column is not None:
            labels = tf.stack([labels[:, :, label_column]], axis=-1)
        inputs.set_shape([None, input_width, None])
        labels.set_shape([None, label_width, None])
        return inputs, labels

    def make(data):
        ds = tf.keras.utils.timeseries_dataset_from_array(data=data, targets=None, sequence_length=total,
                                                          sequence_stride=1, shuffle=True, batch_size=32)
        return ds.map(split)

    return make(train), make(val)


def _fit(tf, model, window, epochs=2):
    model.compile(loss=tf.keras.losses.MeanSquaredError(), optimizer=tf.keras.optimizers.Adam(),
                  metrics=[tf.keras.metrics.MeanAbsoluteError()])
    history = model.fit(window[0], epochs=epochs, validation_data=window[1], verbose=0, shuffle=False)
    return {k: np.round(v, 4).tolist() for k, v in sorted(history.history.items())}


@program
def p_timeseries_single_step_models(tf):
    tf.keras.utils.set_random_seed(7)
    train, val = _data()
    out = []
    single = _window(tf, train, val, 1, 1, 1, label_column=1)
    out.append(_fit(tf, tf.keras.Sequential([tf.keras.layers.Dense(units=1)]), single))
    conv = _window(tf, train, val, 3, 1, 1, label_column=1)
    out.append(_fit(tf, tf.keras.Sequential([
        tf.keras.layers.Conv1D(filters=8, kernel_size=(3,), activation="relu"),
        tf.keras.layers.Dense(units=1)]), conv))
    wide = _window(tf, train, val, 12, 12, 1, label_column=1)
    out.append(_fit(tf, tf.keras.Sequential([tf.keras.layers.LSTM(8, return_sequences=True),
                                             tf.keras.layers.Dense(units=1)]), wide))
    return out


@program
def p_timeseries_autoregressive_feedback(tf):
    tf.keras.utils.set_random_seed(7)
    train, val = _data()
    out_steps, num_features = 4, train.shape[1]
    window = _window(tf, train, val, 12, out_steps, out_steps)

    class FeedBack(tf.keras.Model):
        def __init__(self, units, out_steps):
            super().__init__()
            self.out_steps = out_steps
            self.lstm_cell = tf.keras.layers.LSTMCell(units)
            self.lstm_rnn = tf.keras.layers.RNN(self.lstm_cell, return_state=True)
            self.dense = tf.keras.layers.Dense(num_features)

        def warmup(self, inputs):
            x, *state = self.lstm_rnn(inputs)
            return self.dense(x), state

        def call(self, inputs, training=None):
            prediction, state = self.warmup(inputs)
            predictions = [prediction]
            for _ in range(1, self.out_steps):
                x, state = self.lstm_cell(prediction, states=state, training=training)
                prediction = self.dense(x)
                predictions.append(prediction)
            return tf.transpose(tf.stack(predictions), [1, 0, 2])

    model = FeedBack(units=8, out_steps=out_steps)
    return [_fit(tf, model, window), list(model(next(iter(window[0]))[0]).shape)]
