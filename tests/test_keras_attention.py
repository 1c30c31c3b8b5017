"""MultiHeadAttention and EinsumDense: against a numpy reference of scaled dot-product attention (with masks),
eager vs tf.function with passes on and off, gradients against finite differences in float64, variables made
once inside a traced function, config round trips and clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

keras = tf.keras
L = keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def numpy_attention(q_in, v_in, k_in, weights, heads, key_dim, mask=None):
    wq, bq, wk, bk, wv, bv, wo, bo = weights
    q = np.einsum("btc,cnh->btnh", q_in, wq) + bq
    k = np.einsum("bsc,cnh->bsnh", k_in, wk) + bk
    v = np.einsum("bsc,cnh->bsnh", v_in, wv) + bv
    scores = np.einsum("bsnh,btnh->bnts", k, q / np.sqrt(key_dim))
    if mask is not None:
        scores = np.where(mask[:, None], scores, -1e9)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    scores /= scores.sum(-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", scores, v).reshape(*q.shape[:2], -1) @ wo.reshape(-1, wo.shape[-1]) + bo


def built_attention(heads=2, key_dim=3, dtype="float64", **kwargs):
    layer = L.MultiHeadAttention(heads, key_dim, dtype=dtype, **kwargs)
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-1, 1, (2, 4, 5)), rng.uniform(-1, 1, (2, 3, 6))
    layer(tf.constant(x), tf.constant(y))
    layer.set_weights([rng.uniform(-0.6, 0.6, w.shape) for w in layer.get_weights()])
    return layer, x, y


@pytest.mark.parametrize("causal", [False, True])
def test_matches_numpy_eagerly_and_in_graphs(causal):
    layer, x, y = built_attention()
    value = y[:, :, :] if not causal else np.concatenate([y, y[:, :1]], axis=1)  # causal needs T == S here
    key = value
    mask = np.tril(np.ones((4, 4), bool))[None].repeat(2, 0) if causal else None
    want = numpy_attention(x, value, key, layer.get_weights(), 2, 3, mask)
    run_all_ways(lambda q, v: layer(q, v, use_causal_mask=causal), tf.constant(x), tf.constant(value),
                 expected=want, rtol=1e-10, atol=1e-10)


def test_explicit_and_keras_masks_combine():
    layer, x, y = built_attention()
    attention_mask = np.array([[[1, 0, 1]] * 4, [[1, 1, 0]] * 4], bool)
    value_mask = np.array([[True, True, False], [True, True, True]])
    want = numpy_attention(x, y, y, layer.get_weights(), 2, 3, attention_mask & value_mask[:, None, :])
    got = layer(tf.constant(x), tf.constant(y), value_mask=tf.constant(value_mask),
                attention_mask=tf.constant(attention_mask))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    _, scores = layer(tf.constant(x), tf.constant(y), attention_mask=tf.constant(attention_mask),
                      return_attention_scores=True)
    assert scores.shape == (2, 2, 4, 3)
    np.testing.assert_array_equal(scores.numpy()[0, :, :, 1], 0.0)
    np.testing.assert_allclose(scores.numpy().sum(-1), 1.0)


def test_gradients_match_finite_differences():
    layer, x, y = built_attention()
    names = ["query_dense", "key_dense", "value_dense", "output_dense"]

    def attention(q, v, *weights):
        saved = [(getattr(layer, n).kernel, getattr(layer, n).bias) for n in names]
        for n, (kernel, bias) in zip(names, zip(weights[::2], weights[1::2])):
            object.__setattr__(getattr(layer, n), "kernel", kernel)
            object.__setattr__(getattr(layer, n), "bias", bias)
        try:
            return layer(q, v, use_causal_mask=False)
        finally:
            for n, (kernel, bias) in zip(names, saved):
                object.__setattr__(getattr(layer, n), "kernel", kernel)
                object.__setattr__(getattr(layer, n), "bias", bias)

    check_gradients(attention, [x, y] + layer.get_weights(), graph=False)


def test_variables_are_made_once_inside_a_traced_function():
    layer = L.MultiHeadAttention(2, 4)

    @tf.function
    def attend(q, v):
        return layer(q, v)

    q, v = tf.ones([1, 3, 8]), tf.ones([1, 5, 8])
    first = attend(q, v)
    attend(q * 2.0, v)
    assert first.shape == (1, 3, 8) and len(layer.weights) == 8
    assert [w.path for w in layer.weights][0] == "multi_head_attention/query/kernel"


def test_config_round_trip_and_errors():
    layer = L.MultiHeadAttention(3, 2, value_dim=4, dropout=0.1, output_shape=7)
    again = L.MultiHeadAttention.from_config(layer.get_config())
    out = again(tf.ones([2, 3, 5]), tf.ones([2, 4, 6]))
    assert out.shape == (2, 3, 7)
    with pytest.raises(ValueError, match="All dimensions of `value` and `key`"):
        L.MultiHeadAttention(1, 2)(tf.ones([1, 2, 3]), tf.ones([1, 4, 3]), tf.ones([1, 5, 3]))
    with pytest.raises(NotImplementedError, match="attention over axes"):
        L.MultiHeadAttention(1, 2, attention_axes=(1, 2))
    with pytest.raises(TypeError, match="needs both"):
        L.MultiHeadAttention(1, 2)(tf.ones([1, 2, 3]))


def test_einsum_dense_matches_numpy_and_counts_fans_by_axes():
    (x,) = uniform_arrays((2, 3, 4), seed=1)
    layer = L.EinsumDense("abc,cde->abde", output_shape=(None, 2, 5), bias_axes="de", dtype="float64")
    layer(tf.constant(x))
    kernel, bias = layer.get_weights()
    run_all_ways(layer, tf.constant(x), expected=np.einsum("abc,cde->abde", x, kernel) + bias)
    keras.utils.set_random_seed(0)
    wide = L.EinsumDense("ab,bcd->acd", output_shape=(6, 7))
    wide(tf.ones([1, 5]))
    limit = np.sqrt(6.0 / (5 + 42))  # fan_in 5 (input axes), fan_out 6 * 7 (output axes), not a conv's fans
    assert np.abs(wide.kernel.numpy()).max() <= limit and np.abs(wide.kernel.numpy()).max() > 0.8 * limit
    with pytest.raises(ValueError, match="not in the output"):
        L.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="x")(tf.ones([1, 2]))
