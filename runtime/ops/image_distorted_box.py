"""TF's SampleDistortedBoundingBoxV2 and StatelessSampleDistortedBoundingBox: a random crop of an image (the
Inception preprocessing's) whose aspect ratio and relative area lie in given ranges and which covers at least
`min_object_covered` of one of the given boxes, found in at most `max_attempts` tries (else the whole image).

The search is TF's kernel step by step (its GenerateRandomCrop and SatisfiesOverlapConstraints, with lrintf
rounding and integer pixel rectangles), drawing from TF's SimplePhilox word stream: an aspect ratio is
Uint32ToFloat of one word, a height and the offsets are ExactUniformInt draws (rejection of the low words).
The stateless op seeds Philox as TF's stateless kernels do, so it gives TF's crops; the stateful one reserves
4 * max_attempts words of its kernel's generator per run, as TF's, so seeded runs give TF's crops as well."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import FailedPreconditionError, InvalidArgumentError
from ..registry import OpDef, register
from . import philox
from .random import RandomStream, stream_for
from .stateless_random import generator_from_seed

_SIZE_DTYPES = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)
_F32 = np.float32


def _lrintf(x) -> int:
    return int(np.rint(_F32(x)))


def _uniform(words, n: int) -> int:
    """TF's ExactUniformInt for uint32: a word masked (n a power of two) or rejection-sampled modulo n."""
    if n == 0:
        words.word()
        return 0
    if n & (n - 1) == 0:
        return words.word() & (n - 1)
    rem = (0xFFFFFFFF % n) + 1
    while True:
        value = words.word()
        if value >= rem:
            return value % n


def _rand_float(words) -> np.float32:
    """Uint32ToFloat: 23 mantissa bits as a float in [1, 2), minus 1."""
    return np.array([0x3F800000 | (words.word() & 0x7FFFFF)], np.uint32).view(np.float32)[0] - _F32(1)


def _random_crop(words, width, height, aspect, min_relative, max_relative):
    """TF's GenerateRandomCrop: (x, y, width, height) or None when the constraints cannot be met."""
    min_area = _F32(min_relative * _F32(width) * _F32(height))
    max_area = _F32(max_relative * _F32(width) * _F32(height))
    crop_h = _lrintf(np.sqrt(_F32(min_area / aspect), dtype=_F32))
    max_h = _lrintf(np.sqrt(_F32(max_area / aspect), dtype=_F32))
    if _lrintf(_F32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - 0.0000001) / float(aspect))
        if _lrintf(_F32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    crop_h = min(crop_h, max_h)
    if crop_h < max_h:
        crop_h += _uniform(words, max_h - crop_h + 1)
    crop_w = _lrintf(_F32(crop_h) * aspect)
    area = _F32(crop_w * crop_h)
    if area < min_area:
        crop_h += 1
        crop_w = _lrintf(_F32(crop_h) * aspect)
        area = _F32(crop_w * crop_h)
    if area > max_area:
        crop_h -= 1
        crop_w = _lrintf(_F32(crop_h) * aspect)
        area = _F32(crop_w * crop_h)
    if area < min_area or area > max_area or crop_w > width or crop_h > height or crop_w <= 0 or crop_h <= 0:
        return None
    y = _uniform(words, height - crop_h) if crop_h < height else 0
    x = _uniform(words, width - crop_w) if crop_w < width else 0
    return x, y, crop_w, crop_h


def _covers(crop, min_covered, boxes):
    """TF's SatisfiesOverlapConstraints: the crop has pixels and covers enough of at least one box."""
    x, y, w, h = crop
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in boxes:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        ix0, iy0, ix1, iy1 = max(x, x0), max(y, y0), min(x + w, x1), min(y + h, y1)
        inter = (ix1 - ix0) * (iy1 - iy0) if ix0 < ix1 and iy0 < iy1 else 0
        if _F32(_F32(inter) / _F32(area)) >= min_covered:
            return True
    return False


def sample_box(image_size, bounding_boxes, min_object_covered, words, *, aspect_ratio_range, area_range,
               max_attempts, use_image_if_no_bounding_boxes):
    size = np.asarray(image_size)
    if size.ndim != 1:
        raise InvalidArgumentError(f"image_size must be 1-dimensional, got shape {list(size.shape)}")
    if size.shape[0] != 3:
        raise InvalidArgumentError(f"image_size must contain 3 elements, got {size.shape[0]}")
    height, width = int(size[0]), int(size[1])
    boxes = np.asarray(bounding_boxes, np.float32)
    if boxes.ndim != 3:
        raise InvalidArgumentError(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                                   f"{list(boxes.shape)}")
    if boxes.shape[-1] != 4:
        raise InvalidArgumentError(f"bounding boxes must have shape [4] or [*, 4], got {list(boxes.shape)}")
    min_covered = _F32(np.asarray(min_object_covered))
    if min_covered < 0:
        raise InvalidArgumentError(f"Min object covered must be non-negative: {min_covered}")
    rects = []
    for y0, x0, y1, x1 in boxes.reshape(-1, 4):
        bad = [v for v in (y0, x0, y1, x1) if not 0.0 <= v <= 1.0]
        if bad:
            raise InvalidArgumentError(f"All bounding box coordinates must be in [0.0, 1.0]: {bad[0]}")
        rects.append((int(x0 * _F32(width)), int(y0 * _F32(height)), int(x1 * _F32(width)), int(y1 * _F32(height))))
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise InvalidArgumentError("No bounding boxes provided as input. One must enable "
                                       "use_image_if_no_bounding_boxes if you wish to not provide any bounding boxes.")
        rects.append((0, 0, width, height))
    low_aspect, high_aspect = (_F32(v) for v in aspect_ratio_range)
    crop = None
    for _ in range(max_attempts):
        aspect = _F32(_rand_float(words) * _F32(high_aspect - low_aspect) + low_aspect)
        candidate = _random_crop(words, width, height, aspect, _F32(area_range[0]), _F32(area_range[1]))
        if candidate is not None and _covers(candidate, min_covered, rects):
            crop = candidate
            break
    x, y, w, h = crop if crop is not None else (0, 0, width, height)
    if width < w + x:
        raise FailedPreconditionError(f"width must be > target + offset: {width} vs {w} + {x}")
    if height < h + y:
        raise FailedPreconditionError(f"height must be >= target + offset: {height} vs {h} + {y}")
    begin = np.array([y, x, 0], np.int64).astype(size.dtype)
    extent = np.array([h, w, -1], np.int64).astype(size.dtype)  # -1 wraps in unsigned types, as TF's static_cast
    box = np.array([[[_F32(y) / _F32(height), _F32(x) / _F32(width), _F32(y + h) / _F32(height),
                      _F32(x + w) / _F32(width)]]], np.float32)
    return begin, extent, box


def _infer(image_size, bounding_boxes, min_object_covered, *rest, **attrs):
    if image_size.dtype not in _SIZE_DTYPES:
        raise TypeError(f"SampleDistortedBoundingBox: image_size must be an integer tensor (uint8, int8, int16, "
                        f"int32, int64), got {image_size.dtype.name}")
    if image_size._shape is not None and image_size._shape not in ((3,), (None,)):
        raise ValueError(f"SampleDistortedBoundingBox: image_size must be 1-D with 3 elements, got shape "
                         f"{list(image_size._shape)}")
    if bounding_boxes._shape is not None and (len(bounding_boxes._shape) != 3 or
                                              bounding_boxes._shape[-1] not in (None, 4)):
        raise ValueError(f"SampleDistortedBoundingBox: bounding_boxes must be 3-D [batch, num_boxes, 4], got shape "
                         f"{list(bounding_boxes._shape)}")
    return [(image_size.dtype, (3,)), (image_size.dtype, (3,)), (dtypes.float32, (1, 1, 4))]


def _stateful_kernel(image_size, bounding_boxes, min_object_covered, *, stream, **attrs):
    generator = stream.generator_for("sample_distorted_bounding_box_v2", image_size.dtype)
    words = philox.WordStream(generator.key, generator.reserve(attrs["max_attempts"]))  # 4 * max_attempts words
    return sample_box(image_size, bounding_boxes, min_object_covered, words, **attrs)


sample_distorted_bounding_box_op = register(OpDef(
    "sample_distorted_bounding_box", _stateful_kernel, _infer, stateful=True, differentiable=False,
    doc="TF's SampleDistortedBoundingBoxV2: a random crop covering enough of a box"))


def _stateless_kernel(image_size, bounding_boxes, min_object_covered, seed, **attrs):
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {list(seed.shape)}")
    generator = generator_from_seed(seed)
    words = philox.WordStream(generator.key, generator.counter)
    return sample_box(image_size, bounding_boxes, min_object_covered, words, **attrs)


def _infer_stateless(image_size, bounding_boxes, min_object_covered, seed, **attrs):
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"StatelessSampleDistortedBoundingBox: seed must be int32 or int64, got {seed.dtype.name}")
    if seed._shape is not None and seed._shape not in ((2,), (None,)):
        raise ValueError(f"StatelessSampleDistortedBoundingBox: seed must have shape [2], not {list(seed._shape)}")
    return _infer(image_size, bounding_boxes, min_object_covered)


stateless_sample_distorted_bounding_box_op = register(OpDef(
    "stateless_sample_distorted_bounding_box", _stateless_kernel, _infer_stateless, differentiable=False,
    doc="TF's StatelessSampleDistortedBoundingBox: the same search, determined by a seed"))


def attributes(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes):
    """The kernel attributes, with TF's defaults and checks."""
    aspect_ratio_range = [float(v) for v in (aspect_ratio_range or (0.75, 1.33))]
    area_range = [float(v) for v in (area_range or (0.05, 1.0))]
    max_attempts = 100 if max_attempts is None else int(max_attempts)
    if len(aspect_ratio_range) != 2:
        raise ValueError(f"aspect_ratio_range must have 2 elements, got {aspect_ratio_range}")
    if len(area_range) != 2:
        raise ValueError(f"area_range must have 2 elements, got {area_range}")
    if not all(v > 0 for v in aspect_ratio_range):
        raise ValueError(f"aspect_ratio_range must be positive: [{aspect_ratio_range[0]}, {aspect_ratio_range[1]}]")
    if not all(0 < v <= 1 for v in area_range):
        raise ValueError(f"area_range must be in (0, 1]: [{area_range[0]}, {area_range[1]}]")
    if max_attempts <= 0:
        raise ValueError(f"max_attempts must be positive: {max_attempts}")
    return {"aspect_ratio_range": tuple(aspect_ratio_range), "area_range": tuple(area_range),
            "max_attempts": max_attempts, "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """`tf.image.sample_distorted_bounding_box`: (begin, size, bboxes) of a random crop; seed 0 (the default)
    means unseeded, whatever the global seed (TF2's rule); a seed pairs with the global seed."""
    attrs = attributes(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    attrs["stream"] = stream_for(seed) if seed else RandomStream(None, shared=False)
    inputs = (convert_to_tensor(image_size), convert_to_tensor(bounding_boxes, dtypes.float32),
              convert_to_tensor(min_object_covered, dtypes.float32))
    return tuple(apply(sample_distorted_bounding_box_op, inputs, attrs, name=name))


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed, min_object_covered=0.1,
                                            aspect_ratio_range=None, area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`tf.image.stateless_sample_distorted_bounding_box`: the crop TF gives for `seed` (shape [2])."""
    attrs = attributes(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        seed = convert_to_tensor(np.asarray(seed._value, np.int64))
    inputs = (convert_to_tensor(image_size), convert_to_tensor(bounding_boxes, dtypes.float32),
              convert_to_tensor(min_object_covered, dtypes.float32), seed)
    return tuple(apply(stateless_sample_distorted_bounding_box_op, inputs, attrs, name=name))
