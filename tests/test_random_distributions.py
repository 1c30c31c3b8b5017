"""tf.random's gamma, poisson, binomial and categorical samplers and keras.random's: eager against traced (with
and without passes), their statistics against the distributions' moments, stateful streams that advance and
restart with set_seed, and gamma's alpha gradient against the implicit reparameterization computed from the
CDF by quadrature. TF 2.21's exact numbers are in tests/conformance/random_distributions.py."""

import math

import numpy as np
import pytest

import tinytf as tf


def _simpson(values, h):
    return h / 3 * (values[0] + values[-1] + 4 * values[1:-1:2].sum() + 2 * values[2:-1:2].sum())


def _gamma_cdf(a: float, x: float, substitute: bool) -> float:
    """P(a, x) by Simpson quadrature of t^(a-1) e^-t, independent of the kernel's series and continued fraction:
    below a = 1 (`substitute`) on t = s^(1/a), which removes the singularity at 0 (the integrand becomes e^-t / a)."""
    n = 40000
    if substitute:
        s = np.linspace(0.0, x ** a, n + 1)
        return _simpson(np.exp(-(s ** (1 / a))) / a, x ** a / n) / math.gamma(a)
    t = np.linspace(0.0, x, n + 1)
    return _simpson(t ** (a - 1) * np.exp(-t), x / n) / math.gamma(a)


def _implicit_derivative(a: float, x: float) -> float:
    """d x / d a at fixed P(a, x): -(dP/da) / density, dP/da by central differences of the quadrature."""
    step = 1e-4 * a
    substitute = a < 1.5  # one quadrature on both sides of the difference
    dp_da = (_gamma_cdf(a + step, x, substitute) - _gamma_cdf(a - step, x, substitute)) / (2 * step)
    density = x ** (a - 1) * math.exp(-x) / math.gamma(a)
    return -dp_da / density


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_gamma_alpha_gradient_is_the_implicit_reparameterization(dtype):
    alpha = tf.constant([0.6, 1.0, 2.5, 8.0], dtype)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        samples = tf.random.stateless_gamma([3, 4], seed=[2, 3], alpha=alpha, dtype=dtype)
    per_sample = []
    for row in range(3):
        with tf.GradientTape() as tape_row:
            tape_row.watch(alpha)
            drawn = tf.random.stateless_gamma([3, 4], seed=[2, 3], alpha=alpha, dtype=dtype)[row]
        per_sample.append(tape_row.gradient(drawn, alpha).numpy())
    expected = np.array([[_implicit_derivative(float(a), float(x)) for a, x in zip(alpha.numpy(), row)]
                         for row in samples.numpy()])
    np.testing.assert_allclose(np.array(per_sample), expected, rtol=2e-4, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(samples, alpha).numpy(), expected.sum(axis=0), rtol=2e-4)


def test_gamma_gradient_through_beta_and_in_a_function(passes):
    alpha, beta = tf.constant([1.5, 3.0]), tf.constant(2.0)

    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            s = tf.random.stateless_gamma([5, 2], seed=[1, 4], alpha=a, beta=b)
        return (s,) + tuple(tape.gradient(s, [a, b]))

    eager = grads(alpha, beta)
    traced = tf.function(grads)(alpha, beta)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-6)
    # a sample is gamma(alpha) / beta: d/d beta is -sample / beta, summed
    np.testing.assert_allclose(eager[2].numpy(), -eager[0].numpy().sum() / 2.0, rtol=1e-5)


@pytest.mark.parametrize("draw", [
    lambda seed: tf.random.stateless_gamma([3, 2], seed=seed, alpha=[0.4, 6.0]),
    lambda seed: tf.random.stateless_poisson([4, 2], seed=seed, lam=[2.0, 25.0]),
    lambda seed: tf.random.stateless_binomial([4, 2], seed=seed, counts=[7.0, 200.0], probs=[0.3, 0.8]),
    lambda seed: tf.random.stateless_categorical([[0.0, 1.0, 2.0], [1.0, -1.0, 0.5]], 5, seed=seed),
    lambda seed: tf.random.stateless_parameterized_truncated_normal([3, 2], seed, means=[0.0, 4.0],
                                                                    minvals=[-0.3, 5.0], maxvals=[0.3, np.inf]),
])
def test_stateless_draws_are_the_same_eagerly_and_traced(draw, passes):
    eager = draw(tf.constant([3, 5]))
    traced = tf.function(draw)(tf.constant([3, 5]))
    np.testing.assert_array_equal(eager.numpy(), traced.numpy())
    assert not np.array_equal(draw(tf.constant([3, 6])).numpy(), eager.numpy())


def test_moments_match_the_distributions():
    gamma = tf.random.stateless_gamma([2000, 3], seed=[1, 2], alpha=[0.5, 2.0, 9.0], beta=[1.0, 2.0, 0.5]).numpy()
    np.testing.assert_allclose(gamma.mean(axis=0), [0.5, 1.0, 18.0], rtol=0.06)
    np.testing.assert_allclose(gamma.var(axis=0), [0.5, 0.5, 36.0], rtol=0.12)
    poisson = tf.random.stateless_poisson([2000, 3], seed=[3, 4], lam=[0.7, 6.0, 80.0], dtype=tf.float64).numpy()
    np.testing.assert_allclose(poisson.mean(axis=0), [0.7, 6.0, 80.0], rtol=0.04)
    np.testing.assert_allclose(poisson.var(axis=0), [0.7, 6.0, 80.0], rtol=0.1)
    binomial = tf.random.stateless_binomial([1500, 3], seed=[5, 6], counts=[10.0, 100.0, 40.0],
                                            probs=[0.2, 0.35, 0.9], output_dtype=tf.float64).numpy()
    np.testing.assert_allclose(binomial.mean(axis=0), [2.0, 35.0, 36.0], rtol=0.04)
    np.testing.assert_allclose(binomial.var(axis=0), [1.6, 22.75, 3.6], rtol=0.12)
    # the three truncated normal samplers: normal proposals, uniform proposals, exponential proposals
    for low, high in [(-2.0, 2.0), (0.2, 0.9), (2.5, np.inf)]:
        drawn = tf.random.stateless_parameterized_truncated_normal([1500], [9, 9], minvals=low,
                                                                   maxvals=high).numpy()
        grid = np.linspace(low, min(high, low + 8), 20001)
        density = np.exp(-grid ** 2 / 2)
        mean = (grid * density).sum() / density.sum()
        assert drawn.min() >= low and drawn.max() <= high
        np.testing.assert_allclose(drawn.mean(), mean, atol=3 * drawn.std() / np.sqrt(drawn.size))  # 3 sigma
    logits = np.log([[0.1, 0.6, 0.3]])
    drawn = tf.random.stateless_categorical(logits, 6000, seed=[7, 8]).numpy()
    np.testing.assert_allclose(np.bincount(drawn[0], minlength=3) / 6000, [0.1, 0.6, 0.3], atol=0.02)


def test_stateful_streams_advance_and_restart_with_set_seed():
    tf.random.set_seed(21)
    first = [tf.random.gamma([3], alpha=2.0, seed=1).numpy(), tf.random.gamma([3], alpha=2.0, seed=1).numpy(),
             tf.random.poisson([3], lam=4.0, seed=1).numpy(), tf.random.categorical([[0.0, 0.0]], 8, seed=1).numpy()]
    assert not np.array_equal(first[0], first[1])  # one kernel, its generator moves on
    tf.random.set_seed(21)
    again = [tf.random.gamma([3], alpha=2.0, seed=1).numpy(), tf.random.gamma([3], alpha=2.0, seed=1).numpy(),
             tf.random.poisson([3], lam=4.0, seed=1).numpy(), tf.random.categorical([[0.0, 0.0]], 8, seed=1).numpy()]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)

    @tf.function
    def draw():
        return tf.random.gamma([2], alpha=[1.0, 0.3], seed=2)

    assert not np.array_equal(draw().numpy(), draw().numpy())  # a graph node keeps its generator between calls


def test_shapes_dtypes_and_edge_values():
    assert tf.random.gamma([2, 3], alpha=[[1.0], [2.0]]).shape.as_list() == [2, 3, 2, 1]
    assert tf.random.poisson([4], lam=[1.0, 2.0], dtype=tf.int64).dtype == tf.int64
    assert tf.random.stateless_categorical([[1.0, 2.0]], 0, seed=[1, 2]).shape.as_list() == [1, 0]
    edge = tf.random.stateless_binomial([2, 3], seed=[1, 1], counts=[0.0, 5.0, 5.0], probs=[0.5, 0.0, 1.0]).numpy()
    np.testing.assert_array_equal(edge, [[0, 0, 5], [0, 0, 5]])
    tiny = tf.random.stateless_gamma([50], seed=[1, 2], alpha=0.01).numpy()
    assert (tiny >= np.finfo(np.float32).tiny).all()  # TF keeps samples at least the smallest normal float
    never = tf.random.stateless_categorical([[0.0, -np.inf, 0.0]], 200, seed=[4, 4]).numpy()
    assert 1 not in never


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="broadcasted shape"):
        tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="matrix"):
        tf.random.stateless_categorical([1.0, 2.0], 3, seed=[1, 2])
    with pytest.raises(ValueError, match="Accepted dtypes"):
        tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32)
    with pytest.raises(ValueError, match="unsupported value"):
        tf.random.create_rng_state(1, "mersenne")


def test_keras_random_seed_generators_draw_fresh_values_in_a_function(passes):
    generator = tf.keras.random.SeedGenerator(3)

    @tf.function
    def draw():
        return tf.keras.random.beta((3,), 2.0, 2.0, seed=generator)

    a, b = draw().numpy(), draw().numpy()
    assert not np.array_equal(a, b) and ((a > 0) & (a < 1)).all()
    assert tf.keras.random.binomial((2,), 5, 0.5, seed=1).dtype == tf.float32
    assert tf.keras.random.gamma((2,), 1.0, seed=1, dtype="bfloat16").dtype == tf.bfloat16
