"""Smaller tf.keras names and behaviours found by tools/keras_api_gaps.py against Keras 3.15 on TF 2.21:
keras.preprocessing.sequence.TimeseriesGenerator (batches, strides, sampling rates, reverse, start/end
indices, fit over it, its errors; the docstring example of Keras 2's docs with synthetic data), and a
Sequential model whose keras.Input is float64 keeping float64 inputs at full precision."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program, val


@program
def p_keras_gaps_timeseries_generator(tf):
    Gen = tf.keras.preprocessing.sequence.TimeseriesGenerator
    series = np.array([[i] for i in range(50)])
    targets = np.array([[i] for i in range(50)])
    # Keras 2's docstring example
    generator = Gen(series, targets, length=10, sampling_rate=2, batch_size=2)
    first_x, first_y = generator[0]
    out = {"len": len(generator), "first_x": first_x.tolist(), "first_y": first_y.tolist(),
           "is_pydataset": isinstance(generator, tf.keras.utils.PyDataset)}
    cases = {"stride": dict(length=3, stride=4, batch_size=3), "reverse": dict(length=4, reverse=True, batch_size=5),
             "window": dict(length=5, start_index=7, end_index=30, sampling_rate=3, batch_size=4)}
    for key, kwargs in cases.items():
        g = Gen(series[:, 0] * 1.5, targets[:, 0], **kwargs)
        out[key] = {"len": len(g), "batches": [[x.tolist(), y.tolist()] for x, y in (g[i] for i in range(len(g)))]}
    out["mismatch"] = outcome(lambda: Gen(series, targets[:-1], length=3), "same length")
    out["too_long"] = outcome(lambda: Gen(series, targets, length=20, start_index=25, end_index=40), "disallowed")
    return out


@program
def p_keras_gaps_timeseries_generator_fit(tf):
    keras = tf.keras
    series = data((40, 2), seed=3)
    generator = keras.preprocessing.sequence.TimeseriesGenerator(series, series[:, :1] * 2.0, length=4,
                                                                  batch_size=8)
    model = keras.Sequential([keras.Input((4, 2)), keras.layers.Flatten(), keras.layers.Dense(1)])
    fixed_weights(model, seed=1)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(generator, epochs=3, verbose=0, shuffle=False)
    return {"loss": [round(v, 5) for v in history.history["loss"]],
            "predict": val(model.predict(generator, verbose=0)[:5])}


@program
def p_keras_gaps_sequential_float64_input(tf):
    keras = tf.keras
    x = np.array([[1.0 + 1e-9, 2.0, 3.0], [0.1, 0.2, 0.3000000001]])
    model = keras.Sequential([keras.Input((3,), dtype="float64"), keras.layers.Dense(2, dtype="float64",
                                                                                    kernel_initializer="ones")])
    plain = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    out = model(x)
    return {"dtype": out.dtype.name, "exact": (out.numpy()[:, 0] == x.sum(axis=1)).tolist(),
            "plain_dtype": plain(x).dtype.name}
