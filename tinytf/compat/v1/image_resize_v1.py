"""tf.compat.v1.image's resize family: TF1's ResizeMethod (integer codes 0-3), resize_images (also named
resize) with `align_corners` and TF1's kernels (ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic,
ResizeArea on their legacy sampling rule: source = out * scale, or half-pixel centres when asked),
resize_bilinear / resize_nearest_neighbor themselves, resize_image_with_pad on those, and extract_glimpse
with TF1's `uniform_noise`. Bilinear and nearest are index gathers and weighted sums (as tf.image.resize's),
so the gradient flows through them."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import image_glimpse_and_boxes as _glimpse
from tinytf.runtime.ops import image_resize_kernels as _kernels
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops.shape_args import shape_arg

from ...image.resize import _fit_inside
from ...image.shapes import as_batch, dims, restore


class ResizeMethod:
    """TF1's resize methods: integer codes (tf.image.ResizeMethod's strings are accepted too)."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_METHOD_NAMES = {0: "bilinear", 1: "nearest", 2: "bicubic", 3: "area"}


def _check_corners(op_name, align_corners, half_pixel_centers):
    if align_corners and half_pixel_centers:  # TF's kernel raises it (InvalidArgumentError), eagerly and in graphs
        raise InvalidArgumentError(f"{op_name}: If half_pixel_centers is True, align_corners must be False.")


def _scale(in_size, out_size, align_corners):
    """TF's CalculateResizeScale in float32: (in - 1) / (out - 1) with align_corners (and out > 1), else in / out."""
    f_in, f_out = _math.cast(in_size, dtypes.float32), _math.cast(out_size, dtypes.float32)
    if not align_corners:
        return f_in / f_out
    corners = (f_in - 1.0) / _math.maximum(f_out - 1.0, 1.0)
    return _indexing.where(f_out > 1.0, corners, f_in / f_out)


def _positions(out_size):
    return _math.cast(_array.range(out_size), dtypes.float32)


def _size_pair(size, op_name):
    size = shape_arg(size, f"{op_name}: size")
    if isinstance(size, tuple):
        if len(size) != 2:
            raise ValueError(f"{op_name}: 'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        return size
    return size[0], size[1]


def _last_index(in_size):
    return convert_to_tensor(in_size, dtypes.int32) - 1


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """TF's ResizeBilinear on a 4-D batch (float32 out): source = out * scale (legacy) or (out + 0.5) * scale
    - 0.5 (half-pixel centres), between floor and ceil clamped to the image, along the width then the height."""
    _check_corners("ResizeBilinear", align_corners, half_pixel_centers)
    batch = convert_to_tensor(images)
    if batch._shape is not None and len(batch._shape) != 4:
        raise ValueError(f"ResizeBilinear: input must be 4-dimensional, got shape {list(batch._shape)}")
    new_height, new_width = _size_pair(size, "ResizeBilinear")
    if batch.dtype != dtypes.float32:
        batch = _math.cast(batch, dtypes.float32)
    height, width = dims(batch)
    out = batch
    for axis, in_size, out_size in ((2, width, new_width), (1, height, new_height)):
        source = _positions(out_size)
        scale = _scale(in_size, out_size, align_corners)
        source = (source + 0.5) * scale - 0.5 if half_pixel_centers else source * scale
        floor = _math.floor(source)
        lower = _math.maximum(_math.cast(floor, dtypes.int32), 0)
        upper = _math.minimum(_math.cast(_math.ceil(source), dtypes.int32), _last_index(in_size))
        shape = [1, 1, 1, 1]
        shape[axis] = -1
        fraction = _array.reshape(source - floor, shape)
        low = _indexing.gather(out, lower, axis=axis)
        out = low + (_indexing.gather(out, upper, axis=axis) - low) * fraction
    return _array.identity(out, name=name) if name else out


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """TF's ResizeNearestNeighbor (the dtype kept): index = round (align_corners) or floor of out * scale, or
    of (out + 0.5) * scale with half-pixel centres, at most the last index."""
    _check_corners("ResizeNearestNeighbor", align_corners, half_pixel_centers)
    batch = convert_to_tensor(images)
    if batch._shape is not None and len(batch._shape) != 4:
        raise ValueError(f"ResizeNearestNeighbor: input must be 4-dimensional, got shape {list(batch._shape)}")
    new_height, new_width = _size_pair(size, "ResizeNearestNeighbor")
    height, width = dims(batch)
    out = batch
    for axis, in_size, out_size in ((1, height, new_height), (2, width, new_width)):
        source = _positions(out_size)
        if half_pixel_centers:
            source = source + 0.5
        source = source * _scale(in_size, out_size, align_corners)
        index = _math.floor(source + 0.5) if align_corners else _math.floor(source)  # roundf: source >= 0
        index = _math.minimum(_math.cast(index, dtypes.int32), _last_index(in_size))
        out = _indexing.gather(out, _math.maximum(index, 0), axis=axis)
    return _array.identity(out, name=name) if name else out


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """TF1's resize: one image or a batch, TF1's kernels with `align_corners`; an image already of the static
    size comes back unchanged (its dtype too), as TF's skip_resize_if_same."""
    batch, single = as_batch(images, "images")
    kind = _METHOD_NAMES.get(method) if isinstance(method, int) else str(getattr(method, "value", method)).lower()
    if kind not in _METHOD_NAMES.values():
        raise ValueError(f"Resize method is not implemented: {method}")
    height, width = dims(batch)
    new_height, new_width = _size_pair(size, "resize_images")
    if preserve_aspect_ratio:
        new_height, new_width = _fit_inside(height, width, new_height, new_width)
    if all(isinstance(d, int) for d in (height, width, new_height, new_width)) and \
            (height, width) == (new_height, new_width):
        return images if not hasattr(images, "dtype") else restore(batch, single)
    size = [new_height, new_width] if all(isinstance(d, int) for d in (new_height, new_width)) else \
        _array.stack([convert_to_tensor(new_height, dtypes.int32), convert_to_tensor(new_width, dtypes.int32)])
    if kind == "bilinear":
        out = resize_bilinear(batch, size, align_corners=align_corners)
    elif kind == "nearest":
        out = resize_nearest_neighbor(batch, size, align_corners=align_corners)
    elif kind == "bicubic":
        out = _kernels.resize_bicubic(batch, size, align_corners)
    else:
        out = _kernels.resize_area(batch, size, align_corners)
    return restore(out, single)


resize = resize_images


def resize_image_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR, align_corners=False):
    """Fit inside target_height x target_width keeping the aspect ratio (TF1's resize_images), then pad with
    zeros to it, centred."""
    from ...image.measures import resize_with_pad_using

    return resize_with_pad_using(
        image, target_height, target_width,
        lambda batch, new_size: resize_images(batch, new_size, method, align_corners=align_corners))


def extract_glimpse(input, size, offsets, centered=True, normalized=True, uniform_noise=True, name=None):  # noqa: A002
    """TF1's extract_glimpse: `uniform_noise` True fills the outside with uniform noise, False with zeros."""
    return _glimpse.extract_glimpse(input, size, offsets, centered=centered, normalized=normalized,
                                    noise="uniform" if uniform_noise else "zero", name=name)


__all__ = ["ResizeMethod", "extract_glimpse", "resize", "resize_bilinear", "resize_image_with_pad", "resize_images",
           "resize_nearest_neighbor"]
