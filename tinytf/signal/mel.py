"""tf.signal.linear_to_mel_weight_matrix: the triangular filters that map linear-frequency spectrogram bins to
mel bands (HTK's mel scale, mel = 1127 ln(1 + f / 700)), as TF computes them; the first (DC) bin gets no
weight. Its arguments are Python numbers (or constant tensors), so the matrix is a constant."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.static_value import constant_value
from tinytf.runtime.tensor import Tensor

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz, t):
    return t(_MEL_HIGH_FREQUENCY_Q) * np.log(t(1.0) + hertz / t(_MEL_BREAK_FREQUENCY_HERTZ))


def _static(value, what):
    if isinstance(value, Tensor):
        known = constant_value(value)
        if known is None:
            raise ValueError(f"linear_to_mel_weight_matrix: {what} must be known when the function is traced")
        return np.asarray(known).item()
    return value


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """A [num_spectrogram_bins, num_mel_bins] matrix: spectrogram (..., bins) @ matrix = mel spectrogram."""
    num_mel_bins = int(_static(num_mel_bins, "num_mel_bins"))
    num_spectrogram_bins = int(_static(num_spectrogram_bins, "num_spectrogram_bins"))
    sample_rate = _static(sample_rate, "sample_rate")
    lower_edge_hertz = _static(lower_edge_hertz, "lower_edge_hertz")
    upper_edge_hertz = _static(upper_edge_hertz, "upper_edge_hertz")
    dtype = dtypes.as_dtype(dtype)
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}")
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                         f"Got {upper_edge_hertz} for sample_rate: {sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype!r}")
    t = dtype.np.type
    nyquist = t(sample_rate) / t(2.0)
    # TF's linspace: start + i * (stop - start) / (num - 1), in the dtype
    linear = (np.arange(num_spectrogram_bins).astype(t) * (nyquist / t(max(num_spectrogram_bins - 1, 1))))[1:]
    bins_mel = _hertz_to_mel(linear, t)[:, None]
    low_mel, high_mel = _hertz_to_mel(t(lower_edge_hertz), t), _hertz_to_mel(t(upper_edge_hertz), t)
    edges = low_mel + np.arange(num_mel_bins + 2).astype(t) * ((high_mel - low_mel) / t(num_mel_bins + 1))
    lower, center, upper = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = np.maximum(t(0.0), np.minimum(lower_slopes, upper_slopes))
    return convert_to_tensor(np.pad(weights, [[1, 0], [0, 0]]).astype(t), dtype=dtype)
