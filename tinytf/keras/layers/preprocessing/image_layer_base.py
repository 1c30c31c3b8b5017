"""What Keras 3's image preprocessing layers share (its BaseImagePreprocessingLayer): one image (H, W, C) or a
batch (N, H, W, C) in, `data_format` (channels_first is transposed to channels_last around the work), the
`factor` argument's checks, a seed generator made in the constructor as Keras makes it, and `training`
defaulting to True (Keras' signature): a random layer called directly augments, in `fit` it augments, in
`predict`/`evaluate` (training=False) it passes images through, cast to the layer's compute dtype."""

from __future__ import annotations

import tinytf as _tf

from ...random import SeedGenerator
from ..layer import Layer


def standardize_data_format(data_format) -> str:
    if data_format is None:
        return "channels_last"
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format


class BaseImagePreprocessingLayer(Layer):
    """Subclasses write `transform(images, training)` on a channels-last batch (a float tensor of the layer's
    compute dtype unless `_casts_input` is False)."""

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)
    _casts_input = True

    def __init__(self, factor=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {type(self).__name__} does not take a `factor` argument. Received: "
                             f"factor={factor}")
        self.supports_masking = False

    def _set_factor(self, factor) -> None:
        low, high = self._FACTOR_BOUNDS
        message = (f"The `factor` argument should be a number (or a list of two numbers) in the range [{low}, "
                   f"{high}]. Received: factor={factor}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > high or factor[1] < low:
                raise ValueError(message)
            lower, upper = sorted(factor)
        elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
            if factor < low or factor > high:
                raise ValueError(message)
            factor = abs(factor)
            lower, upper = max(-factor, low), factor
        else:
            raise ValueError(message)
        self.factor = (lower, upper)

    def _make_generator(self, seed) -> SeedGenerator:
        """Keras' `self.generator = SeedGenerator(seed)`: a seed of None draws Keras' default seed now."""
        return SeedGenerator(seed)

    def call(self, inputs, training=True):
        images = _tf.convert_to_tensor(inputs)
        rank = images.shape.rank
        if rank not in (3, 4):
            raise ValueError(f"Layer '{self.name}' ({type(self).__name__}) expected the input image to be rank 3 "
                             f"or 4. Received: inputs.shape={images.shape}")
        if self._casts_input and images.dtype.name != self.compute_dtype:
            images = _tf.cast(images, self.compute_dtype)
        single = rank == 3
        batch = _tf.expand_dims(images, 0) if single else images
        if self.data_format == "channels_first":
            batch = _tf.transpose(batch, [0, 2, 3, 1])
        out = self.transform(batch, training)
        if self.data_format == "channels_first":
            out = _tf.transpose(out, [0, 3, 1, 2])
        return _tf.squeeze(out, [0]) if single else out

    def transform(self, images, training):
        raise NotImplementedError

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format}


def height_width(images):
    """(height, width) of a channels-last batch: Python ints when known, else scalar int32 tensors."""
    static = images.shape
    dynamic = None
    out = []
    for axis in (1, 2):
        if static[axis] is not None:
            out.append(int(static[axis]))
        else:
            dynamic = _tf.shape(images) if dynamic is None else dynamic
            out.append(dynamic[axis])
    return tuple(out)


def batch_size(images):
    return int(images.shape[0]) if images.shape[0] is not None else _tf.shape(images)[0]
