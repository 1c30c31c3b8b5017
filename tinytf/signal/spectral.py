"""Short-time Fourier transforms and the MDCT, as TF writes them: frame, window, transform (stft, mdct) and
transform back, window, overlap-add (inverse_stft, inverse_mdct). inverse_stft_window_fn makes the window that
turns inverse_stft into an exact inverse of stft where the frames overlap enough."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import reduce as _reduce

from .dct import dct
from .fft_ops import irfft, rfft
from .framing import _scalar_int, frame, overlap_and_add
from .windows import hann_window, vorbis_window


def _enclosing_power_of_two(value):
    return int(2 ** np.ceil(np.log(value) / np.log(2.0)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """The STFT of real signals (..., samples): (..., frames, fft_length // 2 + 1) complex bins; fft_length
    defaults to the smallest power of two >= frame_length, each frame is multiplied by window_fn(frame_length)."""
    x = convert_to_tensor(signals)
    if x.shape.rank is not None and x.shape.rank < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    frame_length = _scalar_int(frame_length, "stft: frame_length")
    frame_step = _scalar_int(frame_step, "stft: frame_step")
    fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else \
        _scalar_int(fft_length, "stft: fft_length")
    frames = frame(x, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=frames.dtype)
    return rfft(frames, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window_fn for inverse_stft that undoes forward_window_fn's overlap-added squares (a window of zeros
    where they sum to zero)."""

    def inverse_window(frame_length, dtype):
        step = _scalar_int(frame_step, "inverse_stft_window_fn: frame_step")
        length = _scalar_int(frame_length, "inverse_stft_window_fn: frame_length")
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        squares = _array.reshape(_array.pad(forward * forward, [[0, overlaps * step - length]]), [overlaps, step])
        summed = _array.tile(_reduce.reduce_sum(squares, 0, keepdims=True), [overlaps, 1])
        denominator = _indexing.getitem(_array.reshape(summed, [overlaps * step]), slice(0, length))
        zero = _math.equal(denominator, _array.zeros_like(denominator))
        safe = _indexing.where(zero, _array.ones_like(denominator), denominator)
        return _indexing.where(zero, _array.zeros_like(forward), forward / safe)

    return inverse_window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """Signals from STFTs (..., frames, bins): IRFFT of each frame, cropped or padded to frame_length,
    windowed, overlap-added frame_step apart."""
    x = convert_to_tensor(stfts)
    if x.shape.rank is not None and x.shape.rank < 2:
        raise ValueError(f"Shape {x.shape} must have rank at least 2")
    frame_length = _scalar_int(frame_length, "inverse_stft: frame_length")
    frame_step = _scalar_int(frame_step, "inverse_stft: frame_step")
    fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else \
        _scalar_int(fft_length, "inverse_stft: fft_length")
    frames = irfft(x, [fft_length])
    if fft_length > frame_length:
        frames = _indexing.getitem(frames, (Ellipsis, slice(0, frame_length)))
    elif fft_length < frame_length:
        frames = _array.pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, frame_length - fft_length]])
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=x.dtype.real_dtype)
    return overlap_and_add(frames, frame_step)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of real signals: frames of frame_length (a multiple of 4) half a frame apart, windowed,
    folded to half length and transformed by a type-4 DCT: (..., frames, frame_length // 2)."""
    x = convert_to_tensor(signals)
    if x.shape.rank is not None and x.shape.rank < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    frame_length = _scalar_int(frame_length, "mdct: frame_length")
    if frame_length % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    frames = frame(x, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=frames.dtype)
    else:
        frames = frames * convert_to_tensor(np.asarray(1.0 / np.sqrt(2), frames.dtype.np))
    a, b, c, d = _array.split(frames, 4, axis=-1)
    first = -_array.reverse(c, [-1]) - d
    second = a - _array.reverse(b, [-1])
    return dct(_array.concat([first, second], axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """Signals from MDCTs (..., frames, half_length): type-4 DCT, unfolded to full frames, windowed and
    overlap-added half a frame apart (time-domain aliasing cancels between neighbours)."""
    x = convert_to_tensor(mdcts)
    if x.shape.rank is not None and x.shape.rank < 2:
        raise ValueError(f"Shape {x.shape} must have rank at least 2")
    half = x.shape[-1]
    if half is None:
        raise ValueError(f"inverse_mdct: the last dimension must be known, got shape {x.shape}")
    if norm is None:
        result = dct(x, type=4) * convert_to_tensor(np.asarray(0.5 / half, x.dtype.np))
    elif norm == "ortho":
        result = dct(x, type=4, norm="ortho")
    else:
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    first, second = _array.split(result, 2, axis=-1)
    frames = _array.concat([second, -_array.reverse(second, [-1]), -_array.reverse(first, [-1]), -first], axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=x.dtype)
    else:
        frames = frames * convert_to_tensor(np.asarray(1.0 / np.sqrt(2), x.dtype.np))
    return overlap_and_add(frames, half)
