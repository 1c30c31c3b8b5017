"""Two tf.image ops that place windows on images: TF's ExtractGlimpseV2 (a window of each image read at an
offset, pixels outside the image filled with noise) and DrawBoundingBoxesV2 (box outlines painted on a copy
of each image). TF registers a gradient for neither, so both are differentiable without a rule: a tape asked
for a gradient through them raises TF's LookupError."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import static_value

_NOISES = ("uniform", "gaussian", "zero")


def _glimpse_corner(offset, in_h, in_w, height, width, centered, normalized):
    """The window's top-left pixel, as TF's eigen_attention computes it: offsets are (y, x); normalised
    offsets are scaled to pixels (halved and moved to the image's centre when centered, and then the window is
    centred on them); unnormalised centered offsets count from the image's centre; then truncated to ints."""
    f32 = np.float32
    y, x = f32(offset[0]), f32(offset[1])
    if normalized:
        y, x = y * f32(in_h), x * f32(in_w)
        if centered:
            y = y / f32(2) + f32(in_h / 2.0) - f32(height / 2.0)
            x = x / f32(2) + f32(in_w / 2.0) - f32(width / 2.0)
    elif centered:
        y, x = y + f32(in_h / 2.0), x + f32(in_w / 2.0)
    return int(y), int(x)


def _noise_fill(image, shape, noise, rng):
    if noise == "uniform":
        low, high = float(image.min()), float(image.max())
        return (low + rng.random(shape) * (high - low)).astype(np.float32)
    if noise == "gaussian":
        return (float(image.mean()) + rng.standard_normal(shape) * float(image.std())).astype(np.float32)
    return np.zeros(shape, np.float32)


def _glimpse_kernel(images, size, offsets, *, centered, normalized, noise):
    height, width = (int(v) for v in np.asarray(size).reshape(-1))
    batch, in_h, in_w, depth = images.shape
    offsets = np.asarray(offsets, np.float32)
    if offsets.shape != (batch, 2):
        raise InvalidArgumentError(f"ExtractGlimpse: offsets must be [batch_size, 2] = [{batch}, 2], got "
                                   f"{list(offsets.shape)}")
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(f"ExtractGlimpse: the glimpse size must be positive, got {[height, width]}")
    rng = np.random.default_rng()
    out = np.empty((batch, height, width, depth), np.float32)
    for b in range(batch):
        top, left = _glimpse_corner(offsets[b], in_h, in_w, height, width, centered, normalized)
        rows, cols = np.arange(top, top + height), np.arange(left, left + width)
        row_in, col_in = (rows >= 0) & (rows < in_h), (cols >= 0) & (cols < in_w)
        if row_in.all() and col_in.all():
            out[b] = images[b, top:top + height, left:left + width]
            continue
        out[b] = _noise_fill(images[b], (height, width, depth), noise, rng)
        if row_in.any() and col_in.any():
            out[b][np.ix_(row_in, col_in)] = images[b][np.ix_(rows[row_in], cols[col_in])]
    return out


def _infer_glimpse(images, size, offsets, *, centered, normalized, noise):
    if noise not in _NOISES:
        raise ValueError(f"ExtractGlimpse: noise must be one of {_NOISES}, got {noise!r}")
    if images.dtype != dtypes.float32:
        raise TypeError(f"ExtractGlimpse: input must be float32, got {images.dtype.name}")
    ishape, oshape = images._shape, offsets._shape
    if ishape is not None and len(ishape) != 4:
        raise ValueError(f"ExtractGlimpse: input must be 4-dimensional, got shape {list(ishape)}")
    if size._shape is not None and size._shape not in ((2,), (None,)):
        raise ValueError(f"ExtractGlimpse: input must be a vector of size 2 (height, width), got shape "
                         f"{list(size._shape)}")
    if oshape is not None and (len(oshape) != 2 or oshape[1] not in (None, 2)):
        raise ValueError(f"ExtractGlimpse: offsets must be a matrix [batch_size, 2], got shape {list(oshape)}")
    value = static_value.constant_value(size)
    hw = tuple(int(v) for v in np.asarray(value).reshape(-1)) if value is not None else (None, None)
    if ishape is None:
        return dtypes.float32, (None, *hw, None)
    return dtypes.float32, (ishape[0], *hw, ishape[3])


extract_glimpse_op = register(OpDef(
    "extract_glimpse", _glimpse_kernel, _infer_glimpse, stateful=True,
    doc="TF's ExtractGlimpseV2: a window of each image at an offset, noise where it leaves the image"))


def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform", name=None):  # noqa: A002
    """`tf.image.extract_glimpse` (TF2's: offsets truncated to whole pixels, noise 'uniform', 'gaussian' or
    'zero' where the window leaves the image; the noise is tinytf's draw from TF's distribution)."""
    if noise not in _NOISES:
        raise ValueError(f"ExtractGlimpse: noise must be one of {_NOISES}, got {noise!r}")
    inputs = (convert_to_tensor(input, dtypes.float32), convert_to_tensor(size, dtypes.int32),
              convert_to_tensor(offsets, dtypes.float32))
    return apply(extract_glimpse_op, inputs, {"centered": bool(centered), "normalized": bool(normalized),
                                              "noise": noise}, name=name)


# --- DrawBoundingBoxesV2 ----------------------------------------------------------------------------------------
_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                            [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _color_table(colors, depth):
    colors = np.asarray(colors, np.float32)
    if colors.size == 0:
        table = _DEFAULT_COLORS.copy()
        if depth == 1:
            table[:, 0] = 1
        return table
    if colors.ndim != 2:
        raise InvalidArgumentError(f"DrawBoundingBoxes: colors must be a 2-D matrix, got shape {list(colors.shape)}")
    if colors.shape[1] < depth:
        raise InvalidArgumentError(f"DrawBoundingBoxes: color tensor must have at least as many channels "
                                   f"({colors.shape[1]}) as the image ({depth})")
    return colors


def _draw_kernel(images, boxes, colors):
    batch, height, width, depth = images.shape
    if depth not in (1, 3, 4):
        raise InvalidArgumentError(f"DrawBoundingBoxes: Channel depth should be either 1 (GRY), 3 (RGB), or 4 "
                                   f"(RGBA), got {depth}")
    if boxes.ndim != 3 or boxes.shape[0] != batch or boxes.shape[2] != 4:
        raise InvalidArgumentError(f"DrawBoundingBoxes: boxes must be [batch, num_boxes, 4] = [{batch}, ..., 4], "
                                   f"got {list(boxes.shape)}")
    table = _color_table(colors, depth)
    canvas = images.copy()
    for b in range(batch):
        for index, box in enumerate(np.asarray(boxes[b], np.float32)):
            color = table[index % len(table)][:depth].astype(images.dtype)
            # float to int64 truncates toward zero, as TF's static_cast
            top, left = int(box[0] * np.float32(height - 1)), int(box[1] * np.float32(width - 1))
            bottom, right = int(box[2] * np.float32(height - 1)), int(box[3] * np.float32(width - 1))
            if top > bottom or left > right:  # inverted: TF logs a warning and skips it
                continue
            if top >= height or bottom < 0 or left >= width or right < 0:  # wholly outside
                continue
            row0, row1 = max(top, 0), min(bottom, height - 1)
            col0, col1 = max(left, 0), min(right, width - 1)
            if top >= 0:
                canvas[b, top, col0:col1 + 1] = color
            if bottom < height:
                canvas[b, bottom, col0:col1 + 1] = color
            if left >= 0:
                canvas[b, row0:row1 + 1, left] = color
            if right < width:
                canvas[b, row0:row1 + 1, right] = color
    return canvas


def _infer_draw(images, boxes, colors):
    if images.dtype not in (dtypes.float32, dtypes.float16):
        raise TypeError(f"DrawBoundingBoxes: images must be float32 or float16, got {images.dtype.name}")
    if images._shape is not None and len(images._shape) != 4:
        raise ValueError(f"DrawBoundingBoxes: images must be 4-D [batch, height, width, depth], got shape "
                         f"{list(images._shape)}")
    if boxes._shape is not None and len(boxes._shape) != 3:
        raise ValueError(f"DrawBoundingBoxes: boxes must be 3-D [batch, num_boxes, 4], got shape "
                         f"{list(boxes._shape)}")
    return images.dtype, images._shape


draw_bounding_boxes_op = register(OpDef(
    "draw_bounding_boxes", _draw_kernel, _infer_draw,
    doc="TF's DrawBoundingBoxesV2: box outlines painted on a copy of each image"))


def draw_bounding_boxes(images, boxes, colors, name=None):
    """`tf.image.draw_bounding_boxes`: colors None (or empty) uses TF's table of ten colours."""
    images = convert_to_tensor(images)
    colors = np.zeros((0, 4), np.float32) if colors is None else colors
    return apply(draw_bounding_boxes_op, (images, convert_to_tensor(boxes, dtypes.float32),
                                          convert_to_tensor(colors, dtypes.float32)), name=name)
