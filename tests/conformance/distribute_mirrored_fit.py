"""Keras fit / evaluate / predict under a 2-replica MirroredStrategy on the CPU, as TF 2.21 runs it with the CPU
split into two logical devices: each global batch of 8 split 4 + 4, the replicas' gradients summed (Keras
scales each replica's loss by 1 / replicas), metrics kept per replica and read summed. The numbers equal one
replica on the same batches: the programs record weights, history, evaluate and predict."""

from __future__ import annotations

from . import data, program, val

_strategies: dict = {}  # one per library: TF's collectives of a second MirroredStrategy in one process clash


def _two_replicas(tf):
    """MirroredStrategy on /cpu:0 and /cpu:1. TF needs the CPU split into two logical devices first (possible
    only before TF reads its devices: the recorder runs this module in a fresh process); the split is undone
    where the library still allows it, so that later programs see one CPU as before."""
    if tf.__name__ in _strategies:
        return _strategies[tf.__name__]
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:
        pass
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    try:
        tf.config.set_logical_device_configuration(cpu, None)  # tinytf: undone; TF: TypeError or RuntimeError
    except (RuntimeError, TypeError):
        pass
    _strategies[tf.__name__] = strategy
    return strategy


def _model(tf, units, seed):
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(units[0], activation="tanh"),
                                 tf.keras.layers.Dense(units[1])])
    model.set_weights([data(w.shape, seed=seed + i, scale=0.5) for i, w in enumerate(model.get_weights())])
    return model


def _fit_and_report(tf, model, x, y, **fit_args):
    history = model.fit(x, y, shuffle=False, verbose=0, **fit_args)
    evaluated = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    return {"weights": [val(w) for w in model.get_weights()],
            "history": {k: [round(float(v), 5) for v in vs] for k, vs in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            "predict": val(model.predict(x[:5], batch_size=4, verbose=0)),
            "replicas": model.distribute_strategy.num_replicas_in_sync}


@program
def p_mirrored_fit_classifier_two_replicas(tf):
    strategy = _two_replicas(tf)
    x = data((32, 4), seed=1)
    y = (data((32,), seed=2) > 0).astype("int32") + (data((32,), seed=3) > 0.5).astype("int32")
    with strategy.scope():
        model = _model(tf, (6, 3), seed=4)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.2),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    return _fit_and_report(tf, model, x, y, batch_size=8, epochs=3, validation_data=(x[:16], y[:16]))


@program
def p_mirrored_fit_regression_adam_two_replicas(tf):
    strategy = _two_replicas(tf)
    x = data((24, 4), seed=5)
    y = data((24, 2), seed=6)
    with strategy.scope():
        model = _model(tf, (5, 2), seed=7)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    return _fit_and_report(tf, model, x, y, batch_size=8, epochs=2)


@program
def p_mirrored_fit_with_dropout_draws_tfs_masks(tf):
    # each replica's Dropout draws from the layer's seed generator, as Keras 3 does under TF's MirroredStrategy
    strategy = _two_replicas(tf)
    tf.keras.utils.set_random_seed(0)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8), tf.keras.layers.Dropout(0.5),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
    x = data((16, 4), seed=3)
    history = model.fit(x, x[:, :1], batch_size=8, epochs=3, verbose=0, shuffle=False)
    return [[round(v, 5) for v in history.history["loss"]], val(model.get_weights())]
