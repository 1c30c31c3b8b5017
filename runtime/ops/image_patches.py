"""TF's ExtractImagePatches (`tf.image.extract_patches`): every ksize_rows x ksize_cols window of an NHWC batch,
taken every `strides` pixels with `rates` - 1 pixels skipped between the window's taps, flattened into the
depth axis in (row, column, channel) order; SAME pads with zeros as a convolution would. Its gradient is the
adjoint (each patch value added back to the pixel it copies), a second op."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, gradient, register

_DTYPES = (dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.int8, dtypes.int16, dtypes.int32,
           dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)  # TF's kernel's types


def _geometry(size, ksize, stride, rate, padding):
    """(output size, padding before) along one axis, as TF's GetWindowedOutputSize."""
    effective = ksize + (ksize - 1) * (rate - 1)
    if padding == "VALID":
        return max(math.ceil((size - effective + 1) / stride), 0), 0
    out = math.ceil(size / stride)
    return out, max((out - 1) * stride + effective - size, 0) // 2


def _windows(shape, ksizes, strides, rates, padding):
    (_, kr, kc, _), (_, sr, sc, _), (_, rr, rc, _) = ksizes, strides, rates
    out_r, pad_r = _geometry(shape[1], kr, sr, rr, padding)
    out_c, pad_c = _geometry(shape[2], kc, sc, rc, padding)
    return out_r, out_c, pad_r, pad_c


def _padded_shape(shape, out_r, out_c, pad_r, pad_c, ksizes, strides, rates):
    """A zero canvas big enough for every tap (the image sits at (pad_r, pad_c))."""
    rows = max(shape[1] + pad_r, (out_r - 1) * strides[1] + (ksizes[1] - 1) * rates[1] + 1)
    cols = max(shape[2] + pad_c, (out_c - 1) * strides[2] + (ksizes[2] - 1) * rates[2] + 1)
    return (shape[0], rows, cols, shape[3])


def _taps(out_r, out_c, ksizes, strides, rates):
    for i in range(ksizes[1]):
        for j in range(ksizes[2]):
            r0, c0 = i * rates[1], j * rates[2]
            yield (slice(r0, r0 + (out_r - 1) * strides[1] + 1, strides[1]),
                   slice(c0, c0 + (out_c - 1) * strides[2] + 1, strides[2]))


def _patches_kernel(images, *, ksizes, strides, rates, padding):
    out_r, out_c, pad_r, pad_c = _windows(images.shape, ksizes, strides, rates, padding)
    batch, height, width, depth = images.shape
    taps = ksizes[1] * ksizes[2]
    if out_r == 0 or out_c == 0:
        return np.zeros((batch, out_r, out_c, taps * depth), images.dtype)
    canvas = np.zeros(_padded_shape(images.shape, out_r, out_c, pad_r, pad_c, ksizes, strides, rates), images.dtype)
    canvas[:, pad_r:pad_r + height, pad_c:pad_c + width] = images
    parts = [canvas[:, rows, cols] for rows, cols in _taps(out_r, out_c, ksizes, strides, rates)]
    return np.stack(parts, axis=3).reshape(batch, out_r, out_c, taps * depth)


def check_attrs(ksizes, strides, rates, padding):
    for name, value in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if len(value) != 4 or value[0] != 1 or value[3] != 1:
            raise ValueError(f"ExtractImagePatches: {name} must be [1, rows, cols, 1] (only the spatial dimensions "
                             f"may differ from 1), got {list(value)}")
        if min(value) <= 0:
            raise ValueError(f"ExtractImagePatches: {name} must be positive, got {list(value)}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"ExtractImagePatches: padding must be 'SAME' or 'VALID', got {padding!r}")


def _infer_patches(images, *, ksizes, strides, rates, padding):
    check_attrs(ksizes, strides, rates, padding)
    if images.dtype not in _DTYPES:
        raise TypeError(f"ExtractImagePatches: images of dtype {images.dtype.name} are not supported")
    shape = images._shape
    if shape is None:
        return images.dtype, (None, None, None, None)
    if len(shape) != 4:
        raise ValueError(f"ExtractImagePatches: input must be 4-dimensional, got shape {list(shape)}")
    rows = None if shape[1] is None else _geometry(shape[1], ksizes[1], strides[1], rates[1], padding)[0]
    cols = None if shape[2] is None else _geometry(shape[2], ksizes[2], strides[2], rates[2], padding)[0]
    depth = None if shape[3] is None else shape[3] * ksizes[1] * ksizes[2]
    return images.dtype, (shape[0], rows, cols, depth)


extract_image_patches_op = register(OpDef(
    "extract_image_patches", _patches_kernel, _infer_patches,
    doc="TF's ExtractImagePatches: windows of an NHWC batch flattened into the depth axis"))


def _patches_grad_kernel(grads, images, *, ksizes, strides, rates, padding):
    out_r, out_c, pad_r, pad_c = _windows(images.shape, ksizes, strides, rates, padding)
    batch, height, width, depth = images.shape
    canvas = np.zeros(_padded_shape(images.shape, out_r, out_c, pad_r, pad_c, ksizes, strides, rates), grads.dtype)
    if out_r and out_c:
        g = grads.reshape(batch, out_r, out_c, ksizes[1] * ksizes[2], depth)
        for k, (rows, cols) in enumerate(_taps(out_r, out_c, ksizes, strides, rates)):
            canvas[:, rows, cols] += g[:, :, :, k]
    return canvas[:, pad_r:pad_r + height, pad_c:pad_c + width].astype(images.dtype)


def _infer_patches_grad(grads, images, **attrs):
    return images.dtype, images._shape


extract_image_patches_grad_op = register(OpDef(
    "extract_image_patches_grad", _patches_grad_kernel, _infer_patches_grad, differentiable=False,
    doc="the images' gradient of extract_image_patches: each patch value added back to its pixel"))


@gradient(extract_image_patches_op)
def _patches_grad(record, g):
    if not record.inputs[0].dtype.is_floating:
        return (None,)
    return (apply(extract_image_patches_grad_op, (g, record.inputs[0]), dict(record.attrs)),)


def _quad(value, name):
    value = [int(v) for v in value]
    if len(value) != 4:
        raise ValueError(f"ExtractImagePatches: {name} must have 4 elements [1, rows, cols, 1], got {value}")
    return tuple(value)


def extract_image_patches(images, sizes, strides, rates, padding, name=None):
    """`tf.image.extract_patches`."""
    ksizes, strides, rates = _quad(sizes, "sizes"), _quad(strides, "strides"), _quad(rates, "rates")
    padding = str(padding).upper()
    check_attrs(ksizes, strides, rates, padding)
    return apply(extract_image_patches_op, (convert_to_tensor(images),),
                 {"ksizes": ksizes, "strides": strides, "rates": rates, "padding": padding}, name=name)
