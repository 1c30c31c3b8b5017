"""MultiHeadAttention (Keras 3): queries, keys and values projected per head by EinsumDense layers, scaled
dot-product attention over the sequence axis with Keras' masks (the inputs' Keras masks, an attention_mask,
use_causal_mask), dropout on the attention weights, and a projection back to the query's width."""

from __future__ import annotations

import math

import tinytf as _tf

from .. import constraints, initializers, regularizers
from ..masking import get_keras_mask, set_keras_mask
from .core import Dropout
from .einsum_dense import EinsumDense
from .layer import Layer

_LARGE_NEGATIVE = -1e9  # what Keras' Softmax puts where the mask is off (float32)


class MultiHeadAttention(Layer):
    """Attention with `num_heads` heads of size `key_dim` (values `value_dim`) over inputs (batch, time, dim)."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True
        self.num_heads, self.key_dim = num_heads, key_dim
        self.value_dim = value_dim if value_dim else key_dim
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        self._output_shape = output_shape
        if attention_axes is not None and tuple(attention_axes) not in ((1,), (-2,)):
            raise NotImplementedError(f"MultiHeadAttention {self.name!r}: attention over axes {attention_axes} is "
                                      f"not supported yet (only the sequence axis of (batch, time, dim) inputs)")
        self.attention_axes = attention_axes
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self._projections = None

    def _sublayer_arguments(self) -> dict:
        """Each projection gets fresh copies of the initializers (Keras 3 clones them, so that unseeded ones
        draw their own seeds and the four kernels differ)."""
        return {"kernel_initializer": type(self.kernel_initializer).from_config(self.kernel_initializer.get_config()),
                "bias_initializer": type(self.bias_initializer).from_config(self.bias_initializer.get_config()),
                "kernel_regularizer": self.kernel_regularizer, "bias_regularizer": self.bias_regularizer,
                "kernel_constraint": self.kernel_constraint, "bias_constraint": self.bias_constraint,
                "dtype": self.dtype_policy}  # the sublayers compute as this layer does

    def _build_projections(self, query_shape, value_shape, key_shape) -> None:
        """The four projections, made and built in Keras 3's order (query, key, value, dropout, output)."""
        for name, shape in (("query", query_shape), ("value", value_shape), ("key", key_shape)):
            if len(shape) != 3:
                raise NotImplementedError(f"MultiHeadAttention {self.name!r}: {name} has shape {tuple(shape)}; "
                                          f"only (batch, time, dim) inputs are supported yet")
        bias = "de" if self.use_bias else None
        self.query_dense = EinsumDense("abc,cde->abde", (None, self.num_heads, self.key_dim), bias_axes=bias,
                                       name="query", **self._sublayer_arguments())
        self.query_dense.build(query_shape)
        self.key_dense = EinsumDense("abc,cde->abde", (None, self.num_heads, self.key_dim), bias_axes=bias,
                                     name="key", **self._sublayer_arguments())
        self.key_dense.build(key_shape)
        self.value_dense = EinsumDense("abc,cde->abde", (None, self.num_heads, self.value_dim), bias_axes=bias,
                                       name="value", **self._sublayer_arguments())
        self.value_dense.build(value_shape)
        self.dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        width = self._output_shape if self._output_shape is not None else query_shape[-1]
        width = tuple(width) if isinstance(width, (list, tuple)) else (width,)
        if len(width) != 1:
            raise NotImplementedError(f"MultiHeadAttention {self.name!r}: output_shape {self._output_shape} of "
                                      f"more than one dimension is not supported yet")
        self.output_dense = EinsumDense("abcd,cde->abe", (None, width[0]), bias_axes="e" if self.use_bias else None,
                                        name="attention_output", **self._sublayer_arguments())
        self.output_dense.build((query_shape[0], query_shape[1], self.num_heads, self.value_dim))
        self._projections = True

    def build(self, query_shape, value_shape=None, key_shape=None) -> None:
        value_shape = query_shape if value_shape is None else value_shape
        if key_shape is not None and tuple(value_shape)[:-1] != tuple(key_shape)[:-1]:
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={tuple(value_shape)} and key_shape={tuple(key_shape)}")
        self._build_projections(tuple(query_shape), tuple(value_shape),
                                tuple(value_shape if key_shape is None else key_shape))
        self.built = True

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask, causal):
        """(batch, T, S) booleans: the query, value and key masks, the causal mask and attention_mask, ANDed."""
        mask = None

        def both(a, b):
            return b if a is None else _tf.logical_and(a, b)
        if query_mask is not None:
            mask = _tf.expand_dims(_tf.cast(query_mask, _tf.bool), -1)
        if value_mask is not None:
            mask = both(mask, _tf.expand_dims(_tf.cast(value_mask, _tf.bool), -2))
        if key_mask is not None:
            mask = both(mask, _tf.expand_dims(_tf.cast(key_mask, _tf.bool), -2))
        if causal:
            rows = _tf.range(_tf.shape(query)[1])[:, None]
            columns = _tf.range(_tf.shape(value)[1])[None, :]
            mask = both(mask, _tf.expand_dims(rows >= columns, 0))
        if attention_mask is not None:
            mask = both(_tf.cast(attention_mask, _tf.bool), mask) if mask is not None else \
                _tf.cast(attention_mask, _tf.bool)
        return mask

    def __call__(self, query, value=None, key=None, **kwargs):
        if value is None:
            raise TypeError(f"MultiHeadAttention {self.name!r} needs both `query` and `value`")
        return super().__call__(query, value, key, **kwargs)

    def _maybe_build(self, inputs) -> None:
        """Built in `call`, from the shapes of the query, the value and the key (Layer builds from the first)."""

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        if self._projections is None:
            self.build(query.shape, value.shape, None if key is None else key.shape)
        own_query_mask = get_keras_mask(query)
        query_mask = own_query_mask if own_query_mask is not None else query_mask
        value_mask = value_mask if value_mask is not None else get_keras_mask(value)
        if key is not None:
            key_mask = key_mask if key_mask is not None else get_keras_mask(key)
        key = value if key is None else key
        for tensor in (query, value, key):  # the masks are in the attention mask now, not for the projections
            set_keras_mask(tensor, None)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask)
        q = self.query_dense(query) * (1.0 / math.sqrt(float(self.key_dim)))
        k, v = self.key_dense(key), self.value_dense(value)
        scores = _tf.einsum("aecd,abcd->acbe", k, q)  # (batch, heads, T, S)
        if mask is not None:
            mask = _tf.expand_dims(mask, -3) if len(mask.shape) == 3 else mask
            scores = _tf.where(mask, scores, _tf.cast(_LARGE_NEGATIVE, scores.dtype))
        scores = _tf.nn.softmax(scores, axis=-1)
        weights = self.dropout_layer(scores, training=training) if self.dropout > 0.0 else scores
        output = self.output_dense(_tf.einsum("acbe,aecd->abcd", weights, v))
        if query_mask is not None:
            set_keras_mask(output, query_mask)
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        width = self._output_shape if self._output_shape is not None else query_shape[-1]
        return tuple(query_shape[:-1]) + (width,)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout, "use_bias": self.use_bias,
                "output_shape": self._output_shape, "attention_axes": self.attention_axes,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "seed": self.seed}
