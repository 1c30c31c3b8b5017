"""keras.layers.STFTSpectrogram as Keras 3 writes it: the STFT of each channel of (batch, time, channels) signals as
two strided 1-D convolutions whose kernels keras.initializers.STFT makes (the windowed cosine and sine bases),
trainable like any kernel; modes log, magnitude, psd, real, imag, angle and stft."""

from __future__ import annotations

import math
import warnings

from ... import ops
from ...config import epsilon
from ...stft_initializer import STFT
from ...stft_windows import get_window
from ..input_spec import InputSpec
from ..layer import Layer
from ..preprocessing.image_layer_base import standardize_data_format

_MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]


class STFTSpectrogram(Layer):
    """Spectrograms of (batch, time, channels) signals (channels_last) through STFT convolution kernels."""

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None, window="hann", periodic=False,
                 scaling="density", padding="valid", expand_dims=False, data_format=None, **kwargs):
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError("`frame_step` should be a positive integer not greater than `frame_length`. Received "
                             f"frame_step={frame_step}, frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError("`fft_length` should be not less than `frame_length`. Received "
                             f"fft_length={fft_length}, frame_length={frame_length}")
        if fft_length is not None and (fft_length & -fft_length) != fft_length:
            warnings.warn(f"`fft_length` is recommended to be a power of two. Received fft_length={fft_length}",
                          stacklevel=2)
        if mode not in _MODES:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received "
                             f"scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: padding={padding}")
        if isinstance(window, str):
            get_window(window, 1)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(name="real_kernel", shape=shape, initializer=STFT(
                "real", self.window, self.scaling, self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(name="imag_kernel", shape=shape, initializer=STFT(
                "imag", self.window, self.scaling, self.periodic))
        self.built = True

    def _apply_conv(self, inputs, kernel):
        if self.data_format == "channels_last":
            _, time, channels = inputs.shape
            inputs = ops.reshape(ops.transpose(inputs, [0, 2, 1]), [-1, time, 1])
        else:
            _, channels, time = inputs.shape
            inputs = ops.reshape(inputs, [-1, 1, time])
        outputs = ops.conv(inputs, ops.cast(kernel, inputs.dtype), padding=self.padding, strides=self._frame_step,
                           data_format=self.data_format)
        if self.data_format == "channels_last":
            _, time, bins = outputs.shape
            outputs = ops.transpose(outputs, [0, 2, 1])
        else:
            _, bins, time = outputs.shape
        return ops.reshape(outputs, [-1, channels, bins, time])

    def _adjust_shapes(self, outputs):
        _, channels, bins, time = outputs.shape
        if self.data_format == "channels_last":
            if self.expand_dims:
                return ops.transpose(outputs, [0, 3, 2, 1])  # (batch, time, bins, channels)
            return ops.transpose(ops.reshape(outputs, [-1, channels * bins, time]), [0, 2, 1])
        if self.expand_dims:
            return ops.transpose(outputs, [0, 1, 3, 2])  # (batch, channels, time, bins)
        return ops.reshape(outputs, [-1, channels * bins, time])

    def call(self, inputs):
        if inputs.dtype.name not in {"float16", "float32", "float64"}:
            raise TypeError(f"Invalid input type. Expected `float16`, `float32` or `float64`. Received: input "
                            f"type={inputs.dtype.name}")
        real = self._apply_conv(inputs, self.real_kernel) if self.mode != "imag" else None
        imag = self._apply_conv(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode == "real":
            return self._adjust_shapes(real)
        if self.mode == "imag":
            return self._adjust_shapes(imag)
        if self.mode == "angle":
            return self._adjust_shapes(ops.arctan2(imag, real))
        if self.mode == "stft":
            return self._adjust_shapes(ops.concatenate([real, imag], axis=2))
        power = ops.square(real) + ops.square(imag)
        if self.mode == "psd":
            # the bins between DC and Nyquist stand for their mirrored twins too
            return self._adjust_shapes(power + ops.pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]]))
        magnitude = self._adjust_shapes(ops.sqrt(ops.maximum(power, epsilon())))
        if self.mode == "magnitude":
            return magnitude
        return ops.log(ops.maximum(magnitude, epsilon()))

    def compute_output_shape(self, input_shape):
        batch = input_shape[0]
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        time = input_shape[1] if self.data_format == "channels_last" else input_shape[-1]
        bins = self._fft_length // 2 + 1
        if self.mode == "stft":
            bins *= 2
        if time is not None:
            time = -(-time // self._frame_step) if self.padding == "same" else \
                (time - self.frame_length) // self._frame_step + 1
        if self.expand_dims:
            return (batch, time, bins, channels) if self.data_format == "channels_last" else \
                (batch, channels, time, bins)
        features = None if channels is None else bins * channels
        return (batch, time, features) if self.data_format == "channels_last" else (batch, features, time)

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": self.mode, "frame_length": self.frame_length,
                "frame_step": self.frame_step, "fft_length": self.fft_length, "window": self.window,
                "periodic": self.periodic, "scaling": self.scaling, "padding": self.padding,
                "data_format": self.data_format, "expand_dims": self.expand_dims}
