"""Keras 3's box formats and the conversions between them, through "xyxy" (absolute [left, top, right, bottom]).
The relative formats ("rel_*") are fractions of the image's width and height. Everything here is tinytf ops, so
it runs eagerly, inside tf.function and in a tf.data map alike."""

from __future__ import annotations

import tinytf as _tf

SUPPORTED_FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx", "rel_xywh",
                     "rel_center_xywh")


def split4(boxes):
    return _tf.split(boxes, 4, axis=-1)


def join(parts):
    return _tf.concat(parts, axis=-1)


def clip(values, low, high):
    """Keras' ops.numpy.clip with bounds that may broadcast wider than the values (TF's min, then max)."""
    return _tf.maximum(_tf.minimum(values, high), low)


def _to_xyxy(fmt, boxes, height, width):
    a, b, c, d = split4(boxes)
    if fmt == "xyxy":
        return boxes
    if fmt == "yxyx":
        return join([b, a, d, c])
    if fmt == "xywh":
        return join([a, b, a + c, b + d])
    if fmt == "center_xywh":
        return join([a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0])
    if fmt == "center_yxhw":
        return join([b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0])
    if fmt == "rel_xyxy":
        return join([a * width, b * height, c * width, d * height])
    if fmt == "rel_yxyx":
        return join([b * width, a * height, d * width, c * height])
    if fmt == "rel_xywh":
        return join([a * width, b * height, (a + c) * width, (b + d) * height])
    # rel_center_xywh
    return join([(a - c / 2.0) * width, (b - d / 2.0) * height, (a + c / 2.0) * width, (b + d / 2.0) * height])


def _from_xyxy(fmt, boxes, height, width):
    x1, y1, x2, y2 = split4(boxes)
    if fmt == "xyxy":
        return boxes
    if fmt == "yxyx":
        return join([y1, x1, y2, x2])
    if fmt == "xywh":
        return join([x1, y1, x2 - x1, y2 - y1])
    if fmt == "center_xywh":
        return join([x1 + (x2 - x1) / 2.0, y1 + (y2 - y1) / 2.0, x2 - x1, y2 - y1])
    if fmt == "center_yxhw":
        return join([y1 + (y2 - y1) / 2.0, x1 + (x2 - x1) / 2.0, y2 - y1, x2 - x1])
    if fmt == "rel_xyxy":
        return join([x1 / width, y1 / height, x2 / width, y2 / height])
    if fmt == "rel_yxyx":
        return join([y1 / height, x1 / width, y2 / height, x2 / width])
    if fmt == "rel_xywh":
        return join([x1 / width, y1 / height, (x2 - x1) / width, (y2 - y1) / height])
    # rel_center_xywh
    return join([(x1 + (x2 - x1) / 2.0) / width, (y1 + (y2 - y1) / 2.0) / height, (x2 - x1) / width,
                 (y2 - y1) / height])


def convert_boxes(boxes, source, target, height=None, width=None, dtype="float32"):
    """Keras' BoundingBox.convert_format on a boxes tensor (or a dict whose "boxes" it replaces in place)."""
    if isinstance(boxes, dict):
        boxes["boxes"] = convert_boxes(boxes["boxes"], source, target, height, width, dtype)
        return boxes
    boxes = _tf.convert_to_tensor(boxes)
    if boxes.shape.rank is None or boxes.shape[-1] != 4:
        raise ValueError(f"`boxes` must be a tensor with the last dimension of 4. Received: "
                         f"boxes.shape={tuple(boxes.shape)}")
    source, target = source.lower(), target.lower()
    if source not in SUPPORTED_FORMATS or target not in SUPPORTED_FORMATS:
        raise ValueError(f"Invalid source or target format. Supported formats: {SUPPORTED_FORMATS}")
    if (source.startswith("rel_") or target.startswith("rel_")) and (width is None or height is None):
        raise ValueError("convert_format() must receive `height` and `width` transforming between relative and "
                         f"absolute formats.convert_format() received source=`{source}`, target=`{target}, but "
                         f"height={height} and width={width}.")
    boxes = _tf.cast(boxes, dtype)
    if source == target:
        return boxes
    if width is not None:
        width = _tf.cast(width, dtype)
    if height is not None:
        height = _tf.cast(height, dtype)
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    return _from_xyxy(target, _to_xyxy(source, boxes, height, width), height, width)
