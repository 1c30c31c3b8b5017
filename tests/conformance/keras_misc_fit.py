"""Two behaviours of TF 2.21's fit: numpy arrays of strings (str, bytes, object) are refused by fit, evaluate
and predict (but taken by train_on_batch and its kin, and as tensors), and the callbacks see one more batch
begin for the step that finds the end of data of unknown length (a filtered dataset, a generator)."""

from __future__ import annotations

import warnings

import numpy as np

from . import outcome, program


def _string_model(tf):
    inputs = tf.keras.Input((1,), dtype="string")
    lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(lookup(inputs)))
    model.compile(optimizer="sgd", loss="mse")
    return model


@program
def p_fit_refuses_numpy_string_arrays(tf):
    model = _string_model(tf)
    y = np.ones((2, 1), np.float32)
    results = []
    for x in (np.array([["a"], ["b"]]), np.array([["a"], ["bb"]], dtype="U7"), np.array([[b"a"], [b"b"]]),
              np.array([["a"], ["b"]], dtype=object)):
        results.append([outcome(lambda x=x: model.fit(x, y, verbose=0), "Invalid dtype"),
                        outcome(lambda x=x: model.evaluate(x, y, verbose=0), "Invalid dtype"),
                        outcome(lambda x=x: model.predict(x, verbose=0), "Invalid dtype")])
    results.append(outcome(lambda: model.fit(np.ones((2, 1)), np.array([["a"], ["b"]]), verbose=0),
                           "Invalid dtype: str32"))
    strings = np.array([["a"], ["b"]])
    results.append(outcome(lambda: model.predict_on_batch(strings), ""))
    results.append(outcome(lambda: model.test_on_batch(strings, y), ""))
    results.append(outcome(lambda: model.predict(tf.constant(strings), verbose=0), ""))
    results.append(outcome(lambda: len(model.fit(tf.constant(strings), y, verbose=0).history["loss"]), ""))
    return results


def _events(tf, fit_source, spe=1, evaluate_source=None, predict_source=None, epochs=2):
    events = []
    callback = tf.keras.callbacks.LambdaCallback(
        on_train_batch_begin=lambda b, logs: events.append(["begin", b]),
        on_train_batch_end=lambda b, logs: events.append(["end", b]),
        on_epoch_end=lambda e, logs: events.append(["epoch_end", e]),
        on_test_batch_begin=lambda b, logs: events.append(["test_begin", b]),
        on_predict_batch_begin=lambda b, logs: events.append(["predict_begin", b]))
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=spe)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(fit_source(), epochs=epochs, verbose=0, callbacks=[callback])
        if evaluate_source is not None:
            model.evaluate(evaluate_source(), verbose=0, callbacks=[callback])
        if predict_source is not None:
            model.predict(predict_source(), verbose=0, callbacks=[callback])
    return events


def _filtered(tf, labelled=True):
    ds = tf.data.Dataset.range(10).filter(lambda v: v % 2 == 0)
    if labelled:
        return ds.map(lambda v: (tf.cast([v], tf.float32), tf.cast([v], tf.float32))).batch(2)
    return ds.map(lambda v: tf.cast([v], tf.float32)).batch(2)


@program
def p_fit_unknown_length_extra_batch_begin(tf):
    known = lambda: tf.data.Dataset.from_tensor_slices((np.ones((6, 1), "float32"),  # noqa: E731
                                                        np.ones((6, 1), "float32"))).batch(2)

    def generator():
        for _ in range(3):
            yield np.ones((2, 1), np.float32), np.ones((2, 1), np.float32)

    return [_events(tf, lambda: _filtered(tf), evaluate_source=lambda: _filtered(tf),
                    predict_source=lambda: _filtered(tf, labelled=False)),
            _events(tf, lambda: _filtered(tf), spe=2),
            _events(tf, known, evaluate_source=known),
            # one epoch: Keras re-reads the batches it peeked at from a generator in later epochs
            _events(tf, generator, epochs=1)]
