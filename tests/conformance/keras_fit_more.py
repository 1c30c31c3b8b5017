"""Keras 3 details around fit, against TF 2.21's Keras: the values Maximum, Minimum and Multiply give where
their inputs are masked, optimizer names made unique, predict with steps_per_execution (outputs and callback
indices), and how ModelCheckpoint(mode="auto") decides which way a monitored metric improves."""

from __future__ import annotations

from . import data, fixed_weights, outcome, program, val
from .keras_helpers import TOKENS, _mask

OTHER = [[0, 3, 0, 1, 1], [0, 0, 0, 2, 0], [5, 1, 0, 0, 0]]


@program
def p_keras_merge_masked_values(tf):
    keras = tf.keras
    keras.backend.clear_session()
    a = keras.Input((5,), dtype="int32")
    b = keras.Input((5,), dtype="int32")
    ea = keras.layers.Embedding(6, 2, mask_zero=True)(a)
    eb = keras.layers.Embedding(6, 2, mask_zero=True)(b)
    plain = keras.layers.Embedding(6, 2)(b)  # no mask
    merges = [keras.layers.Maximum, keras.layers.Minimum, keras.layers.Multiply, keras.layers.Add,
              keras.layers.Average, keras.layers.Subtract]
    outputs = [cls()([ea, eb]) for cls in merges]
    outputs += [cls()([ea, plain]) for cls in (keras.layers.Maximum, keras.layers.Minimum, keras.layers.Multiply)]
    outputs += [cls()([plain, eb]) for cls in (keras.layers.Maximum, keras.layers.Multiply)]
    outputs.append(keras.layers.Maximum()([ea, eb, keras.layers.Embedding(6, 2, mask_zero=True)(a)]))
    model = keras.Model([a, b], outputs)
    fixed_weights(model, scale=1.0)
    outs = model([tf.constant(TOKENS), tf.constant(OTHER)])

    @tf.function
    def graph(x, y):
        return model([x, y])

    in_graph = graph(tf.constant(TOKENS), tf.constant(OTHER))
    return [[val(o), _mask(o)] for o in outs] + [val(o) for o in in_graph]


@program
def p_keras_optimizer_names(tf):
    keras = tf.keras
    keras.backend.clear_session()
    opts = keras.optimizers
    names = [opts.Adam().name, opts.Adam().name, opts.SGD().name, opts.RMSprop().name, opts.AdamW().name,
             opts.Adagrad().name, opts.Adam(name="adam").name, opts.get("adam").name, opts.get("sgd").name]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    names.append(model.optimizer.name)
    config_name = opts.Adam().get_config()["name"]
    keras.backend.clear_session()
    return [names, config_name, opts.Adam().name, opts.Adam().name]


@program
def p_keras_predict_steps_per_execution(tf):
    keras = tf.keras
    keras.backend.clear_session()
    seen = []
    results = []
    x = data((11, 3), seed=2)
    for steps in (1, 2, 3, 20):
        keras.backend.clear_session()
        inputs = keras.Input((3,))
        model = keras.Model(inputs, [keras.layers.Dense(2)(inputs), keras.layers.Dense(1, activation="tanh")(inputs)])
        fixed_weights(model)
        model.compile(loss="mse", steps_per_execution=steps)
        hooks = keras.callbacks.LambdaCallback(
            on_predict_batch_begin=lambda batch, logs, s=steps: seen.append(["begin", s, batch]),
            on_predict_batch_end=lambda batch, logs, s=steps: seen.append(
                ["end", s, batch, sorted(logs), _shapes(logs["outputs"]), type(logs["outputs"]).__name__]))
        results.append(val(model.predict(x, batch_size=2, verbose=0, callbacks=[hooks])))
    return [results, seen]


def _shapes(value):
    """The shapes of a (list of) tensors or arrays, as lists."""
    import numpy as np

    if isinstance(value, (list, tuple)):
        return [_shapes(v) for v in value]
    return list(np.shape(value))


def _monitored_fit(keras, monitor, mode, metrics):
    import os
    import tempfile

    keras.backend.clear_session()
    x = data((24, 3), seed=1)
    y = (x.sum(1, keepdims=True) > 0).astype("float32")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    fixed_weights(model)
    model.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=metrics)
    folder = tempfile.mkdtemp()
    checkpoint = keras.callbacks.ModelCheckpoint(os.path.join(folder, "m{epoch}.weights.h5"), monitor=monitor,
                                                 mode=mode, save_best_only=True, save_weights_only=True)
    model.fit(x, y, batch_size=8, epochs=3, validation_data=(x[:8], y[:8]), shuffle=False, verbose=0,
              callbacks=[checkpoint])
    return [checkpoint.monitor_op.__name__, sorted(os.listdir(folder))]


@program
def p_keras_model_checkpoint_mode_auto(tf):
    keras = tf.keras

    def custom_score(y_true, y_pred):
        return tf.reduce_mean(y_pred)

    cases = [("val_loss", "auto", ["accuracy"]), ("loss", "auto", []), ("val_accuracy", "auto", ["accuracy"]),
             ("accuracy", "auto", ["accuracy"]), ("val_mae", "auto", ["mae"]), ("mse", "auto", ["mse"]),
             ("val_auc", "auto", [keras.metrics.AUC(name="auc")]), ("precision", "auto", ["precision"]),
             ("val_binary_crossentropy", "auto", ["binary_crossentropy"]),
             ("val_accuracy", "min", ["accuracy"]), ("loss", "max", []), ("val_loss", "sideways", [])]
    results = [outcome(lambda c=c: _monitored_fit(keras, *c), "") for c in cases]
    for monitor, metrics in [("val_custom_score", [custom_score]), ("val_acc_typo", ["accuracy"])]:
        results.append(outcome(lambda m=monitor, ms=metrics: _monitored_fit(keras, m, "auto", ms),
                               "isn't able to automatically determine"))
    return results


def _early_and_plateau(keras, monitor, metrics, mode="auto"):
    keras.backend.clear_session()
    x = data((24, 3), seed=1)
    y = (x.sum(1, keepdims=True) > 0).astype("float32")
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    fixed_weights(model)
    model.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=metrics)
    early = keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, patience=1, min_delta=0.01)
    plateau = keras.callbacks.ReduceLROnPlateau(monitor=monitor, mode=mode, patience=1, factor=0.5, min_delta=0.01)
    history = model.fit(x, y, batch_size=8, epochs=6, validation_data=(x[:8], y[:8]), shuffle=False, verbose=0,
                        callbacks=[early, plateau])
    return [early.monitor_op.__name__, plateau.monitor_op.__name__, early.stopped_epoch,
            round(float(early.best), 5), len(history.history["loss"]),
            [round(v, 6) for v in history.history["learning_rate"]]]


@program
def p_keras_monitor_callbacks_mode_auto(tf):
    keras = tf.keras

    def custom_score(y_true, y_pred):
        return tf.reduce_mean(y_pred)

    cases = [("val_loss", ["accuracy"]), ("loss", []), ("val_accuracy", ["accuracy"]), ("val_mae", ["mae"]),
             ("val_auc", [keras.metrics.AUC(name="auc")])]
    results = [outcome(lambda c=c: _early_and_plateau(keras, *c), "") for c in cases]
    results.append(outcome(lambda: _early_and_plateau(keras, "val_accuracy", ["accuracy"], mode="min"), ""))
    results.append(outcome(lambda: _early_and_plateau(keras, "val_custom_score", [custom_score]),
                           "isn't able to automatically determine"))
    return results
