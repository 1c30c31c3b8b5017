"""model.fit / evaluate / predict against Keras 3 with deterministic data and initial weights (shuffle off):
loss and metric histories, validation, sample and class weights, callbacks that change training, and the
errors of bad input."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program


def _fresh(tf):
    tf.keras.backend.clear_session()
    return tf.keras


def _xy(n=96, features=4, classes=3):
    x = data((n, features), seed=1)
    labels = (np.abs(np.round(data((n,), seed=2) * 10)) % classes).astype("int32")
    return x, labels


def _history(history):
    return {k: [round(v, 6) for v in vs] for k, vs in history.history.items()}


def _mlp(keras, classes=3, activation="relu"):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation=activation),
                             keras.layers.Dense(classes)])


@program
def p_keras_fit_sgd_sparse_logits(tf):
    keras = _fresh(tf)
    model = fixed_weights(_mlp(keras))
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    x, y = _xy()
    history = model.fit(x, y, batch_size=32, epochs=3, shuffle=False, verbose=0)
    return [_history(history), history.epoch, history.params, model.evaluate(x, y, verbose=0),
            model.evaluate(x, y, verbose=0, return_dict=True), model.predict(x[:3], verbose=0).round(5).tolist()]


@program
def p_keras_fit_adam_mse_partial_batch_validation_split(tf):
    keras = _fresh(tf)
    model = fixed_weights(keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="tanh"),
                                   keras.layers.Dense(1)]))
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    x, _ = _xy(100)
    y = (x.sum(axis=1, keepdims=True) * 0.5).astype("float32")
    history = model.fit(x, y, batch_size=16, epochs=4, shuffle=False, verbose=0, validation_split=0.2)
    return [_history(history), history.params["steps"]]


@program
def p_keras_fit_validation_data_freq_and_initial_epoch(tf):
    keras = _fresh(tf)
    model = fixed_weights(_mlp(keras, 2, activation="sigmoid"))
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy", keras.metrics.SparseCategoricalCrossentropy(from_logits=True)]
                  if hasattr(keras.metrics, "SparseCategoricalCrossentropy") else ["accuracy"])
    x, y = _xy(64, classes=2)
    history = model.fit(x, y, batch_size=20, epochs=5, initial_epoch=2, shuffle=False, verbose=0,
                        validation_data=(x[:16], y[:16]), validation_freq=2)
    return [sorted(history.history), history.epoch, {k: len(v) for k, v in history.history.items()},
            round(history.history["loss"][-1], 6)]


@program
def p_keras_fit_sample_and_class_weight(tf):
    keras = _fresh(tf)
    x, y = _xy(48)
    results = []
    for kwargs in [{"sample_weight": np.linspace(0.5, 2.0, 48).astype("float32")},
                   {"class_weight": {0: 1.0, 1: 3.0, 2: 0.5}}]:
        model = fixed_weights(_mlp(keras))
        model.compile(optimizer=keras.optimizers.SGD(0.05),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0, **kwargs)
        results.append(_history(history))
    return results


@program
def p_keras_fit_regularized_functional_and_batch_methods(tf):
    keras = _fresh(tf)
    inputs = keras.Input((4,))
    hidden = keras.layers.Dense(5, activation="relu", kernel_regularizer=keras.regularizers.L2(0.01))(inputs)
    outputs = keras.layers.Dense(3, activation="softmax")(hidden)
    model = fixed_weights(keras.Model(inputs, outputs))
    model.compile(optimizer=keras.optimizers.RMSprop(0.01), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    x, y = _xy(40)
    history = model.fit(x, y, batch_size=10, epochs=2, shuffle=False, verbose=0)
    on_batch = [model.train_on_batch(x[:8], y[:8]), model.test_on_batch(x[:8], y[:8]),
                model.train_on_batch(x[:8], y[:8], return_dict=True)]
    return [_history(history), [np.round(v, 5).tolist() if isinstance(v, list) else
                                {k: round(w, 5) for k, w in v.items()} for v in on_batch],
            model.predict_on_batch(x[:2]).round(5).tolist()]


@program
def p_keras_fit_callbacks(tf):
    keras = _fresh(tf)
    x, y = _xy(64)
    model = fixed_weights(_mlp(keras))
    model.compile(optimizer=keras.optimizers.SGD(0.5), loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    epochs_seen = []
    early = keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=0.05, restore_best_weights=True)
    history = model.fit(x, y, batch_size=32, epochs=20, shuffle=False, verbose=0,
                        callbacks=[early, keras.callbacks.LambdaCallback(
                            on_epoch_end=lambda epoch, logs: epochs_seen.append(epoch))])
    model2 = fixed_weights(_mlp(keras))
    model2.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    scheduled = model2.fit(x, y, batch_size=32, epochs=3, shuffle=False, verbose=0,
                           callbacks=[keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5)])
    model3 = fixed_weights(_mlp(keras))
    model3.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    plateau = model3.fit(x, y, batch_size=32, epochs=4, shuffle=False, verbose=0, callbacks=[
        keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=10.0)])
    return [len(history.history["loss"]), epochs_seen, early.stopped_epoch, early.best_epoch,
            _history(scheduled), _history(plateau)]


@program
def p_keras_fit_errors(tf):
    keras = _fresh(tf)
    model = _mlp(keras)
    x, y = _xy(10)
    uncompiled = outcome(lambda: model.fit(x, y, verbose=0), "compile")
    model.compile(optimizer="adam", loss="mse")
    return [uncompiled, outcome(lambda: model.fit(x, y[:7], verbose=0), "Data cardinality is ambiguous"),
            outcome(lambda: model.compile(optimizer="nope", loss="mse"), "Could not interpret optimizer"),
            outcome(lambda: model.compile(optimizer="adam", loss="nope"), "Could not interpret loss")]
