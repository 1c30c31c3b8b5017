"""keras.layers.MelSpectrogram / STFTSpectrogram and keras.initializers.STFT beyond the recorded conformance
programs: windows by name (scipy's definitions, which TF 2.21's environment cannot run without scipy), the STFT
kernels against tf.signal.stft, configs and saving, training, and use inside Dataset.map."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.stft_windows import get_window

keras = tf.keras


def test_windows_by_name_are_scipys():
    np.testing.assert_allclose(get_window("hann", 9, False), np.hanning(9), atol=1e-15)
    np.testing.assert_allclose(get_window("hamming", 8, False), np.hamming(8), atol=1e-15)
    np.testing.assert_allclose(get_window("blackman", 7, False), np.blackman(7), atol=1e-15)
    np.testing.assert_allclose(get_window("bartlett", 6, False), np.bartlett(6), atol=1e-15)
    np.testing.assert_allclose(get_window(("kaiser", 3.0), 5, False), np.kaiser(5, 3.0), atol=1e-15)
    np.testing.assert_allclose(get_window("hann", 8), np.hanning(9)[:-1], atol=1e-15)  # periodic: fftbins
    np.testing.assert_allclose(get_window("triang", 4, False), [0.25, 0.75, 0.75, 0.25])
    np.testing.assert_allclose(get_window("triang", 5, False), [1 / 3, 2 / 3, 1, 2 / 3, 1 / 3])
    with pytest.raises(ValueError, match="Unknown window type"):
        keras.layers.STFTSpectrogram(window="parabolic")
    with pytest.raises(ValueError, match="needs one or more parameters"):
        get_window("kaiser", 4)


@pytest.mark.parametrize("scaling", ["density", "spectrum", None])
def test_stft_layer_magnitude_is_tf_signal_stft(scaling):
    x = np.random.default_rng(1).normal(size=(2, 64, 1)).astype(np.float32)
    layer = keras.layers.STFTSpectrogram(mode="magnitude", frame_length=16, frame_step=8, window="hann",
                                         scaling=scaling)
    got = layer(x).numpy()
    window = np.hanning(16)
    spectrum = np.abs(tf.signal.stft(x[..., 0], 16, 8, fft_length=16, window_fn=lambda n, dtype: tf.constant(
        window, dtype)).numpy())
    scale = {"density": np.sqrt(np.sum(window ** 2)), "spectrum": np.sum(window), None: 1.0}[scaling]
    np.testing.assert_allclose(got, np.maximum(spectrum / scale, np.sqrt(keras.config.epsilon())), rtol=1e-4,
                               atol=1e-5)


def test_stft_initializer_serializes():
    init = keras.initializers.get("stft")
    assert isinstance(init, keras.initializers.STFTInitializer)
    config = keras.initializers.serialize(keras.initializers.STFT("imag", "hamming", "spectrum", True))
    back = keras.initializers.deserialize(config)
    assert back.get_config() == {"side": "imag", "window": "hamming", "periodic": True, "scaling": "spectrum"}
    np.testing.assert_array_equal(back(shape=(8, 1, 5)).numpy(),
                                  keras.initializers.STFT("imag", "hamming", "spectrum", True)(shape=(8, 1, 5)).numpy())


def test_audio_model_trains_and_round_trips(tmp_path):
    inputs = keras.Input(shape=(48, 1))
    features = keras.layers.STFTSpectrogram(mode="log", frame_length=8, frame_step=4, expand_dims=True)(inputs)
    outputs = keras.layers.Dense(1)(keras.layers.Flatten()(features))
    model = keras.Model(inputs, outputs)
    assert tuple(features.shape) == (None, 11, 5, 1)
    x = np.random.default_rng(2).normal(size=(8, 48, 1)).astype(np.float32)
    y = np.random.default_rng(3).normal(size=(8, 1)).astype(np.float32)
    model.compile(optimizer="sgd", loss="mse")
    before = model.layers[1].real_kernel.numpy().copy()
    model.fit(x, y, epochs=2, verbose=0)
    assert not np.allclose(before, model.layers[1].real_kernel.numpy())  # the STFT kernels learn
    path = str(tmp_path / "audio.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_mel_spectrogram_in_a_dataset_map():
    waves = np.random.default_rng(4).uniform(-1, 1, size=(6, 800)).astype(np.float32)
    layer = keras.layers.MelSpectrogram(fft_length=128, sequence_stride=64, num_mel_bins=10, sampling_rate=8000)
    ds = tf.data.Dataset.from_tensor_slices(waves).batch(3).map(layer)
    got = np.concatenate([b.numpy() for b in ds])
    assert got.shape == (6, 10, 13)
    # the decibel clip is against the maximum of each batch, as Keras computes it
    np.testing.assert_allclose(got[:3], layer(waves[:3]).numpy(), rtol=1e-5, atol=1e-4)
    assert layer.compute_output_shape((None, 800)) == (None, 10, 13)
    restored = keras.layers.MelSpectrogram.from_config(layer.get_config())
    np.testing.assert_allclose(restored(waves[:3]).numpy(), got[:3], rtol=1e-5, atol=1e-4)
