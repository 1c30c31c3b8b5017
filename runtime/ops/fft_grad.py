"""Gradient rules of the Fourier transforms, as TF defines complex gradients (dL/dRe + i dL/dIm):

- FFT: the adjoint of the DFT is size * IDFT, so the gradient is IFFT(g) * size; IFFT's is FFT(g) / size
  (TF's _fft_grad / _ifft_grad, for every rank).
- RFFT keeps the non-negative frequencies of a real signal: its adjoint zero-fills the dropped bins, takes
  size * IDFT, and keeps the real part. For rank 1 and 2 this equals TF's formula (half of IRFFT(g) * size
  plus the DC and Nyquist terms that IRFFT's Hermitian reading drops); tests/test_signal_fft.py checks it
  against TF 2.21's recorded gradients.
- IRFFT: RFFT(g) * mask / size, mask = [1, 2, ..., 2, 1 (even length) or 2 (odd)] along the last FFT axis:
  each kept bin stands for itself and its dropped conjugate (TF's _irfft_grad_helper).
The ops' inputs already have fft_length's sizes (the wrappers crop and pad), so no rule resizes. TF registers
no gradient for RFFT3D/IRFFT3D and the ND ops; tinytf's rules here are the same exact adjoints for them."""

from __future__ import annotations

import numpy as np

from ..dispatch import apply, convert_to_tensor
from ..registry import gradient
from . import fft as f
from .array import pad
from .array import shape as array_shape
from .complex import real
from .indexing import gather
from .math import cast
from .reduce import reduce_prod


def _complex_scaled(record, back, forward):
    """back * size (forward transforms) or back / size (inverse ones), size = the product of the FFT lengths."""
    shape = record.inputs[0]._shape
    dims = [None] if shape is None else [shape[a] for a in record.attrs["axes"]]
    if None not in dims:
        size = float(np.prod(dims))
        return _scaled(back, size if forward else 1.0 / size)
    # lengths known only at run time (a tf.function traced with None dimensions)
    lengths = gather(array_shape(record.inputs[0]), list(record.attrs["axes"]))
    size = cast(reduce_prod(lengths), back.dtype)
    return back * size if forward else back / size


def _scaled(x, factor):
    return x * convert_to_tensor(np.asarray(factor, x.dtype.np))


def _complex_rule(op):
    forward = op in f.FORWARD

    def rule(record, g):
        return _complex_scaled(record, apply(f.INVERSE[op], (g,), record.attrs), forward)

    return rule


def _rfft_rule(op):
    def rule(record, g):
        fft_length, axes = record.attrs["fft_length"], record.attrs["axes"]
        paddings = [[0, 0]] * len(g._shape)  # axes are negative: counted from the end
        paddings[axes[-1]] = [0, fft_length[-1] - (fft_length[-1] // 2 + 1)]
        full = pad(g, paddings)  # the dropped bins get no gradient
        attrs = {"axes": axes}
        return _scaled(real(apply(f.COMPLEX_INVERSE_OF_REAL[op], (full,), attrs)), float(np.prod(fft_length)))

    return rule


def _irfft_rule(op):
    def rule(record, g):
        fft_length, axes = record.attrs["fft_length"], record.attrs["axes"]
        n = fft_length[-1]
        mask = np.full(n // 2 + 1, 2.0)
        mask[0] = 1.0
        if n % 2 == 0:
            mask[-1] = 1.0
        mask = mask.reshape((-1,) + (1,) * (-axes[-1] - 1))  # along the last FFT axis (axes are negative)
        spectrum = apply(f.INVERSE[op], (g,), record.attrs)
        scale = convert_to_tensor((mask / float(np.prod(fft_length))).astype(spectrum.dtype.np))
        return spectrum * scale

    return rule


for _op in f.FORWARD | {f.INVERSE[o] for o in f.FORWARD}:
    gradient(_op)(_complex_rule(_op))
for _op in f.COMPLEX_INVERSE_OF_REAL:
    gradient(_op)(_rfft_rule(_op))
    gradient(f.INVERSE[_op])(_irfft_rule(f.INVERSE[_op]))
