"""ContrastLimitedAdaptiveHistogramEqualization (CLAHE) as Keras 3 computes it: the image (padded
symmetrically to whole tiles) cut into a tile_grid_size grid, a 256-bin histogram per tile and channel clipped
at clip_limit * pixels / 256 with the excess spread evenly, each histogram's normalized cumulative counts a
lookup table, and every pixel looked up in its four nearest tiles' tables and blended bilinearly. Not random:
the same in training and inference; the result is cast back to the input's dtype."""

from __future__ import annotations

import tinytf as _tf

from .image_augment_base import AugmentLayer, transform_value_range


def _clahe(images, clip_limit, grid_h, grid_w):
    """Keras' _clahe on a channels-last batch (float32 values in [0, 255]) of static height, width, channels."""
    _, height, width, channels = (int(d) if d is not None else None for d in images.shape)
    if None in (height, width, channels):
        raise ValueError("ContrastLimitedAdaptiveHistogramEqualization needs images of a known height, width and "
                         f"channel count. Received: images.shape={images.shape}")
    n = _tf.shape(images)[0]
    tile_h, tile_w = (height + grid_h - 1) // grid_h, (width + grid_w - 1) // grid_w
    pad_h, pad_w = tile_h * grid_h - height, tile_w * grid_w - width
    padded = images
    if pad_h or pad_w:
        padded = _tf.pad(images, [[0, 0], [0, pad_h], [0, pad_w], [0, 0]], mode="SYMMETRIC")
    tiled = _tf.reshape(padded, _tf.stack([n, grid_h, tile_h, grid_w, tile_w, channels]))
    tiled = _tf.transpose(tiled, [0, 1, 3, 5, 2, 4])  # (n, grid_h, grid_w, channels, tile_h, tile_w)
    values = _tf.clip_by_value(_tf.cast(tiled, "int32"), 0, 255)
    # Keras sums one-hot rows in float32; counts below 2**24 are exact either way, so count them directly
    tiles = n * grid_h * grid_w * channels
    tile_of = _tf.reshape(_tf.range(tiles), [n, grid_h, grid_w, channels, 1, 1])
    bins = _tf.reshape(tile_of * 256 + values, [-1])
    counts = _tf.math.unsorted_segment_sum(_tf.ones_like(bins), bins, tiles * 256)  # (the batch may be dynamic)
    hists = _tf.cast(_tf.reshape(counts, _tf.stack([n, grid_h, grid_w, channels, 256])), "float32")
    if clip_limit > 0:
        limit = _tf.cast(clip_limit * (tile_h * tile_w) / 256.0, hists.dtype)
        clipped = _tf.clip_by_value(hists, 0.0, limit)
        hists = clipped + _tf.reduce_sum(hists - clipped, axis=-1, keepdims=True) / 256.0
    cdf = _tf.cumsum(hists, axis=-1)
    cdf_min = _tf.reduce_min(cdf, axis=-1, keepdims=True)
    denominator = _tf.cast(tile_h * tile_w, cdf.dtype) - cdf_min
    denominator = _tf.where(denominator == 0, _tf.ones_like(denominator), denominator)
    table = _tf.clip_by_value((cdf - cdf_min) * 255.0 / denominator, 0.0, 255.0)
    table = _tf.concat([table[:, :1], table, table[:, -1:]], axis=1)
    table = _tf.concat([table[:, :, :1], table, table[:, :, -1:]], axis=2)  # (n, grid_h + 2, grid_w + 2, c, 256)

    def axis_nodes(size, tile, grid):
        position = (_tf.range(size, dtype="float32") - tile / 2.0) / tile + 1.0
        low = _tf.floor(position)
        weight = position - low
        low_index = _tf.cast(_tf.clip_by_value(low, 0.0, grid + 1.0), "int32")
        high_index = _tf.cast(_tf.clip_by_value(low + 1.0, 0.0, grid + 1.0), "int32")
        return low_index, high_index, weight

    y0, y1, wy = axis_nodes(tile_h * grid_h, tile_h, grid_h)
    x0, x1, wx = axis_nodes(tile_w * grid_w, tile_w, grid_w)
    stride_x = 256 * channels
    stride_y = stride_x * (grid_w + 2)
    stride_b = stride_y * (grid_h + 2)
    flat = _tf.reshape(table, [-1])
    pixels = _tf.cast(_tf.clip_by_value(padded, 0.0, 255.0), "int32")
    base = (_tf.reshape(_tf.range(n), [-1, 1, 1, 1]) * stride_b
            + _tf.reshape(_tf.range(channels) * 256, [1, 1, 1, -1]) + pixels)
    y0, y1, wy = (_tf.reshape(v, [1, -1, 1, 1]) for v in (y0, y1, wy))
    x0, x1, wx = (_tf.reshape(v, [1, 1, -1, 1]) for v in (x0, x1, wx))

    def at(y, x):
        return _tf.gather(flat, base + y * stride_y + x * stride_x)

    top = at(y0, x0) * (1.0 - wx) + at(y0, x1) * wx
    bottom = at(y1, x0) * (1.0 - wx) + at(y1, x1) * wx
    return (top * (1.0 - wy) + bottom * wy)[:, :height, :width, :]


class ContrastLimitedAdaptiveHistogramEqualization(AugmentLayer):
    """Adaptive histogram equalization per tile and channel with a contrast limit (see the module's text)."""

    _USE_BASE_FACTOR = False
    _KEEPS_GEOMETRY = True
    _casts_input = False  # the result is cast back to the input's own dtype, as Keras casts it

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8), data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.clip_limit, self.tile_grid_size = value_range, clip_limit, tile_grid_size

    def transform_images(self, images, transformation=None, training=True):
        dtype = images.dtype
        images = transform_value_range(_tf.cast(images, "float32"), self.value_range, (0, 255), "float32")
        images = _clahe(images, self.clip_limit, int(self.tile_grid_size[0]), int(self.tile_grid_size[1]))
        images = transform_value_range(images, (0, 255), self.value_range, "float32")
        return _tf.cast(images, dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "clip_limit": self.clip_limit,
                "tile_grid_size": self.tile_grid_size, "data_format": self.data_format}
