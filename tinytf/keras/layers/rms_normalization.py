"""RMSNormalization (Zhang & Sennrich, 2019), Keras 3's: x / sqrt(mean(x^2 over `axis`) + epsilon), times a
learned scale; no centring, so it is cheaper than LayerNormalization."""

from __future__ import annotations

import tinytf as _tf

from .layer import Layer


class RMSNormalization(Layer):
    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon
        self.supports_masking = True

    def build(self, input_shape) -> None:
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[a] for a in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")

    def call(self, x):
        compute = x if x.dtype in (_tf.float32, _tf.float64) else _tf.cast(x, _tf.float32)
        rank = len(compute.shape)
        axes = [a % rank for a in self.axis]
        rrms = _tf.math.rsqrt(_tf.reduce_mean(_tf.square(compute), axis=axes, keepdims=True) + self.epsilon)
        broadcast = [compute.shape[a] if a in axes else 1 for a in range(rank)]
        scale = _tf.reshape(_tf.cast(self.scale, compute.dtype), broadcast)
        return _tf.cast(compute * rrms * scale, x.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}
