"""tf.signal.dct / idct (types I-IV, norm None or 'ortho', n to truncate or zero-pad) and
mfccs_from_log_mel_spectrograms, written with TF's formulas over the RFFT ops, so they have gradients.
The transformed (last) dimension must be known when a function is traced."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import complex as _complex
from tinytf.runtime.ops import indexing as _indexing

from .fft_ops import irfft, rfft

_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def _validate(x, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if x.shape.rank is not None and x.shape[-1] is not None and x.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _const(values, dtype):
    return convert_to_tensor(np.asarray(values).astype(dtype.np), dtype=dtype)


def _last(x, key):
    return _indexing.getitem(x, (Ellipsis, key))


def _dct(x, dct_type, n, norm):
    if x.shape.rank is None or x.shape[-1] is None:
        raise ValueError(f"dct: the last dimension must be known, got shape {x.shape}")
    if n is not None:
        length = x.shape[-1]
        if n <= length:
            x = _last(x, slice(0, n))
        else:
            x = _array.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]])
    size = x.shape[-1]
    real = x.dtype.np.type
    complex_dtype = np.complex64 if real is np.float32 else np.complex128
    k = np.arange(size).astype(real)
    if dct_type == 1:
        mirrored = _array.concat([x, _last(x, slice(-2, 0, -1))], axis=-1)
        return _complex.real(rfft(mirrored))
    if dct_type == 2:
        scale = (2.0 * np.exp(-1j * (k * real(np.pi * 0.5) / real(size)))).astype(complex_dtype)
        spectrum = _last(rfft(x, fft_length=[2 * size]), slice(0, size))
        result = _complex.real(spectrum * convert_to_tensor(scale))
        if norm == "ortho":
            first = 0.5 / np.sqrt(real(size))
            weights = np.full(size, first * np.sqrt(2.0), real)
            weights[0] = first
            result = result * _const(weights, x.dtype)
        return result
    if dct_type == 3:
        if norm == "ortho":
            first = np.sqrt(real(size))
            weights = np.full(size, first * np.sqrt(0.5), real)
            weights[0] = first
            x = x * _const(weights, x.dtype)
        else:
            x = x * _const(size, x.dtype)
        scale = (2.0 * np.exp(1j * (k * real(np.pi * 0.5) / real(size)))).astype(complex_dtype)
        spectrum = convert_to_tensor(scale) * _complex.complex(x, _array.zeros_like(x))
        return _last(irfft(spectrum, fft_length=[2 * size]), slice(0, size))
    # type 4: the odd bins of a type-2 DCT of the signal zero-padded to twice its length
    result = _last(_dct(x, 2, 2 * size, None), slice(1, None, 2))
    if norm == "ortho":
        result = result * _const(np.sqrt(0.5) / np.sqrt(real(size)), x.dtype)
    return result


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The discrete cosine transform of the last axis: type 1, 2 (the default, as scipy's), 3 or 4; `n` truncates
    or zero-pads the input first; norm='ortho' makes types 2-4 orthonormal."""
    x = convert_to_tensor(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The inverse DCT: a DCT of the inverse type (2 <-> 3, 1 and 4 self-inverse up to scaling; with
    norm='ortho', exactly inverse)."""
    x = convert_to_tensor(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, _INVERSE_TYPE[type], n, norm)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """MFCCs: the orthonormal type-2 DCT of log-mel spectrograms' last axis, scaled as TF (and HTK) do."""
    x = convert_to_tensor(log_mel_spectrograms)
    bins = x.shape[-1] if x.shape.rank else None
    if bins == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {x!r}")
    result = _dct(x, 2, None, None)
    return result * _const(1.0 / np.sqrt(2.0 * result.shape[-1]), result.dtype)
