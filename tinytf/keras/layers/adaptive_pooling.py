"""Adaptive average and max pooling (1D, 2D, 3D), Keras 3's (PyTorch's rule): the output has `output_size`
steps per spatial axis, step i pooling input steps floor(i L / n) up to ceil((i + 1) L / n). Pooling is
separable, so each spatial axis is pooled in turn: averages as one matrix product with a fixed averaging
matrix, maxima as a gather of every window (padded by repeating its last step) and a reduce_max."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf

from .layer import Layer


def _windows(length: int, size: int):
    return [(math.floor(i * length / size), min(math.ceil((i + 1) * length / size), length)) for i in range(size)]


def _pool_axis(x, axis: int, size: int, kind: str):
    length = x.shape[axis]
    if length is None:
        raise ValueError("Input length must be statically known for adaptive pooling")
    windows = _windows(length, size)
    if kind == "avg":
        matrix = np.zeros((size, length), x.dtype.as_numpy_dtype)
        for i, (start, end) in enumerate(windows):
            matrix[i, start:end] = 1.0 / (end - start)
        rank = len(x.shape)
        perm = [a for a in range(rank) if a != axis] + [axis]
        pooled = _tf.matmul(_tf.transpose(x, perm), _tf.constant(matrix.T))
        inverse = np.argsort(perm).tolist()
        return _tf.transpose(pooled, inverse)
    widest = max(end - start for start, end in windows)
    index = np.array([[min(start + k, end - 1) for k in range(widest)] for start, end in windows], np.int32)
    gathered = _tf.gather(x, _tf.constant(index.reshape(-1)), axis=axis)
    shape = [d if d is not None else -1 for d in x.shape.as_list()]
    shape[0] = -1
    shape[axis:axis + 1] = [size, widest]
    return _tf.reduce_max(_tf.reshape(gathered, shape), axis=axis + 1)


class _AdaptivePooling(Layer):
    _rank = 1
    _kind = "avg"

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = self._parse_size(output_size)
        self.data_format = data_format or "channels_last"
        if self.data_format not in {"channels_first", "channels_last"}:
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected 'channels_first' or 'channels_last'.")

    def _parse_size(self, output_size):
        rank = self._rank
        if isinstance(output_size, int):
            return (output_size,) * rank
        if rank == 1 and isinstance(output_size, (tuple, list)):
            if len(output_size) != 1:
                raise ValueError(f"For 1D input, `output_size` tuple must have length 1. Received: {output_size}")
            return tuple(output_size)
        if isinstance(output_size, (tuple, list)) and len(output_size) == rank:
            return tuple(output_size)
        names = {1: "tuple of 1 integer", 2: "(height, width) tuple", 3: "(depth, height, width) tuple"}
        raise TypeError(f"`output_size` must be an integer or {names[rank]}. Received: {output_size} of type "
                        f"{type(output_size)}")

    def call(self, inputs):
        first_spatial = 2 if self.data_format == "channels_first" else 1
        out = inputs
        for k, size in enumerate(self.output_size):
            out = _pool_axis(out, first_spatial + k, size, self._kind)
        return out

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def get_config(self) -> dict:
        return {**super().get_config(), "output_size": self.output_size, "data_format": self.data_format}


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """The mean of each of `output_size` near-equal windows of the steps."""


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """The mean of each of output_size[0] x output_size[1] near-equal windows."""

    _rank = 2


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """The mean of each of the near-equal (depth, height, width) windows."""

    _rank = 3


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """The maximum of each of `output_size` near-equal windows of the steps."""

    _kind = "max"


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """The maximum of each of output_size[0] x output_size[1] near-equal windows."""

    _rank, _kind = 2, "max"


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """The maximum of each of the near-equal (depth, height, width) windows."""

    _rank, _kind = 3, "max"
