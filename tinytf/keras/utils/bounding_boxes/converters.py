"""keras.utils.bounding_boxes: convert_format, clip_to_image_size, affine_transform, crop, pad,
encode_box_to_deltas and decode_deltas_to_boxes, computed as Keras 3.15 computes them (its BoundingBox helper
and converters module), so that the augmentation layers built on them give TF 2.21's numbers."""

from __future__ import annotations

import math

import tinytf as _tf

from .formats import clip, convert_boxes, join, split4

EPSILON = 1e-7  # keras.backend.epsilon()


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Boxes (a tensor, or a dict whose "boxes" is replaced) from one format to another; the relative formats
    need the image's `height` and `width`."""
    return convert_boxes(boxes, source, target, height=height, width=width, dtype=dtype)


def _area(boxes):
    x1, y1, x2, y2 = split4(boxes)
    return (x2 - x1) * (y2 - y1)


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """{"boxes", "labels"} with the boxes clipped to the image ([0, width] x [0, height], or [0, 1] for
    "rel_xyxy"); a box left with no area gets label -1."""
    if bounding_box_format not in ("xyxy", "rel_xyxy"):
        raise NotImplementedError(f"clip_to_image_size supports the 'xyxy' and 'rel_xyxy' formats only. Received: "
                                  f"bounding_box_format={bounding_box_format}")
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError("`height` and `width` must be set if `format='xyxy'`.")
    boxes = _tf.convert_to_tensor(bounding_boxes["boxes"])
    labels = bounding_boxes.get("labels", None)
    x1, y1, x2, y2 = split4(boxes)
    if bounding_box_format == "xyxy":
        width, height = _tf.cast(width, boxes.dtype), _tf.cast(height, boxes.dtype)
        boxes = join([clip(x1, 0, width), clip(y1, 0, height), clip(x2, 0, width), clip(y2, 0, height)])
    else:
        boxes = join([clip(v, _tf.constant(0.0, boxes.dtype), _tf.constant(1.0, boxes.dtype))
                      for v in (x1, y1, x2, y2)])
    result = dict(bounding_boxes)
    result["boxes"] = boxes
    if labels is not None:
        labels = _tf.convert_to_tensor(labels)
        areas = _tf.squeeze(_area(boxes), axis=-1)
        result["labels"] = _tf.where(areas > 0, labels, _tf.cast(-1, labels.dtype))
    return result


def _inverse_affine_matrix(center_x, center_y, angle, translate_x, translate_y, scale, shear_x, shear_y, height,
                           width):
    """Keras' _compute_inverse_affine_matrix (after TF's _get_inverse_affine_matrix): (N, 3, 3)."""
    angle, shear_x, shear_y = -angle, -shear_x, -shear_y
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    rot = angle * (1.0 / 180.0 * math.pi)
    tx, ty = -translate_x * (width - 1), -translate_y * (height - 1)
    sx, sy = shear_x * (1.0 / 180.0 * math.pi), shear_y * (1.0 / 180.0 * math.pi)
    cos_sy, tan_sx = _tf.cos(sy), _tf.tan(sx)
    rot_minus_sy = rot - sy
    cx_plus_tx, cy_plus_ty = cx + tx, cy + ty
    a = _tf.cos(rot_minus_sy) / cos_sy
    b = a * tan_sx + _tf.sin(rot)
    c = -_tf.sin(rot_minus_sy) / cos_sy
    d = _tf.cos(rot) - c * tan_sx
    a0, a1, b0, b1 = d * scale, -b * scale, -c * scale, a * scale
    a2 = cx - a0 * cx_plus_tx - a1 * cy_plus_ty
    b2 = cy - b0 * cx_plus_tx - b1 * cy_plus_ty
    zeros = _tf.zeros_like(a0)
    matrix = _tf.stack([a0, a1, a2, b0, b1, b2, zeros, zeros, _tf.ones_like(a0)], axis=-1)
    return _tf.reshape(matrix, [-1, 3, 3])


def affine_transform(boxes, angle, translate_x, translate_y, scale, shear_x, shear_y, height, width, center_x=None,
                     center_y=None, bounding_box_format="xyxy"):
    """(N, B, 4) "xyxy" boxes moved by one affine map per image (angle and shears in degrees, translations as
    fractions of the size, about (center_x, center_y), fractions too, 0.5 by default): the box around each
    box's four moved corners."""
    if bounding_box_format != "xyxy":
        raise NotImplementedError(f"affine_transform supports the 'xyxy' format only. Received: "
                                  f"bounding_box_format={bounding_box_format}")
    angle = _tf.convert_to_tensor(angle)
    dtype = angle.dtype

    def as_dtype(value):
        return _tf.cast(value, dtype)

    matrix = _inverse_affine_matrix(as_dtype(0.5 if center_x is None else center_x),
                                    as_dtype(0.5 if center_y is None else center_y), angle, as_dtype(translate_x),
                                    as_dtype(translate_y), as_dtype(scale), as_dtype(shear_x), as_dtype(shear_y),
                                    as_dtype(height), as_dtype(width))
    boxes = _tf.cast(boxes, matrix.dtype)
    shape = _tf.shape(boxes)
    corners = _tf.stack([boxes[..., 0], boxes[..., 1], boxes[..., 2], boxes[..., 1], boxes[..., 2], boxes[..., 3],
                         boxes[..., 0], boxes[..., 3]], axis=-1)
    corners = _tf.reshape(corners, _tf.stack([shape[0], shape[1], 4, 2]))
    corners = _tf.concat([corners, _tf.ones_like(corners[..., :1])], axis=-1)
    moved = _tf.einsum("bnxy,byz->bnxz", corners, _tf.transpose(matrix[:, :2, :], [0, 2, 1]))
    return _tf.concat([_tf.reduce_min(moved, axis=2), _tf.reduce_max(moved, axis=2)], axis=-1)


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """"xyxy" boxes in the frame of the window at (top, left) of height x width, clipped to it."""
    if bounding_box_format != "xyxy":
        raise NotImplementedError(f"crop supports the 'xyxy' format only. Received: "
                                  f"bounding_box_format={bounding_box_format}")
    x1, y1, x2, y2 = split4(_tf.convert_to_tensor(boxes))
    return join([clip(x1 - left, 0, width), clip(y1 - top, 0, height), clip(x2 - left, 0, width),
                 clip(y2 - top, 0, height)])


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """"xyxy" boxes moved by the padding added above (top) and to the left (left) of the image."""
    if bounding_box_format != "xyxy":
        raise NotImplementedError(f"pad supports the 'xyxy' format only. Received: "
                                  f"bounding_box_format={bounding_box_format}")
    x1, y1, x2, y2 = split4(_tf.convert_to_tensor(boxes))
    return join([x1 + left, y1 + top, x2 + left, y2 + top])


def _variance(variance):
    if variance is None:
        return None
    variance = _tf.convert_to_tensor(variance, "float32")
    if variance.shape[-1] != 4:
        raise ValueError(f"`variance` must be length 4, got {variance}")
    return variance


def _height_width(image_shape):
    if image_shape is None:
        return None, None
    height, width, _ = image_shape
    return height, width


def encode_box_to_deltas(anchors, boxes, anchor_format, box_format, encoding_format="center_yxhw", variance=None,
                         image_shape=None):
    """The offsets (centre shift over the anchor's size) and log scales that turn `anchors` into `boxes`, in
    `encoding_format` ("center_yxhw" or "center_xywh"), divided by `variance` when given."""
    variance = _variance(variance)
    if encoding_format not in ("center_xywh", "center_yxhw"):
        raise ValueError(f"`encoding_format` should be one of 'center_xywh' or 'center_yxhw', got {encoding_format}")
    height, width = _height_width(image_shape)
    anchors = convert_format(anchors, anchor_format, encoding_format, height=height, width=width)
    boxes = convert_format(boxes, box_format, encoding_format, height=height, width=width)
    anchor_size = _tf.maximum(anchors[..., 2:], EPSILON)
    box_size = _tf.maximum(boxes[..., 2:], EPSILON)
    deltas = _tf.concat([(boxes[..., :2] - anchors[..., :2]) / anchor_size, _tf.math.log(box_size / anchor_size)],
                        axis=-1)
    return deltas / variance if variance is not None else deltas


def decode_deltas_to_boxes(anchors, boxes_delta, anchor_format, box_format, encoded_format="center_yxhw",
                           variance=None, image_shape=None):
    """The inverse of encode_box_to_deltas: boxes in `box_format` from anchors and deltas (tensors, or dicts of
    them keyed by pyramid level)."""
    variance = _variance(variance)
    if encoded_format not in ("center_xywh", "center_yxhw"):
        raise ValueError(f"`encoded_format` should be 'center_xywh' or 'center_yxhw', but got '{encoded_format}'.")
    height, width = _height_width(image_shape)

    def decode(anchor, delta):
        anchor = convert_format(anchor, anchor_format, encoded_format, height=height, width=width)
        delta = _tf.convert_to_tensor(delta)
        if variance is not None:
            delta = delta * variance
        size = anchor[..., 2:]
        box = _tf.concat([delta[..., :2] * size + anchor[..., :2], _tf.exp(delta[..., 2:]) * size], axis=-1)
        return convert_format(box, encoded_format, box_format, height=height, width=width)

    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: decode(anchor, boxes_delta[level]) for level, anchor in anchors.items()}
    return decode(anchors, boxes_delta)
