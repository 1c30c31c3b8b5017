"""TimeseriesGenerator against numpy windows (strides, sampling rates, reverse, shuffle seeded by np.random),
its config, fit over it; and a Sequential model keeping a float64 Input's inputs float64. TF's numbers are in
conformance/keras_gaps_misc.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
Gen = keras.preprocessing.sequence.TimeseriesGenerator


def test_batches_against_numpy_windows():
    series = np.arange(30.0).reshape(15, 2)
    g = Gen(series, series[:, 0], length=4, sampling_rate=2, stride=3, batch_size=2, start_index=1, end_index=13)
    rows = list(range(1 + 4, 14, 3))
    assert len(g) == int(np.ceil(len(rows) / 2))
    got_x = np.concatenate([g[i][0] for i in range(len(g))])
    got_y = np.concatenate([g[i][1] for i in range(len(g))])
    np.testing.assert_array_equal(got_x, np.stack([series[r - 4:r:2] for r in rows]))
    np.testing.assert_array_equal(got_y, series[rows, 0])
    reverse = Gen(series, series[:, 0], length=4, reverse=True, batch_size=3)
    np.testing.assert_array_equal(reverse[0][0][0], series[0:4][::-1])


def test_shuffle_uses_numpy_global_seed():
    series = np.arange(40)
    g = Gen(series, series, length=5, shuffle=True, batch_size=6)
    np.random.seed(3)
    first = g[0]
    np.random.seed(3)
    again = g[0]
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[0][:, -1] + 1, first[1])  # each target follows its window


def test_config_and_json_round_trip_values():
    g = Gen(np.arange(10), np.arange(10) * 2, length=3, batch_size=4)
    config = g.get_config()
    assert json.loads(config["data"]) == list(range(10)) and config["start_index"] == 3
    assert json.loads(g.to_json())["class_name"] == "TimeseriesGenerator"
    with pytest.raises(TypeError, match="not JSON Serializable"):
        Gen([object()] * 5, list(range(5)), length=2).get_config()


def test_errors():
    with pytest.raises(ValueError, match="same length"):
        Gen(np.arange(5), np.arange(4), length=2)
    with pytest.raises(ValueError, match="is disallowed"):
        Gen(np.arange(5), np.arange(5), length=5)


def test_fit_over_a_generator_learns_a_shift():
    series = np.sin(np.arange(200) / 5.0).astype("float32")[:, None]
    g = Gen(series, series, length=6, batch_size=16)
    model = keras.Sequential([keras.Input((6, 1)), keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    history = model.fit(g, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 5


def test_sequential_float64_input_keeps_precision():
    x = np.array([[1.0 + 1e-12, 2.0, 3.0]])
    model = keras.Sequential([keras.Input((3,), dtype="float64"),
                              keras.layers.Dense(1, dtype="float64", kernel_initializer="ones")])
    out = model(x)
    assert out.dtype == tf.float64 and out.numpy()[0, 0] == x.sum()
    assert tf.function(model)(x).numpy()[0, 0] == x.sum()
