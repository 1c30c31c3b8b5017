"""The bounding boxes of a dict input, checked and made dense as Keras 3's validation module does before a layer
moves them: {"boxes": (N, B, 4) or (B, 4), "labels": (N, B) or (B,)}, boxes as float32; ragged boxes padded
with 0 and their labels with -1."""

from __future__ import annotations

import tinytf as _tf


def _rank(value):
    return len(getattr(value, "shape", None) or _tf.convert_to_tensor(value).shape)


def validate_bounding_boxes(bounding_boxes) -> None:
    if not isinstance(bounding_boxes, dict) or "labels" not in bounding_boxes or "boxes" not in bounding_boxes:
        raise ValueError("Expected `bounding_boxes` agurment to be a dict with keys 'boxes' and 'labels'. Received: "
                         f"bounding_boxes={bounding_boxes}")
    boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
    if hasattr(boxes, "to_tensor"):
        if not hasattr(labels, "to_tensor"):
            raise ValueError("If `bounding_boxes['boxes']` is a Ragged tensor,  `bounding_boxes['labels']` must also "
                             f"be a Ragged tensor. Received: bounding_boxes['labels']={labels}")
        return
    boxes_rank, labels_rank = _rank(boxes), _rank(labels)
    boxes_shape = tuple(_tf.convert_to_tensor(boxes).shape)
    labels_shape = tuple(_tf.convert_to_tensor(labels).shape)
    if boxes_rank == 2 and labels_rank not in (1, 2):
        raise ValueError(f"Found bounding_boxes['boxes'].shape={boxes_shape} and expected bounding_boxes['labels'] "
                         f"to have rank 1 or 2, but received: bounding_boxes['labels'].shape={labels_shape} ")
    if boxes_rank == 3 and labels_rank not in (2, 3):
        raise ValueError(f"Found bounding_boxes['boxes'].shape={boxes_shape} and expected bounding_boxes['labels'] "
                         f"to have rank 2 or 3, but received: bounding_boxes['labels'].shape={labels_shape} ")
    if boxes_rank not in (2, 3):
        raise ValueError("Expected `bounding_boxes['boxes']` to have rank 2 or 3, with shape (num_boxes, 4) or "
                         f"(batch_size, num_boxes, 4). Received: bounding_boxes['boxes'].shape={boxes_shape}")


def densify_bounding_boxes(bounding_boxes):
    """The dict with "boxes" a float32 tensor and "labels" a tensor (ragged ones padded: boxes with 0, labels
    with -1)."""
    validate_bounding_boxes(bounding_boxes)
    boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
    if hasattr(boxes, "to_tensor"):
        bounding_boxes["boxes"] = _tf.cast(boxes.to_tensor(default_value=0), "float32")
        bounding_boxes["labels"] = labels.to_tensor(default_value=-1)
        return bounding_boxes
    bounding_boxes["boxes"] = _tf.cast(_tf.convert_to_tensor(boxes), "float32")
    bounding_boxes["labels"] = _tf.convert_to_tensor(labels)
    return bounding_boxes
