"""tf.image.sample_distorted_bounding_box and its stateless twin: TF's kernels registered as ops
(runtime/ops/image_distorted_box.py), drawing TF's numbers for the same seeds."""

from __future__ import annotations

from tinytf.runtime.ops.image_distorted_box import (
    sample_distorted_bounding_box,
    stateless_sample_distorted_bounding_box,
)

__all__ = ["sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box"]
