"""TF's "Overfit and underfit" tutorial, small: one shuffled, repeated, cached dataset shared by several models
fit with steps_per_epoch (one iterator across epochs, read one batch ahead as tf.data's injected prefetch does,
so the next model starts on TF's next shuffle pass), InverseTimeDecay, EarlyStopping on a named metric, L2
regularization losses and dropout."""

from __future__ import annotations

import numpy as np

from . import program


def _history(history):
    return [len(history.epoch), {k: np.round(v, 4).tolist() for k, v in sorted(history.history.items())}]


@program
def p_overfit_tutorial_models_share_a_dataset(tf):
    layers, regularizers = tf.keras.layers, tf.keras.regularizers
    tf.keras.utils.set_random_seed(0)
    rs = np.random.RandomState(0)
    x = rs.normal(size=(130, 6)).astype("float32")
    y = (x[:, 0] * x[:, 1] + x[:, 2] > 0).astype("float32")[:, None]
    packed = tf.data.Dataset.from_tensor_slices((x, y))
    validate = packed.take(30).cache().batch(25)
    train = packed.skip(30).take(100).cache().shuffle(100, seed=1).repeat().batch(25)
    schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.01, decay_steps=40, decay_rate=1)

    def fit(model, epochs=4):
        model.compile(optimizer=tf.keras.optimizers.Adam(schedule),
                      loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                      metrics=[tf.keras.metrics.BinaryCrossentropy(from_logits=True, name="binary_crossentropy"),
                               "accuracy"])
        stop = tf.keras.callbacks.EarlyStopping(monitor="val_binary_crossentropy", patience=2)
        return model.fit(train, steps_per_epoch=3, epochs=epochs, validation_data=validate, callbacks=[stop],
                         verbose=0)

    tiny = tf.keras.Sequential([layers.Dense(8, activation="elu", input_shape=(6,)), layers.Dense(1)])
    l2 = tf.keras.Sequential([layers.Dense(16, activation="elu", kernel_regularizer=regularizers.l2(0.001),
                                           input_shape=(6,)),
                              layers.Dense(1)])
    combined = tf.keras.Sequential([layers.Dense(16, kernel_regularizer=regularizers.l2(0.0001), activation="elu",
                                                 input_shape=(6,)),
                                    layers.Dropout(0.5), layers.Dense(1)])
    results = [_history(fit(tiny)), _history(fit(l2))]
    l2(x[:3])
    results.append(round(float(tf.add_n(l2.losses)), 6))
    results.append(_history(fit(combined)))
    return results
