"""keras.config's switches as TF 2.21's Keras 3 has them: interactive logging (stdout or absl logging),
traceback filtering, flash attention, max_epochs / max_steps_per_epoch (which fit, evaluate and predict
honour, with Keras' warnings and its batches), set_backend, unsafe deserialization of Lambda layers, and
keras.utils.Config."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import warnings

import numpy as np

from . import fixed_weights, outcome, program, val


def _texts(caught):
    return sorted({str(w.message) for w in caught if "Limiting" in str(w.message) or "ran out" in str(w.message)})


@program
def p_config_switch_defaults(tf):
    c = tf.keras.config
    return [c.is_interactive_logging_enabled(), c.is_traceback_filtering_enabled(), c.is_flash_attention_enabled(),
            c.is_nnx_enabled(), c.max_epochs(), c.max_steps_per_epoch(),
            tf.keras.utils.is_interactive_logging_enabled()]


@program
def p_config_switches_toggle(tf):
    c = tf.keras.config
    seen = []
    c.disable_traceback_filtering()
    seen.append(c.is_traceback_filtering_enabled())
    c.enable_traceback_filtering()
    seen.append(c.is_traceback_filtering_enabled())
    c.disable_flash_attention()
    seen.append(c.is_flash_attention_enabled())
    c.enable_flash_attention()
    seen.append(c.is_flash_attention_enabled())
    tf.keras.utils.disable_interactive_logging()
    seen.append(c.is_interactive_logging_enabled())
    c.enable_interactive_logging()
    seen.append(tf.keras.utils.is_interactive_logging_enabled())
    c.set_max_epochs(3)
    c.set_max_steps_per_epoch(4)
    seen += [c.max_epochs(), c.max_steps_per_epoch()]
    c.set_max_epochs(None)
    c.set_max_steps_per_epoch(None)
    seen += [c.max_epochs(), c.max_steps_per_epoch()]
    return seen


def _model(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    fixed_weights(model)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model


def _xy():
    x = np.arange(20, dtype="float32").reshape(10, 2) / 10.0
    return x, x.sum(axis=1, keepdims=True)


@program
def p_config_max_epochs_caps_fit(tf):
    model = _model(tf)
    x, y = _xy()
    tf.keras.config.set_max_epochs(2)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = model.fit(x, y, batch_size=5, epochs=5, shuffle=False, verbose=0)
            short = model.fit(x, y, batch_size=5, epochs=1, verbose=0)
    finally:
        tf.keras.config.set_max_epochs(None)
    return [len(history.history["loss"]), len(short.history["loss"]), history.params["epochs"],
            val(np.array(history.history["loss"], np.float32)), _texts(caught)]


def _visits(tf, batch_size, epochs, cap, evaluate_steps=None):
    seen = []

    class Recorder(tf.keras.Model):
        def train_step(self, data):
            seen.append(["train", data[0].numpy()[:, 0].round(1).tolist()])
            return {"n": tf.constant(0.0)}

        def test_step(self, data):
            seen.append(["test", data[0].numpy()[:, 0].round(1).tolist()])
            return {"n": tf.constant(0.0)}

    inputs = tf.keras.Input((2,))
    model = Recorder(inputs, tf.keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    x, y = _xy()
    tf.keras.config.set_max_steps_per_epoch(cap)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0)
            model.evaluate(x, y, batch_size=batch_size, steps=evaluate_steps, verbose=0)
            predicted = model.predict(x, batch_size=batch_size, verbose=0)
    finally:
        tf.keras.config.set_max_steps_per_epoch(None)
    return [seen, history.params["steps"], list(predicted.shape), _texts(caught)]


@program
def p_config_max_steps_per_epoch_arrays(tf):
    return [_visits(tf, 2, 3, 2), _visits(tf, 3, 2, 10), _visits(tf, None, 2, 3, evaluate_steps=5)]


@program
def p_config_max_steps_per_epoch_dataset(tf):
    seen = []
    model = _model(tf)
    x, y = _xy()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    tf.keras.config.set_max_steps_per_epoch(2)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cb = tf.keras.callbacks.LambdaCallback(on_train_batch_begin=lambda b, logs: seen.append(b))
            history = model.fit(ds, epochs=3, verbose=0, callbacks=[cb])
    finally:
        tf.keras.config.set_max_steps_per_epoch(None)
    return [seen, history.params["steps"], val(np.array(history.history["loss"], np.float32)), _texts(caught),
            val(model.get_weights())]


@program
def p_config_interactive_logging_off_keeps_stdout_quiet(tf):
    model = _model(tf)
    x, y = _xy()
    out = io.StringIO()
    tf.keras.config.disable_interactive_logging()
    try:
        with contextlib.redirect_stdout(out):
            model.fit(x, y, batch_size=5, epochs=2, verbose=1)
            model.evaluate(x, y, verbose=1)
    finally:
        tf.keras.config.enable_interactive_logging()
    loud = io.StringIO()
    with contextlib.redirect_stdout(loud):
        model.fit(x, y, batch_size=5, epochs=1, verbose=2)
    return [out.getvalue(), "Epoch 1/1" in loud.getvalue()]


def _lambda_model(tf):
    shift = 3.0  # a closure cell: saved with the bytecode (a default argument is not: TF 2.21 cannot load one)
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Lambda(lambda x: x * 2.0 + 1.0),
                                tf.keras.layers.Lambda(lambda x: x - shift)])


def _reset_safe_mode(tf):
    """enable_unsafe_deserialization has no public undo: put the state back so later programs load safely."""
    if tf.__name__ == "tinytf":
        tf.keras.config._switches["safe_mode"] = None
    else:
        # the global_state module tf.keras really uses (set_backend re-imports a fresh `keras` package)
        global_state = tf.keras.config.enable_unsafe_deserialization.__globals__["global_state"]
        global_state.set_global_attribute("safe_mode_saving", None)


@program
def p_config_lambda_bytecode_safe_mode(tf):
    path = os.path.join(tempfile.mkdtemp(), "lambda.keras")
    _lambda_model(tf).save(path)
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    refused = outcome(lambda: tf.keras.models.load_model(path), "Requested the deserialization of a `Lambda`")
    loaded = tf.keras.models.load_model(path, safe_mode=False)
    result = [refused, val(loaded.predict(x, verbose=0))]
    tf.keras.config.enable_unsafe_deserialization()
    try:
        result.append(val(tf.keras.models.load_model(path).predict(x, verbose=0)))
        result.append(val(tf.keras.models.load_model(path, safe_mode=True).predict(x, verbose=0)))
    finally:
        _reset_safe_mode(tf)
    result.append(outcome(lambda: tf.keras.models.load_model(path), "Requested the deserialization"))
    return result


@program
def p_utils_config_object(tf):
    config = tf.keras.utils.Config(learning_rate=0.1, momentum=0.9)
    config.use_ema = True
    config["seed"] = 123
    seen = [config.seed, config["learning_rate"], sorted(config.keys()), list(config), len(config),
            "momentum" in config, config.get("missing", 7), config.to_json(), repr(config)]
    seen.append(outcome(lambda: config.learning_rat, "Did you mean 'learning_rate'?"))
    config.freeze()
    seen.append(config.frozen)

    def mutate():
        config.foo = "bar"

    seen.append(outcome(mutate, "the config is frozen"))
    seen.append(outcome(lambda: config.update(a=1), "frozen"))
    config.unfreeze()
    del config["seed"]
    seen.append(sorted(config.as_dict().items()))
    return seen


# last: in TF, set_backend re-imports Keras, after which tf.keras cannot save the models it makes
@program
def p_config_set_backend(tf):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf.keras.config.set_backend("tensorflow")
    texts = [str(w.message)[:60] for w in caught if "set_backend" in str(w.message)]
    # (an unknown name is a ValueError in both, but TF's Keras has then dropped itself from sys.modules, which
    # breaks later programs: tests/test_keras_config.py checks it)
    return [texts, tf.keras.config.backend(), os.environ.get("KERAS_BACKEND")]
