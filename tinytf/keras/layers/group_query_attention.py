"""GroupQueryAttention (keras.layers.GroupQueryAttention, Ainslie et al., 2023), Keras 3's: `num_query_heads`
query heads share `num_key_value_heads` key/value heads (each repeated num_query_heads / num_key_value_heads
times), with Keras' masks, causal and sliding-window masking, an optional sigmoid gate, dropout on the weights."""

from __future__ import annotations

import math

import tinytf as _tf

from .. import constraints, initializers, regularizers
from ..masking import get_keras_mask, set_keras_mask
from .core import Dropout
from .einsum_dense import EinsumDense
from .multi_head_attention import _LARGE_NEGATIVE, MultiHeadAttention


class GroupQueryAttention(MultiHeadAttention):
    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0, use_bias=True,
                 sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        super().__init__(num_query_heads, head_dim, dropout=dropout, use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, seed=seed, **kwargs)
        self.head_dim, self.num_query_heads, self.num_key_value_heads = head_dim, num_query_heads, num_key_value_heads
        self.num_repeats = num_query_heads // num_key_value_heads
        self.sliding_window, self.use_gate = sliding_window, use_gate

    def _build_projections(self, query_shape, value_shape, key_shape) -> None:
        """Keras 3's sublayers, made in its order: query, key, (gate), value, dropout, attention_output."""
        bias_q = "uh" if self.use_bias else None
        bias_kv = "vh" if self.use_bias else None
        self.query_dense = EinsumDense("bqm,muh->bquh", (None, self.num_query_heads, self.head_dim), bias_axes=bias_q,
                                       name="query", **self._sublayer_arguments())
        self.query_dense.build(query_shape)
        self.key_dense = EinsumDense("bkm,mvh->bkvh", (None, self.num_key_value_heads, self.head_dim),
                                     bias_axes=bias_kv, name="key", **self._sublayer_arguments())
        self.key_dense.build(key_shape)
        if self.use_gate:
            self.gate_dense = EinsumDense("bqm,muh->bquh", (None, self.num_query_heads, self.head_dim),
                                          bias_axes=bias_q, activation="sigmoid", name="gate",
                                          **self._sublayer_arguments())
            self.gate_dense.build(query_shape)
        self.value_dense = EinsumDense("bkm,mvh->bkvh", (None, self.num_key_value_heads, self.head_dim),
                                       bias_axes=bias_kv, name="value", **self._sublayer_arguments())
        self.value_dense.build(value_shape)
        self.dropout_layer = Dropout(rate=self.dropout, seed=self.seed, dtype=self.dtype_policy)
        self.output_dense = EinsumDense("bquh,uhm->bqm", (None, query_shape[-1]),
                                        bias_axes="m" if self.use_bias else None, name="attention_output",
                                        **self._sublayer_arguments())
        self.output_dense.build((None, None, self.num_query_heads, self.head_dim))
        self._projections = True

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
        for tensor in (query, value, key):
            set_keras_mask(tensor, None)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask, attention_mask, use_causal_mask)
        if self.sliding_window is not None:
            rows = _tf.range(_tf.shape(query)[1])[:, None]
            columns = _tf.range(_tf.shape(value)[1])[None, :]
            window = _tf.expand_dims(_tf.abs(rows - columns) < self.sliding_window, 0)
            mask = window if mask is None else _tf.logical_and(mask, window)
        gate = self.gate_dense(query) if self.use_gate else None
        q = self.query_dense(query) * (1.0 / math.sqrt(float(self.head_dim)))
        k = self._repeat_heads(self.key_dense(key))
        v = self._repeat_heads(self.value_dense(value))
        scores = _tf.einsum("bquh,bkuh->buqk", q, k)
        if mask is not None:
            mask = _tf.expand_dims(mask, -3) if len(mask.shape) == 3 else mask
            scores = _tf.where(mask, scores, _tf.cast(_LARGE_NEGATIVE, scores.dtype))
        scores = _tf.nn.softmax(scores, axis=-1)
        weights = self.dropout_layer(scores, training=training) if self.dropout > 0.0 else scores
        combined = _tf.einsum("buqk,bkuh->bquh", weights, v)
        output = self.output_dense(combined * gate if gate is not None else combined)
        if query_mask is not None:
            set_keras_mask(output, query_mask)
        return (output, scores) if return_attention_scores else output

    def _repeat_heads(self, x):
        """(b, s, kv, h) -> (b, s, kv * r, h), each key/value head repeated r times in place (Keras' ops.repeat)."""
        if self.num_repeats == 1:
            return x
        tiled = _tf.tile(_tf.expand_dims(x, 3), [1, 1, 1, self.num_repeats, 1])
        shape = _tf.shape(x)
        return _tf.reshape(tiled, _tf.stack([shape[0], shape[1], self.num_query_heads, self.head_dim]))

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape)

    def get_config(self) -> dict:
        config = {name: value for name, value in super().get_config().items()
                  if name not in ("num_heads", "key_dim", "value_dim", "output_shape", "attention_axes")}
        return {**config, "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
                "num_key_value_heads": self.num_key_value_heads, "use_gate": self.use_gate,
                "sliding_window": self.sliding_window,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}
