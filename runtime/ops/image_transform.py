"""TF's ImageProjectiveTransformV3: every output pixel (x, y) of an NHWC batch reads the input at the projective
map of (x, y) by its image's 8 transform numbers [a0 a1 a2 b0 b1 b2 c0 c1]:
    x_in = (a0 x + a1 y + a2) / k,  y_in = (b0 x + b1 y + b2) / k,  k = c0 x + c1 y + 1,
with TF's fill modes (REFLECT, WRAP, NEAREST fold the point back into the image; CONSTANT leaves it) and
NEAREST (round half away from zero) or BILINEAR interpolation, every read outside the image giving
`fill_value`. Keras' RandomRotation, RandomZoom and RandomTranslation are this one kernel.

Its gradient for the images is the exact adjoint of the sampling (each output gradient added back to the input
pixels it was read from, with the same weights): a second op. TF's own rule instead runs the kernel with the
inverted transform, which is only approximately the adjoint; the transforms get no gradient, as in TF."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, gradient, register
from . import static_value

_INTERPOLATIONS = ("NEAREST", "BILINEAR")
_FILL_MODES = ("REFLECT", "WRAP", "CONSTANT", "NEAREST")
_IMAGE_DTYPES = (dtypes.uint8, dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def _reflect(coord, length):
    """TF's MapCoordinate<FILL_REFLECT>: [abcd] -> [dcba|abcd|dcba], in float32, then clamped."""
    if length <= 1:
        return np.zeros_like(coord)
    size2 = np.float32(2 * length)
    out = coord.copy()
    low, high = out < 0, out > length - 1  # both taken before either branch moves a point (TF's if / else if)
    c = out[low]
    c = size2 * np.trunc(-c / size2) + c
    out[low] = np.where(c < -length, c + size2, -c - 1)
    c = out[high]
    c = c - size2 * np.trunc(c / size2)
    out[high] = np.where(c >= length, size2 - c - 1, c)
    return np.clip(out, 0, length - 1)


def _wrap(coord, length):
    """TF's MapCoordinate<FILL_WRAP>: [abcd] -> [abcd|abcd|abcd], with TF's (len - 1) period quirk kept."""
    if length <= 1:
        return np.zeros_like(coord)
    period = np.float32(length - 1)
    out = coord.copy()
    low, high = out < 0, out > length - 1  # both taken before either branch moves a point (TF's if / else if)
    out[low] += np.float32(length) * (np.trunc(-out[low] / period) + 1)
    out[high] -= np.float32(length) * np.trunc(out[high] / period)
    return np.clip(out, 0, length - 1)


def _map_coordinate(coord, length, fill_mode):
    if fill_mode == "REFLECT":
        return _reflect(coord, length)
    if fill_mode == "WRAP":
        return _wrap(coord, length)
    if fill_mode == "NEAREST":
        return np.clip(coord, 0, length - 1)
    return coord  # CONSTANT: points outside read fill_value


def _sample_points(transforms, batch, in_h, in_w, out_h, out_w, interpolation, fill_mode):
    """The input pixels each output pixel reads: a list of (index, weight) pairs of (batch, out_h, out_w) arrays,
    `index` the pixel's column in `_pixels`' table, whose images have a border of fill_value one pixel wide:
    a row or column outside the image is clamped to the border (a read outside gives fill_value, as TF's), and
    so are the points where `projection == 0` and NaN coordinates. Clamped while still float, the indices
    never overflow. weight None means 1, else the (y, x) pair of bilinear weights."""
    t = np.asarray(transforms, np.float32)
    if t.shape[0] == 1 and batch != 1:
        t = np.broadcast_to(t, (batch, 8))
    t = t[:, :, None, None]
    ys = np.arange(out_h, dtype=np.float32)[None, :, None]
    xs = np.arange(out_w, dtype=np.float32)[None, None, :]
    projection = t[:, 6] * xs + t[:, 7] * ys + np.float32(1)
    defined = projection != 0
    everywhere = bool(defined.all())
    safe = projection if everywhere else np.where(defined, projection, np.float32(1))
    x = _map_coordinate(((t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / safe).astype(np.float32), in_w, fill_mode)
    y = _map_coordinate(((t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / safe).astype(np.float32), in_h, fill_mode)
    index = np.int64 if batch * (in_h + 2) * (in_w + 2) >= 2 ** 31 else np.int32
    images = np.arange(batch, dtype=index)[:, None, None] * (in_h + 2)

    def bordered(coord, length, undefined_too):
        """Row or column coord + 1 of the bordered image: -1 and `length` (and everything past them, NaN)
        become the border's 0 and length + 1."""
        coord = np.fmax(np.fmin(coord, np.float32(length)), np.float32(-1))  # fmin(NaN, length) = length
        if undefined_too and not everywhere:
            coord = np.where(defined, coord, np.float32(-1))
        return (coord + np.float32(1)).astype(index)

    def points(rows, cols, weights):
        found = []
        for i, row in enumerate(rows):
            base = (images + bordered(row, in_h, True)) * (in_w + 2)
            for j, col in enumerate(cols):
                found.append((base + bordered(col, in_w, False),
                              None if weights is None else (weights[0][i], weights[1][j])))
        return found

    if interpolation == "NEAREST":  # std::round: half away from zero
        return points([np.sign(y) * np.floor(np.abs(y) + np.float32(0.5))],
                      [np.sign(x) * np.floor(np.abs(x) + np.float32(0.5))], None)
    y0, x0 = np.floor(y), np.floor(x)
    y1, x1 = y0 + 1, x0 + 1
    return points((y0, y1), (x0, x1), ((y1 - y, y - y0), (x1 - x, x - x0)))


def _value_dtype(dtype):
    """TF reads pixels as float; float64 images are read as float64 here (TF rounds them to float), so that
    their results and gradients keep double precision."""
    return np.float64 if np.dtype(dtype) == np.float64 else np.float32


def _pixels(images, fill_value):
    """The images' values channels first, (C, batch * (H + 2) * (W + 2)) of their value dtype, each image
    inside a border of fill_value one pixel wide: every point is one column of it (np.take of a flat index,
    4-5x faster than indexing by image, row and column, and no mask for the reads outside), and the bilinear
    weights, one per point, broadcast along whole rows of points instead of over runs of C values."""
    batch, height, width, channels = images.shape
    table = np.empty((channels, batch, height + 2, width + 2), _value_dtype(images.dtype))
    table[:, :, [0, -1]] = fill_value
    table[:, :, 1:-1, [0, -1]] = fill_value
    table[:, :, 1:-1, 1:-1] = images.transpose(3, 0, 1, 2)
    return table.reshape(channels, -1)


def _read(table, index):
    return np.take(table, index, axis=1)


def _transform_kernel(images, transforms, output_shape, fill_value, *, interpolation, fill_mode):
    batch, in_h, in_w, channels = images.shape
    out_h, out_w = (int(v) for v in np.asarray(output_shape))
    points = _sample_points(transforms, batch, in_h, in_w, out_h, out_w, interpolation, fill_mode)
    table = _pixels(images, np.float32(fill_value))
    if interpolation == "NEAREST":
        out = _read(table, points[0][0])
    else:  # TF's order: along x on the floor and ceil rows, then along y, in float32
        (wy0, wx0), (_, wx1) = points[0][1], points[1][1]
        wy1 = points[2][1][0]
        row0 = wx0 * _read(table, points[0][0]) + wx1 * _read(table, points[1][0])
        row1 = wx0 * _read(table, points[2][0]) + wx1 * _read(table, points[3][0])
        out = wy0 * row0 + wy1 * row1
    result = np.empty((batch, out_h, out_w, channels), images.dtype)
    # T(value) for integer images: truncation toward zero, as TF's static_cast (what astype does)
    np.copyto(result, out.transpose(1, 2, 3, 0), casting="unsafe")
    return result


def _output_hw(output_shape):
    value = static_value.constant_value(output_shape)
    if value is not None:
        return tuple(int(v) for v in np.asarray(value))
    return (None, None)


def _check_attrs(interpolation, fill_mode):
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"ImageProjectiveTransformV3: interpolation must be one of {_INTERPOLATIONS}, "
                         f"got {interpolation!r}")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"ImageProjectiveTransformV3: fill_mode must be one of {_FILL_MODES}, got {fill_mode!r}")


def _infer_transform(images, transforms, output_shape, fill_value, *, interpolation, fill_mode):
    _check_attrs(interpolation, fill_mode)
    if images.dtype not in _IMAGE_DTYPES:
        raise TypeError(f"ImageProjectiveTransformV3: images of dtype {images.dtype.name} are not supported "
                        f"(uint8, int32, int64, half, float, double)")
    if transforms.dtype != dtypes.float32:
        raise TypeError(f"ImageProjectiveTransformV3: transforms must be float32, got {transforms.dtype.name}")
    ishape, tshape = images._shape, transforms._shape
    if ishape is not None and len(ishape) != 4:
        raise ValueError(f"Input images must have rank 4, got shape {list(ishape)}")
    if tshape is not None and (len(tshape) != 2 or tshape[1] not in (None, 8)):
        raise ValueError(f"Input transform should be num_images x 8 or 1 x 8, got shape {list(tshape)}")
    if ishape is not None and tshape is not None and tshape[0] not in (None, 1) and ishape[0] not in (None,
                                                                                                       tshape[0]):
        raise ValueError(f"Input transform should be num_images x 8 or 1 x 8: {tshape[0]} transforms for "
                         f"{ishape[0]} images")
    height, width = _output_hw(output_shape)
    if ishape is None:
        return images.dtype, None
    return images.dtype, (ishape[0], height, width, ishape[3])


image_projective_transform_v3_op = register(OpDef(
    "image_projective_transform_v3", _transform_kernel, _infer_transform,
    doc="TF's ImageProjectiveTransformV3: NHWC images sampled at projective maps of their pixel grid"))


def _adjoint_kernel(grad, transforms, image_shape, *, interpolation, fill_mode):
    """The images' gradient: every output gradient added to the input pixels it read, times its weight."""
    batch, in_h, in_w, channels = (int(v) for v in np.asarray(image_shape))
    out_h, out_w = grad.shape[1:3]
    points = _sample_points(transforms, batch, in_h, in_w, out_h, out_w, interpolation, fill_mode)
    kind = _value_dtype(grad.dtype)
    g = grad.astype(kind, copy=False)
    flat = np.zeros((batch * (in_h + 2) * (in_w + 2), channels), kind)  # the border takes the points outside
    for index, weight in points:
        contribution = g if weight is None else g * (weight[0].astype(kind) * weight[1])[..., None]
        np.add.at(flat, index, contribution)
    inner = flat.reshape(batch, in_h + 2, in_w + 2, channels)[:, 1:-1, 1:-1]
    return np.ascontiguousarray(inner, dtype=grad.dtype)


def _infer_adjoint(grad, transforms, image_shape, *, interpolation, fill_mode):
    value = static_value.constant_value(image_shape)
    shape = tuple(int(v) for v in np.asarray(value)) if value is not None else (None, None, None, None)
    return grad.dtype, shape


image_projective_transform_grad_op = register(OpDef(
    "image_projective_transform_grad", _adjoint_kernel, _infer_adjoint, differentiable=False,
    doc="the adjoint of image_projective_transform_v3's sampling: its images' gradient"))


@gradient(image_projective_transform_v3_op)
def _transform_grad(record, g):
    images, transforms = record.inputs[0], record.inputs[1]
    if not images.dtype.is_floating:
        return None, None, None, None
    attrs = record.attrs
    image_shape = _shape_of(images)
    d_images = apply(image_projective_transform_grad_op, (g, transforms, image_shape),
                     {"interpolation": attrs["interpolation"], "fill_mode": attrs["fill_mode"]})
    return d_images, None, None, None


def _shape_of(t):
    if t._shape is not None and None not in t._shape:
        return convert_to_tensor(np.array(t._shape, np.int32))
    return apply(static_value.shape_op, (t,), {"out_type": dtypes.int32})


def image_projective_transform_v3(images, transforms, output_shape, fill_value=0.0, interpolation="BILINEAR",
                                  fill_mode="CONSTANT", name=None):
    """`tf.raw_ops.ImageProjectiveTransformV3` (keyword arguments, as raw ops take them)."""
    interpolation, fill_mode = str(interpolation).upper(), str(fill_mode).upper()
    _check_attrs(interpolation, fill_mode)
    images = convert_to_tensor(images)
    transforms = convert_to_tensor(transforms)
    output_shape = convert_to_tensor(output_shape, dtypes.int32)
    fill_value = convert_to_tensor(fill_value, dtypes.float32)
    if output_shape._shape is not None and output_shape._shape != (2,):
        raise ValueError(f"ImageProjectiveTransformV3: output_shape must be a 1-D tensor of 2 elements, got shape "
                         f"{list(output_shape._shape)}")
    return apply(image_projective_transform_v3_op, (images, transforms, output_shape, fill_value),
                 {"interpolation": interpolation, "fill_mode": fill_mode}, name=name)
