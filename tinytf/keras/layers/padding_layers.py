"""The 1-D and 3-D forms of UpSampling, ZeroPadding and Cropping (channels_last), and SpatialDropout3D: the
2-D layers' arguments and configs along one or three axes."""

from __future__ import annotations

import tinytf as _tf

from .conv import _tuple
from .input_spec import InputSpec
from .layer import Layer
from .pooling3d import channels_last_only
from .regularization import SpatialDropout2D


def _pair(value, what):
    """An int n as (n, n); a pair as given."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) != 2:
        raise ValueError(f"`{what}` should be an int or a tuple of 2 ints. Received: {what}={value}")
    return value


def _triple_pairs(value, what):
    """3-D padding/cropping: n, (a, b, c) or ((a1, a2), (b1, b2), (c1, c2))."""
    if isinstance(value, int):
        return ((value, value),) * 3
    value = tuple(value)
    if len(value) != 3:
        raise ValueError(f"`{what}` should have 3 elements. Received: {what}={value}")
    return tuple(_pair(v, what) for v in value)


def repeat_along(x, times: int, axis: int):
    """Each entry along `axis` repeated `times` times in place (numpy's repeat), as a tile of a new axis."""
    rank = x.shape.rank
    shape = None
    dims = []
    for i in range(rank):
        if x.shape[i] is not None:
            dims.append(int(x.shape[i]))
        else:
            shape = _tf.shape(x) if shape is None else shape
            dims.append(shape[i])
    dims[axis] = dims[axis] * times
    multiples = [1] * (rank + 1)
    multiples[axis + 1] = times
    tiled = _tf.tile(_tf.expand_dims(x, axis + 1), multiples)
    static = all(isinstance(d, int) for d in dims)
    return _tf.reshape(tiled, dims if static else _tf.stack([_tf.cast(d, "int32") for d in dims]))


class UpSampling1D(Layer):
    """Repeats each step `size` times."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return repeat_along(inputs, self.size, 1)

    def compute_output_shape(self, input_shape):
        steps = input_shape[1]
        return (input_shape[0], None if steps is None else steps * self.size, input_shape[2])

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size}


class UpSampling3D(Layer):
    """Repeats depth, height and width entries `size` times (nearest neighbour)."""

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.size = _tuple(size, 3, "size")
        self.data_format = data_format or "channels_last"
        channels_last_only(self)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        out = inputs
        for axis, times in zip((1, 2, 3), self.size):
            out = repeat_along(out, times, axis)
        return out

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *(None if d is None else d * s for d, s in zip(input_shape[1:4], self.size)),
                input_shape[4])

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class ZeroPadding1D(Layer):
    """Zero steps at the start and end: padding=n or (start, end)."""

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pair(padding, "padding")
        self.data_format = data_format or "channels_last"
        channels_last_only(self)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _tf.pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def compute_output_shape(self, input_shape):
        steps = input_shape[1]
        return (input_shape[0], None if steps is None else steps + sum(self.padding), input_shape[2])

    def get_config(self) -> dict:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class ZeroPadding3D(Layer):
    """Zeros around depth, height and width: padding=n, (d, h, w) or ((d1, d2), (h1, h2), (w1, w2))."""

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _triple_pairs(padding, "padding")
        self.data_format = data_format or "channels_last"
        channels_last_only(self)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        return _tf.pad(inputs, [[0, 0], *[list(p) for p in self.padding], [0, 0]])

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *(None if d is None else d + sum(p) for d, p in zip(input_shape[1:4], self.padding)),
                input_shape[4])

    def get_config(self) -> dict:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class Cropping1D(Layer):
    """Removes steps at the start and end: cropping=n or (start, end)."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pair(cropping, "cropping")
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        start, end = self.cropping
        steps = inputs.shape[1] if inputs.shape[1] is not None else _tf.shape(inputs)[1]
        return inputs[:, start:steps - end, :]

    def compute_output_shape(self, input_shape):
        steps = input_shape[1]
        return (input_shape[0], None if steps is None else steps - sum(self.cropping), input_shape[2])

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping}


class Cropping3D(Layer):
    """Removes entries at the edges of depth, height and width: cropping=n, (d, h, w) or pairs."""

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _triple_pairs(cropping, "cropping")
        self.data_format = data_format or "channels_last"
        channels_last_only(self)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        shape = _tf.shape(inputs)
        bounds = [(start, (inputs.shape[axis] if inputs.shape[axis] is not None else shape[axis]) - end)
                  for axis, (start, end) in zip((1, 2, 3), self.cropping)]
        (d0, d1), (h0, h1), (w0, w1) = bounds
        return inputs[:, d0:d1, h0:h1, w0:w1, :]

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *(None if d is None else d - sum(c) for d, c in zip(input_shape[1:4], self.cropping)),
                input_shape[4])

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}


class SpatialDropout3D(SpatialDropout2D):
    """Dropout of whole 3-D feature maps of 5-D inputs: one draw per example and channel."""

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, data_format=data_format, seed=seed, **kwargs)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs, training=False):
        self.noise_shape = (None, 1, 1, 1, None) if self.data_format == "channels_last" else (None, None, 1, 1, 1)
        try:
            return super(SpatialDropout2D, self).call(inputs, training=training)
        finally:
            self.noise_shape = None
