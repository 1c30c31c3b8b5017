"""keras.StatelessScope beyond the recorded conformance programs: gradients flow to the mapped values, and a
stateless training step (weights in, new weights out) equals the stateful one, eagerly and in tf.function."""

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


def _model():
    tf.keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="tanh"), keras.layers.Dense(1)])
    return model


X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(6, 4)
Y = np.sin(X.sum(axis=1, keepdims=True))


def _stateful_step(model):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - Y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    for v, g in zip(model.trainable_variables, grads):
        v.assign_sub(0.1 * g)
    return loss


def _stateless_step(model, values):
    with tf.GradientTape() as tape:
        tape.watch(values)
        with keras.StatelessScope(state_mapping=list(zip(model.trainable_variables, values))):
            loss = tf.reduce_mean((model(X) - Y) ** 2)
    grads = tape.gradient(loss, values)
    return loss, [v - 0.1 * g for v, g in zip(values, grads)]


@pytest.mark.parametrize("traced", [False, True])
def test_stateless_step_equals_stateful_step_and_leaves_weights(traced):
    stateful, stateless = _model(), _model()
    before = [w.numpy() for w in stateless.trainable_variables]
    step = tf.function(_stateless_step) if traced else _stateless_step
    loss_a = _stateful_step(stateful)
    loss_b, new_values = step(stateless, [tf.constant(w) for w in before])
    np.testing.assert_allclose(loss_a.numpy(), loss_b.numpy(), rtol=1e-6)
    for v, new in zip(stateful.trainable_variables, new_values):
        np.testing.assert_allclose(v.numpy(), new.numpy(), rtol=1e-5, atol=1e-6)
    for w, old in zip(stateless.trainable_variables, before):
        assert np.array_equal(w.numpy(), old)  # nothing changed in place


def test_mapped_value_gradient_matches_finite_differences():
    d = keras.layers.Dense(1, use_bias=False)
    d.build((None, 3))
    kernel = tf.constant([[0.3], [-0.2], [0.5]])
    x = tf.constant([[1.0, 2.0, -1.0]])

    def loss(k):
        with keras.StatelessScope(state_mapping=[(d.kernel, k)]):
            return tf.reduce_sum(tf.tanh(d(x)))

    with tf.GradientTape() as tape:
        tape.watch(kernel)
        value = loss(kernel)
    grad = tape.gradient(value, kernel).numpy()
    eps = 1e-3
    for i in range(3):
        bump = np.zeros((3, 1), np.float32)
        bump[i] = eps
        fd = (loss(kernel + bump).numpy() - loss(kernel - bump).numpy()) / (2 * eps)
        assert abs(fd - grad[i, 0]) < 1e-3
