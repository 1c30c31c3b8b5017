"""tf.image's window ops: crop_and_resize, extract_patches, extract_glimpse and draw_bounding_boxes, each TF's
kernel registered as an op (runtime/ops/image_crop_and_resize.py, image_patches.py,
image_glimpse_and_boxes.py); crop_and_resize and extract_patches have TF's gradients."""

from __future__ import annotations

from tinytf.runtime.ops.image_crop_and_resize import crop_and_resize
from tinytf.runtime.ops.image_glimpse_and_boxes import draw_bounding_boxes, extract_glimpse
from tinytf.runtime.ops.image_patches import extract_image_patches


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """`tf.image.extract_patches`: [batch, out_rows, out_cols, ksize_rows * ksize_cols * depth] windows, taken
    every `strides` with `rates` - 1 pixels skipped between taps; `padding` 'SAME' or 'VALID'."""
    return extract_image_patches(images, sizes, strides, rates, padding, name=name)


__all__ = ["crop_and_resize", "draw_bounding_boxes", "extract_glimpse", "extract_patches"]
