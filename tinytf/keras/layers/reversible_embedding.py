"""keras.layers.ReversibleEmbedding (Keras 3.12+, in TF 2.21's tf.keras.layers): an Embedding that can also
project back from `output_dim` to `input_dim` (`reverse=True`), with the transposed embedding matrix (tied
weights) or a separate trainable `reverse_embeddings` matrix, optionally in `reverse_dtype` and with Gemma's
logit soft cap (tanh(logits / cap) * cap). Its int8 / int4 quantized forms are not here."""

from __future__ import annotations

import tinytf as _tf

from .. import masking
from .embedding import Embedding


class ReversibleEmbedding(Embedding):
    """An embedding layer which can project backwards to the input dim (see the module's note)."""

    _checkpoint_names = {"embeddings": "_embeddings", "reverse_embeddings": "_reverse_embeddings"}

    def __init__(self, input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer, embeddings_constraint=embeddings_constraint,
                         mask_zero=mask_zero, **kwargs)
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None) -> None:
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(shape=(self.output_dim, self.input_dim),
                                                      initializer=self.embeddings_initializer,
                                                      name="reverse_embeddings", trainable=True)

    def call(self, inputs, reverse=False):
        if not reverse:
            result = super().call(inputs)
            mask = super().compute_mask(inputs)
            if mask is not None:
                masking.set_keras_mask(result, mask)
            return result
        kernel = _tf.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = _tf.cast(inputs, self.reverse_dtype)
            kernel = _tf.cast(kernel, self.reverse_dtype)
        logits = _tf.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            logits = _tf.tanh(logits / self.logit_soft_cap) * self.logit_soft_cap
        return logits

    def compute_mask(self, inputs, previous_mask=None):
        return None  # the call attaches the mask of a forward lookup itself; a reverse projection has none

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(input_shape)
        if reverse:
            shape[-1] = self.input_dim
        else:
            shape += [self.output_dim]
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                "logit_soft_cap": self.logit_soft_cap}


__all__ = ["ReversibleEmbedding"]
