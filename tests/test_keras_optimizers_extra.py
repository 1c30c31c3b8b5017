"""Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor and LossScaleOptimizer: their update rules against plain
numpy, eager against @tf.function, configs, fit by name, and dynamic loss scaling's skipped steps. Keras 3's own
numbers are checked in tests/conformance/keras_optimizers_extra.py."""

import numpy as np
import pytest

import tinytf as tf

O = tf.keras.optimizers
NAMES = ["Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Lamb", "Adafactor"]


def _grads(steps, shape=(3, 4)):
    rng = np.random.default_rng(0)
    return [rng.normal(size=shape).astype(np.float32) for _ in range(steps)]


def _run(optimizer, start, grads, graph):
    w = tf.Variable(start)

    def step(g):
        optimizer.apply_gradients([(g, w)])

    if graph:
        step = tf.function(step)
    for g in grads:
        step(tf.constant(g))
    return w.numpy()


def _numpy_lion(w, grads, lr=0.1, b1=0.9, b2=0.99):
    m = np.zeros_like(w)
    for g in grads:
        w = w - lr * np.sign(m * b1 + g * (1 - b1))
        m = m * b2 + g * (1 - b2)
    return w


def _numpy_adamax(w, grads, lr=0.1, b1=0.9, b2=0.999, eps=1e-7):
    m, u = np.zeros_like(w), np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        m = m + (g - m) * (1 - b1)
        u = np.maximum(b2 * u, np.abs(g))
        w = w - lr * m / ((1 - b1 ** t) * (u + eps))
    return w


def _numpy_adadelta(w, grads, lr=0.1, rho=0.95, eps=1e-7):
    eg, ed = np.zeros_like(w), np.zeros_like(w)
    for g in grads:
        eg = rho * eg + (1 - rho) * g * g
        d = -np.sqrt(ed + eps) * g / np.sqrt(eg + eps)
        ed = rho * ed + (1 - rho) * d * d
        w = w + lr * d
    return w


def _numpy_nadam(w, grads, lr=0.1, b1=0.9, b2=0.999, eps=1e-7):
    m, v, prod = np.zeros_like(w), np.zeros_like(w), 1.0
    for t, g in enumerate(grads, 1):
        u_t, u_next = b1 * (1 - 0.5 * 0.96 ** t), b1 * (1 - 0.5 * 0.96 ** (t + 1))
        prod = prod * u_t
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        m_hat = u_next * m / (1 - prod * u_next) + (1 - u_t) * g / (1 - prod)
        w = w - m_hat * lr / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return w


def _numpy_ftrl(w, grads, lr=0.1, power=-0.5, init=0.1):
    n, z = np.full_like(w, init), np.zeros_like(w)
    for g in grads:
        n_new = n + g * g
        z = z + g - (n_new ** -power - n ** -power) / lr * w
        w = (np.clip(z, 0, 0) - z) / (n_new ** -power / lr)
        n = n_new
    return w


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("name,reference", [("Lion", _numpy_lion), ("Adamax", _numpy_adamax),
                                            ("Adadelta", _numpy_adadelta), ("Nadam", _numpy_nadam),
                                            ("Ftrl", _numpy_ftrl)])
def test_update_rule_matches_numpy(name, reference, graph):
    start = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    grads = _grads(4)
    got = _run(getattr(O, name)(learning_rate=0.1), start, grads, graph)
    np.testing.assert_allclose(got, reference(start.astype(np.float64), grads), rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_eager_and_function_agree_with_float64(name):
    """float64 variables: the whole update runs in float64 (no float32 detour), eagerly and traced alike."""
    start = np.linspace(-1, 1, 12).reshape(3, 4)
    grads = [g.astype(np.float64) for g in _grads(3)]
    eager = _run(getattr(O, name)(learning_rate=0.05), start, grads, graph=False)
    traced = _run(getattr(O, name)(learning_rate=0.05), start, grads, graph=True)
    assert eager.dtype == np.float64
    np.testing.assert_allclose(eager, traced, rtol=1e-12)
    assert not np.allclose(eager, start)


def test_adafactor_factors_matrices_only():
    opt = O.Adafactor()
    w, b = tf.Variable(np.ones((2, 5, 3), np.float32)), tf.Variable(np.ones(3, np.float32))
    opt.build([w, b])
    shapes = sorted(tuple(v.shape) for v in opt.variables[2:] if v.dtype == tf.float32)  # not the int32 placeholders
    assert shapes == [(2, 3), (2, 5), (2, 5, 3), (3,)]


@pytest.mark.parametrize("name", NAMES)
def test_config_round_trip_and_get(name):
    opt = getattr(O, name)(learning_rate=0.3, clipvalue=0.5)
    again = O.deserialize(O.serialize(opt))
    assert type(again) is type(opt)
    assert again.get_config() == opt.get_config()
    if name != "Lamb":  # Keras 3 leaves Lamb out of the names get() knows
        assert type(O.get(name.lower())) is type(opt)


@pytest.mark.parametrize("name", ["nadam", "adamax", "adadelta", "ftrl", "lion", "adafactor"])
def test_fit_by_name_lowers_the_loss(name):
    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(32, 2)
    y = x @ np.array([[1.0], [-2.0]], np.float32)
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    optimizer = O.get(name)
    optimizer.learning_rate = 0.05 if name != "adadelta" else 1.0
    model.compile(optimizer=optimizer, loss="mse")
    history = model.fit(x, y, epochs=5, batch_size=8, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0]


@pytest.mark.parametrize("graph", [False, True])
def test_loss_scale_optimizer_skips_non_finite_steps(graph):
    opt = O.LossScaleOptimizer(O.Adam(0.1), initial_scale=16.0, dynamic_growth_steps=2)
    w = tf.Variable([1.0, -1.0])

    def step(g):
        opt.apply_gradients([(g, w)])

    if graph:
        step = tf.function(step)
    step(tf.constant([16.0, 16.0]))
    after_first = w.numpy().copy()
    slots = [v.numpy().copy() for v in opt.inner_optimizer.variables]
    step(tf.constant([np.inf, 1.0]))  # skipped: weights, slots and iterations stay, the scale halves
    np.testing.assert_array_equal(w.numpy(), after_first)
    for before, now in zip(slots, opt.inner_optimizer.variables):
        np.testing.assert_array_equal(before, now.numpy())
    assert float(opt.dynamic_scale.numpy()) == 8.0 and int(opt.iterations.numpy()) == 1
    step(tf.constant([8.0, 8.0]))
    step(tf.constant([8.0, 8.0]))  # two finite steps in a row double the scale
    assert float(opt.dynamic_scale.numpy()) == 16.0 and int(opt.step_counter.numpy()) == 0
    assert len(opt.variables) == 4 + len(opt.inner_optimizer.variables)


def test_loss_scale_optimizer_unscales_gradients_like_the_inner_optimizer():
    plain, scaled = tf.Variable([0.5, 2.0]), tf.Variable([0.5, 2.0])
    inner, lso = O.SGD(0.1), O.LossScaleOptimizer(O.SGD(0.1), initial_scale=1024.0)
    for _ in range(3):
        with tf.GradientTape(persistent=True) as tape:
            loss_a = tf.reduce_sum(tf.square(plain))
            loss_b = lso.scale_loss(tf.reduce_sum(tf.square(scaled)))
        inner.apply_gradients([(tape.gradient(loss_a, plain), plain)])
        lso.apply_gradients([(tape.gradient(loss_b, scaled), scaled)])
    np.testing.assert_allclose(scaled.numpy(), plain.numpy(), rtol=1e-6)
    assert lso.learning_rate is lso.inner_optimizer.learning_rate


def test_bad_arguments_raise_keras_errors():
    with pytest.raises(ValueError, match="learning_rate_power"):
        O.Ftrl(learning_rate_power=1.0)
    with pytest.raises(ValueError, match="beta_1"):
        O.Lion(beta_1=1.5)
    with pytest.raises(ValueError, match="inner_optimizer"):
        O.LossScaleOptimizer("adam")
    with pytest.raises(ValueError, match="does not support `clipnorm`"):
        O.LossScaleOptimizer(O.SGD(), clipnorm=1.0)
