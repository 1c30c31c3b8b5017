"""The discrete Fourier transforms of tf.signal (TF's FFT, IFFT, FFT2D ... IRFFTND ops), on numpy.fft.

Each op transforms its input over `axes` (the innermost 1, 2 or 3 axes for the fixed-rank ops, any axes for the
ND ones). The ops see inputs already cropped or zero-padded to `fft_length` along those axes (the wrappers in
tinytf/signal do it with slice and pad, as TF's Python wrappers pad), so the kernels need no length logic and
the gradient rules (fft_grad.py) are exact adjoints:
- complex ops keep the shape; the real-to-complex ops keep fft_length[-1] // 2 + 1 bins on the last FFT axis;
  the complex-to-real ops take those bins and return fft_length[-1] samples.
- complex64 pairs with float32 and complex128 with float64, as in TF; numpy 2 keeps single precision."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..registry import OpDef, register

_REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _check_rank(x, axes, tf_name):
    if x._shape is not None and len(x._shape) < len(axes):
        raise ValueError(f"Input must have rank of at least {len(axes)} but got: {shapes.fmt(x._shape)} "
                         f"({tf_name})")


def _replaced(shape, axes, lengths):
    """`shape` with the dimensions on `axes` replaced by `lengths`."""
    if shape is None:
        return None
    out = list(shape)
    for axis, length in zip(axes, lengths):
        out[axis] = length
    return tuple(out)


def half_spectrum(fft_length):
    """The lengths of a real transform's output: fft_length[-1] // 2 + 1 bins on the last axis (none for an
    empty signal, as TF returns for one)."""
    n = fft_length[-1]
    return tuple(fft_length[:-1]) + ((n // 2 + 1) if n else 0,)


def _expect_lengths(x, axes, lengths, tf_name):
    """The wrappers crop or pad to fft_length: a known dimension that differs is a caller's bug."""
    if x._shape is None:
        return
    for axis, length in zip(axes, lengths):
        if x._shape[axis] is not None and x._shape[axis] != length:
            raise ValueError(f"{tf_name} expects dimension {axis} to be {length} (fft_length), got shape "
                             f"{shapes.fmt(x._shape)}")


def _complex_infer(tf_name):
    def infer(x, *, axes):
        if not x.dtype.is_complex:
            raise TypeError(f"Value for attr 'Tcomplex' of {x.dtype.name} is not in the list of allowed values: "
                            f"complex64, complex128 ({tf_name})")
        _check_rank(x, axes, tf_name)
        return x.dtype, x._shape

    return infer


def _rfft_infer(tf_name):
    def infer(x, *, fft_length, axes):
        if x.dtype not in _COMPLEX_OF:
            raise TypeError(f"{tf_name} requires tf.float32 or tf.float64 inputs, got {x.dtype.name}")
        _check_rank(x, axes, tf_name)
        _expect_lengths(x, axes, fft_length, tf_name)
        return _COMPLEX_OF[x.dtype], _replaced(x._shape, axes, half_spectrum(fft_length))

    return infer


def _irfft_infer(tf_name):
    def infer(x, *, fft_length, axes):
        if x.dtype not in _REAL_OF:
            raise TypeError(f"{tf_name} requires tf.complex64 or tf.complex128 inputs, got {x.dtype.name}")
        _check_rank(x, axes, tf_name)
        _expect_lengths(x, axes, half_spectrum(fft_length), tf_name)
        return _REAL_OF[x.dtype], _replaced(x._shape, axes, fft_length)

    return infer


def _complex_kernel(numpy_fn):
    def kernel(x, *, axes):
        if x.size == 0:
            return np.zeros(x.shape, x.dtype)
        return numpy_fn(x, axes=axes).astype(x.dtype, copy=False)

    return kernel


def _rfft_kernel(x, *, fft_length, axes):
    out_dtype = np.complex64 if x.dtype == np.float32 else np.complex128
    out_shape = _replaced(x.shape, axes, half_spectrum(fft_length))
    if x.size == 0 or 0 in out_shape:
        return np.zeros(out_shape, out_dtype)
    return np.fft.rfftn(x, s=fft_length, axes=axes).astype(out_dtype, copy=False)


def _irfft_kernel(x, *, fft_length, axes):
    out_dtype = np.float32 if x.dtype == np.complex64 else np.float64
    out_shape = _replaced(x.shape, axes, fft_length)
    if x.size == 0 or 0 in out_shape:
        return np.zeros(out_shape, out_dtype)
    return np.fft.irfftn(x, s=fft_length, axes=axes).astype(out_dtype, copy=False)


def _register(name, tf_name, kernel, infer):
    return register(OpDef(name, kernel, infer(tf_name), doc=f"TF's {tf_name}"))


fft_op = _register("fft", "FFT", _complex_kernel(np.fft.fftn), _complex_infer)
ifft_op = _register("ifft", "IFFT", _complex_kernel(np.fft.ifftn), _complex_infer)
fft2d_op = _register("fft2d", "FFT2D", _complex_kernel(np.fft.fftn), _complex_infer)
ifft2d_op = _register("ifft2d", "IFFT2D", _complex_kernel(np.fft.ifftn), _complex_infer)
fft3d_op = _register("fft3d", "FFT3D", _complex_kernel(np.fft.fftn), _complex_infer)
ifft3d_op = _register("ifft3d", "IFFT3D", _complex_kernel(np.fft.ifftn), _complex_infer)
fftnd_op = _register("fftnd", "FFTND", _complex_kernel(np.fft.fftn), _complex_infer)
ifftnd_op = _register("ifftnd", "IFFTND", _complex_kernel(np.fft.ifftn), _complex_infer)
rfft_op = _register("rfft", "RFFT", _rfft_kernel, _rfft_infer)
irfft_op = _register("irfft", "IRFFT", _irfft_kernel, _irfft_infer)
rfft2d_op = _register("rfft2d", "RFFT2D", _rfft_kernel, _rfft_infer)
irfft2d_op = _register("irfft2d", "IRFFT2D", _irfft_kernel, _irfft_infer)
rfft3d_op = _register("rfft3d", "RFFT3D", _rfft_kernel, _rfft_infer)
irfft3d_op = _register("irfft3d", "IRFFT3D", _irfft_kernel, _irfft_infer)
rfftnd_op = _register("rfftnd", "RFFTND", _rfft_kernel, _rfft_infer)
irfftnd_op = _register("irfftnd", "IRFFTND", _irfft_kernel, _irfft_infer)

# Each transform, its inverse, and (for the real ones) the complex transform over the same axes: the gradient
# rules and the wrappers read these tables.
INVERSE = {fft_op: ifft_op, ifft_op: fft_op, fft2d_op: ifft2d_op, ifft2d_op: fft2d_op, fft3d_op: ifft3d_op,
           ifft3d_op: fft3d_op, fftnd_op: ifftnd_op, ifftnd_op: fftnd_op, rfft_op: irfft_op, irfft_op: rfft_op,
           rfft2d_op: irfft2d_op, irfft2d_op: rfft2d_op, rfft3d_op: irfft3d_op, irfft3d_op: rfft3d_op,
           rfftnd_op: irfftnd_op, irfftnd_op: rfftnd_op}
COMPLEX_INVERSE_OF_REAL = {rfft_op: ifft_op, rfft2d_op: ifft2d_op, rfft3d_op: ifft3d_op, rfftnd_op: ifftnd_op}
FORWARD = {fft_op, fft2d_op, fft3d_op, fftnd_op}
