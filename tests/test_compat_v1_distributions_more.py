"""tf.compat.v1.distributions beyond the first four: Laplace, Exponential, Gamma, Beta, StudentT, Dirichlet,
Multinomial and DirichletMultinomial give the same numbers eagerly, in tf.function and in a TF1 Session, which
agree with closed forms in numpy (float64); their gradients agree with central finite differences."""

import math

import numpy as np
import pytest
from test_compat_v1_distributions import _check_gradient, three_ways

import tinytf as tf

d = tf.compat.v1.distributions
lgamma = np.vectorize(math.lgamma)


def f64(x):
    return tf.constant(x, tf.float64)


def test_laplace_and_exponential_closed_forms():
    x = np.array([-3.0, 0.5, 2.0, 40.0])
    lp = three_ways(lambda: d.Laplace(f64(0.5), f64(2.0)).log_prob(x))
    np.testing.assert_allclose(lp, -np.abs(x - 0.5) / 2.0 - np.log(4.0), rtol=1e-12)
    cdf = three_ways(lambda: d.Laplace(f64(0.5), f64(2.0)).cdf(x))
    z = (x - 0.5) / 2.0
    np.testing.assert_allclose(cdf, np.where(z < 0, 0.5 * np.exp(z), 1 - 0.5 * np.exp(-z)), rtol=1e-12)
    lsf = three_ways(lambda: d.Laplace(f64(0.5), f64(2.0)).log_survival_function(x))
    np.testing.assert_allclose(lsf, np.log(1 - np.where(z < 0, 0.5 * np.exp(z), 1 - 0.5 * np.exp(-z))), rtol=1e-9)
    rate = np.array([0.5, 2.0])
    x = np.array([[0.3], [4.0]])
    lp = three_ways(lambda: d.Exponential(f64(rate)).log_prob(x))
    np.testing.assert_allclose(lp, np.log(rate) - rate * x, rtol=1e-12)
    sf = three_ways(lambda: d.Exponential(f64(rate)).survival_function(x))
    np.testing.assert_allclose(sf, np.exp(-rate * x), rtol=1e-12)
    np.testing.assert_allclose(three_ways(lambda: d.Exponential(f64(rate)).variance()), 1 / rate**2)


def test_gamma_beta_student_t_closed_forms():
    a, r = np.array([0.5, 1.0, 3.0]), np.array([1.0, 2.0, 0.5])
    x = np.array([0.1, 1.0, 7.0])
    lp = three_ways(lambda: d.Gamma(f64(a), f64(r)).log_prob(x))
    np.testing.assert_allclose(lp, a * np.log(r) + (a - 1) * np.log(x) - r * x - lgamma(a), rtol=1e-12)
    mode = three_ways(lambda: d.Gamma(f64(a), f64(r)).mode())
    np.testing.assert_allclose(mode, [np.nan, np.nan, 4.0])  # defined for concentration > 1 only
    c1, c0 = np.array([0.5, 2.0, 5.0]), np.array([0.5, 3.0, 1.0])
    x = np.array([0.1, 0.5, 0.99])
    lp = three_ways(lambda: d.Beta(f64(c1), f64(c0)).log_prob(x))
    lbeta = lgamma(c1) + lgamma(c0) - lgamma(c1 + c0)
    np.testing.assert_allclose(lp, (c1 - 1) * np.log(x) + (c0 - 1) * np.log1p(-x) - lbeta, rtol=1e-12)
    # Beta(2, 3) CDF in closed form: I_x(2, 3) = 6x^2 - 8x^3 + 3x^4
    x = np.array([0.2, 0.5, 0.7])
    cdf = three_ways(lambda: d.Beta(f64(2.0), f64(3.0)).cdf(x))
    np.testing.assert_allclose(cdf, 6 * x**2 - 8 * x**3 + 3 * x**4, rtol=1e-10)
    df, loc, scale = np.array([1.0, 3.0, 30.0]), 0.5, 2.0
    x = np.array([-3.0, 0.5, 10.0])
    y = (x - loc) / scale
    lp = three_ways(lambda: d.StudentT(f64(df), f64(loc), f64(scale)).log_prob(x))
    expected = (lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * np.log(df * np.pi) - np.log(scale)
                - (df + 1) / 2 * np.log1p(y**2 / df))
    np.testing.assert_allclose(lp, expected, rtol=1e-12)
    # df = 1 is Cauchy: CDF 1/2 + atan(y) / pi
    cdf = three_ways(lambda: d.StudentT(f64(1.0), f64(loc), f64(scale)).cdf(x))
    np.testing.assert_allclose(cdf, 0.5 + np.arctan(y) / np.pi, rtol=1e-10)
    var = three_ways(lambda: d.StudentT(f64([0.5, 1.5, 4.0]), f64(0.0), f64(2.0)).variance())
    np.testing.assert_allclose(var, [np.nan, np.inf, 8.0])


def test_dirichlet_multinomial_family_closed_forms():
    c = np.array([1.5, 2.0, 3.0])
    x = np.array([0.2, 0.3, 0.5])
    lp = three_ways(lambda: d.Dirichlet(f64(c)).log_prob(x))
    np.testing.assert_allclose(lp, np.sum((c - 1) * np.log(x)) - (lgamma(c).sum() - lgamma(c.sum())), rtol=1e-12)
    cov = three_ways(lambda: d.Dirichlet(f64(c)).covariance())
    mean, c0 = c / c.sum(), c.sum()
    np.testing.assert_allclose(cov, (np.diag(mean) - np.outer(mean, mean)) / (c0 + 1), rtol=1e-12, atol=1e-15)
    p = np.array([0.2, 0.3, 0.5])
    counts = np.array([1.0, 1.0, 2.0])
    lp = three_ways(lambda: d.Multinomial(f64(4.0), probs=f64(p)).log_prob(counts))
    np.testing.assert_allclose(lp, np.log(12 * 0.2 * 0.3 * 0.25), rtol=1e-12)  # 4! / (1! 1! 2!) = 12
    lp = three_ways(lambda: d.DirichletMultinomial(f64(4.0), f64(c)).log_prob(counts))
    lbeta = lambda v: lgamma(v).sum() - lgamma(v.sum())  # noqa: E731
    np.testing.assert_allclose(lp, np.log(12) + lbeta(c + counts) - lbeta(c), rtol=1e-12)


def test_multinomial_samples_count_their_draws():
    tf.random.set_seed(2)
    m = d.Multinomial(total_count=[3.0, 7.0], probs=[[0.2, 0.8], [0.5, 0.5]])
    s = m.sample(4, seed=1)
    assert s.shape == [4, 2, 2] and s.dtype == tf.float32
    np.testing.assert_array_equal(s.numpy().sum(-1), np.broadcast_to([3.0, 7.0], [4, 2]))
    dm = d.DirichletMultinomial(5.0, [1.0, 2.0, 3.0])
    s = dm.sample([2, 3], seed=4)
    assert s.shape == [2, 3, 3]
    np.testing.assert_array_equal(s.numpy().sum(-1), np.full([2, 3], 5.0))
    tf.random.set_seed(2)
    big = d.Dirichlet([1.0, 2.0, 3.0]).sample(20000, seed=3).numpy()
    np.testing.assert_allclose(big.mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)


def test_gradients_against_finite_differences():
    _check_gradient(lambda loc, scale: d.Laplace(loc, scale).log_prob([0.3, -1.0]), [0.5, 0.1], [1.2, 0.4])
    _check_gradient(lambda rate: d.Exponential(rate).log_survival_function([0.3, 2.0]), [0.5, 1.7])
    _check_gradient(lambda a, r: d.Gamma(a, r).log_prob([0.5, 2.0]), [1.5, 3.0], [1.0, 0.5])
    _check_gradient(lambda a, r: d.Gamma(a, r).entropy(), [1.5, 3.0], [1.0, 0.5])
    _check_gradient(lambda c1, c0: d.Beta(c1, c0).log_prob([0.3, 0.8]), [0.5, 2.0], [3.0, 1.5])
    _check_gradient(lambda c1, c0: d.kl_divergence(d.Beta(c1, c0), d.Beta(f64(2.0), f64(2.0))), [0.5, 2.0],
                    [3.0, 1.5])
    _check_gradient(lambda df, s: d.StudentT(df, f64(0.5), s).log_prob([0.0, 3.0]), [1.5, 7.0], [1.0, 2.0])
    _check_gradient(lambda c: d.Dirichlet(c).log_prob([0.2, 0.3, 0.5]), [1.5, 2.0, 0.7])
    _check_gradient(lambda c: d.kl_divergence(d.Dirichlet(c), d.Dirichlet(f64([1.0, 2.0, 3.0]))), [1.5, 2.0, 0.7])
    _check_gradient(lambda a, b: d.kl_divergence(d.Gamma(a, b), d.Gamma(f64(2.0), f64(1.5))), [0.7, 3.0],
                    [1.0, 0.4])
    _check_gradient(lambda p: d.Multinomial(f64(5.0), probs=p).log_prob([1.0, 3.0, 1.0]), [0.2, 0.5, 0.3])

    def laplace_samples(loc, scale):
        tf.random.set_seed(7)
        return d.Laplace(loc, scale).sample(6, seed=1)

    _check_gradient(laplace_samples, [0.5, -1.0], [1.5, 0.3])

    def exponential_samples(rate):
        tf.random.set_seed(7)
        return d.Exponential(rate).sample(6, seed=1)

    _check_gradient(exponential_samples, [0.5, 2.0])


def test_validation_and_undefined_statistics():
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Gamma(-1.0, 1.0, validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Beta(1.0, 0.0, validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Multinomial(2.5, probs=[0.5, 0.5], validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="sum to"):
        d.Multinomial(3.0, probs=[0.5, 0.5], validate_args=True).log_prob([1.0, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="df <= 1"):
        d.StudentT(0.5, 0.0, 1.0, allow_nan_stats=False).mean()
    with pytest.raises(tf.errors.InvalidArgumentError, match="mode not defined"):
        d.Gamma(0.5, 1.0, allow_nan_stats=False).mode()
    with pytest.raises(NotImplementedError, match="entropy is not implemented: DirichletMultinomial"):
        d.DirichletMultinomial(3.0, [1.0, 1.0]).entropy()
    assert d.Exponential(2.0).parameters == {"rate": 2.0, "validate_args": False, "allow_nan_stats": True,
                                             "name": "Exponential"}
    assert d.Dirichlet([[1.0, 2.0, 3.0]]).event_shape == [3]
    assert d.Multinomial(3.0, probs=[[0.5, 0.5]] * 4).batch_shape == [4]
