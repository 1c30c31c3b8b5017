"""SpectralNormalization (Miyato et al., 2018), Keras 3's wrapper: in training, the wrapped layer's kernel
(or embeddings) is divided by its largest singular value, estimated by power iteration from a persistent
vector u; inference uses the kernel as last normalized."""

from __future__ import annotations

import tinytf as _tf

from .. import initializers
from .input_spec import InputSpec
from .layer import Layer


class SpectralNormalization(Layer):
    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to wrapper is not a supported layer type. Please ensure "
                             "wrapped layer is a valid Keras layer.")
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.layer, self.power_iterations = layer, power_iterations

    def build(self, input_shape) -> None:
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        if self.kernel.trainable:  # Keras tracks the assigned kernel as the wrapper's own first weight
            self._trainable_own.append(self.kernel)
        self.kernel_shape = tuple(self.kernel.shape.as_list())
        self.vector_u = self.add_weight(shape=(1, self.kernel_shape[-1]), name="vector_u", trainable=False,
                                        initializer=initializers.TruncatedNormal(stddev=0.02),
                                        dtype=self.kernel.dtype.name)

    def normalized_weights(self):
        """(u after power iteration, the kernel divided by its estimated spectral norm)."""
        weights = _tf.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        u = _tf.convert_to_tensor(self.vector_u)
        for _ in range(self.power_iterations):
            v = _tf.math.l2_normalize(_tf.matmul(u, weights, transpose_b=True), axis=None)
            u = _tf.math.l2_normalize(_tf.matmul(v, weights), axis=None)
        u, v = _tf.stop_gradient(u), _tf.stop_gradient(v)
        sigma = _tf.matmul(_tf.matmul(v, weights), u, transpose_b=True)
        return u, _tf.reshape(self.kernel / sigma, self.kernel_shape)

    def call(self, inputs, training=False):
        if training:
            kernel = _tf.convert_to_tensor(self.kernel)
            new_u, new_kernel = _tf.cond(_tf.reduce_all(_tf.equal(kernel, 0)),
                                         lambda: (_tf.convert_to_tensor(self.vector_u), kernel),
                                         self.normalized_weights)
            self.vector_u.assign(new_u)
            self.kernel.assign(new_kernel)
        return _tf.cast(self.layer(inputs), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    @classmethod
    def from_config(cls, config: dict):
        from ..saving.layer_config import deserialize_layer

        config = dict(config)
        if isinstance(config.get("layer"), dict):
            config["layer"] = deserialize_layer(config["layer"])
        return cls(**config)

    def get_config(self) -> dict:
        from ..serialization import serialize

        return {**super().get_config(), "layer": serialize(self.layer, "keras.layers"),
                "power_iterations": self.power_iterations}
