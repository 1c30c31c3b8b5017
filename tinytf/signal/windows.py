"""tf.signal's window functions, computed with TF's formulas in the requested dtype's arithmetic (hann and hamming
as raised cosines, kaiser with the exponentially scaled Bessel I0, kaiser-bessel-derived and vorbis). A window
depends only on its length, so it is a constant: the length must be known when a function is traced (a Python
int or a constant tensor)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import known_ints


def _length_and_dtype(window_length, dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype!r}")
    length = known_ints(window_length, f"{what}: window_length")
    if not isinstance(length, int):
        raise ValueError(f"{what}: window_length must be a scalar, got {list(length)}")
    return length, dtype


def _constant(values, dtype):
    return convert_to_tensor(np.asarray(values).astype(dtype.np), dtype=dtype)


def _raised_cosine(window_length, periodic, dtype, a, b, what):
    length, dtype = _length_and_dtype(window_length, dtype, what)
    if length == 1:
        return _constant(np.ones(1), dtype)
    periodic = int(bool(periodic if not hasattr(periodic, "numpy") else periodic.numpy()))
    even = 1 - length % 2
    t = dtype.np.type
    n = t(length + periodic * even - 1)
    count = np.arange(length).astype(t)
    return _constant(t(a) - t(b) * np.cos(t(2 * np.pi) * count / n), dtype)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.5 - 0.5 cos(2 pi n / N), N = length - 1 (symmetric) or length (periodic, for even lengths)."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, "hann_window")


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.54 - 0.46 cos(2 pi n / N), N as for hann_window."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, "hamming_window")


def _i0e(x):
    """The exponentially scaled modified Bessel function of order 0 (TF's bessel_i0e)."""
    return np.exp(-np.abs(x)) * np.i0(x)


def _kaiser(length, beta, dtype):
    if length == 1:
        return np.ones(1, dtype.np)
    t = dtype.np.type
    half = (np.float32(length) - np.float32(1.0)) / np.float32(2.0)
    arg = np.arange(-half, half + np.float32(0.1), dtype=np.float32).astype(t)
    beta = t(beta)
    half = t(half)
    num = beta * np.sqrt(np.maximum(t(1.0) - np.square(arg / half), t(0.0)))
    return (np.exp(num - beta) * (_i0e(num.astype(np.float64)) / _i0e(np.float64(beta))).astype(t)).astype(t)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window: I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)."""
    length, dtype = _length_and_dtype(window_length, dtype, "kaiser_window")
    return _constant(_kaiser(length, beta, dtype), dtype)


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel-derived window (for MDCTs): square roots of the normalized running sums of a Kaiser
    window of half the length plus one, mirrored."""
    length, dtype = _length_and_dtype(window_length, dtype, "kaiser_bessel_derived_window")
    kaiser = _kaiser(length // 2 + 1, beta, dtype)
    running = np.cumsum(kaiser, dtype=dtype.np)
    half = np.sqrt(running[:-1] / running[-1])
    return _constant(np.concatenate([half, half[::-1]]), dtype)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """The Vorbis power-complementary window: sin(pi/2 sin^2(pi (n + 0.5) / N))."""
    length, dtype = _length_and_dtype(window_length, dtype, "vorbis_window")
    t = dtype.np.type
    arg = np.arange(length).astype(t)
    inner = np.sin(t(np.pi) / t(length) * (arg + t(0.5)))
    return _constant(np.sin(t(np.pi / 2.0) * np.power(inner, t(2.0))), dtype)
