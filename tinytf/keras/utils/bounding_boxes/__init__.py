"""keras.utils.bounding_boxes as Keras 3.15 (TF 2.21) exports it: format conversion, clipping, cropping, padding
and affine moves of boxes, anchor deltas, IoU and complete IoU."""

from .converters import (
    affine_transform,
    clip_to_image_size,
    convert_format,
    crop,
    decode_deltas_to_boxes,
    encode_box_to_deltas,
    pad,
)
from .iou import compute_ciou, compute_iou

__all__ = ["affine_transform", "clip_to_image_size", "compute_ciou", "compute_iou", "convert_format", "crop",
           "decode_deltas_to_boxes", "encode_box_to_deltas", "pad"]
