"""TF's "Basic regression: predict fuel efficiency" tutorial on generated data: Normalization adapted and its
`mean`, a one-feature model fed a 1-D column (Keras adds the trailing axis), tf.optimizers, fit with
validation_split, summaries before and after fit, evaluate, predict, save and reload."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import program, val


def _summary(model) -> list:
    lines = []
    model.summary(print_fn=lambda line, **kwargs: lines.append(line))
    return lines


def _data():
    rs = np.random.RandomState(0)
    features = rs.normal(size=(60, 4)) * np.arange(1, 5) + np.arange(4)
    labels = features @ rs.normal(size=4) + rs.normal(size=60)
    return features, labels


@program
def p_regression_tutorial(tf):
    tf.keras.utils.set_random_seed(0)
    features, labels = _data()
    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(np.array(features))
    column = np.array(features[:, 2])
    column_normalizer = tf.keras.layers.Normalization(input_shape=[1], axis=None)
    column_normalizer.adapt(column)
    column_model = tf.keras.Sequential([column_normalizer, tf.keras.layers.Dense(units=1)])
    before = column_model.predict(column[:5], verbose=0)
    column_model.compile(optimizer=tf.optimizers.Adam(learning_rate=0.1), loss="mean_absolute_error")
    column_history = column_model.fit(features[:, 2], labels, epochs=3, verbose=0, validation_split=0.2)
    model = tf.keras.Sequential([normalizer, tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
    model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.01))
    summary_before = _summary(model)
    history = model.fit(features, labels, validation_split=0.2, verbose=0, epochs=3)
    summary_after = _summary(model)
    path = os.path.join(tempfile.mkdtemp(), "regression.keras")
    model.save(path)
    reloaded = tf.keras.models.load_model(path)
    return [val(normalizer.mean), val(normalizer.variance), val(column_normalizer.mean), val(before),
            {k: np.round(v, 4).tolist() for k, v in column_history.history.items()},
            {k: np.round(v, 4).tolist() for k, v in history.history.items()},
            summary_before, summary_after, round(model.evaluate(features, labels, verbose=0), 4),
            val(model.predict(features[:3], verbose=0)), round(reloaded.evaluate(features, labels, verbose=0), 4)]


@program
def p_input_rank_adjustment(tf):
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, tf.keras.layers.Lambda(lambda t: t * 2.0)(inputs))
    squeeze_model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Lambda(lambda t: t + 1.0)])
    return [val(model(np.array([1.0, 2.0, 3.0], "float32"))),
            val(squeeze_model(np.ones((2, 3, 1), "float32"))),
            val(model.predict(np.array([4.0, 5.0], "float32"), verbose=0))]


@program
def p_keras_tensor_operators_and_rank_adjustment(tf):
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, inputs * 2.0 + 1.0)
    pair = tf.keras.Input((3,))
    mixed = tf.keras.Model(pair, tf.keras.ops.sum(-pair[:, 1:] / 2.0, axis=-1))
    return [val(model(np.array([1.0, 2.0, 3.0], "float32"))),
            val(model.predict(np.array([4.0, 5.0], "float32"), verbose=0)),
            val(mixed(np.arange(6.0, dtype="float32").reshape(2, 3)))]
