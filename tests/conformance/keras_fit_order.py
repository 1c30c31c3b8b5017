"""The order in which model.fit visits in-memory arrays with shuffle=True, as Keras 3 on TensorFlow 2.21
draws it (a seeded tf.random.shuffle of the indices, the same order every epoch under
keras.utils.set_random_seed), seen from a train_step and through the trained weights."""

from __future__ import annotations

import numpy as np

from . import fixed_weights, program, val


def _visit_order(tf, seed, batch_size):
    seen = []

    class Recorder(tf.keras.Model):
        def train_step(self, data):
            x, _ = data
            seen.append(x.numpy().ravel().astype(int).tolist())
            return {"n": tf.constant(0.0)}

    tf.keras.utils.set_random_seed(seed)
    inputs = tf.keras.Input((1,))
    model = Recorder(inputs, tf.keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    x = np.arange(12).astype("float32")[:, None]
    model.fit(x, x, batch_size=batch_size, epochs=2, shuffle=True, verbose=0)
    return seen


@program
def p_fit_shuffle_visit_order(tf):
    return [_visit_order(tf, 0, 5), _visit_order(tf, 7, 4), _visit_order(tf, 123, 12)]


@program
def p_fit_shuffle_trained_weights(tf):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    fixed_weights(model)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    rs = np.random.RandomState(0)
    x = rs.normal(size=(12, 3)).astype("float32")
    y = rs.normal(size=(12, 1)).astype("float32")
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=True, verbose=0)
    return [val(np.array(history.history["loss"], np.float32)), val(model.get_weights())]
