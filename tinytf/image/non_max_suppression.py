"""tf.image's non-max suppressions: TF's NMS kernels registered as ops (runtime/ops/image_nms.py for the
greedy and soft-NMS selections, image_nms_batched.py for the combined and padded batched forms)."""

from __future__ import annotations

from tinytf.runtime.ops.image_nms import (
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_with_scores,
)
from tinytf.runtime.ops.image_nms_batched import combined_non_max_suppression, non_max_suppression_padded

__all__ = ["combined_non_max_suppression", "non_max_suppression", "non_max_suppression_overlaps",
           "non_max_suppression_padded", "non_max_suppression_with_scores"]
