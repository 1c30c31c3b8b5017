"""Attention, AdditiveAttention, GroupNormalization, RMSNormalization, Dot, AlphaDropout, SpectralNormalization:
against numpy, eager vs tf.function (passes on and off), gradients by finite differences in float64, masks,
configs. TF 2.21's numbers are in tests/conformance/keras_layers_extra.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

L = tf.keras.layers
Q, V = uniform_arrays((2, 3, 4), (2, 5, 4), seed=31)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_attention_matches_numpy_all_ways_and_gradients():
    layer = L.Attention(use_scale=True, dtype="float64")
    layer([tf.constant(Q), tf.constant(V)])
    layer.scale.assign(0.7)
    want = _softmax(0.7 * Q @ V.transpose(0, 2, 1)) @ V
    run_all_ways(lambda q, v: layer([q, v]), tf.constant(Q), tf.constant(V), expected=want)
    check_gradients(lambda q, v: layer([q, v]), [Q, V])


def test_additive_attention_matches_numpy_and_masks():
    layer = L.AdditiveAttention(dtype="float64")
    layer([tf.constant(Q), tf.constant(V)])
    scale = layer.scale.numpy()
    scores = np.sum(scale * np.tanh(Q[:, :, None, :] + V[:, None, :, :]), -1)
    v_mask = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]], bool)
    q_mask = np.array([[1, 1, 0], [1, 1, 1]], bool)
    masked = np.where(v_mask[:, None, :], scores, scores - 1e9)
    want = np.where(q_mask[..., None], _softmax(masked) @ V, 0.0)
    run_all_ways(lambda q, v: layer([q, v], mask=[tf.constant(q_mask), tf.constant(v_mask)]), tf.constant(Q),
                 tf.constant(V), expected=want)
    check_gradients(lambda q, v: layer([q, v], mask=[tf.constant(q_mask), tf.constant(v_mask)]), [Q, V])


def test_causal_attention_ignores_later_steps():
    q = tf.constant(Q[:, :3])
    out, weights = L.Attention()([q, q], use_causal_mask=True, return_attention_scores=True)
    assert np.allclose(np.triu(weights.numpy()[0], 1), 0.0)
    first_only = L.Attention()([q[:, :1], q[:, :1]])
    np.testing.assert_allclose(out.numpy()[:, :1], first_only.numpy(), rtol=1e-6)


@pytest.mark.parametrize("groups,axis", [(2, -1), (-1, -1), (1, -1), (3, 1)])
def test_group_normalization_matches_numpy_and_gradients(groups, axis):
    (x,) = uniform_arrays((2, 3, 6), seed=32)
    layer = L.GroupNormalization(groups=groups, axis=axis, dtype="float64")
    layer(tf.constant(x))
    moved = np.moveaxis(x, axis, -1)
    g = moved.shape[-1] if groups == -1 else groups
    grouped = moved.reshape(*moved.shape[:-1], g, moved.shape[-1] // g)
    mean = grouped.mean(axis=(1, 3), keepdims=True)
    var = grouped.var(axis=(1, 3), keepdims=True)
    want = np.moveaxis(((grouped - mean) / np.sqrt(var + 1e-3)).reshape(moved.shape), -1, axis)
    run_all_ways(layer, tf.constant(x), expected=want)
    check_gradients(layer, [x])


def test_rms_normalization_matches_numpy_and_gradients():
    (x,) = uniform_arrays((2, 3, 4), seed=33)
    layer = L.RMSNormalization(axis=[1, 2], dtype="float64")
    layer(tf.constant(x))
    layer.scale.assign(np.linspace(0.5, 1.5, 12).reshape(3, 4))
    want = x / np.sqrt(np.mean(x ** 2, axis=(1, 2), keepdims=True) + 1e-6) * layer.scale.numpy()
    run_all_ways(layer, tf.constant(x), expected=want)
    check_gradients(layer, [x])


def test_dot_matches_numpy_and_gradients():
    layer = L.Dot(axes=(2, 2), dtype="float64")
    run_all_ways(lambda a, b: layer([a, b]), tf.constant(Q), tf.constant(V), expected=Q @ V.transpose(0, 2, 1))
    check_gradients(lambda a, b: L.Dot(axes=1, normalize=True, dtype="float64")([a, b]), [Q[:, 0], V[:, 0]])


def test_alpha_dropout_keeps_mean_and_variance_of_selu_inputs():
    x = np.random.default_rng(1).normal(size=(400, 300)).astype(np.float32)
    out = L.AlphaDropout(0.1, seed=4)(tf.constant(x), training=True).numpy()
    assert abs(out.mean() - x.mean()) < 0.02 and abs(out.std() - x.std()) < 0.02
    np.testing.assert_array_equal(L.AlphaDropout(0.1)(tf.constant(x)).numpy(), x)


def test_spectral_normalization_makes_the_spectral_norm_one():
    layer = L.SpectralNormalization(L.Dense(6, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1)),
                                   power_iterations=3)
    x = tf.constant(np.ones((2, 4), np.float32))
    layer(x)
    step = tf.function(lambda x: layer(x, training=True))
    for _ in range(30):
        step(x)
    assert abs(np.linalg.svd(layer.layer.kernel.numpy(), compute_uv=False)[0] - 1.0) < 1e-2
    again = L.SpectralNormalization.from_config(layer.get_config())
    assert type(again.layer).__name__ == "Dense" and again.power_iterations == 3


@pytest.mark.parametrize("layer", [L.AdaptiveAveragePooling2D((2, 3), dtype="float64"),
                                   L.AdaptiveMaxPooling1D(3, dtype="float64"),
                                   L.AdaptiveAveragePooling1D(4, data_format="channels_first", dtype="float64")])
def test_adaptive_pooling_against_numpy_windows_and_gradients(layer):
    (x,) = uniform_arrays((2, 5, 7) if "2D" not in type(layer).__name__ else (2, 5, 7, 2), seed=34)
    if "2D" in type(layer).__name__:
        rows = [slice((i * 5) // 2, -(-(i + 1) * 5 // 2)) for i in range(2)]
        cols = [slice((j * 7) // 3, -(-(j + 1) * 7 // 3)) for j in range(3)]
        want = np.stack([np.stack([x[:, r, c].mean((1, 2)) for c in cols], 1) for r in rows], 1)
    elif "Max" in type(layer).__name__:
        want = np.stack([x[:, (i * 5) // 3:-(-(i + 1) * 5 // 3)].max(1) for i in range(3)], 1)
    else:
        want = np.stack([x[:, :, (i * 7) // 4:-(-(i + 1) * 7 // 4)].mean(2) for i in range(4)], 2)
    run_all_ways(layer, tf.constant(x), expected=want)
    check_gradients(layer, [x])
