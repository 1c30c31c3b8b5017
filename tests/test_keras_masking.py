"""Keras masks: which layers make, pass on and drop a mask, run eagerly and inside tf.function (passes on and
off), against numpy (a masked RNN equals the RNN run on the kept steps only; a masked loss is the mean over
the kept steps), gradients of a masked loss by finite differences, fit eagerly and as a graph, and the side
table that holds the masks letting go of them with their tensors. Numbers against Keras 3 are in the
conformance module keras_more."""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest
from gradcheck import check_gradients
from ways import run_all_ways

import tinytf as tf
from tinytf.keras import masking

keras = tf.keras
L = keras.layers
TOKENS = np.array([[1, 2, 0, 3, 0], [4, 0, 0, 5, 2], [0, 1, 1, 0, 0]], np.int32)


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def _fixed(model, seed=0):
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.6, 0.6, w.shape).astype(w.dtype) for w in model.get_weights()])
    return model


def _embedding_rnn(cls=L.LSTM, return_sequences=True, dtype="float32"):
    return _fixed(keras.Sequential([keras.Input((5,), dtype="int32"), L.Embedding(6, 3, mask_zero=True, dtype=dtype),
                                    cls(3, return_sequences=return_sequences, dtype=dtype)]))


def test_embedding_mask_reaches_the_output_and_tf_function_agrees():
    model = _embedding_rnn()
    y = model(tf.constant(TOKENS))
    np.testing.assert_array_equal(y._keras_mask.numpy(), TOKENS != 0)

    def masked_output(x):
        out = model(x)
        return out, out._keras_mask

    run_all_ways(masked_output, tf.constant(TOKENS))


@pytest.mark.parametrize("cls", [L.SimpleRNN, L.LSTM, L.GRU])
def test_masked_rnn_equals_the_rnn_on_the_kept_steps(cls):
    """The final output with a mask is the output of running only the unmasked steps (masked ones are skipped)."""
    model = _embedding_rnn(cls, return_sequences=False)
    embedding, rnn = model.layers
    full = model(tf.constant(TOKENS)).numpy()
    for row, tokens in enumerate(TOKENS):
        kept = tokens[tokens != 0][None, :]
        alone = rnn(embedding(tf.constant(kept))).numpy()  # no zeros: no mask
        np.testing.assert_allclose(full[row], alone[0], rtol=1e-5, atol=1e-6)
    run_all_ways(model, tf.constant(TOKENS))


def test_sequences_repeat_the_previous_output_on_masked_steps_and_bidirectional_zeros_them():
    model = _embedding_rnn(L.GRU, return_sequences=True)
    y = model(tf.constant(TOKENS)).numpy()
    np.testing.assert_array_equal(y[0, 2], y[0, 1])           # token 0 at step 2: the step-1 output again
    np.testing.assert_array_equal(y[2, 0], np.zeros(3))       # masked first step: the zero initial output
    bi = L.Bidirectional(L.LSTM(2, return_sequences=True))
    emb = L.Embedding(6, 3, mask_zero=True)
    out = bi(emb(tf.constant(TOKENS)))
    np.testing.assert_array_equal(out.numpy()[0, 2], np.zeros(4))
    np.testing.assert_array_equal(out._keras_mask.numpy(), TOKENS != 0)


def test_masking_layer_and_explicit_masks():
    x = np.arange(24, dtype=np.float32).reshape(3, 4, 2) + 1
    x[1, 1:] = 0.0
    masked = L.Masking()(tf.constant(x))
    np.testing.assert_array_equal(masked._keras_mask.numpy(), np.any(x != 0, axis=-1))
    lstm = L.LSTM(2)
    explicit = lstm(tf.constant(x), mask=tf.constant(np.any(x != 0, axis=-1)))
    np.testing.assert_allclose(lstm(masked).numpy(), explicit.numpy(), rtol=1e-6)
    # An explicit mask wins over the attached one.
    everything = lstm(masked, mask=tf.ones([3, 4], tf.bool))
    np.testing.assert_allclose(everything.numpy(), lstm(tf.constant(x)).numpy(), rtol=1e-6)


def test_functional_model_mask_argument_and_nested_models():
    inputs = keras.Input((4, 2))
    inner = keras.Model(inputs, L.SimpleRNN(2, return_sequences=True)(inputs))
    outer_in = keras.Input((4, 2))
    outer = keras.Model(outer_in, L.GlobalAveragePooling1D()(inner(L.Masking()(outer_in))))
    x = np.ones((2, 4, 2), np.float32)
    x[0, 2:] = 0
    mask = np.any(x != 0, axis=-1)
    seq = inner(tf.constant(x), mask=tf.constant(mask))
    np.testing.assert_array_equal(seq._keras_mask.numpy(), mask)
    expected = (seq.numpy() * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    run_all_ways(outer, tf.constant(x), expected=expected, rtol=1e-5)


def test_layers_without_mask_support_drop_it_with_keras_warning():
    emb = L.Embedding(6, 2, mask_zero=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        flat = L.Flatten()(emb(tf.constant(TOKENS)))
    assert flat._keras_mask is None
    assert any("does not support masking" in str(w.message) for w in caught)
    dense = L.Dense(2)(emb(tf.constant(TOKENS)))        # Dense supports masking: passes it on
    np.testing.assert_array_equal(dense._keras_mask.numpy(), TOKENS != 0)
    pooled = L.GlobalAveragePooling1D()(emb(tf.constant(TOKENS)))
    assert pooled._keras_mask is None                   # the time axis is gone


def test_merges_lambda_and_time_distributed():
    a, b = L.Embedding(6, 2, mask_zero=True), L.Embedding(6, 2, mask_zero=True)
    other = np.array([[0, 3, 0, 1, 1], [0, 0, 0, 2, 0], [5, 1, 0, 0, 0]], np.int32)
    ea, eb = a(tf.constant(TOKENS)), b(tf.constant(other))
    np.testing.assert_array_equal(L.Add()([ea, eb])._keras_mask.numpy(), (TOKENS != 0) | (other != 0))
    np.testing.assert_array_equal(L.Concatenate()([ea, eb])._keras_mask.numpy(), (TOKENS != 0) | (other != 0))
    unmasked = tf.ones([3, 5, 2])
    np.testing.assert_array_equal(L.Concatenate()([ea, unmasked])._keras_mask.numpy(), np.ones((3, 5), bool))
    assert L.Add()([ea, unmasked])._keras_mask is None
    assert L.Lambda(lambda t: t * 2)(ea)._keras_mask is None   # Lambda without `mask=` drops it (Keras 3)
    kept = L.Lambda(lambda t: t * 2, mask=lambda t, m: m)(ea)
    np.testing.assert_array_equal(kept._keras_mask.numpy(), TOKENS != 0)
    distributed = L.TimeDistributed(L.Dense(3))(ea)
    np.testing.assert_array_equal(distributed._keras_mask.numpy(), TOKENS != 0)


def test_masked_loss_is_the_mean_over_kept_steps_all_ways():
    model = _embedding_rnn(L.LSTM, return_sequences=True)
    labels = np.random.default_rng(0).integers(0, 3, (3, 5))
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    y_pred = model(tf.constant(TOKENS)).numpy()
    shifted = y_pred - y_pred.max(-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    per_step = -np.take_along_axis(log_p, labels[..., None], -1)[..., 0]
    expected = per_step[TOKENS != 0].mean()
    run_all_ways(lambda x, y: loss(y, model(x)), tf.constant(TOKENS), tf.constant(labels),
                 expected=np.float32(expected), rtol=1e-5)
    metric = keras.metrics.SparseCategoricalAccuracy()
    metric.update_state(labels, model(tf.constant(TOKENS)))
    hits = (y_pred.argmax(-1) == labels)[TOKENS != 0]
    np.testing.assert_allclose(metric.result().numpy(), hits.mean(), rtol=1e-6)


def test_gradient_of_masked_loss_by_finite_differences():
    """d(masked mean loss)/d(inputs, weights) of a Masking + SimpleRNN stack, in float64."""
    rnn = L.SimpleRNN(2, return_sequences=True, dtype="float64")
    masker = L.Masking(dtype="float64")
    x = np.random.default_rng(3).uniform(-1, 1, (2, 3, 2))
    x[0, 1] = 0.0
    rnn(tf.constant(x))
    loss = keras.losses.MeanSquaredError(dtype="float64")  # Keras computes a loss in its dtype (floatx unless given)

    def program(x, kernel, recurrent, bias):
        cell = rnn.cell
        saved = cell.kernel, cell.recurrent_kernel, cell.bias
        object.__setattr__(cell, "kernel", kernel)
        object.__setattr__(cell, "recurrent_kernel", recurrent)
        object.__setattr__(cell, "bias", bias)
        try:
            out = rnn(masker(x))
            return loss(tf.ones_like(out), out)
        finally:
            for name, value in zip(("kernel", "recurrent_kernel", "bias"), saved):
                object.__setattr__(cell, name, value)

    # keep x[0, 1] exactly zero: perturbing it would unmask the step (the mask is not differentiable)
    check_gradients(lambda kernel, recurrent, bias: program(tf.constant(x), kernel, recurrent, bias),
                    rnn.get_weights())


@pytest.mark.parametrize("run_eagerly", [True, False])
def test_fit_with_masks_is_the_same_eagerly_and_as_a_graph(run_eagerly):
    results = []
    for eager in (True, run_eagerly):
        keras.backend.clear_session()
        model = _fixed(keras.Sequential([keras.Input((5,), dtype="int32"), L.Embedding(6, 4, mask_zero=True),
                                         L.GRU(3, return_sequences=True), L.Dense(2)]))
        model.compile(optimizer=keras.optimizers.SGD(0.3), run_eagerly=eager,
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
        labels = (TOKENS % 2).astype(np.int32)
        history = model.fit(np.tile(TOKENS, (4, 1)), np.tile(labels, (4, 1)), batch_size=4, epochs=2,
                            shuffle=False, verbose=0)
        results.append((history.history, [w.copy() for w in model.get_weights()]))
    (h1, w1), (h2, w2) = results
    for key in h1:
        np.testing.assert_allclose(h1[key], h2[key], rtol=1e-5)
    for a, b in zip(w1, w2):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_the_mask_table_forgets_dead_tensors():
    before = len(masking._masks)
    emb = L.Embedding(6, 2, mask_zero=True)
    for _ in range(20):
        emb(tf.constant(TOKENS))
    gc.collect()
    assert len(masking._masks) <= before + 1
    t = tf.constant([1.0])
    t._keras_mask = tf.constant([True])
    assert masking.get_keras_mask(t) is not None
    t._keras_mask = None
    assert masking.get_keras_mask(t) is None


def test_batchnorm_rejects_a_mask_of_the_wrong_rank():
    with pytest.raises(ValueError, match="one dimension less"):
        L.BatchNormalization()(tf.ones([2, 3, 4]), training=True, mask=tf.ones([2], tf.bool))
