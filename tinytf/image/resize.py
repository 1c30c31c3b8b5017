"""tf.image.resize with TF2's half-pixel centres: bilinear and nearest-neighbour sampling as index gathers
and weighted sums, so sizes may be tensors and the gradient flows through the gathers."""

from __future__ import annotations

import enum

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import image_resize_kernels as _kernels
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops.shape_args import shape_arg

from .shapes import as_batch, dims, restore


class ResizeMethod(str, enum.Enum):
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"

    def __str__(self):
        return self.value


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    """Resize to `size` = [new_height, new_width]. Every method but nearest returns float32 (whatever the
    input's dtype, as TF); nearest keeps the dtype. With preserve_aspect_ratio, the image is scaled to fit
    inside `size`. The op is TF's choice: its ScaleAndTranslate kernels for lanczos3/5, gaussian, mitchellcubic
    and for antialiased bilinear (triangle) and bicubic (keyscubic); its ResizeBicubic and ResizeArea
    otherwise (area and nearest ignore antialias, as in TF)."""
    batch, single = as_batch(images, "images")
    method = str(method.value if isinstance(method, ResizeMethod) else method).lower()
    if method not in _METHODS:
        raise ValueError(f"Resize method is not implemented: [{method}]")
    height, width = dims(batch)
    size = shape_arg(size, "tf.image.resize: size")
    if isinstance(size, tuple):
        if len(size) != 2:
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        new_height, new_width = size
    else:
        new_height, new_width = size[0], size[1]
    if preserve_aspect_ratio:
        new_height, new_width = _fit_inside(height, width, new_height, new_width)
    axes = [(1, height, new_height), (2, width, new_width)]
    if method == "nearest":
        out = batch
        for axis, in_size, out_size in axes:
            out = _indexing.gather(out, _nearest_indices(in_size, out_size), axis=axis)
        return restore(out, single)
    if method != "bilinear" or antialias:
        return restore(_resize_with_kernel(batch, method, antialias, height, width, new_height, new_width), single)
    if batch.dtype != dtypes.float32:  # TF's bilinear kernel computes and returns float32 for every input
        batch = _math.cast(batch, dtypes.float32)
    out = batch
    for axis, in_size, out_size in reversed(axes):  # along the width first, then the height, as TF's kernel does
        lower, upper, fraction = _linear_weights(in_size, out_size, batch.dtype)
        shape = [1, 1, 1, 1]
        shape[axis] = -1
        fraction = _array.reshape(fraction, shape)
        low = _indexing.gather(out, lower, axis=axis)
        out = low + (_indexing.gather(out, upper, axis=axis) - low) * fraction
    return restore(out, single)


_SCALE_AND_TRANSLATE = {"lanczos3": "lanczos3", "lanczos5": "lanczos5", "gaussian": "gaussian",
                        "mitchellcubic": "mitchellcubic"}
_ANTIALIASED = {"bilinear": "triangle", "bicubic": "keyscubic"}
_METHODS = ("bilinear", "nearest", "bicubic", "area", *_SCALE_AND_TRANSLATE)


def _resize_with_kernel(batch, method, antialias, height, width, new_height, new_width):
    """The methods with an op of their own (TF's resize_images_v2 picks the same ones)."""
    size = _array.stack([convert_to_tensor(new_height, dtypes.int32), convert_to_tensor(new_width, dtypes.int32)]) \
        if not all(isinstance(d, int) for d in (new_height, new_width)) else [new_height, new_width]
    kernel_type = _SCALE_AND_TRANSLATE.get(method) or (_ANTIALIASED.get(method) if antialias else None)
    if kernel_type is not None:
        scale = _array.stack([_scale(new_height, height), _scale(new_width, width)]) if not all(
            isinstance(d, int) for d in (height, width, new_height, new_width)) else \
            [new_height / _f32(height), new_width / _f32(width)]
        return _kernels.scale_and_translate(batch, size, scale, [0.0, 0.0], kernel_type=kernel_type,
                                            antialias=antialias)
    if method == "bicubic":
        return _kernels.resize_bicubic(batch, size, half_pixel_centers=True)
    return _kernels.resize_area(batch, size)


def _f32(value):
    return float(np.float32(value))


def _scale(in_size, out_size):
    return _math.cast(in_size, dtypes.float32) / _math.cast(out_size, dtypes.float32)


def _linear_weights(in_size, out_size, dtype):
    """For each output index: the two input indices it lies between and its fraction of the way (TF's
    half-pixel rule: source = (out + 0.5) * in / out - 0.5, clamped to the image)."""
    source = (_math.cast(_array.range(out_size), dtypes.float32) + 0.5) * _scale(in_size, out_size) - 0.5
    floor = _math.floor(source)
    lower = _math.maximum(_math.cast(floor, dtypes.int32), 0)
    upper = _math.minimum(_math.cast(_math.ceil(source), dtypes.int32), convert_to_tensor(in_size, dtypes.int32) - 1)
    return lower, upper, _math.cast(source - floor, dtype)


def _nearest_indices(in_size, out_size):
    """TF's half-pixel nearest neighbour: floor((out + 0.5) * in / out), at most the last index."""
    source = (_math.cast(_array.range(out_size), dtypes.float32) + 0.5) * _scale(in_size, out_size)
    return _math.minimum(_math.cast(_math.floor(source), dtypes.int32), convert_to_tensor(in_size, dtypes.int32) - 1)


def _fit_inside(height, width, new_height, new_width):
    """The largest size with the image's aspect ratio that fits in new_height x new_width (TF rounds half to
    even, in float32)."""
    scale = _math.minimum(_scale(new_height, height), _scale(new_width, width))
    fitted = [_math.cast(_math.round(scale * _math.cast(d, dtypes.float32)), dtypes.int32) for d in (height, width)]
    return [int(t._value) if hasattr(t, "_value") else t for t in fitted]
