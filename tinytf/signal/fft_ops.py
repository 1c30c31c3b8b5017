"""tf.signal's Fourier transforms: the complex FFTs of rank 1, 2, 3 and N, the real ones (RFFT/IRFFT) with TF's
fft_length semantics (the inner axes are cropped or zero-padded to fft_length; IRFFT takes fft_length // 2 + 1
bins on the last axis and infers fft_length = 2 * (bins - 1) when none is given), the ND ones with `axes` and
`norm`, and fftshift / ifftshift. The ops themselves live in runtime/ops/fft.py."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import fft as _fft
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops.array import known_ints
from tinytf.runtime.tensor import Tensor

from ..composed_array_ops import roll


def _as_tensor(value, hint):
    if isinstance(value, Tensor):
        return value
    return convert_to_tensor(value, dtype_hint=hint)


def _inner_axes(rank):
    return tuple(range(-rank, 0))


def _require_rank(x, count, what):
    shape = x.shape
    if shape.rank is None:
        raise ValueError(f"{what} needs a tensor of known rank, got one of unknown rank")
    if shape.rank < count:
        raise ValueError(f"Shape {shape} must have rank at least {count}")


def _fit(x, axes, lengths):
    """x cropped or zero-padded to `lengths` on `axes` (TF's RFFT ops crop; its wrappers pad)."""
    rank = x.shape.rank
    for axis, length in zip(axes, lengths):
        axis %= rank
        dim = x.shape[axis]
        if dim == length:
            continue
        if dim is None or dim > length:
            key = (slice(None),) * axis + (slice(0, length),)
            x = _indexing.getitem(x, key)
        if dim is None or dim < length:
            paddings = [[0, 0]] * rank
            if dim is None:
                missing = _math.maximum(length - _array.shape(x)[axis], 0)
                paddings = _array.stack([_array.stack([0, missing if a == axis else 0]) for a in range(rank)])
            else:
                paddings[axis] = [0, length - dim]
            x = _array.pad(x, paddings)
    return x


def _complex_transform(op, rank, tf_name):
    def transform(input, name=None):  # noqa: A002 - TF's name
        x = _as_tensor(input, dtypes.complex64)
        return apply(op, (x,), {"axes": _inner_axes(rank)}, name=name)

    transform.__name__ = tf_name
    transform.__doc__ = (f"The {rank}-D {'inverse ' if tf_name.startswith('i') else ''}discrete Fourier transform "
                         f"over the innermost {rank} dimension(s) of a complex64/complex128 tensor (TF's "
                         f"{tf_name.upper()}).")
    return transform


fft = _complex_transform(_fft.fft_op, 1, "fft")
ifft = _complex_transform(_fft.ifft_op, 1, "ifft")
fft2d = _complex_transform(_fft.fft2d_op, 2, "fft2d")
ifft2d = _complex_transform(_fft.ifft2d_op, 2, "ifft2d")
fft3d = _complex_transform(_fft.fft3d_op, 3, "fft3d")
ifft3d = _complex_transform(_fft.ifft3d_op, 3, "ifft3d")


def _static_lengths(x, axes, what):
    dims = [x.shape[a] for a in axes]
    if None in dims:
        raise ValueError(f"{what}: fft_length is needed when the transformed dimensions are known only at run "
                         f"time (shape {x.shape})")
    return tuple(dims)


def _given_lengths(fft_length, count, what):
    lengths = known_ints(fft_length, f"{what}: fft_length")
    lengths = (lengths,) if isinstance(lengths, int) else tuple(lengths)
    if len(lengths) != count:
        raise ValueError(f"{what}: fft_length must have {count} element(s), got {list(lengths)}")
    if any(n < 0 for n in lengths):
        raise ValueError(f"{what}: fft_length must be non-negative, got {list(lengths)}")
    return lengths


def _real_input(input_tensor, what):
    x = _as_tensor(input_tensor, dtypes.float32)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x!r}")
    return x


def _complex_input(input_tensor, what):
    x = _as_tensor(input_tensor, dtypes.complex64)
    if not x.dtype.is_complex:
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x!r}")
    return x


def _rfft_call(op, x, fft_length, axes, what, name):
    lengths = _static_lengths(x, axes, what) if fft_length is None else _given_lengths(fft_length, len(axes), what)
    x = _fit(x, axes, lengths)
    return apply(op, (x,), {"fft_length": lengths, "axes": axes}, name=name)


def _irfft_call(op, x, fft_length, axes, what, name):
    if fft_length is None:
        lengths = _static_lengths(x, axes, what)
        lengths = lengths[:-1] + (max(0, 2 * (lengths[-1] - 1)),)
    else:
        lengths = _given_lengths(fft_length, len(axes), what)
    x = _fit(x, axes, _fft.half_spectrum(lengths))
    return apply(op, (x,), {"fft_length": lengths, "axes": axes}, name=name)


def _real_transform(op, rank, tf_name):
    inverse = tf_name.startswith("i")

    def transform(input_tensor, fft_length=None, name=None):
        if inverse:
            x = _complex_input(input_tensor, tf_name)
            _require_rank(x, rank, tf_name)
            return _irfft_call(op, x, fft_length, _inner_axes(rank), tf_name, name)
        x = _real_input(input_tensor, tf_name)
        _require_rank(x, rank, tf_name)
        return _rfft_call(op, x, fft_length, _inner_axes(rank), tf_name, name)

    transform.__name__ = tf_name
    transform.__doc__ = (f"The {rank}-D {'inverse ' if inverse else ''}real discrete Fourier transform over the "
                         f"innermost {rank} dimension(s) (TF's {tf_name.upper()}), cropped or zero-padded to "
                         "fft_length.")
    return transform


rfft = _real_transform(_fft.rfft_op, 1, "rfft")
irfft = _real_transform(_fft.irfft_op, 1, "irfft")
rfft2d = _real_transform(_fft.rfft2d_op, 2, "rfft2d")
irfft2d = _real_transform(_fft.irfft2d_op, 2, "irfft2d")
rfft3d = _real_transform(_fft.rfft3d_op, 3, "rfft3d")
irfft3d = _real_transform(_fft.irfft3d_op, 3, "irfft3d")


# --- the N-D transforms: any axes, and a normalization ----------------------------------------------------
_NORMS = ("backward", "ortho", "forward")


def _nd_axes(x, axes, what):
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"{what} needs a tensor of known rank")
    if axes is None:
        return tuple(range(-rank, 0))
    axes = known_ints(axes, f"{what}: axes")
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"{what}: axis {a} is out of range for a tensor of rank {rank}")
    return tuple(a % rank - rank for a in axes)


def _normalized(x, lengths, norm, forward, what):
    """TF's ND wrappers scale the input: 1/n ('forward') or 1/sqrt(n) ('ortho') before a forward transform,
    n or sqrt(n) before an inverse one (so the inverse of each norm undoes the transform of the same norm)."""
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"{what}: norm must be one of {', '.join(_NORMS)}, got {norm!r}")
    if norm == "backward":
        return x
    n = float(np.prod(lengths))
    factor = n if norm == "forward" else np.sqrt(n)
    factor = 1.0 / factor if forward else factor
    return x * convert_to_tensor(np.asarray(factor, x.dtype.np))


def _nd_complex(op, forward, tf_name):
    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = _as_tensor(input_tensor, dtypes.complex64)
        if not x.dtype.is_complex:
            raise TypeError(f"{tf_name}: expected a complex64 or complex128 input, got {x.dtype.name}")
        axes_ = _nd_axes(x, axes, tf_name)
        lengths = _static_lengths(x, axes_, tf_name) if fft_length is None else \
            _given_lengths(fft_length, len(axes_), tf_name)
        x = _normalized(_fit(x, axes_, lengths), lengths, norm, forward, tf_name)
        return apply(op, (x,), {"axes": axes_}, name=name)

    transform.__name__ = tf_name
    transform.__doc__ = (f"The N-D {'' if forward else 'inverse '}discrete Fourier transform over `axes` (default: "
                         "all), cropped or zero-padded to fft_length, with numpy's norm ('backward', 'ortho', "
                         "'forward').")
    return transform


def _nd_real(op, forward, tf_name):
    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = _real_input(input_tensor, tf_name) if forward else _complex_input(input_tensor, tf_name)
        axes_ = _nd_axes(x, axes, tf_name)
        if forward:
            lengths = _static_lengths(x, axes_, tf_name) if fft_length is None else \
                _given_lengths(fft_length, len(axes_), tf_name)
            return apply(op, (_normalized(_fit(x, axes_, lengths), lengths, norm, True, tf_name),),
                         {"fft_length": lengths, "axes": axes_}, name=name)
        if fft_length is None:
            lengths = _static_lengths(x, axes_, tf_name)
            lengths = lengths[:-1] + (max(0, 2 * (lengths[-1] - 1)),)
        else:
            lengths = _given_lengths(fft_length, len(axes_), tf_name)
        x = _fit(x, axes_, _fft.half_spectrum(lengths))
        return apply(op, (_normalized(x, lengths, norm, False, tf_name),),
                     {"fft_length": lengths, "axes": axes_}, name=name)

    transform.__name__ = tf_name
    transform.__doc__ = (f"The N-D {'' if forward else 'inverse '}real discrete Fourier transform over `axes` "
                         "(default: all; the half spectrum on the last one), with fft_length and norm.")
    return transform


fftnd = _nd_complex(_fft.fftnd_op, True, "fftnd")
ifftnd = _nd_complex(_fft.ifftnd_op, False, "ifftnd")
rfftnd = _nd_real(_fft.rfftnd_op, True, "rfftnd")
irfftnd = _nd_real(_fft.irfftnd_op, False, "irfftnd")


# --- shifts ------------------------------------------------------------------------------------------------
def _shift(x, axes, sign, what):
    x = convert_to_tensor(x)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"{what} needs a tensor of known rank")
    if axes is None:
        axes = list(range(rank))
    elif isinstance(axes, int):
        axes = [axes]
    else:
        axes = list(known_ints(axes, f"{what}: axes"))
    if not axes:
        return x
    sizes = _array.shape(x)
    shifts = [sign * (sizes[a] // 2) for a in axes]
    return roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """Swap the half-spaces of each axis in `axes` (default: all): the zero frequency moves to the center
    (numpy.fft.fftshift)."""
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift (they differ by one sample on odd-length axes)."""
    return _shift(x, axes, -1, "ifftshift")
