"""keras.layers.MelSpectrogram as Keras 3 writes it: keras.ops.stft (centered, reflect-padded), magnitude to
the power mag_exp, tf.signal's mel filter matrix (HTK's mel scale), then decibels relative to ref_power and
clipped top_db below the maximum of the whole batch; output (..., num_mel_bins, time)."""

from __future__ import annotations

import tinytf as _tf

from ... import ops
from ..layer import Layer

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


class MelSpectrogram(Layer):
    """Raw audio (samples,) or (batch, samples) to Mel spectrograms (..., num_mel_bins, time)."""

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann",
                 sampling_rate=16000, num_mel_bins=128, min_freq=20.0, max_freq=None, power_to_db=True, top_db=80.0,
                 mag_exp=2.0, min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") else "float32"
        inputs = ops.convert_to_tensor(inputs, dtype=dtype)
        real, imag = ops.stft(inputs, sequence_length=self.sequence_length, sequence_stride=self.sequence_stride,
                              fft_length=self.fft_length, window=self.window, center=True)
        spectrogram = ops.power(ops.sqrt(ops.add(ops.square(real), ops.square(imag))), self.mag_exp)
        matrix = _tf.signal.linear_to_mel_weight_matrix(self.num_mel_bins, spectrogram.shape[-1], self.sampling_rate,
                                                        self.min_freq, self.max_freq, dtype="float32")
        outputs = ops.tensordot(spectrogram, ops.cast(matrix, spectrogram.dtype), axes=1)
        if self.power_to_db:
            outputs = self._dbscale(outputs)
        outputs = ops.swapaxes(outputs, -1, -2)  # (..., num_mel_bins, time)
        return ops.cast(outputs, self.compute_dtype)

    def _dbscale(self, inputs):
        log_spec = 10.0 * ops.log10(ops.maximum(inputs, self.min_power))
        ref_value = ops.abs(ops.convert_to_tensor(self.ref_power))
        log_spec = log_spec - 10.0 * ops.log10(ops.maximum(ref_value, self.min_power))
        return ops.maximum(log_spec, ops.max(log_spec) - self.top_db)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        time = input_shape[-1]
        frames = (time + self.sequence_stride + 1) // self.sequence_stride if time is not None else None
        return input_shape[:-1] + (self.num_mel_bins, frames)

    def get_config(self) -> dict:
        return {**super().get_config(), "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
                "sequence_length": self.sequence_length, "window": self.window, "sampling_rate": self.sampling_rate,
                "num_mel_bins": self.num_mel_bins, "min_freq": self.min_freq, "max_freq": self.max_freq,
                "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
                "min_power": self.min_power, "ref_power": self.ref_power}
