"""The shapes call() sees while fit, evaluate and predict trace their steps, as TF 2.21's Keras 3 traces them:
fit and evaluate from a tf.data element spec whose batch dimension is None, so the short last batch does not
retrace; predict traces the first batch's shape and then relaxes; a dataset batched with drop_remainder keeps
its fixed batch size. Each call() records its input shape at trace time (a Python side effect)."""

from __future__ import annotations

import numpy as np

from . import program


def _recording_model(tf, seen):
    class Recorder(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x, training=None):
            seen.append(list(x.shape))
            return self.dense(x)

    model = Recorder()
    model.compile("sgd", "mse")
    return model


def _data():
    x = np.linspace(0, 1, 50, dtype="float32").reshape(10, 5)
    return x, 0.5 * x.sum(axis=1, keepdims=True) + 0.25


@program
def p_fit_traces_with_an_unknown_batch(tf):
    seen, out = [], {}
    model = _recording_model(tf, seen)
    x, y = _data()
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    out["fit"], out["fit_calls"], seen[:] = sorted({str(s) for s in seen}), len(seen), []
    out["fit_loss"] = [round(v, 5) for v in history.history["loss"]]
    model.fit(x, y, batch_size=3, epochs=1, verbose=0, shuffle=False)  # other sizes: the same trace
    out["fit_again"], seen[:] = list(seen), []
    model.evaluate(x, y, batch_size=4, verbose=0)
    out["evaluate"], seen[:] = list(seen), []
    model.predict(x, batch_size=4, verbose=0)
    out["predict"], seen[:] = list(seen), []
    return out


@program
def p_evaluate_first_and_steps_per_execution(tf):
    seen, out = [], {}
    model = _recording_model(tf, seen)
    x, y = _data()
    model.evaluate(x, y, batch_size=3, verbose=0)
    out["evaluate"], seen[:] = sorted({str(s) for s in seen}), []
    model.compile("sgd", "mse", steps_per_execution=2)
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    # (TF runs the steps of one execution in a tf.while_loop, tracing call() once; tinytf unrolls them, so
    # the number of calls differs: only the shapes are compared)
    out["spe"], seen[:] = sorted({str(s) for s in seen}), []
    out["spe_loss"] = [round(v, 5) for v in history.history["loss"]]
    return out


@program
def p_datasets_keep_their_element_spec(tf):
    out = {}
    x, y = _data()
    for name, dataset in [("drop_remainder", tf.data.Dataset.from_tensor_slices((x, y)).batch(4, drop_remainder=True)),
                          ("remainder", tf.data.Dataset.from_tensor_slices((x, y)).batch(4))]:
        seen = []
        model = _recording_model(tf, seen)
        model.fit(dataset, epochs=2, verbose=0)
        out[name] = sorted({str(s) for s in seen})
        seen[:] = []
        model.evaluate(dataset, verbose=0)
        out[name + "_evaluate"] = sorted({str(s) for s in seen})
    return out
