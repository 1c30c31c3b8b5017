"""Keras 3's audio layers and STFT initializer as TensorFlow 2.21 (Keras 3.15) computes them: MelSpectrogram's
options, STFTSpectrogram's modes, paddings, data formats and expand_dims, the STFT kernels, configs and weights.
TF 2.21's environment has no scipy, which Keras needs for a window given by name, so windows are given as arrays
here (tests/test_keras_audio_layers.py checks the names against numpy's windows)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def _hann(n):
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))).astype("float32")


@program
def p_keras_stft_initializer(tf):
    keras = tf.keras
    out = []
    for side in ("real", "imag"):
        for scaling in ("density", "spectrum", None):
            init = keras.initializers.STFTInitializer(side, _hann(8), scaling)
            out.append(val(init(shape=(8, 1, 5))))
    out.append(val(keras.initializers.STFT("real", None)(shape=(6, 1, 4), dtype="float64")))
    out.append(keras.initializers.STFT("imag", None, "spectrum", True).get_config())
    out.append(outcome(lambda: keras.initializers.STFT("both"), "side should be"))
    out.append(outcome(lambda: keras.initializers.STFT(window=None, scaling="l2"), "Scaling is invalid"))
    out.append(outcome(lambda: keras.initializers.STFT("real", _hann(5))(shape=(8, 1, 5)), "frame_length"))
    return out


@program
def p_keras_stft_spectrogram_modes(tf):
    keras = tf.keras
    # white noise, no near-empty bins: the angle of an empty bin is the kernels' float32 rounding
    x = tf.constant(np.random.RandomState(31).uniform(-1, 1, (2, 40, 2)))
    out = []
    for mode in ("log", "magnitude", "psd", "real", "imag", "angle", "stft"):
        layer = keras.layers.STFTSpectrogram(mode=mode, frame_length=8, frame_step=4, window=_hann(8))
        y = layer(x)
        out.append([mode, val(y), [w.name for w in layer.weights], layer.compute_output_shape((2, 40, 2))])
    return out


@program
def p_keras_stft_spectrogram_options(tf):
    keras = tf.keras
    x = tf.constant(data((2, 30, 3), 32))
    out = []
    for kwargs in ({"padding": "same"}, {"expand_dims": True}, {"padding": "same", "expand_dims": True},
                   {"fft_length": 16, "scaling": "spectrum"}, {"frame_step": 3, "scaling": None},
                   {"window": None}):
        args = {"mode": "magnitude", "frame_length": 8, "window": _hann(8), **kwargs}
        layer = keras.layers.STFTSpectrogram(**args)
        out.append([val(layer(x)), list(layer.compute_output_shape((2, 30, 3)))])
    first = keras.layers.STFTSpectrogram(mode="log", frame_length=6, frame_step=2, window=_hann(6),
                                         data_format="channels_first")
    out.append(val(first(tf.transpose(x, [0, 2, 1]))))
    first_dims = keras.layers.STFTSpectrogram(mode="real", frame_length=6, window=_hann(6), expand_dims=True,
                                              data_format="channels_first")
    out.append(val(first_dims(tf.transpose(x, [0, 2, 1]))))
    config = keras.layers.STFTSpectrogram(mode="psd", frame_length=6, frame_step=2, window=None).get_config()
    out.append({k: config[k] for k in ("mode", "frame_length", "frame_step", "fft_length", "window", "periodic",
                                        "scaling", "padding", "data_format", "expand_dims")})
    out += [outcome(lambda: keras.layers.STFTSpectrogram(frame_length=8, frame_step=9), "frame_step"),
            outcome(lambda: keras.layers.STFTSpectrogram(frame_length=8, fft_length=4), "fft_length"),
            outcome(lambda: keras.layers.STFTSpectrogram(mode="power"), "Output mode is invalid"),
            outcome(lambda: keras.layers.STFTSpectrogram(padding="causal"), "Padding is invalid")]
    return out


@program
def p_keras_stft_spectrogram_training(tf):
    keras = tf.keras
    layer = keras.layers.STFTSpectrogram(mode="magnitude", frame_length=8, frame_step=4, window=_hann(8))
    x = tf.constant(data((1, 24, 1), 33))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x) ** 2)
    grads = tape.gradient(y, layer.trainable_weights)
    frozen = keras.layers.STFTSpectrogram(frame_length=8, window=_hann(8), trainable=False)
    frozen.build((None, 24, 1))
    return [val(y), val(grads), len(frozen.trainable_weights), len(frozen.non_trainable_weights)]


@program
def p_keras_mel_spectrogram(tf):
    keras = tf.keras
    # white noise: every mel band holds comparable power, so decibels do not amplify float32 rounding (a pure
    # tone leaves bands 50 dB down, where TF's FFT and tinytf's DFT differ in the 4th digit)
    signal = tf.constant(np.random.RandomState(34).uniform(-1, 1, (2, 1000)).astype("float32"))
    out = []
    for kwargs in ({}, {"power_to_db": False}, {"mag_exp": 1.0, "top_db": 20.0}, {"ref_power": 10.0},
                   {"window": "hamming", "sequence_length": 100}, {"window": None, "min_freq": 100.0,
                                                                   "max_freq": 3000.0}):
        layer = keras.layers.MelSpectrogram(fft_length=128, sequence_stride=64, sampling_rate=8000, num_mel_bins=16,
                                            **kwargs)
        result = layer(signal)
        if "ref_power" in kwargs:  # decibels near 0 (power near the reference): compared as power ratios, where
            result = 10.0 ** (result / 10.0)  # float32 rounding is relative (in dB it is absolute, and machine-bound)
        out.append(val(result))
    unbatched = keras.layers.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8, sampling_rate=4000)
    out.append(val(unbatched(signal[0])))
    out.append(list(unbatched.compute_output_shape((1000,))))
    out.append(list(unbatched.compute_output_shape((3, None))))
    config = unbatched.get_config()
    out.append({k: config[k] for k in ("fft_length", "sequence_stride", "sequence_length", "window", "sampling_rate",
                                        "num_mel_bins", "min_freq", "max_freq", "power_to_db", "top_db", "mag_exp",
                                        "min_power", "ref_power")})
    out.append(val(tf.function(lambda s: unbatched(s))(signal)))
    out.append(outcome(lambda: keras.layers.MelSpectrogram(fft_length=64, sequence_length=128), "fft_length"))
    # Keras' mel matrix is float32 whatever the layer's dtype: a float64 layer fails in TF, and so in tinytf
    out.append(outcome(lambda: keras.layers.MelSpectrogram(fft_length=64, dtype="float64")(tf.cast(signal, "float64")),
                       ""))
    return out


@program
def p_keras_mel_spectrogram_docstring(tf):
    keras = tf.keras
    layer = keras.layers.MelSpectrogram(num_mel_bins=64, sampling_rate=8000, sequence_stride=256, fft_length=2048)
    unbatched = layer(keras.random.uniform(shape=(16000,))).shape
    layer = keras.layers.MelSpectrogram(num_mel_bins=80, sampling_rate=8000, sequence_stride=128, fft_length=2048)
    batched = layer(keras.random.uniform(shape=(2, 16000))).shape
    # STFTSpectrogram's examples with the windows as arrays (TF 2.21's environment has no scipy)
    frames = keras.layers.STFTSpectrogram(mode="log", frame_length=256, frame_step=128, fft_length=512,
                                          window=np.hanning(256).astype("float32"), padding="valid", trainable=False)
    same = keras.layers.STFTSpectrogram(mode="log", frame_length=256, frame_step=128, fft_length=512,
                                        window=np.hamming(256).astype("float32"), padding="same")
    image = keras.layers.STFTSpectrogram(mode="log", frame_length=256, frame_step=128, fft_length=512,
                                         window=np.hanning(256).astype("float32"), padding="same", expand_dims=True)
    return [list(unbatched), list(batched), list(frames(keras.random.uniform(shape=(3, 16000, 1))).shape),
            list(same(keras.random.uniform(shape=(3, 16000, 2))).shape),
            list(image(keras.random.uniform(shape=(3, 16000, 3))).shape)]
