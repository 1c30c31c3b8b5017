"""keras.ops' Fourier functions (fft, fft2, ifft2, rfft, irfft, stft, istft) on real tensors: Keras passes
complex values as (real, imag) pairs, so each transform is a product with the DFT's cosine and sine matrices,
exact in the input's float precision (O(n^2) per axis rather than an FFT's O(n log n)) and differentiable by
tinytf's matmul gradients, eagerly and in graphs."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .core import convert_to_tensor
from .symbolic import export_all


def _pair(x):
    """(real, imag) float tensors of one shape, or Keras' ValueError."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"Input `x` should be a tuple of two tensors - real and imaginary.Received: x={x}")
    real, imag = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    if tuple(real.shape) != tuple(imag.shape):
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary.Both the real and "
                         f"imaginary parts should have the same shape. Received: x[0].shape = {real.shape}, "
                         f"x[1].shape = {imag.shape}")
    if not real.dtype.is_floating or not imag.dtype.is_floating:
        raise ValueError(f"At least one tensor in input `x` is not of type float.Received: x={x}.")
    return real, imag


def _twiddles(n, dtype):
    """cos and sin of 2 pi j k / n as n x n matrices, computed in float64 before the cast."""
    angles = 2.0 * np.pi * np.outer(np.arange(n), np.arange(n)) / n
    return tf.constant(np.cos(angles), dtype), tf.constant(np.sin(angles), dtype)


def _dft_last(real, imag, inverse=False):
    """The (inverse) DFT of real + i imag along the last axis."""
    n = real.shape[-1]
    cos, sin = _twiddles(n, real.dtype)
    if inverse:  # e^{+i theta} / n
        out_real = (tf.matmul(real, cos) - tf.matmul(imag, sin)) / n
        out_imag = (tf.matmul(imag, cos) + tf.matmul(real, sin)) / n
    else:  # e^{-i theta}
        out_real = tf.matmul(real, cos) + tf.matmul(imag, sin)
        out_imag = tf.matmul(imag, cos) - tf.matmul(real, sin)
    return out_real, out_imag


def _matmul_last(x, matrix):
    """x @ matrix over x's last axis, for any rank (tf.matmul wants rank 2 or batched rank >= 2)."""
    if len(x.shape) == 1:
        return tf.squeeze(tf.matmul(x[None, :], matrix), 0)
    return tf.matmul(x, matrix)


def fft(x):
    """The DFT along the last axis of the complex tensor x = (real, imag); returns (real, imag)."""
    real, imag = _pair(x)
    n = real.shape[-1]
    cos, sin = _twiddles(n, real.dtype)
    return (_matmul_last(real, cos) + _matmul_last(imag, sin), _matmul_last(imag, cos) - _matmul_last(real, sin))


def _swap_last_two(t):
    perm = list(range(len(t.shape)))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return tf.transpose(t, perm)


def fft2(x):
    """The 2-D DFT over the last two axes of x = (real, imag)."""
    real, imag = _pair(x)
    real, imag = _dft_last(real, imag)
    real, imag = _dft_last(_swap_last_two(real), _swap_last_two(imag))
    return _swap_last_two(real), _swap_last_two(imag)


def ifft2(x):
    """The inverse 2-D DFT over the last two axes of x = (real, imag)."""
    real, imag = _pair(x)
    real, imag = _dft_last(real, imag, inverse=True)
    real, imag = _dft_last(_swap_last_two(real), _swap_last_two(imag), inverse=True)
    return _swap_last_two(real), _swap_last_two(imag)


def _fit_length(x, n):
    """x cut or zero-padded to n along its last axis."""
    have = x.shape[-1]
    if have > n:
        return x[..., :n]
    if have < n:
        return tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[0, n - have]])
    return x


def rfft(x, fft_length=None):
    """The DFT of a real x along its last axis: the fft_length // 2 + 1 non-negative frequencies, (real, imag)."""
    x = convert_to_tensor(x)
    n = x.shape[-1] if fft_length is None else int(fft_length)
    x = _fit_length(x, n)
    bins = n // 2 + 1
    angles = 2.0 * np.pi * np.outer(np.arange(n), np.arange(bins)) / n
    cos, sin = tf.constant(np.cos(angles), x.dtype), tf.constant(np.sin(angles), x.dtype)
    return _matmul_last(x, cos), -_matmul_last(x, sin)


def irfft(x, fft_length=None):
    """The real signal whose rfft is x = (real, imag), fft_length long (default 2 * (bins - 1))."""
    real, imag = _pair(x)
    n = 2 * (real.shape[-1] - 1) if fft_length is None else int(fft_length)
    bins = n // 2 + 1
    real, imag = _fit_length(real, bins), _fit_length(imag, bins)
    weights = np.full(bins, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    angles = 2.0 * np.pi * np.outer(np.arange(bins), np.arange(n)) / n
    cos = tf.constant(weights[:, None] * np.cos(angles) / n, real.dtype)
    sin = tf.constant(weights[:, None] * np.sin(angles) / n, real.dtype)
    return _matmul_last(real, cos) - _matmul_last(imag, sin)


def _window(window, sequence_length, fft_length, dtype):
    """The analysis window padded to fft_length (centered), or None."""
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(f'If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. '
                             f"Received: window={window}")
        k = np.arange(sequence_length)
        alpha = 0.5 if window == "hann" else 0.54  # periodic windows, as tf.signal makes them
        values = alpha - (1 - alpha) * np.cos(2 * np.pi * k / sequence_length)
    else:
        values = np.asarray(convert_to_tensor(window).numpy(), np.float64)
        if values.ndim != 1 or values.shape[-1] != sequence_length:
            raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape="
                             f"{values.shape}")
    left = (fft_length - sequence_length) // 2
    return np.pad(values, (left, fft_length - sequence_length - left))


def _frames(x, frame_length, step):
    """(..., num_frames, frame_length) frames of x's last axis, step apart (no padding at the end)."""
    n = x.shape[-1]
    count = 1 + (n - frame_length) // step
    index = np.arange(count)[:, None] * step + np.arange(frame_length)[None, :]
    return tf.gather(x, tf.constant(index, "int32"), axis=len(x.shape) - 1)


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform of real x: (real, imag) of shape (..., frames, fft_length // 2 + 1)."""
    x = convert_to_tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"Invalid input type. Expected `float32` or `float64`. Received: input type={x.dtype.name}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. Received: "
                         f"sequence_length={sequence_length}, fft_length={fft_length}")
    win = _window(window, sequence_length, fft_length, x.dtype)
    if center:
        x = tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[fft_length // 2, fft_length // 2]], mode="REFLECT")
    frames = _frames(x, fft_length, sequence_stride)
    if win is not None:
        frames = frames * tf.constant(win, x.dtype)
    return rfft(frames, fft_length)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse of stft: inverse DFTs of the frames, windowed for perfect reconstruction and overlap-added."""
    real, imag = _pair(x)
    dtype = real.dtype
    frames = irfft((real, imag), fft_length)  # (..., num_frames, fft_length)
    num_frames = real.shape[-2]
    win = _window(window, sequence_length, fft_length, dtype)
    if win is not None:
        # tf.signal.inverse_stft_window_fn: the window divided by the sum of the squared windows that overlap
        # at each position of a hop
        squared = (win ** 2).reshape(-1, sequence_stride) if fft_length % sequence_stride == 0 else None
        if squared is None:
            padded = np.pad(win ** 2, (0, -fft_length % sequence_stride))
            squared = padded.reshape(-1, sequence_stride)
        denominator = np.tile(squared.sum(0), squared.shape[0])[:fft_length]
        frames = frames * tf.constant(win / denominator, dtype)
    output_length = fft_length + sequence_stride * (num_frames - 1)
    positions = np.arange(num_frames)[:, None] * sequence_stride + np.arange(fft_length)[None, :]
    lead = [tf.shape(frames)[i] for i in range(len(frames.shape) - 2)]
    flat = tf.reshape(frames, tf.stack([-1, num_frames * fft_length]))
    summed = tf.transpose(tf.math.unsorted_segment_sum(tf.transpose(flat), tf.constant(positions.reshape(-1),
                                                                                         "int32"), output_length))
    signal = tf.reshape(summed, tf.stack([*lead, output_length])) if lead else tf.reshape(summed, [output_length])
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = output_length - fft_length // 2
    else:
        end = output_length
    return signal[..., start:end]


__all__ = ["fft", "fft2", "ifft2", "irfft", "istft", "rfft", "stft"]
export_all(globals(), __all__)
