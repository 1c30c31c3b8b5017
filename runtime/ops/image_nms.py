"""TF's non-max suppression kernels: NonMaxSuppressionV3 and V5 (greedy selection by score, hard or soft-NMS
with a Gaussian penalty), NonMaxSuppressionWithOverlaps (the same on a given similarity matrix) and
CombinedNonMaxSuppression (per class, then the best of all classes per image).

The greedy loop is TF's: a priority queue ordered by score and then by the lower box index; a candidate is
compared with the boxes selected since it was last looked at, newest first; soft-NMS scales its score by
exp(-iou^2 / (2 sigma)) and puts it back in the queue unless it fell to the score threshold. IoU is TF's
float32 formula on the boxes' canonical corners (a box of zero area overlaps nothing). The ops give indices
and detections, so TF registers no gradient: V3 and WithOverlaps output integers only; V5's and Combined's
float outputs are differentiable without a rule (a tape through them raises TF's LookupError)."""

from __future__ import annotations

import heapq

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import static_value

_BOX_DTYPES = (dtypes.float16, dtypes.float32)


def corners(boxes):
    """(ymin, xmin, ymax, xmax, area) of [..., 4] boxes given by any two opposite corners, in float32."""
    b = np.asarray(boxes, np.float32)
    ymin, ymax = np.minimum(b[..., 0], b[..., 2]), np.maximum(b[..., 0], b[..., 2])
    xmin, xmax = np.minimum(b[..., 1], b[..., 3]), np.maximum(b[..., 1], b[..., 3])
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def iou_with(box_corners, candidates, selected):
    """TF's IOU(candidate, selected) for index arrays that broadcast against each other, float32."""
    ymin, xmin, ymax, xmax, area = box_corners
    c, s = candidates, selected
    height = np.maximum(np.minimum(ymax[c], ymax[s]) - np.maximum(ymin[c], ymin[s]), np.float32(0))
    width = np.maximum(np.minimum(xmax[c], xmax[s]) - np.maximum(xmin[c], xmin[s]), np.float32(0))
    inter = height * width
    empty = (area[c] <= 0) | (area[s] <= 0)
    union = np.where(empty, np.float32(1), area[c] + area[s] - inter)
    return np.where(empty, np.float32(0), inter / union).astype(np.float32)


def greedy_select(similarity, scores, max_output_size, threshold, score_threshold, soft_nms_sigma=0.0):
    """TF's DoNonMaxSuppressionOp: (selected indices, their (possibly softened) scores).
    similarity(candidates, selected) gives their similarities (index arrays that broadcast)."""
    f32 = np.float32
    scores = np.asarray(scores, f32)
    threshold, score_threshold, sigma = f32(threshold), f32(score_threshold), f32(soft_nms_sigma)
    if not sigma > 0:
        return _hard_select(similarity, scores, max_output_size, threshold, score_threshold)
    scale = f32(-0.5) / sigma
    queue = [(-s, i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(queue)
    selected, selected_scores = [], []
    while len(selected) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = f32(-negative)
        if begin < len(selected):
            for sim in similarity(index, np.array(selected[begin:][::-1], np.int64)):  # newest first, as TF
                score = f32(score * np.exp(f32(scale * sim * sim), dtype=f32))
                if score <= score_threshold:
                    break
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(selected)))
    return np.array(selected, np.int32), np.array(selected_scores, f32)


def _hard_select(similarity, scores, max_output_size, threshold, score_threshold):
    """Hard NMS: TF's queue pops candidates by score, then lower index; one is dropped when any box selected
    before it is more similar than the threshold. The same selection, in blocks of the sorted order: a block's
    candidates that a box selected from an earlier block suppresses go first (one matrix, selected x block),
    then the similarities within the block are one matrix and the greedy pass over it runs on its rows as
    Python bit sets (candidate p is taken unless a row taken before it has bit p). Each similarity is the same
    float32 formula on the same two boxes as TF's (it is symmetric in them), so the same boxes are selected;
    candidates past the last block needed are never compared."""
    candidates = np.flatnonzero(scores > score_threshold)
    order = candidates[np.lexsort((candidates, -scores[candidates]))]
    between = similarity.in_order(order, threshold)  # between(s, c): [len(s), len(c)]: c's similarity to s's
    # boxes above the threshold?
    taken_positions = np.empty(0, np.int64)  # positions in `order` of the boxes selected so far
    start = 0
    while start < len(order) and len(taken_positions) < max_output_size:
        # a block of about twice the boxes still wanted (most candidates of random boxes survive), within
        # MIN_BLOCK..MAX_BLOCK: its matrix costs block^2, the earlier selections selected * block
        wanted = max_output_size - len(taken_positions)
        stop = min(len(order), start + max(MIN_BLOCK, 2 * wanted), start + MAX_BLOCK)
        block = np.arange(start, stop)
        start = stop
        if len(taken_positions):
            block = block[~between(taken_positions, block).any(axis=0)]
        if not block.size:
            continue
        rows = np.packbits(np.triu(between(block, block), 1), axis=1, bitorder="little")  # row q: what q suppresses
        suppressed, taken = 0, []
        for k in range(len(block)):
            if not suppressed >> k & 1:
                taken.append(k)
                if len(taken) == wanted:
                    break
                suppressed |= int.from_bytes(rows[k].tobytes(), "little")
        taken_positions = np.concatenate([taken_positions, block[taken]])
    selected = order[taken_positions].astype(np.int32)
    return selected, scores[selected].astype(np.float32)


MIN_BLOCK = 64  # blocks of 64-128 candidates (docs/performance.md, Image kernels): blocks of 1024 took 2.3x the
MAX_BLOCK = 128  # time of these to keep all of 2000 random boxes


class _BoxIoU:
    """TF's IOU between boxes, for candidates against selected boxes (index arrays that broadcast), and along
    a fixed order (corners sorted once)."""

    def __init__(self, boxes):
        self.corners = corners(boxes)

    def __call__(self, candidates, selected):
        return iou_with(self.corners, candidates, selected)

    def in_order(self, order, threshold):
        ymin, xmin, ymax, xmax, area = (c[order] for c in self.corners)

        def between(s, c):
            """[len(s), len(c)]: IOU(order[c], order[s]) > threshold? A pair above the threshold (>= 0)
            intersects, and float32 min(a, b) - max(d, e) > 0 needs a > d, a > e, b > d and b > e: TF's float32
            formula, term by term, runs on the pairs that pass those comparisons, the others are below."""
            ts = s[:, None]
            hit = (ymax[c] > ymin[ts]) & (ymax[ts] > ymin[c]) & (xmax[c] > xmin[ts]) & (xmax[ts] > xmin[c])
            rows, cols = np.nonzero(hit)
            p, q = c[cols], s[rows]
            height = np.maximum(np.minimum(ymax[p], ymax[q]) - np.maximum(ymin[p], ymin[q]), np.float32(0))
            width = np.maximum(np.minimum(xmax[p], xmax[q]) - np.maximum(xmin[p], xmin[q]), np.float32(0))
            inter = height * width
            empty = (area[p] <= 0) | (area[q] <= 0)
            union = np.where(empty, np.float32(1), area[p] + area[q] - inter)
            hit[rows, cols] = np.where(empty, np.float32(0), inter / union) > threshold
            return hit
        return between


class _GivenOverlaps:
    """NonMaxSuppressionWithOverlaps' similarity: overlaps[candidate, selected]."""

    def __init__(self, overlaps):
        self.matrix = np.asarray(overlaps, np.float32)

    def __call__(self, candidates, selected):
        return self.matrix[candidates, selected]

    def in_order(self, order, threshold):
        return lambda s, c: self.matrix[np.ix_(order[c], order[s])].T > threshold


def _scalar(value, name, op_name):
    value = np.asarray(value)
    if value.ndim != 0:
        raise InvalidArgumentError(f"{op_name}: {name} must be 0-D, got shape {list(value.shape)}")
    return value.item()


def _check_boxes_scores(boxes, scores, op_name):
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(f"{op_name}: boxes must be 2-D [num_boxes, 4], got shape {list(boxes.shape)}")
    if scores.ndim != 1 or scores.shape[0] != boxes.shape[0]:
        raise InvalidArgumentError(f"{op_name}: scores has incompatible shape {list(scores.shape)} for "
                                   f"{boxes.shape[0]} boxes")


def _check_iou(iou_threshold, op_name):
    if not 0 <= iou_threshold <= 1:
        raise InvalidArgumentError(f"{op_name}: iou_threshold must be in [0, 1], got {iou_threshold}")


def _v3_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold):
    size = _scalar(max_output_size, "max_output_size", "NonMaxSuppressionV3")
    iou = _scalar(iou_threshold, "iou_threshold", "NonMaxSuppressionV3")
    _check_iou(iou, "NonMaxSuppressionV3")
    _check_boxes_scores(boxes, scores, "NonMaxSuppressionV3")
    return greedy_select(_BoxIoU(boxes), scores, size, iou,
                         _scalar(score_threshold, "score_threshold", "NonMaxSuppressionV3"))[0]


def _check_inputs(op_name, boxes, scores, *scalars):
    for name, t in (("boxes", boxes), ("scores", scores)):
        if t.dtype not in _BOX_DTYPES:
            raise TypeError(f"{op_name}: {name} must be float32 or float16, got {t.dtype.name}")
    if boxes._shape is not None and (len(boxes._shape) != 2 or boxes._shape[1] not in (None, 4)):
        raise ValueError(f"{op_name}: boxes must be 2-D [num_boxes, 4], got shape {list(boxes._shape)}")
    if scores._shape is not None and len(scores._shape) != 1:
        raise ValueError(f"{op_name}: scores must be 1-D [num_boxes], got shape {list(scores._shape)}")
    if boxes._shape is not None and scores._shape is not None and None not in (boxes._shape[0], scores._shape[0]) \
            and boxes._shape[0] != scores._shape[0]:
        raise ValueError(f"{op_name}: scores has incompatible shape: {scores._shape[0]} scores for "
                         f"{boxes._shape[0]} boxes")
    for name, t in scalars:
        if t._shape is not None and len(t._shape) != 0:
            raise ValueError(f"{op_name}: {name} must be 0-D, got shape {list(t._shape)}")


def _infer_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    _check_inputs("NonMaxSuppressionV3", boxes, scores, ("max_output_size", max_output_size),
                  ("iou_threshold", iou_threshold), ("score_threshold", score_threshold))
    return dtypes.int32, (None,)


non_max_suppression_v3_op = register(OpDef(
    "non_max_suppression_v3", _v3_kernel, _infer_v3, differentiable=False,
    doc="TF's NonMaxSuppressionV3: the indices greedy IoU suppression selects, best score first"))


def _v5_kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma, *,
               pad_to_max_output_size):
    size = _scalar(max_output_size, "max_output_size", "NonMaxSuppressionV5")
    iou = _scalar(iou_threshold, "iou_threshold", "NonMaxSuppressionV5")
    _check_iou(iou, "NonMaxSuppressionV5")
    sigma = _scalar(soft_nms_sigma, "soft_nms_sigma", "NonMaxSuppressionV5")
    if sigma < 0:
        raise InvalidArgumentError(f"NonMaxSuppressionV5: soft_nms_sigma must be non-negative, got {sigma}")
    _check_boxes_scores(boxes, scores, "NonMaxSuppressionV5")
    indices, kept = greedy_select(_BoxIoU(boxes), scores, size, iou,
                                  _scalar(score_threshold, "score_threshold", "NonMaxSuppressionV5"), sigma)
    valid = np.int32(len(indices))
    if pad_to_max_output_size and len(indices) < size:
        indices = np.concatenate([indices, np.zeros(size - len(indices), np.int32)])
        kept = np.concatenate([kept, np.zeros(size - len(kept), np.float32)])
    return indices, kept.astype(scores.dtype), valid


def _infer_v5(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma, *,
              pad_to_max_output_size):
    _check_inputs("NonMaxSuppressionV5", boxes, scores, ("max_output_size", max_output_size),
                  ("iou_threshold", iou_threshold), ("score_threshold", score_threshold),
                  ("soft_nms_sigma", soft_nms_sigma))
    size = static_value.constant_value(max_output_size) if pad_to_max_output_size else None
    length = int(size) if size is not None else None
    return [(dtypes.int32, (length,)), (scores.dtype, (length,)), (dtypes.int32, ())]


non_max_suppression_v5_op = register(OpDef(
    "non_max_suppression_v5", _v5_kernel, _infer_v5,
    doc="TF's NonMaxSuppressionV5: greedy or soft-NMS selection, with the selected (softened) scores"))


def _overlaps_kernel(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    op_name = "NonMaxSuppressionWithOverlaps"
    size = _scalar(max_output_size, "max_output_size", op_name)
    if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1]:
        raise InvalidArgumentError(f"{op_name}: overlaps must be square [num_boxes, num_boxes], got shape "
                                   f"{list(overlaps.shape)}")
    if scores.ndim != 1 or scores.shape[0] != overlaps.shape[0]:
        raise InvalidArgumentError(f"{op_name}: scores has incompatible shape {list(scores.shape)} for "
                                   f"{overlaps.shape[0]} boxes")
    matrix = np.asarray(overlaps, np.float32)
    return greedy_select(_GivenOverlaps(matrix), scores, size,
                         _scalar(overlap_threshold, "overlap_threshold", op_name),
                         _scalar(score_threshold, "score_threshold", op_name))[0]


def _infer_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    op_name = "NonMaxSuppressionWithOverlaps"
    if overlaps.dtype != dtypes.float32 or scores.dtype != dtypes.float32:
        raise TypeError(f"{op_name}: overlaps and scores must be float32, got {overlaps.dtype.name} and "
                        f"{scores.dtype.name}")
    if overlaps._shape is not None and len(overlaps._shape) != 2:
        raise ValueError(f"{op_name}: overlaps must be 2-D, got shape {list(overlaps._shape)}")
    if scores._shape is not None and len(scores._shape) != 1:
        raise ValueError(f"{op_name}: scores must be 1-D, got shape {list(scores._shape)}")
    return dtypes.int32, (None,)


non_max_suppression_with_overlaps_op = register(OpDef(
    "non_max_suppression_with_overlaps", _overlaps_kernel, _infer_overlaps, differentiable=False,
    doc="TF's NonMaxSuppressionWithOverlaps: greedy suppression on a given overlap matrix"))


def _thresholds(iou_threshold, score_threshold):
    return convert_to_tensor(iou_threshold, dtypes.float32), convert_to_tensor(score_threshold, dtypes.float32)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """`tf.image.non_max_suppression`: int32 indices of the selected boxes, best score first."""
    iou, score = _thresholds(iou_threshold, score_threshold)
    inputs = (convert_to_tensor(boxes), convert_to_tensor(scores), convert_to_tensor(max_output_size, dtypes.int32),
              iou, score)
    return apply(non_max_suppression_v3_op, inputs, name=name)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """`tf.image.non_max_suppression_with_scores`: (indices, scores), soft-NMS when soft_nms_sigma > 0."""
    iou, score = _thresholds(iou_threshold, score_threshold)
    inputs = (convert_to_tensor(boxes), convert_to_tensor(scores), convert_to_tensor(max_output_size, dtypes.int32),
              iou, score, convert_to_tensor(soft_nms_sigma, dtypes.float32))
    indices, kept, _ = apply(non_max_suppression_v5_op, inputs, {"pad_to_max_output_size": False}, name=name)
    return indices, kept


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """`tf.image.non_max_suppression_overlaps`: greedy selection where overlaps[i, j] is the boxes' similarity."""
    overlap, score = _thresholds(overlap_threshold, score_threshold)
    inputs = (convert_to_tensor(overlaps, dtypes.float32), convert_to_tensor(scores, dtypes.float32),
              convert_to_tensor(max_output_size, dtypes.int32), overlap, score)
    return apply(non_max_suppression_with_overlaps_op, inputs, name=name)
