"""3-D pooling (channels_last: batch, depth, height, width, channels): MaxPooling3D and AveragePooling3D on
tf.nn.max_pool3d / avg_pool3d, and the global 3-D pools, with the 2-D layers' arguments and config."""

from __future__ import annotations

import tinytf as _tf

from .pooling import _GlobalPooling, _Pooling


def channels_last_only(layer) -> None:
    """These layers run channels-last (TF's CPU kernels); channels_first is refused rather than misread."""
    if layer.data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{type(layer).__name__}: only data_format='channels_last' is supported, got "
                                  f"{layer.data_format!r}")


class _Pooling3D(_Pooling):
    rank = 3

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)
        channels_last_only(self)

    def _pool(self, x, size, strides):
        op = _tf.nn.max_pool3d if self.mode == "max" else _tf.nn.avg_pool3d
        return op(x, ksize=[1, *size, 1], strides=[1, *strides, 1], padding=self.padding.upper())


class MaxPooling3D(_Pooling3D):
    """The maximum of each pool_size window (pool_size=(2, 2, 2) by default)."""

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(_Pooling3D):
    """The mean of each pool_size window (SAME padding averages over the real elements only)."""

    mode = "avg"

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)  # Keras 3 has no default size here


class _GlobalPooling3D(_GlobalPooling):
    rank = 3

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format=data_format, keepdims=keepdims, **kwargs)
        channels_last_only(self)


class GlobalMaxPooling3D(_GlobalPooling3D):
    pass


class GlobalAveragePooling3D(_GlobalPooling3D):
    reduction = "reduce_mean"


MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D
GlobalMaxPool3D, GlobalAvgPool3D = GlobalMaxPooling3D, GlobalAveragePooling3D
