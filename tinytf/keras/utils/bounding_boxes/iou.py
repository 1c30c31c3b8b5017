"""keras.utils.bounding_boxes.compute_iou and compute_ciou, as Keras 3.15 computes them (boxes in "yxyx" for
the IoU table, "xyxy" for the complete IoU; epsilon 1e-7 where Keras adds it)."""

from __future__ import annotations

import math

import tinytf as _tf

from .converters import EPSILON, convert_format
from .formats import split4


def _area(boxes):
    y_min, x_min, y_max, x_max = split4(boxes[..., :4])
    return _tf.squeeze((y_max - y_min) * (x_max - x_min), axis=-1)


def _intersection(boxes1, boxes2):
    y_min1, x_min1, y_max1, x_max1 = split4(boxes1[..., :4])
    y_min2, x_min2, y_max2, x_max2 = split4(boxes2[..., :4])
    perm = [1, 0] if boxes2.shape.rank == 2 else [0, 2, 1]
    height = _tf.minimum(y_max1, _tf.transpose(y_max2, perm)) - _tf.maximum(y_min1, _tf.transpose(y_min2, perm))
    width = _tf.minimum(x_max1, _tf.transpose(x_max2, perm)) - _tf.maximum(x_min1, _tf.transpose(x_min2, perm))
    zero = _tf.cast(0, height.dtype)
    return _tf.maximum(zero, height) * _tf.maximum(zero, width)


def _rank_check(name, rank1, rank2, rank):
    if rank not in (2, 3):
        raise ValueError(f"compute_iou() expects {name} to be batched, or to be unbatched. Received "
                         f"len(boxes1.shape)={rank1}, len(boxes2.shape)={rank2}. Expected either "
                         f"len({name}.shape)=2 AND or len({name}.shape)=3.")


def compute_iou(boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1, image_shape=None):
    """The table of pairwise IoUs ([M, N], or [batch, M, N] when either side is batched); with use_masking,
    pairs where a box is all negative (padding) get mask_val."""
    boxes1, boxes2 = _tf.convert_to_tensor(boxes1), _tf.convert_to_tensor(boxes2)
    rank1, rank2 = boxes1.shape.rank, boxes2.shape.rank
    _rank_check("boxes1", rank1, rank2, rank1)
    _rank_check("boxes2", rank1, rank2, rank2)
    if "rel" in bounding_box_format and image_shape is None:
        raise ValueError("When using relative bounding box formats (e.g. `rel_yxyx`) the `image_shape` argument "
                         f"must be provided.Received `image_shape`: {image_shape}")
    height, width = (None, None) if image_shape is None else tuple(image_shape)[:2]
    boxes1 = convert_format(boxes1, bounding_box_format, "yxyx", height=height, width=width)
    boxes2 = convert_format(boxes2, bounding_box_format, "yxyx", height=height, width=width)
    intersection = _intersection(boxes1, boxes2)
    area1, area2 = _area(boxes1), _area(boxes2)
    area1 = _tf.expand_dims(area1, -1)
    area2 = _tf.expand_dims(area2, 1 if area2.shape.rank == 2 else 0)
    iou = intersection / (area1 + area2 - intersection + EPSILON)
    if not use_masking:
        return iou
    perm = [1, 0] if rank1 == 2 else [0, 2, 1]
    masked = _tf.cast(mask_val, iou.dtype) * _tf.ones_like(iou)
    mask1 = _tf.less(_tf.reduce_max(boxes1, axis=-1, keepdims=True), 0.0)
    mask2 = _tf.less(_tf.reduce_max(boxes2, axis=-1, keepdims=True), 0.0)
    return _tf.where(_tf.logical_or(mask1, _tf.transpose(mask2, perm)), masked, iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """The complete IoU of paired boxes: IoU minus the centres' distance over the enclosing box's diagonal
    (both squared) minus the aspect-ratio term."""
    if "rel" in bounding_box_format:
        raise ValueError("When using relative bounding box formats (e.g. `rel_yxyx`) the `image_shape` argument "
                         f"must be provided.Received `image_shape`: {image_shape}")
    height, width = (None, None) if image_shape is None else tuple(image_shape)[:2]
    boxes1 = convert_format(boxes1, bounding_box_format, "xyxy", height=height, width=width)
    boxes2 = convert_format(boxes2, bounding_box_format, "xyxy", height=height, width=width)
    x_min1, y_min1, x_max1, y_max1 = split4(boxes1[..., :4])
    x_min2, y_min2, x_max2, y_max2 = split4(boxes2[..., :4])
    width1, height1 = x_max1 - x_min1, y_max1 - y_min1 + EPSILON
    width2, height2 = x_max2 - x_min2, y_max2 - y_min2 + EPSILON
    intersection = (_tf.maximum(_tf.minimum(x_max1, x_max2) - _tf.maximum(x_min1, x_min2), 0)
                    * _tf.maximum(_tf.minimum(y_max1, y_max2) - _tf.maximum(y_min1, y_min2), 0))
    union = width1 * height1 + width2 * height2 - intersection + EPSILON
    iou = _tf.squeeze(intersection / (union + EPSILON), axis=-1)
    convex_width = _tf.maximum(x_max1, x_max2) - _tf.minimum(x_min1, x_min2)
    convex_height = _tf.maximum(y_max1, y_max2) - _tf.minimum(y_min1, y_min2)
    diagonal = _tf.squeeze(convex_width ** 2 + convex_height ** 2 + EPSILON, axis=-1)
    distance = _tf.squeeze(((x_min1 + x_max1) / 2 - (x_min2 + x_max2) / 2) ** 2
                           + ((y_min1 + y_max1) / 2 - (y_min2 + y_max2) / 2) ** 2, axis=-1)
    v = _tf.squeeze((4 / math.pi ** 2) * _tf.pow(_tf.atan(width2 / height2) - _tf.atan(width1 / height1), 2),
                    axis=-1)
    alpha = v / (v - iou + (1 + EPSILON))
    return iou - (distance / diagonal + v * alpha)
