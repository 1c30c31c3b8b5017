"""TF's CropAndResize: boxes [y1, x1, y2, x2] (normalised, of the image box_index names) sampled on a
crop_height x crop_width grid, bilinearly or at the nearest pixel, reads outside the image giving
extrapolation_value; and its two gradient ops, CropAndResizeGradImage (the adjoint of the sampling) and
CropAndResizeGradBoxes (the bilinear sampling's derivative along the box coordinates, which TF also uses for
the nearest method). All in float32, with TF's formulas: the grid of box b along an axis of n pixels is
y1 (n - 1) + i (y2 - y1)(n - 1)/(crop - 1), or the box's centre when crop is 1."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError, OutOfRangeError
from ..registry import OpDef, gradient, register
from . import static_value

_IMAGE_DTYPES = (dtypes.uint8, dtypes.uint16, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                 dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_METHODS = ("bilinear", "nearest")


def _axis_grid(low, high, size, crop):
    """(sample positions (boxes, crop), inside mask, per-step ratio) along one axis, in float32."""
    f32 = np.float32
    extent = f32(size - 1)
    steps = np.arange(crop, dtype=f32)
    if crop > 1:
        scale = (high - low) * extent / f32(crop - 1)
        position = low[:, None] * extent + steps[None, :] * scale[:, None]
    else:
        position = np.broadcast_to((f32(0.5) * (low + high) * extent)[:, None], (low.shape[0], crop))
    position = position.astype(f32)
    return position, (position >= 0) & (position <= extent)


def _corners(position, inside):
    """floor and ceil indices (0 where outside, so gathers stay in bounds) and the fraction between them."""
    safe = np.where(inside, position, np.float32(0))
    low = np.floor(safe)
    return low.astype(np.int64), np.ceil(safe).astype(np.int64), (safe - low).astype(np.float32)


def _nearest(position, inside):
    safe = np.where(inside, position, np.float32(0))
    return (np.sign(safe) * np.floor(np.abs(safe) + np.float32(0.5))).astype(np.int64)  # roundf: half away


def _validate(image, boxes, box_index, crop):
    if image.shape[1] <= 0 or image.shape[2] <= 0:
        raise InvalidArgumentError(f"CropAndResize: image dimensions must be positive, got {list(image.shape)}")
    if crop[0] <= 0 or crop[1] <= 0:
        raise InvalidArgumentError(f"CropAndResize: crop dimensions must be positive, got {list(crop)}")
    bad = (box_index < 0) | (box_index >= image.shape[0])
    if bad.any():
        raise OutOfRangeError(f"CropAndResize: box_index has values outside [0, batch_size): "
                                   f"{box_index[bad].tolist()} for a batch of {image.shape[0]}")


def _grids(image_shape, boxes, crop):
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    ys, inside_y = _axis_grid(boxes[:, 0], boxes[:, 2], image_shape[1], crop[0])
    xs, inside_x = _axis_grid(boxes[:, 1], boxes[:, 3], image_shape[2], crop[1])
    return ys, inside_y, xs, inside_x


CHUNK_FLOATS = 1 << 16  # a chunk of boxes' crops: its four corner reads and result stay in L2


def _gather(image, box_index, rows, cols, out=None):
    """image[box_index, rows, cols] as float32 for (boxes, crop_h, 1) rows and (boxes, 1, crop_w) columns: one
    np.take of flat pixel indices from the image seen as (pixels, depth), several times faster than numpy's
    indexing by three broadcast index arrays; into `out` when it is given."""
    _, height, width, depth = image.shape
    index = (box_index[:, None, None].astype(np.int64) * height + rows) * width + cols
    pixels = image.reshape(-1, depth)
    if out is None:
        return np.take(pixels, index, axis=0).astype(np.float32, copy=False)
    if image.dtype == np.float32:
        return np.take(pixels, index, axis=0, out=out)
    out[...] = np.take(pixels, index, axis=0)
    return out


def _crop_kernel(image, boxes, box_index, crop_size, extrapolation_value, *, method):
    crop = [int(v) for v in np.asarray(crop_size).reshape(-1)]
    box_index = np.asarray(box_index).reshape(-1)
    _validate(image, boxes, box_index, crop)
    ys, inside_y, xs, inside_x = _grids(image.shape, boxes, crop)
    outside = ~(inside_y[:, :, None] & inside_x[:, None, :])
    if method == "nearest":
        out = _gather(image, box_index, _nearest(ys, inside_y)[:, :, None], _nearest(xs, inside_x)[:, None, :])
        out[outside] = np.float32(extrapolation_value)
        return out
    top, bottom, y_lerp = _corners(ys, inside_y)
    left, right, x_lerp = _corners(xs, inside_x)
    top, bottom, y_lerp = top[:, :, None], bottom[:, :, None], y_lerp[:, :, None, None]
    left, right, x_lerp = left[:, None, :], right[:, None, :], x_lerp[:, None, :, None]
    count, depth = len(box_index), image.shape[3]
    out = np.empty((count, crop[0], crop[1], depth), np.float32)
    per = max(1, CHUNK_FLOATS // max(1, crop[0] * crop[1] * depth))
    buffers = [np.empty((min(per, count), crop[0], crop[1], depth), np.float32) for _ in range(3)]
    # TF's order, in place on chunks of boxes: upper = tl + (tr - tl) * x_lerp, lower likewise,
    # upper + (lower - upper) * y_lerp
    for a in range(0, count, per):
        b = min(a + per, count)
        k, rows, cols = box_index[a:b], (top[a:b], bottom[a:b]), (left[a:b], right[a:b])
        x, y = x_lerp[a:b], y_lerp[a:b]
        result = out[a:b]
        upper, lower, step = (buffer[:b - a] for buffer in buffers)
        for corner, row in ((upper, rows[0]), (lower, rows[1])):
            _gather(image, k, row, cols[0], out=corner)
            np.subtract(_gather(image, k, row, cols[1], out=step), corner, out=step)
            np.multiply(step, x, out=step)
            np.add(corner, step, out=corner)
        np.subtract(lower, upper, out=step)
        np.multiply(step, y, out=step)
        np.add(upper, step, out=result)
    out[outside] = np.float32(extrapolation_value)
    return out


def _static_crop(crop_size):
    value = static_value.constant_value(crop_size)
    return tuple(int(v) for v in np.asarray(value).reshape(-1)) if value is not None else (None, None)


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"CropAndResize: method must be 'bilinear' or 'nearest', got {method!r}")


def _infer_crop(image, boxes, box_index, crop_size, extrapolation_value, *, method):
    _check_method(method)
    if image.dtype not in _IMAGE_DTYPES:
        raise TypeError(f"CropAndResize: images of dtype {image.dtype.name} are not supported")
    if boxes.dtype != dtypes.float32:
        raise TypeError(f"CropAndResize: boxes must be float32, got {boxes.dtype.name}")
    if box_index.dtype != dtypes.int32:
        raise TypeError(f"CropAndResize: box_indices must be int32, got {box_index.dtype.name}")
    ishape, bshape, xshape = image._shape, boxes._shape, box_index._shape
    if ishape is not None and len(ishape) != 4:
        raise ValueError(f"CropAndResize: input image must be 4-D, got shape {list(ishape)}")
    if bshape is not None and (len(bshape) != 2 or bshape[1] not in (None, 4)):
        raise ValueError(f"CropAndResize: boxes must be 2-D [num_boxes, 4], got shape {list(bshape)}")
    if xshape is not None and len(xshape) != 1:
        raise ValueError(f"CropAndResize: box_index must be 1-D [num_boxes], got shape {list(xshape)}")
    if bshape is not None and xshape is not None and None not in (bshape[0], xshape[0]) and bshape[0] != xshape[0]:
        raise ValueError(f"CropAndResize: box_index has incompatible shape: {xshape[0]} indices for "
                         f"{bshape[0]} boxes")
    if crop_size._shape is not None and crop_size._shape not in ((2,), (None,)):
        raise ValueError(f"CropAndResize: crop_size must be a 1-D tensor of 2 elements, got shape "
                         f"{list(crop_size._shape)}")
    boxes_n = bshape[0] if bshape is not None else None
    depth = ishape[3] if ishape is not None else None
    return dtypes.float32, (boxes_n, *_static_crop(crop_size), depth)


crop_and_resize_op = register(OpDef(
    "crop_and_resize", _crop_kernel, _infer_crop,
    doc="TF's CropAndResize: boxes of a batch of images resampled to one crop size"))


def _grad_image_kernel(grads, boxes, box_index, image, *, method):
    """Each crop pixel's gradient added to the pixels it read, with the weights it read them with."""
    batch, height, width, depth = image.shape
    crop = grads.shape[1:3]
    box_index = np.asarray(box_index).reshape(-1)
    ys, inside_y, xs, inside_x = _grids(image.shape, boxes, crop)
    g = grads.astype(np.float32) * (inside_y[:, :, None] & inside_x[:, None, :])[..., None]
    out = np.zeros((batch * height * width, depth), np.float32)
    b = box_index[:, None, None]

    def add(rows, cols, weight):
        index = np.broadcast_to((b * height + rows) * width + cols, g.shape[:3]).reshape(-1)
        np.add.at(out, index, (g * weight).reshape(-1, depth))

    if method == "nearest":
        add(_nearest(ys, inside_y)[:, :, None], _nearest(xs, inside_x)[:, None, :], np.float32(1))
    else:
        top, bottom, y_lerp = _corners(ys, inside_y)
        left, right, x_lerp = _corners(xs, inside_x)
        y_lerp, x_lerp = y_lerp[:, :, None, None], x_lerp[:, None, :, None]
        top, bottom, left, right = top[:, :, None], bottom[:, :, None], left[:, None, :], right[:, None, :]
        add(top, left, (1 - y_lerp) * (1 - x_lerp))
        add(top, right, (1 - y_lerp) * x_lerp)
        add(bottom, left, y_lerp * (1 - x_lerp))
        add(bottom, right, y_lerp * x_lerp)
    return out.reshape(image.shape).astype(image.dtype)


def _infer_like_image(grads, boxes, box_index, image, **attrs):
    return image.dtype, image._shape


crop_and_resize_grad_image_op = register(OpDef(
    "crop_and_resize_grad_image", _grad_image_kernel, _infer_like_image, differentiable=False,
    doc="CropAndResize's image gradient: the adjoint of its sampling"))


def _grad_boxes_kernel(grads, image, boxes, box_index):
    """TF's CropAndResizeGradBoxes: the bilinear crop's derivative along y1, x1, y2, x2, summed over pixels."""
    _, height, width, _ = image.shape
    crop_h, crop_w = grads.shape[1:3]
    box_index = np.asarray(box_index).reshape(-1)
    ys, inside_y, xs, inside_x = _grids(image.shape, boxes, (crop_h, crop_w))
    top, bottom, y_lerp = _corners(ys, inside_y)
    left, right, x_lerp = _corners(xs, inside_x)
    top, bottom, left, right = top[:, :, None], bottom[:, :, None], left[:, None, :], right[:, None, :]
    y_lerp, x_lerp = y_lerp[:, :, None, None], x_lerp[:, None, :, None]
    top_left, top_right, bottom_left, bottom_right = (_gather(image, box_index, top, left),
                                                      _gather(image, box_index, top, right),
                                                      _gather(image, box_index, bottom, left),
                                                      _gather(image, box_index, bottom, right))
    inside = (inside_y[:, :, None] & inside_x[:, None, :])[..., None]
    g = np.where(inside, grads.astype(np.float32), np.float32(0))
    grad_y = ((1 - x_lerp) * (bottom_left - top_left) + x_lerp * (bottom_right - top_right)) * g
    grad_x = ((1 - y_lerp) * (top_right - top_left) + y_lerp * (bottom_right - bottom_left)) * g
    per_row = grad_y.sum(axis=(2, 3))  # (boxes, crop_h)
    per_col = grad_x.sum(axis=(1, 3))  # (boxes, crop_w)

    def along(per_step, size, crop):
        f32 = np.float32
        if crop > 1:
            ratio = f32(size - 1) / f32(crop - 1)
            steps = np.arange(crop, dtype=f32) * ratio
            return (per_step * (f32(size - 1) - steps)).sum(axis=1), (per_step * steps).sum(axis=1)
        half = per_step.sum(axis=1) * f32(0.5) * f32(size - 1)
        return half, half

    d_y1, d_y2 = along(per_row, height, crop_h)
    d_x1, d_x2 = along(per_col, width, crop_w)
    return np.stack([d_y1, d_x1, d_y2, d_x2], axis=1).astype(np.float32)


def _infer_grad_boxes(grads, image, boxes, box_index):
    return dtypes.float32, boxes._shape


crop_and_resize_grad_boxes_op = register(OpDef(
    "crop_and_resize_grad_boxes", _grad_boxes_kernel, _infer_grad_boxes, differentiable=False,
    doc="CropAndResize's boxes gradient (the bilinear sampling's, for either method, as TF)"))


@gradient(crop_and_resize_op)
def _crop_and_resize_grad(record, g):
    image, boxes, box_index = record.inputs[0], record.inputs[1], record.inputs[2]
    d_image = None
    if image.dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
        d_image = apply(crop_and_resize_grad_image_op, (g, boxes, box_index, image), {"method": record.attrs["method"]})
    d_boxes = apply(crop_and_resize_grad_boxes_op, (g, image, boxes, box_index))
    return d_image, d_boxes, None, None, None


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    """`tf.image.crop_and_resize`: float32 crops [num_boxes, crop_height, crop_width, depth]."""
    method = str(method)
    inputs = (convert_to_tensor(image), convert_to_tensor(boxes, dtypes.float32),
              convert_to_tensor(box_indices, dtypes.int32), convert_to_tensor(crop_size, dtypes.int32),
              convert_to_tensor(extrapolation_value, dtypes.float32))
    return apply(crop_and_resize_op, inputs, {"method": method}, name=name)
