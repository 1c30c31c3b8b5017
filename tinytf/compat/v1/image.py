"""tf.compat.v1.image: TF1's image functions whose arguments or ops differ from TF2's (the raw ResizeBicubic and
ResizeArea with align_corners, crop_and_resize's `box_ind`, draw_bounding_boxes' argument order,
sample_distorted_bounding_box's `seed2`), on tinytf's registered ops as TF 2.21's compat.v1 wrappers call
them. The other names of TF's compat.v1.image are TF2's own (tf1_aliases.py)."""

from tinytf.runtime.context import state as _state
from tinytf.runtime.dispatch import apply as _apply
from tinytf.runtime.dispatch import convert_to_tensor as _convert
from tinytf.runtime.ops import image_crop_and_resize as _crops
from tinytf.runtime.ops import image_distorted_box as _distorted
from tinytf.runtime.ops import image_glimpse_and_boxes as _boxes
from tinytf.runtime.ops import image_resize_kernels as _kernels
from tinytf.runtime.ops.random import RandomStream as _RandomStream

from .deprecated_args import one_of as _one_of
from .image_resize_v1 import *  # noqa: F401,F403 - TF1's resize family (helper v1alias)
from .tf1_aliases import install as _install


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """TF's ResizeBicubic on a 4-D batch: the legacy rule (a = -0.75, out * scale) unless half_pixel_centers."""
    return _kernels.resize_bicubic(images, size, align_corners, half_pixel_centers, name=name)


def resize_area(images, size, align_corners=False, name=None):
    """TF's ResizeArea on a 4-D batch."""
    return _kernels.resize_area(images, size, align_corners, name=name)


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear", extrapolation_value=0, name=None,
                    box_indices=None):
    """TF1's crop_and_resize: `box_ind` is the old name of `box_indices`."""
    box_ind = _one_of("box_indices", box_indices, "box_ind", box_ind)
    return _crops.crop_and_resize(image, boxes, box_ind, crop_size, method, extrapolation_value, name=name)


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """TF1's argument order; colors None draws with TF's ten-colour table."""
    return _boxes.draw_bounding_boxes(images, boxes, colors, name=name)


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """TF1's: `seed` and `seed2` are the kernel's own seeds (the global seed plays no part); both unset or zero
    means unseeded."""
    attrs = _distorted.attributes(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    seeds = (int(seed or 0), int(seed2 or 0))
    attrs["stream"] = _RandomStream(seeds if any(seeds) else None, shared=_state.graph is None)
    inputs = (_convert(image_size), _convert(bounding_boxes, "float32"), _convert(min_object_covered, "float32"))
    return tuple(_apply(_distorted.sample_distorted_bounding_box_op, inputs, attrs, name=name))


_install(globals(), "image")
