"""Attention (Luong-style dot-product, or "concat" scores) and AdditiveAttention (Bahdanau-style), as Keras 3
computes them: called on [query, value] or [query, value, key], with masks [query_mask, value_mask], causal
masking, dropout on the attention weights and, on request, the weights themselves."""

from __future__ import annotations

import tinytf as _tf

from .. import random as keras_random
from .layer import Layer

_MASKED_SCORE = {"float16": 65504.0}  # what a masked score is lowered by (1e9 for the wider floats)


class Attention(Layer):
    """softmax(query . key^T [* scale]) . value over the value's steps."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        if dropout > 0:  # Keras makes the generator here (drawing a default seed in Keras' order)
            self.seed_generator = keras_random.SeedGenerator(seed)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. Received: "
                             f"score_mode={score_mode}")
        self.supports_masking = True

    def build(self, input_shape) -> None:
        self._validate_inputs(input_shape)
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones") if self.use_scale else None
        self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones") \
            if self.score_mode == "concat" else None

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = _tf.matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        q, k = _tf.expand_dims(query, -2), _tf.expand_dims(key, -3)
        summed = q + k if self.scale is None else self.scale * (q + k)
        return self.concat_score_weight * _tf.reduce_sum(_tf.tanh(summed), axis=-1)

    def _apply_scores(self, scores, value, scores_mask=None, training=False):
        if scores_mask is not None:
            padding = _tf.logical_not(scores_mask)
            if len(padding.shape) == 2:
                padding = _tf.expand_dims(padding, -2)
            scores = _tf.where(padding, scores - _MASKED_SCORE.get(scores.dtype.name, 1e9), scores)
        weights = _tf.nn.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = keras_random.dropout(weights, self.dropout, seed=self.seed_generator)
        return _tf.matmul(weights, value), weights

    @staticmethod
    def _score_mask(scores, value_mask, use_causal_mask):
        if not use_causal_mask:
            return value_mask
        rows, cols = scores.shape[-2], scores.shape[-1]
        if rows is None or cols is None:
            shape = _tf.shape(scores)
            rows, cols = shape[-2], shape[-1]
        causal = _tf.expand_dims(_tf.range(rows)[:, None] >= _tf.range(cols)[None, :], 0)
        if value_mask is None:
            return causal
        return _tf.logical_and(_tf.expand_dims(_tf.cast(value_mask, _tf.bool), -2), causal)

    def call(self, inputs, mask=None, training=False, return_attention_scores=False, use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = mask[0] if mask else None
        value_mask = mask[1] if mask else None
        if value_mask is not None:
            value_mask = _tf.cast(value_mask, _tf.bool)
        scores = self._calculate_scores(query, key)
        output, weights = self._apply_scores(scores, value, self._score_mask(scores, value_mask, use_causal_mask),
                                             training)
        if query_mask is not None:
            output = _tf.where(_tf.expand_dims(_tf.cast(query_mask, _tf.bool), -1), output, _tf.zeros_like(output))
        return (output, weights) if return_attention_scores else output

    def compute_mask(self, inputs, previous_mask=None):
        if previous_mask is None or not isinstance(previous_mask, (list, tuple)) or previous_mask[0] is None:
            return None
        return previous_mask[0]

    def compute_output_shape(self, input_shape):
        return (*input_shape[0][:-1], input_shape[1][-1])

    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                             f"[query, value, key]. Received: inputs={inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                             f"[query, value, key]. Received length: {len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, (list, tuple)):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. Received: "
                                 f"mask={mask}.")
            if len(mask) < 2 or len(mask) > 3:
                raise ValueError(f"{name} layer accepts mask list of length 2 or 3. Received: inputs={inputs}, "
                                 f"mask={mask}.")

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale, "score_mode": self.score_mode,
                "dropout": self.dropout, "seed": self.seed}


class AdditiveAttention(Attention):
    """Scores sum(scale * tanh(query + key)) over the features (scale: a learned vector)."""

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape) -> None:
        self._validate_inputs(input_shape)
        self.scale = self.add_weight(name="scale", shape=[input_shape[0][-1]], initializer="glorot_uniform") \
            if self.use_scale else None
        self.concat_score_weight = None

    def _calculate_scores(self, query, key):
        summed = _tf.tanh(_tf.expand_dims(query, -2) + _tf.expand_dims(key, -3))
        return _tf.reduce_sum(self.scale * summed if self.use_scale else summed, axis=-1)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["score_mode"]
        return config
