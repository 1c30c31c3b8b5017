"""tf.compat.v1.distributions: each method eagerly, in tf.function and in a TF1 graph run by a Session gives the
same numbers, which agree with closed forms in numpy; gradients of log densities, CDFs, reparameterized samples
and KL divergences agree with central finite differences; the registry, validation and shapes behave as TF's.
TF's own numbers are checked by tests/conformance/compat_v1_distributions.py."""

import math

import numpy as np
import pytest

import tinytf as tf

d = tf.compat.v1.distributions
v1 = tf.compat.v1


def three_ways(build):
    """build() -> tensor, evaluated eagerly, inside tf.function and in a TF1 graph (Session.run)."""
    eager = build().numpy()
    traced = tf.function(build)().numpy()
    graph = v1.Graph()
    with graph.as_default():
        out = build()
    with v1.Session(graph=graph) as sess:
        session = sess.run(out)
    np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(session, eager, rtol=1e-6, atol=1e-7)
    return eager


def _f64(x):
    return tf.constant(x, tf.float64)


def _erf(x):
    return np.vectorize(math.erf)(x)


def test_normal_against_closed_forms():
    loc, scale = np.array([0.0, 1.5, -2.0]), np.array([1.0, 0.5, 3.0])
    x = np.array([[-1.0, 0.3, 4.0], [2.0, 1.5, -2.0]])
    z = (x - loc) / scale
    lp = three_ways(lambda: d.Normal(loc.astype(np.float32), scale.astype(np.float32)).log_prob(x))
    np.testing.assert_allclose(lp, -0.5 * z**2 - np.log(scale) - 0.5 * np.log(2 * np.pi), rtol=1e-5)
    cdf = three_ways(lambda: d.Normal(tf.constant(loc), tf.constant(scale)).cdf(x))
    np.testing.assert_allclose(cdf, 0.5 * (1 + _erf(z / np.sqrt(2))), rtol=1e-12)
    sf = three_ways(lambda: d.Normal(tf.constant(loc), tf.constant(scale)).survival_function(x))
    np.testing.assert_allclose(sf, 1 - cdf, rtol=1e-12)
    ent = three_ways(lambda: d.Normal(tf.constant(loc), tf.constant(scale)).entropy())
    np.testing.assert_allclose(ent, 0.5 * np.log(2 * np.pi * np.e * scale**2), rtol=1e-12)
    q = three_ways(lambda: d.Normal(tf.constant(loc), tf.constant(scale)).quantile(cdf))
    np.testing.assert_allclose(q, np.broadcast_to(x, q.shape), rtol=1e-9, atol=1e-9)


def test_normal_log_cdf_tail_is_finite_and_asymptotic():
    # far below -20 (float64) log(ndtr) would be log(0); the series gives -x^2/2 - log(-x) - log(2 pi)/2 + ...
    x = np.array([-30.0, -100.0, -1000.0])
    got = three_ways(lambda: d.Normal(tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64)).log_cdf(x))
    expected = -0.5 * x**2 - np.log(-x) - 0.5 * np.log(2 * np.pi) + np.log1p(-1 / x**2 + 3 / x**4)
    np.testing.assert_allclose(got, expected, rtol=1e-9)
    assert np.all(np.isfinite(three_ways(lambda: d.Normal(0.0, 1.0).log_cdf([-50.0, -12.0, 0.0, 7.0]))))


def test_uniform_bernoulli_categorical_against_numpy():
    p = three_ways(lambda: d.Uniform([0.0, -1.0], [2.0, 3.0]).prob([[1.0, 3.0], [-0.1, 0.0]]))
    np.testing.assert_allclose(p, [[0.5, 0.0], [0.0, 0.25]])
    cdf = three_ways(lambda: d.Uniform(-1.0, 3.0).cdf([-2.0, 0.0, 5.0]))
    np.testing.assert_allclose(cdf, [0.0, 0.25, 1.0])
    probs = np.array([0.2, 0.5, 0.9])
    lp = three_ways(lambda: d.Bernoulli(probs=tf.constant(probs)).log_prob([1, 0, 0]))
    np.testing.assert_allclose(lp, np.log([0.2, 0.5, 0.1]), rtol=1e-12)
    ent = three_ways(lambda: d.Bernoulli(probs=tf.constant(probs)).entropy())
    np.testing.assert_allclose(ent, -(probs * np.log(probs) + (1 - probs) * np.log1p(-probs)), rtol=1e-12)
    logits = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    softmax = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    lp = three_ways(lambda: d.Categorical(logits=tf.constant(logits)).log_prob([2, 0]))
    np.testing.assert_allclose(lp, np.log([softmax[0, 2], softmax[1, 0]]), rtol=1e-12)
    cdf = three_ways(lambda: d.Categorical(logits=tf.constant(logits)).cdf([2, 1]))  # P(X < k)
    np.testing.assert_allclose(cdf, [softmax[0, :2].sum(), softmax[1, 0]], rtol=1e-12)
    mode = three_ways(lambda: d.Categorical(logits=tf.constant(logits)).mode())
    np.testing.assert_array_equal(mode, [1, 2])


def test_kl_divergences_against_closed_forms_and_monte_carlo_free_identities():
    kl = three_ways(lambda: d.kl_divergence(d.Normal(_f64([0.0, 1.0]), _f64([1.0, 2.0])),
                                            d.Normal(_f64(0.5), _f64(0.7))))
    s_a, s_b, m_a, m_b = np.array([1.0, 2.0]), 0.7, np.array([0.0, 1.0]), 0.5
    np.testing.assert_allclose(kl, np.log(s_b / s_a) + (s_a**2 + (m_a - m_b) ** 2) / (2 * s_b**2) - 0.5,
                               rtol=1e-12)
    pa, pb = np.array([0.2, 0.3, 0.5]), np.array([0.6, 0.3, 0.1])
    kl = three_ways(lambda: d.kl_divergence(d.Categorical(probs=tf.constant(pa)), d.Categorical(probs=pb)))
    np.testing.assert_allclose(kl, np.sum(pa * np.log(pa / pb)), rtol=1e-12)
    kl = three_ways(lambda: d.kl_divergence(d.Bernoulli(probs=tf.constant(0.3, tf.float64)),
                                            d.Bernoulli(probs=tf.constant(0.6, tf.float64))))
    np.testing.assert_allclose(kl, 0.3 * np.log(0.3 / 0.6) + 0.7 * np.log(0.7 / 0.4), rtol=1e-12)


def test_kl_registry_uses_the_nearest_ancestors_and_refuses_duplicates():
    class MyNormal(d.Normal):
        pass

    # inherited: KL(MyNormal || Normal) is the Normal-Normal formula
    np.testing.assert_allclose(d.kl_divergence(MyNormal(0.0, 1.0), d.Normal(1.0, 1.0)).numpy(), 0.5)

    @d.RegisterKL(MyNormal, d.Normal)
    def _kl(a, b, name=None):
        return tf.constant(-7.0)

    assert d.kl_divergence(MyNormal(0.0, 1.0), d.Normal(1.0, 1.0)).numpy() == -7.0
    with pytest.raises(ValueError, match="already been registered"):
        d.RegisterKL(MyNormal, d.Normal)(_kl)
    with pytest.raises(TypeError, match="must be callable"):
        d.RegisterKL(MyNormal, MyNormal)(3)
    with pytest.raises(NotImplementedError, match="No KL"):
        d.kl_divergence(d.Uniform(), d.Normal(0.0, 1.0))


def _finite_difference(f, x, eps=1e-6):
    x = np.array(x, np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


def _check_gradient(fn, *args):
    """d sum(fn(args)) / d args against central differences, float64, each argument in turn."""
    tensors = [tf.constant(np.array(a, np.float64)) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(tensors)
        y = tf.reduce_sum(fn(*tensors))
    grads = tape.gradient(y, tensors)
    for i, (g, a) in enumerate(zip(grads, args)):
        def partial(v, i=i):
            values = [tf.constant(np.array(x, np.float64)) for x in args]
            values[i] = tf.constant(v)
            return float(tf.reduce_sum(fn(*values)).numpy())

        np.testing.assert_allclose(g.numpy(), _finite_difference(partial, a), rtol=1e-5, atol=1e-7)


def test_gradients_against_finite_differences():
    _check_gradient(lambda loc, scale: d.Normal(loc, scale).log_prob([0.3, -1.0]), [0.5, 0.1], [1.2, 0.4])
    _check_gradient(lambda loc, scale: d.Normal(loc, scale).log_cdf([-25.0, 0.2]), [0.5, 0.1], [1.2, 0.4])
    _check_gradient(lambda loc, scale: d.Normal(loc, scale).log_survival_function([3.0, 30.0]), [0.5, 0.1],
                    [1.2, 0.9])
    _check_gradient(lambda low, high: d.Uniform(low, high).entropy(), [0.0, -1.0], [2.0, 0.5])
    _check_gradient(lambda logits: d.Bernoulli(logits=logits).log_prob([1, 0, 1]), [0.3, -2.0, 4.0])
    _check_gradient(lambda logits: d.Categorical(logits=logits).entropy(), [[0.3, -2.0, 4.0]])
    _check_gradient(lambda la, sa: d.kl_divergence(d.Normal(la, sa), d.Normal(_f64(0.3), _f64(2.0))),
                    [0.1, -0.4], [0.5, 3.0])


def test_reparameterized_samples_carry_gradients():
    def sample_sum(loc, scale):
        tf.random.set_seed(11)
        return d.Normal(loc, scale).sample(5, seed=2)

    _check_gradient(sample_sum, [0.5, -1.0], [1.5, 0.3])

    def uniform_sample(low, high):
        tf.random.set_seed(11)
        return d.Uniform(low, high).sample([2, 2], seed=4)

    _check_gradient(uniform_sample, [0.0], [2.0])
    assert d.Normal(0.0, 1.0).reparameterization_type is d.FULLY_REPARAMETERIZED
    assert d.Bernoulli(probs=0.5).reparameterization_type == d.NOT_REPARAMETERIZED


def test_sample_shapes_and_statistics():
    tf.random.set_seed(3)
    n = d.Normal([0.0, 10.0], [1.0, 0.1])
    assert n.sample().shape == [2]
    assert n.sample([3, 4], seed=1).shape == [3, 4, 2]
    big = n.sample(20000, seed=5).numpy()
    np.testing.assert_allclose(big.mean(0), [0.0, 10.0], atol=0.05)
    np.testing.assert_allclose(big.std(0), [1.0, 0.1], rtol=0.05)
    counts = np.bincount(d.Categorical(probs=[0.1, 0.6, 0.3]).sample(20000, seed=2).numpy(), minlength=3)
    np.testing.assert_allclose(counts / 20000, [0.1, 0.6, 0.3], atol=0.02)
    b = d.Bernoulli(probs=[[0.25], [0.75]]).sample(3, seed=9)
    assert b.shape == [3, 2, 1] and b.dtype == tf.int32
    with pytest.raises(ValueError, match="neither scalar nor vector"):
        n.sample([[2]])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def batched(loc):
        return d.Normal(loc, 1.0).sample(3, seed=1)

    assert batched(tf.zeros([4])).shape == [3, 4]


def test_validate_args_and_parameter_errors():
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Normal(0.0, -1.0, validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Uniform(2.0, 1.0, validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError):
        d.Bernoulli(probs=1.5, validate_args=True)
    with pytest.raises(ValueError, match="floating point"):
        d.Normal(0, 1)
    with pytest.raises(ValueError, match="Must pass probs or logits"):
        d.Categorical()
    graph = v1.Graph()
    with graph.as_default():
        scale = v1.placeholder(tf.float32, [])
        out = d.Normal(0.0, scale, validate_args=True).log_prob(0.0)
    with v1.Session(graph=graph) as sess:
        assert np.isfinite(sess.run(out, {scale: 2.0}))
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(out, {scale: -2.0})


def test_names_parameters_copy_and_static_shapes():
    n = d.Normal(loc=[0.0, 1.0], scale=2.0)
    assert n.name is None  # eager distributions have no scope name in TF 2.21
    assert n.parameters == {"loc": [0.0, 1.0], "scale": 2.0, "validate_args": False, "allow_nan_stats": True,
                            "name": "Normal"}
    c = n.copy(scale=3.0)
    assert isinstance(c, d.Normal) and c.scale.numpy() == 3.0 and c.batch_shape == [2]
    assert d.Normal.param_static_shapes([5, 2]) == {"loc": tf.TensorShape([5, 2]), "scale": tf.TensorShape([5, 2])}
    graph = v1.Graph()
    with graph.as_default():
        assert d.Normal(0.0, 1.0).name == "Normal/"
        assert d.Normal(0.0, 1.0).name == "Normal_1/"
        assert d.Bernoulli(probs=0.5, name="coin").name == "coin/"
    assert str(n) == 'tfp.distributions.Normal("None", batch_shape=(2,), event_shape=(), dtype=float32)'


def test_static_shapes_while_tracing_are_tfs():
    # TF 2.21 (recorded by hand): with a batch of unknown size, samples know their sample dims statically
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(loc):
        n = d.Normal(loc, 1.0)
        c = d.Categorical(logits=tf.reshape(loc, [-1, 2]))
        dr = d.Dirichlet(tf.reshape(loc, [2, -1]))
        seen.extend(str(s) for s in (n.batch_shape, n.sample(3).shape, n.sample([2, 2]).shape,
                                     n.log_prob(0.0).shape, c.batch_shape, c.sample(2).shape, dr.event_shape,
                                     dr.sample(2).shape, n.batch_shape_tensor().shape))
        return n.sample(3, seed=1)

    assert f(tf.ones([4])).shape == [3, 4]
    assert seen == ["(None,)", "(3, None)", "(2, 2, None)", "(None,)", "(None,)", "(2, None)", "(None,)",
                    "(2, 2, None)", "(1,)"]
