"""The batched non-max suppressions of tf.image: TF's CombinedNonMaxSuppression kernel (NMS per image and class,
then the best detections of all classes, in the orders libstdc++'s priority queue and sort give equal scores),
and the algorithm of TF2's non_max_suppression_padded (its tiled suppression, ported from TF's Python
implementation with the same float32 arithmetic: IoU with a 1e-8 guard, suppression at IoU >= threshold,
self-suppression iterated to TF's stopping rule, boxes under the score threshold zeroed)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import array as _array
from . import static_value, stl_order
from .image_nms import corners

_F32 = np.float32


# --- CombinedNonMaxSuppression ---------------------------------------------------------------------------------
def _by_score(a, b):
    return a[1] < b[1]


def _nms_one_class(boxes, scores, size_per_class, iou_threshold, score_threshold):
    """TF's DoNMSPerClass: (box index, score) of the selected boxes, in selection order."""
    queue = stl_order.PriorityQueue(_by_score)
    for i, s in enumerate(scores):
        if s > score_threshold:
            queue.push((i, s))
    box_corners = corners(boxes)
    ymin, xmin, ymax, xmax, area = box_corners
    selected = []
    while len(selected) < size_per_class and len(queue):
        index, score = queue.pop()
        keep = True
        for j in reversed(selected):
            if area[index] <= 0 or area[j[0]] <= 0:
                continue
            height = max(min(ymax[index], ymax[j[0]]) - max(ymin[index], ymin[j[0]]), _F32(0))
            width = max(min(xmax[index], xmax[j[0]]) - max(xmin[index], xmin[j[0]]), _F32(0))
            inter = _F32(height * width)
            if _F32(inter / _F32(area[index] + area[j[0]] - inter)) > iou_threshold:
                keep = False
                break
        if keep:
            selected.append((index, score))
    return selected


def _combined_kernel(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold, *,
                     pad_per_class, clip_boxes):
    op_name = "CombinedNonMaxSuppression"
    per_class = int(np.asarray(max_output_size_per_class))
    total = int(np.asarray(max_total_size))
    if per_class <= 0:
        raise InvalidArgumentError(f"{op_name}: max_size_per_class must be > 0, got {per_class}")
    if total <= 0:
        raise InvalidArgumentError(f"{op_name}: max_total_size must be > 0, got {total}")
    iou = _F32(np.asarray(iou_threshold))
    if not 0 <= iou <= 1:
        raise InvalidArgumentError(f"{op_name}: iou_threshold must be in [0, 1], got {iou}")
    score_threshold = _F32(np.asarray(score_threshold))
    batch, num_boxes, q, _ = boxes.shape
    num_classes = scores.shape[2]
    if q not in (1, num_classes):
        raise InvalidArgumentError(f"{op_name}: third dimension of boxes must be either 1 or num classes "
                                   f"({num_classes}), got {q}")
    if scores.shape[:2] != (batch, num_boxes):
        raise InvalidArgumentError(f"{op_name}: scores {list(scores.shape)} do not match boxes {list(boxes.shape)}")
    size_per_class = min(per_class, num_boxes)
    out_size = min(total, per_class * num_classes) if pad_per_class else total
    out_boxes = np.zeros((batch, out_size, 4), np.float32)
    out_scores = np.zeros((batch, out_size), np.float32)
    out_classes = np.zeros((batch, out_size), np.float32)
    valid = np.zeros(batch, np.int32)
    boxes, scores = boxes.astype(np.float32), scores.astype(np.float32)
    for b in range(batch):
        empty = (-1, _F32(-1.0), -1, (0.0, 0.0, 0.0, 0.0))
        candidates = [empty] * (size_per_class * num_classes)
        for c in range(num_classes):
            class_boxes = boxes[b, :, c if q > 1 else 0]
            for k, (index, score) in enumerate(_nms_one_class(class_boxes, scores[b, :, c], size_per_class, iou,
                                                              score_threshold)):
                candidates[k + size_per_class * c] = (index, score, c, tuple(class_boxes[index]))
        stl_order.sort(candidates, lambda x, y: x[1] > y[1])
        found = sum(1 for cand in candidates if cand[0] > -1)
        count = min(found, out_size)
        valid[b] = count
        for k in range(count):
            _, score, c, coords = candidates[k]
            coords = np.asarray(coords, np.float32)
            out_boxes[b, k] = np.clip(coords, 0.0, 1.0) if clip_boxes else coords
            out_scores[b, k], out_classes[b, k] = score, c
    return out_boxes, out_scores, out_classes, valid


def _infer_combined(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold, *,
                    pad_per_class, clip_boxes):
    op_name = "CombinedNonMaxSuppression"
    if boxes.dtype != dtypes.float32 or scores.dtype != dtypes.float32:
        raise TypeError(f"{op_name}: boxes and scores must be float32, got {boxes.dtype.name} and "
                        f"{scores.dtype.name}")
    if boxes._shape is not None and (len(boxes._shape) != 4 or boxes._shape[3] not in (None, 4)):
        raise ValueError(f"{op_name}: boxes must be 4-D [batch, num_boxes, q, 4], got shape {list(boxes._shape)}")
    if scores._shape is not None and len(scores._shape) != 3:
        raise ValueError(f"{op_name}: scores must be 3-D [batch, num_boxes, num_classes], got shape "
                         f"{list(scores._shape)}")
    for name, t in (("max_output_size_per_class", max_output_size_per_class), ("max_total_size", max_total_size),
                    ("iou_threshold", iou_threshold), ("score_threshold", score_threshold)):
        if t._shape is not None and len(t._shape) != 0:
            raise ValueError(f"{op_name}: {name} must be 0-D, got shape {list(t._shape)}")
    batch = boxes._shape[0] if boxes._shape is not None else None
    total = static_value.constant_value(max_total_size)
    size = None
    if total is not None:
        size = int(total)
        if pad_per_class:
            per_class = static_value.constant_value(max_output_size_per_class)
            classes = scores._shape[2] if scores._shape is not None else None
            size = None if per_class is None or classes is None else min(size, int(per_class) * classes)
    return [(dtypes.float32, (batch, size, 4)), (dtypes.float32, (batch, size)), (dtypes.float32, (batch, size)),
            (dtypes.int32, (batch,))]


combined_non_max_suppression_op = register(OpDef(
    "combined_non_max_suppression", _combined_kernel, _infer_combined,
    doc="TF's CombinedNonMaxSuppression: per-class greedy NMS, then the best detections of every class"))


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """`tf.image.combined_non_max_suppression`: (nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections)."""
    inputs = (convert_to_tensor(boxes, dtypes.float32), convert_to_tensor(scores, dtypes.float32),
              convert_to_tensor(max_output_size_per_class, dtypes.int32),
              convert_to_tensor(max_total_size, dtypes.int32), convert_to_tensor(iou_threshold, dtypes.float32),
              convert_to_tensor(score_threshold, dtypes.float32))
    return tuple(apply(combined_non_max_suppression_op, inputs,
                       {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}, name=name))


# --- non_max_suppression_padded (TF2's tiled algorithm) ------------------------------------------------------
def _bbox_overlap(a, b):
    """TF's _bbox_overlap: [B, N, 4] x [B, M, 4] -> [B, N, M] IoU, with 1e-8 added to the union."""
    a_ymin, a_xmin, a_ymax, a_xmax = (a[:, :, k:k + 1] for k in range(4))
    b_ymin, b_xmin, b_ymax, b_xmax = (b[:, None, :, k] for k in range(4))
    width = np.maximum(np.minimum(a_xmax, b_xmax) - np.maximum(a_xmin, b_xmin), _F32(0))
    height = np.maximum(np.minimum(a_ymax, b_ymax) - np.maximum(a_ymin, b_ymin), _F32(0))
    inter = width * height
    a_area = (a_ymax - a_ymin) * (a_xmax - a_xmin)
    b_area = (b_ymax - b_ymin) * (b_xmax - b_xmin)
    return (inter / (a_area + b_area - inter + _F32(1e-8))).astype(np.float32)


def _self_suppression(iou, threshold):
    """TF's _self_suppression loop: boxes that no surviving earlier box suppresses keep suppressing others."""
    total = iou.sum(axis=(1, 2), dtype=np.float32)
    while True:
        can_suppress = (iou.max(axis=1, initial=_F32(0)) < threshold).astype(np.float32)[:, :, None]
        keep = ((can_suppress * iou).max(axis=1, initial=_F32(0)) < threshold).astype(np.float32)[:, :, None]
        iou = keep * iou
        new_total = iou.sum(axis=(1, 2), dtype=np.float32)
        go_on = bool(((total - new_total) > threshold).any())
        total = new_total
        if not go_on:
            return iou


def _padded_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, *, sorted_input,
                   canonicalized_coordinates, tile_size):
    max_output = int(np.asarray(max_output_size))
    threshold = _F32(np.asarray(iou_threshold))
    score_threshold = np.asarray(score_threshold, scores.dtype)
    num_boxes = boxes.shape[-2]
    boxes = boxes.reshape(-1, num_boxes, 4).copy()
    scores = scores.reshape(-1, num_boxes).copy()
    batch = boxes.shape[0]
    if not np.isneginf(score_threshold):
        mask = (scores > score_threshold).astype(scores.dtype)
        scores = scores * mask
        boxes = boxes * mask[:, :, None].astype(boxes.dtype)
    if not canonicalized_coordinates and batch > 0 and num_boxes > 0:
        # TF decides from the first box of the first image alone (after the score mask zeroed it, if it did)
        if not boxes[0, 0, 0] <= boxes[0, 0, 2]:
            boxes = boxes[:, :, [2, 1, 0, 3]]
        if not boxes[0, 0, 1] <= boxes[0, 0, 3]:
            boxes = boxes[:, :, [0, 3, 2, 1]]
    if sorted_input:
        order = np.zeros_like(scores, dtype=np.int32)
    else:
        order = np.argsort(-scores.astype(np.float64), axis=1, kind="stable").astype(np.int32)
        scores = np.take_along_axis(scores, order, axis=1)
        boxes = np.take_along_axis(boxes, order[:, :, None], axis=1)
    padded = int(np.ceil(_F32(max(num_boxes, max_output)) / _F32(tile_size))) * tile_size
    work = np.zeros((batch, padded, 4), np.float32)
    work[:, :num_boxes] = boxes
    tiles = padded // tile_size
    output_size = np.zeros(batch, np.int32)
    upper = np.arange(tile_size)[None, :] > np.arange(tile_size)[:, None]
    tile = 0
    while (output_size.min(initial=np.iinfo(np.int32).max) < max_output if batch else False) and tile < tiles:
        box_slice = work[:, tile * tile_size:(tile + 1) * tile_size].copy()
        for inner in range(tile):  # suppressed by the boxes earlier tiles kept
            earlier = work[:, inner * tile_size:(inner + 1) * tile_size]
            survives = (_bbox_overlap(earlier, box_slice) < threshold).all(axis=1)
            box_slice = survives[:, :, None].astype(np.float32) * box_slice
        iou = _bbox_overlap(box_slice, box_slice)
        iou = iou * (upper[None] & (iou >= threshold)).astype(np.float32)
        suppressed = _self_suppression(iou, threshold).sum(axis=1) > 0
        box_slice = box_slice * (1.0 - suppressed.astype(np.float32))[:, :, None]
        work[:, tile * tile_size:(tile + 1) * tile_size] = box_slice
        output_size += (box_slice > 0).any(axis=2).sum(axis=1).astype(np.int32)
        tile += 1
    num_valid = np.minimum(output_size, max_output).astype(np.int32)
    chosen = (work > 0).any(axis=2).astype(np.int32) * np.arange(padded, 0, -1, dtype=np.int32)[None]
    top = -np.sort(-chosen, axis=1, kind="stable")[:, :max_output]
    idx = np.minimum(padded - top, num_boxes - 1).astype(np.int32)
    if not sorted_input:
        idx = np.take_along_axis(order, np.maximum(idx, 0), axis=1) if num_boxes else idx
    idx = np.where(np.arange(max_output)[None, :] < num_valid[:, None], idx, 0).astype(np.int32)
    return idx, num_valid


def _infer_padded(boxes, scores, max_output_size, iou_threshold, score_threshold, *, sorted_input,
                  canonicalized_coordinates, tile_size):
    if boxes._shape is not None and (len(boxes._shape) < 2 or boxes._shape[-1] not in (None, 4)):
        raise ValueError(f"non_max_suppression_padded: boxes must be [..., num_boxes, 4], got shape "
                         f"{list(boxes._shape)}")
    size = static_value.constant_value(max_output_size)
    size = int(size) if size is not None else None
    return [(dtypes.int32, (None, size)), (dtypes.int32, (None,))]


non_max_suppression_padded_op = register(OpDef(
    "non_max_suppression_padded", _padded_kernel, _infer_padded, differentiable=False,
    doc="TF2's non_max_suppression_padded: tiled batched suppression, indices padded to max_output_size"))


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """`tf.image.non_max_suppression_padded`: (indices, num_valid); batched boxes [..., num_boxes, 4] need
    pad_to_max_output_size=True."""
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    rank = None if boxes._shape is None else len(boxes._shape)
    if not pad_to_max_output_size and rank is not None and rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched "
                         "input")
    inputs = (boxes, scores, convert_to_tensor(max_output_size, dtypes.int32),
              convert_to_tensor(iou_threshold, dtypes.float32), convert_to_tensor(score_threshold, scores.dtype))
    idx, num_valid = apply(non_max_suppression_padded_op, inputs,
                           {"sorted_input": bool(sorted_input),
                            "canonicalized_coordinates": bool(canonicalized_coordinates),
                            "tile_size": int(tile_size)}, name=name)
    batch_dims = _array.shape(boxes)[:-2]
    if not pad_to_max_output_size:
        return idx[0, :num_valid[0]], _array.reshape(num_valid, batch_dims)
    idx = _array.reshape(idx, _array.concat([batch_dims, _array.reshape(inputs[2], [1])], 0))
    return idx, _array.reshape(num_valid, batch_dims)
