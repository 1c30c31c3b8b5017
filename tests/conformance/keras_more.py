"""Keras masks against Keras 3 with fixed weights: Embedding(mask_zero) and Masking feeding recurrent layers
through Sequential and Functional models, the masks that layers pass on (`_keras_mask`), merges, pooling
and batch statistics under a mask, and losses and metrics weighted by the mask of the predictions, in
direct calls and in fit."""

from __future__ import annotations

from . import data, fixed_weights, program, val
from .keras_helpers import TOKENS, _mask


@program
def p_keras_mask_embedding_into_rnns(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = tf.constant(TOKENS, tf.int32)
    results = []
    for cls in [keras.layers.SimpleRNN, keras.layers.LSTM, keras.layers.GRU]:
        for return_sequences in (True, False):
            model = keras.Sequential([keras.Input((5,), dtype="int32"),
                                      keras.layers.Embedding(6, 3, mask_zero=True),
                                      cls(3, return_sequences=return_sequences), keras.layers.Dense(2)])
            fixed_weights(model)
            y = model(x)
            results.append([val(y), _mask(y)])
    return results


@program
def p_keras_mask_masking_layer(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = data((3, 4, 2))
    x[0, 1] = 0.0
    x[1, 2:] = 0.0
    x[2, 0] = 0.0
    inputs = keras.Input((4, 2))
    masked = keras.layers.Masking(0.0)(inputs)
    seq = keras.layers.LSTM(3, return_sequences=True)(masked)
    dense = keras.layers.Dense(2)(seq)
    model = keras.Model(inputs, keras.layers.GlobalAveragePooling1D()(dense))
    fixed_weights(model)
    layer_out = keras.layers.Masking(0.0)(tf.constant(x))
    return [val(model(tf.constant(x))), val(layer_out), _mask(layer_out)]


@program
def p_keras_mask_functional_merges(tf):
    keras = tf.keras
    keras.backend.clear_session()
    a = keras.Input((5,), dtype="int32")
    b = keras.Input((5,), dtype="int32")
    ea = keras.layers.Embedding(6, 2, mask_zero=True)(a)
    eb = keras.layers.Embedding(6, 2, mask_zero=True)(b)
    added = keras.layers.Add()([ea, eb])
    joined = keras.layers.Concatenate()([ea, eb])
    bi = keras.layers.Bidirectional(keras.layers.GRU(2, return_sequences=True))(joined)
    model = keras.Model([a, b], [added, joined, bi, keras.layers.LSTM(2)(added)])
    fixed_weights(model)
    other = [[0, 3, 0, 1, 1], [0, 0, 0, 2, 0], [5, 1, 0, 0, 0]]
    outs = model([tf.constant(TOKENS), tf.constant(other)])
    return [[val(o), _mask(o)] for o in outs]


@program
def p_keras_mask_batchnorm_and_dense(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = tf.constant(TOKENS)
    emb = keras.layers.Embedding(6, 3, mask_zero=True)
    norm = keras.layers.BatchNormalization(momentum=0.5)
    dense = keras.layers.Dense(2)
    inputs = keras.Input((5,), dtype="int32")
    model = keras.Model(inputs, dense(norm(emb(inputs))))
    fixed_weights(model)
    trained = model(x, training=True)
    moving = [val(tf.convert_to_tensor(norm.moving_mean)), val(tf.convert_to_tensor(norm.moving_variance))]
    return [val(trained), _mask(trained), *moving]


@program
def p_keras_mask_weights_losses_and_metrics(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = tf.constant(TOKENS)
    model = keras.Sequential([keras.Input((5,), dtype="int32"), keras.layers.Embedding(6, 3, mask_zero=True),
                              keras.layers.LSTM(4, return_sequences=True), keras.layers.Dense(3)])
    fixed_weights(model)
    y_pred = model(x)
    labels = tf.constant([[0, 1, 2, 1, 0], [2, 2, 1, 0, 1], [1, 0, 2, 2, 1]])
    weights = tf.constant(data((3, 5), seed=3, scale=1.0)) + 1.5
    results = []
    for reduction in ("sum_over_batch_size", "sum", "none", "mean_with_sample_weight"):
        loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=reduction)
        results.append([val(loss(labels, y_pred)), val(loss(labels, y_pred, sample_weight=weights))])
    mse = keras.losses.MeanSquaredError()
    results.append(val(mse(tf.zeros([3, 5, 3]), y_pred)))
    accuracy = keras.metrics.SparseCategoricalAccuracy()
    accuracy.update_state(labels, y_pred)
    crossentropy = keras.metrics.SparseCategoricalCrossentropy(from_logits=True)
    crossentropy.update_state(labels, y_pred, sample_weight=weights)
    results.append([val(accuracy.result()), val(crossentropy.result())])
    return results


@program
def p_keras_mask_fit_and_evaluate(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = data((12, 5), seed=1, scale=3.0)
    x = (abs(x) * 2).astype("int32") % 6
    y = (data((12, 5), seed=2, scale=3.0) > 0).astype("int32")
    model = keras.Sequential([keras.Input((5,), dtype="int32"), keras.layers.Embedding(6, 4, mask_zero=True),
                              keras.layers.GRU(3, return_sequences=True), keras.layers.Dense(2)])
    fixed_weights(model, scale=0.3)
    model.compile(optimizer=keras.optimizers.SGD(0.5),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    evaluated = model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True)
    return [{k: [round(float(v), 5) for v in vs] for k, vs in sorted(history.history.items())},
            {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            val(model.predict(x[:2], verbose=0))]


def _regression_model(keras, seed=0):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    fixed_weights(model, scale=0.4)
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    x = data((24, 3), seed=seed)
    return model, x, (x @ [[1.0], [-2.0], [0.5]] + 0.3).astype("float32")


@program
def p_keras_model_checkpoint_files(tf):
    import os
    import tempfile

    keras = tf.keras
    keras.backend.clear_session()
    model, x, y = _regression_model(keras)
    folder = tempfile.mkdtemp()
    best = keras.callbacks.ModelCheckpoint(os.path.join(folder, "best", "m.{epoch:02d}-{val_loss:.2f}.keras"),
                                           save_best_only=True, monitor="val_mae")
    every = keras.callbacks.ModelCheckpoint(os.path.join(folder, "w", "e{epoch}b{batch}.weights.h5"),
                                            save_weights_only=True, save_freq=5)
    high = keras.callbacks.ModelCheckpoint(os.path.join(folder, "max.{epoch}.keras"), monitor="loss", mode="max",
                                           save_best_only=True, initial_value_threshold=0.5)
    history = model.fit(x, y, batch_size=8, epochs=4, validation_data=(x[:8], y[:8]), shuffle=False, verbose=0,
                        callbacks=[best, every, high])
    files = {name: sorted(os.listdir(os.path.join(folder, name))) for name in ("best", "w")}
    files["top"] = sorted(f for f in os.listdir(folder) if f.endswith(".keras"))
    newest = sorted(os.listdir(os.path.join(folder, "best")))[-1]
    restored = keras.models.load_model(os.path.join(folder, "best", newest))
    return [files, [round(v, 4) for v in history.history["val_mae"]], round(float(best.best), 4),
            val(restored.predict(x[:3], verbose=0))]


@program
def p_keras_model_checkpoint_errors(tf):
    keras = tf.keras
    from . import outcome
    return [outcome(lambda: keras.callbacks.ModelCheckpoint("m.h5x"), "must end in `.keras`"),
            outcome(lambda: keras.callbacks.ModelCheckpoint("w.keras", save_weights_only=True), ".weights.h5"),
            outcome(lambda: keras.callbacks.ModelCheckpoint("m.keras", save_freq="batch"), "save_freq"),
            outcome(lambda: keras.callbacks.BackupAndRestore(""), "backup_dir")]


@program
def p_keras_backup_and_restore_resumes(tf):
    import os
    import tempfile

    keras = tf.keras
    keras.backend.clear_session()
    folder = os.path.join(tempfile.mkdtemp(), "backup")

    class Interrupt(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("interrupted")

    model, x, y = _regression_model(keras)
    try:
        model.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                  callbacks=[keras.callbacks.BackupAndRestore(folder), Interrupt()])
    except RuntimeError:
        pass
    left = sorted(os.listdir(folder))
    twin, _, _ = _regression_model(keras)
    resumed = twin.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                       callbacks=[keras.callbacks.BackupAndRestore(folder)])
    return [left, resumed.epoch, [round(v, 5) for v in resumed.history["loss"]], int(twin.optimizer.iterations.numpy()),
            os.path.exists(folder), val(twin.predict(x[:2], verbose=0))]


@program
def p_keras_optimizer_state_in_keras_files(tf):
    import os
    import tempfile

    keras = tf.keras
    keras.backend.clear_session()
    model, x, y = _regression_model(keras)
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "trained.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    state = [val(tf.convert_to_tensor(v)) for v in restored.optimizer.variables]
    later = restored.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    weights_path = os.path.join(os.path.dirname(path), "trained.weights.h5")
    model.save_weights(weights_path)
    twin, _, _ = _regression_model(keras)
    twin.load_weights(weights_path)   # its optimizer has no slots yet: Keras 3 skips the state, with a warning
    return [state, [round(v, 5) for v in later.history["loss"]], int(twin.optimizer.iterations.numpy()),
            val(tf.convert_to_tensor(twin.optimizer.variables[-1]))]


@program
def p_keras_checkpoint_key_names(tf):
    import os
    import tempfile

    keras = tf.keras
    keras.backend.clear_session()
    model, x, y = _regression_model(keras)
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    folder = tempfile.mkdtemp()
    first = tf.train.Checkpoint(model=model, optimizer=model.optimizer).write(os.path.join(folder, "seq"))
    inputs = keras.Input((5,), dtype="int32")
    hidden = keras.layers.Embedding(7, 2)(inputs)
    hidden = keras.layers.Conv1D(2, 2)(keras.layers.BatchNormalization()(hidden))
    hidden = keras.layers.Bidirectional(keras.layers.GRU(2))(hidden)
    functional = keras.Model(inputs, keras.layers.Dense(1)(hidden))
    second = tf.train.Checkpoint(net=functional).write(os.path.join(folder, "fn"))
    twin, _, _ = _regression_model(keras)
    twin.fit(x[:8], y[:8], batch_size=8, epochs=1, shuffle=False, verbose=0)   # makes its optimizer slots
    tf.train.Checkpoint(model=twin, optimizer=twin.optimizer).read(first).assert_consumed()
    return [[[name, shape] for name, shape in tf.train.list_variables(path)] for path in (first, second)] + [
        val(twin.predict(x[:2], verbose=0)), int(twin.optimizer.iterations.numpy())]


@program
def p_keras_steps_per_execution(tf):
    keras = tf.keras
    keras.backend.clear_session()
    seen = []
    results = []
    for steps in (1, 3):
        model, x, y = _regression_model(keras)
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"], steps_per_execution=steps,
                      jit_compile=True)
        hooks = keras.callbacks.LambdaCallback(
            on_train_batch_begin=lambda batch, logs: seen.append(["begin", batch]),
            on_train_batch_end=lambda batch, logs: seen.append(["end", batch, round(float(logs["loss"]), 5)]))
        history = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0, callbacks=[hooks])
        evaluated = model.evaluate(x, y, batch_size=5, verbose=0, return_dict=True)
        results.append([{k: [round(v, 5) for v in vs] for k, vs in sorted(history.history.items())},
                        {k: round(v, 5) for k, v in sorted(evaluated.items())}, val(model.predict(x[:2], verbose=0)),
                        int(model.optimizer.iterations.numpy()), model.steps_per_execution])
    return [results, seen]
