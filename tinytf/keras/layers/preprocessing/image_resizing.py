"""Resizing and CenterCrop: deterministic size changes, the same in training and inference. Resizing is Keras'
`ops.image.resize` on TF (tf.image.resize after an optional central crop or symmetric padding to the target's
aspect ratio); CenterCrop cuts the central window, or, when the image is smaller than the window, crops to
the window's aspect ratio and resizes (Keras' smart_resize). Bounding boxes and segmentation masks (resized
nearest-neighbour, in their own dtype, by Resizing; cut and cast as the images by CenterCrop) follow as Keras
moves them."""

from __future__ import annotations

import tinytf as _tf
from tinytf.keras.utils.bounding_boxes import clip_to_image_size, convert_format

from .image_layer_base import BaseImagePreprocessingLayer, height_width

_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")  # Keras 3's TF backend


def _scaled(size, target_num, target_den):
    """int(float32(size * num) / den), as Keras computes aspect-ratio sizes (Python ints when size is)."""
    if isinstance(size, int):
        return int(float(size * target_num) / target_den)
    return _tf.cast(_tf.cast(size * target_num, "float32") / target_den, "int32")


def _half(size):
    return int(float(size) / 2) if isinstance(size, int) else _tf.cast(_tf.cast(size, "float32") / 2, "int32")


def _clip(value, low, high):
    """value clipped to [low, high] (high None: no upper bound), in Python when every part is an int."""
    if all(isinstance(v, int) for v in (value, low, high) if v is not None):
        return max(value if high is None else min(high, value), low)
    return _tf.maximum(value if high is None else _tf.minimum(high, value), low)


def _crop_box(height, width, target_height, target_width):
    crop_height = _clip(_scaled(width, target_height, target_width), 1, height)
    crop_width = _clip(_scaled(height, target_width, target_height), 1, width)
    return _half(height - crop_height), _half(width - crop_width), crop_height, crop_width


def crop_corner(height, width, target_height, target_width):
    """(top, left) of the largest central window of the target's aspect ratio."""
    return _crop_box(height, width, target_height, target_width)[:2]


def crop_to_aspect_ratio(images, target_height, target_width):
    """The largest central window of the target's aspect ratio (Keras' crop_to_aspect_ratio / smart_resize)."""
    top, left, crop_height, crop_width = _crop_box(*height_width(images), target_height, target_width)
    return images[:, top:top + crop_height, left:left + crop_width, :]


def pad_to_aspect_ratio(images, target_height, target_width, fill_value):
    """Keras' pad_to_aspect_ratio: `fill_value` rows (columns) added on both sides, half the missing size each."""
    height, width = height_width(images)
    pad_height = _clip(_scaled(width, target_height, target_width), height, None)
    pad_width = _clip(_scaled(height, target_width, target_height), width, None)
    top, left = _half(pad_height - height), _half(pad_width - width)
    paddings = _tf.stack([[0, 0], _tf.stack([top, top]), _tf.stack([left, left]), [0, 0]])
    return _tf.pad(images, _tf.cast(paddings, "int32"), constant_values=_tf.cast(fill_value, images.dtype))


def resize_images(images, height, width, interpolation="bilinear", crop_to_aspect=False, pad_to_aspect=False,
                  fill_value=0.0, antialias=False):
    """Keras' ops.image.resize (TF backend) on a channels-last batch."""
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if crop_to_aspect and pad_to_aspect:
        raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be `True`.")
    if crop_to_aspect:
        images = crop_to_aspect_ratio(images, height, width)
    elif pad_to_aspect:
        images = pad_to_aspect_ratio(images, height, width, fill_value)
    return _tf.image.resize(images, (height, width), method=interpolation, antialias=antialias)


def _output_shape(layer, input_shape):
    shape = list(input_shape)
    if len(shape) not in (3, 4):
        raise ValueError(f"Layer '{layer.name}': `input_shape` must be of rank 3 (unbatched) or 4 (batched), got "
                         f"{tuple(input_shape)}")
    height_axis = -2 if layer.data_format == "channels_first" else -3
    shape[height_axis], shape[height_axis + 1] = layer.height, layer.width
    return tuple(shape)


class Resizing(BaseImagePreprocessingLayer):
    """Resize images to (height, width), in training and inference alike; integer images come back rounded
    and saturated in their own dtype, as Keras does."""

    _USE_BASE_FACTOR = False
    _casts_input = False

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if fill_mode != "constant":
            raise ValueError(f"Invalid value for argument `fill_mode`. Only `'constant'` is supported. Received: "
                             f"fill_mode={fill_mode}")
        self.height, self.width = height, width  # the interpolation is checked at call, as Keras' backend does
        self.interpolation = interpolation
        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio = crop_to_aspect_ratio, pad_to_aspect_ratio
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.antialias = bool(antialias)

    def transform(self, images, training):
        if images.dtype.is_floating and images.dtype.name != self.compute_dtype:
            images = _tf.cast(images, self.compute_dtype)
        return self._resized(images, self.interpolation)

    def _resized(self, images, interpolation):
        resized = resize_images(images, self.height, self.width, interpolation, self.crop_to_aspect_ratio,
                                self.pad_to_aspect_ratio, self.fill_value, self.antialias)
        if resized.dtype == images.dtype:
            return resized
        if images.dtype.is_integer:
            resized = _tf.round(resized)
        return _tf.dtypes.saturate_cast(resized, images.dtype)

    def get_random_transformation(self, images, training=True, seed=None):
        return height_width(images)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self._resized(segmentation_masks, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' boxes: scaled (and shifted by the padding or the crop), clipped to the new size; the padding
        boxes (all 0 or all -1) come out as zeros."""
        height, width = transformation
        boxes = bounding_boxes["boxes"]
        padding = _tf.logical_or(_tf.reduce_all(_tf.equal(boxes, -1), axis=-1),
                                 _tf.reduce_all(_tf.equal(boxes, 0), axis=-1))
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", height=height, width=width)
        bounding_boxes["boxes"] = self._moved_xyxy(bounding_boxes["boxes"], height, width)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=self.height, width=self.width)
        boxes = bounding_boxes["boxes"]
        bounding_boxes["boxes"] = _tf.where(_tf.expand_dims(padding, -1), _tf.zeros_like(boxes), boxes)
        return convert_format(bounding_boxes, "xyxy", self.bounding_box_format, height=self.height, width=self.width)

    def _moved_xyxy(self, boxes, height, width):
        height, width = _tf.cast(height, boxes.dtype), _tf.cast(width, boxes.dtype)
        if self.pad_to_aspect_ratio:
            ratio = _tf.minimum(self.height / height, self.width / width)
            y_offset = (self.height - height * ratio) // 2
            x_offset = (self.width - width * ratio) // 2
            scale_x = scale_y = ratio
        elif self.crop_to_aspect_ratio:
            source = width / height
            wider = source > self.width / self.height
            new_width = _tf.where(wider, self.height * source, _tf.cast(self.width, boxes.dtype))
            new_height = _tf.where(wider, _tf.cast(self.height, boxes.dtype), self.width / source)
            scale_x, scale_y = new_width / width, new_height / height
            x_offset, y_offset = -((new_width - self.width) // 2), -((new_height - self.height) // 2)
        else:
            scale_x, scale_y = self.width / width, self.height / height
            x_offset = y_offset = None
        moved = [boxes[..., 0] * scale_x, boxes[..., 1] * scale_y, boxes[..., 2] * scale_x, boxes[..., 3] * scale_y]
        if x_offset is not None:
            moved = [moved[0] + x_offset, moved[1] + y_offset, moved[2] + x_offset, moved[3] + y_offset]
        return _tf.stack(moved, axis=-1)

    def compute_output_shape(self, input_shape):
        return _output_shape(self, input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias}


class CenterCrop(BaseImagePreprocessingLayer):
    """The central height x width window; an image smaller than the window is cropped to its aspect ratio and
    resized up (bilinear) instead, as Keras does."""

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = height, width

    def transform(self, images, training):
        height, width = height_width(images)
        h_diff, w_diff = height - self.height, width - self.width
        if (not isinstance(h_diff, int) or h_diff >= 0) and (not isinstance(w_diff, int) or w_diff >= 0):
            top, left = h_diff // 2, w_diff // 2
            return images[:, top:top + self.height, left:left + self.width, :]
        return _tf.image.resize(crop_to_aspect_ratio(images, self.height, self.width), (self.height, self.width))

    def get_random_transformation(self, images, training=True, seed=None):
        return height_width(images)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform(_tf.cast(segmentation_masks, self.compute_dtype), training)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' boxes: clipped to the central window (or to the aspect-ratio crop, then scaled to the
        output size), then to the output."""
        height, width = transformation
        if not isinstance(height, int) or not isinstance(width, int):
            raise ValueError(f"Layer '{self.name}' (CenterCrop) moves bounding boxes only for images of a known "
                             f"height and width. Received: height={height}, width={width}")
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", height=height, width=width)
        h_diff, w_diff = height - self.height, width - self.width
        if h_diff >= 0 and w_diff >= 0:
            top, left = int(h_diff / 2), int(w_diff / 2)
            bounding_boxes["boxes"] = _window(bounding_boxes["boxes"], top, left, top + self.height,
                                              left + self.width)
        else:
            top, left, crop_height, crop_width = _crop_box(height, width, self.height, self.width)
            bounding_boxes["boxes"] = _window(bounding_boxes["boxes"], top, left, top + crop_height,
                                              left + crop_width)
            bounding_boxes = convert_format(bounding_boxes, "xyxy", "rel_xyxy", height=crop_height, width=crop_width)
            bounding_boxes = convert_format(bounding_boxes, "rel_xyxy", "xyxy", height=self.height, width=self.width)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=self.height, width=self.width)
        return convert_format(bounding_boxes, "xyxy", self.bounding_box_format, height=self.height, width=self.width)

    def compute_output_shape(self, input_shape):
        return _output_shape(self, input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width}


def _window(boxes, top, left, bottom, right):
    """"xyxy" boxes clipped to a window and moved to its corner."""
    x1, y1, x2, y2 = _tf.split(boxes, 4, axis=-1)

    def clip(v, low, high):
        return _tf.maximum(_tf.minimum(v, float(high)), float(low)) - float(low)

    return _tf.concat([clip(x1, left, right), clip(y1, top, bottom), clip(x2, left, right), clip(y2, top, bottom)],
                      axis=-1)
