"""tf.compat.v1.distributions (TF1's deprecated probability API) as TensorFlow 2.21 computes it: densities,
distribution functions (far into the tails), statistics, KL divergences, shapes, errors, gradients, and samples
drawn with a global and an op seed (tinytf's seeded random ops give TF's streams)."""

from __future__ import annotations

from . import outcome, program, val


def _stats(dist, x, quantile=False):
    """Every method a scalar-event distribution answers, at the points x."""
    out = {}
    for method in ("log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival_function"):
        out[method] = outcome(lambda m=method: getattr(dist, m)(x), "")
    for method in ("mean", "mode", "stddev", "variance", "entropy"):
        out[method] = outcome(getattr(dist, method), "")
    if quantile:
        out["quantile"] = outcome(lambda: dist.quantile([0.001, 0.2, 0.5, 0.9, 0.999]), "")
    out["shapes"] = [str(dist.batch_shape), str(dist.event_shape), val(dist.batch_shape_tensor()),
                     val(dist.event_shape_tensor()), dist.dtype.name, repr(dist.reparameterization_type)]
    return out


def _seeded(tf, dist, shape, seed=7):
    tf.random.set_seed(1234)
    return val(dist.sample(shape, seed=seed))


def _grad(tf, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return [val(y)] + [val(g) for g in tape.gradient(y, xs)]


@program
def p_v1dist_normal(tf):
    d = tf.compat.v1.distributions
    n = d.Normal(loc=[0.0, 1.5, -2.0], scale=[1.0, 0.5, 3.0])
    x = [[-40.0, 0.3, 9.0], [1.0, 1.5, -2.0], [12.0, -3.0, 0.0]]
    n64 = d.Normal(tf.constant(0.5, tf.float64), tf.constant(2.0, tf.float64))
    x64 = tf.constant([-60.0, -41.0, -20.0, -3.0, 0.5, 17.0, 40.0], tf.float64)
    return [_stats(n, x, quantile=False), val(n.quantile([[0.001], [0.5], [0.999]])), _stats(n64, x64, quantile=True),
            str(n), repr(n), n.parameters["name"], n.name, _seeded(tf, n, [2, 2]), _seeded(tf, n64, 3)]


@program
def p_v1dist_uniform(tf):
    d = tf.compat.v1.distributions
    u = d.Uniform(low=[0.0, -1.0], high=[[2.0, 3.0], [0.5, 1.0]])
    x = [[-0.5, 0.25], [0.5, 1.0]]
    nan = float("nan")
    return [_stats(u, x), val(u.range()), val(u.prob([nan, 0.2])), val(d.Uniform().prob([0.0, 1.0, 0.999])),
            _seeded(tf, u, 2), _seeded(tf, d.Uniform(3.0, 5.0), [2, 3])]


@program
def p_v1dist_bernoulli(tf):
    d = tf.compat.v1.distributions
    b = d.Bernoulli(probs=[0.2, 0.5, 0.9])
    bl = d.Bernoulli(logits=[[-2.0, 0.0, 3.0]], dtype=tf.float32)
    return [_stats(b, [1, 0, 1]), _stats(bl, [[0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]), val(b.logits), val(bl.probs),
            val(b.log_prob(1)), val(d.Bernoulli(probs=[0.0, 1.0]).log_prob([0, 1])),
            _seeded(tf, b, [4]), _seeded(tf, bl, 2),
            outcome(lambda: d.Bernoulli(), "Must pass probs or logits"),
            outcome(lambda: d.Bernoulli(probs=0.5, logits=0.0), "not both"),
            outcome(lambda: d.Bernoulli(probs=1), "floating")]


@program
def p_v1dist_categorical(tf):
    d = tf.compat.v1.distributions
    c = d.Categorical(logits=[[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    cp = d.Categorical(probs=[0.1, 0.6, 0.3], dtype=tf.int64)
    return [val(c.log_prob([2, 0])), val(c.prob([[1], [2]])), val(c.cdf([0, 3])), val(c.cdf([1, 2])),
            val(c.log_prob(1.0)), val(c.entropy()), val(c.mode()), val(c.probs), val(c.event_size),
            str(c.batch_shape), val(c.batch_shape_tensor()), val(cp.logits), val(cp.mode()),
            val(cp.log_prob([0, 1, 2])), val(cp.entropy()), cp.dtype.name, _seeded(tf, c, [3]),
            _seeded(tf, cp, [2, 2]), outcome(lambda: c.mean(), "mean is not implemented"),
            outcome(lambda: d.Categorical(logits=1.0), "logits must have >= 1 dimension")]


@program
def p_v1dist_kl(tf):
    d = tf.compat.v1.distributions
    kl = d.kl_divergence
    n1, n2 = d.Normal([0.0, 1.0], [1.0, 2.0]), d.Normal(0.5, 0.7)
    b1, b2 = d.Bernoulli(probs=[0.1, 0.5]), d.Bernoulli(logits=[0.3, -2.0])
    c1, c2 = d.Categorical(logits=[1.0, 2.0, 3.0]), d.Categorical(probs=[[0.2, 0.2, 0.6], [0.5, 0.25, 0.25]])
    return [val(kl(n1, n2)), val(n1.kl_divergence(n2)), val(n1.cross_entropy(n2)), val(kl(b1, b2)),
            val(kl(c1, c2)), val(c2.cross_entropy(c1)),
            outcome(lambda: kl(n1, b1), "No KL(distribution_a || distribution_b) registered"),
            outcome(lambda: d.RegisterKL(d.Normal, d.Normal)(lambda a, b, name=None: 0.0), "already been registered")]


@program
def p_v1dist_gradients_and_function(tf):
    d = tf.compat.v1.distributions

    def reparameterized(loc, scale):
        tf.random.set_seed(5)
        return tf.reduce_sum(d.Normal(loc, scale).sample(4, seed=3) ** 2)

    def uniform_sample(low, high):
        tf.random.set_seed(5)
        return tf.reduce_sum(d.Uniform(low, high).sample(3, seed=1))

    logp = tf.function(lambda loc, x: d.Normal(loc, 2.0).log_prob(x))
    return [_grad(tf, lambda loc, scale: tf.reduce_sum(d.Normal(loc, scale).log_cdf([-30.0, 0.0, 6.0])),
                  [0.5, 0.0, 1.0], [1.0, 2.0, 0.5]),
            _grad(tf, reparameterized, [0.5, -1.0], [1.5, 0.3]), _grad(tf, uniform_sample, [0.0], [2.0]),
            _grad(tf, lambda logits: d.Bernoulli(logits=logits).log_prob([1, 0]), [0.3, -1.2]),
            _grad(tf, lambda p: d.kl_divergence(d.Categorical(probs=p), d.Categorical(logits=[0.0, 1.0, 2.0])),
                  [0.2, 0.3, 0.5]),
            val(logp(tf.constant([0.0, 1.0]), tf.constant(0.5)))]


@program
def p_v1dist_laplace_exponential(tf):
    d = tf.compat.v1.distributions
    lap = d.Laplace(loc=[0.0, 2.0], scale=[1.0, 0.5])
    x = [[-30.0, 2.1], [0.5, 40.0]]
    lap64 = d.Laplace(tf.constant(1.0, tf.float64), tf.constant(2.0, tf.float64))
    e = d.Exponential(rate=[0.5, 2.0, 10.0])
    return [_stats(lap, x), _stats(lap64, tf.constant([-800.0, -1.0, 1.0, 3.0, 900.0], tf.float64)),
            _stats(e, [[0.0, 0.3, 1.0], [5.0, 2.0, 0.01]]), val(e.rate), val(e.concentration),
            e.parameters["name"], _seeded(tf, lap, [3]), _seeded(tf, e, 2)]


@program
def p_v1dist_gamma_beta(tf):
    d = tf.compat.v1.distributions
    g = d.Gamma(concentration=[0.5, 1.0, 3.0], rate=[1.0, 2.0, 0.5])
    b = d.Beta(concentration1=[0.5, 2.0, 5.0], concentration0=[0.5, 3.0, 1.0])
    g_strict = d.Gamma([0.5, 3.0], 1.0, allow_nan_stats=False)
    # TF's Betainc kernel does not broadcast (a batch of x against the parameters raises): x of the batch's shape
    return [_stats(g, [[0.1, 1.0, 7.0], [3.0, 0.0, 0.2]]), _stats(b, [0.1, 0.5, 0.99]),
            val(b.log_prob([[0.1, 0.5, 0.9], [0.99, 0.01, 0.3]])),
            val(b.total_concentration), outcome(lambda: g_strict.mode(), "mode not defined"),
            val(d.kl_divergence(g, d.Gamma(2.0, 1.5))), val(d.kl_divergence(b, d.Beta(1.0, 2.0))),
            _seeded(tf, g, [2]), _seeded(tf, b, 2), _seeded(tf, d.Beta(2.0, 3.0), 3)]


@program
def p_v1dist_student_t(tf):
    d = tf.compat.v1.distributions
    t = d.StudentT(df=[0.5, 1.5, 3.0, 30.0], loc=[0.0, 1.0, -1.0, 0.5], scale=[1.0, 2.0, 0.5, 1.0])
    strict = d.StudentT(df=[0.5, 3.0], loc=0.0, scale=1.0, allow_nan_stats=False)
    return [_stats(t, [-3.0, 1.0, 1.0, 10.0]), val(t.log_prob([[-3.0, 0.0, 1.0, 10.0], [0.0, 1.0, -1.0, 0.5]])),
            val(t.cdf([0.0, 1.0, -1.0, 0.5])), val(t.df),
            outcome(lambda: strict.mean(), "mean not defined"), outcome(lambda: strict.variance(), "not defined"),
            _seeded(tf, t, [2]), _seeded(tf, d.StudentT(5.0, 0.0, 2.0), [3])]


@program
def p_v1dist_dirichlet_family(tf):
    d = tf.compat.v1.distributions
    dr = d.Dirichlet([[1.5, 2.0, 3.0], [0.5, 4.0, 1.0]])
    x = [[0.2, 0.3, 0.5], [0.1, 0.8, 0.1]]
    m = d.Multinomial(total_count=[4.0, 6.0], probs=[[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    ml = d.Multinomial(total_count=5.0, logits=[1.0, 0.0, -1.0])
    # TF multiplies total_count by a [..., K] tensor without a new axis: a batch of counts must be a scalar here
    dm = d.DirichletMultinomial(total_count=6.0, concentration=[[1.5, 2.0, 3.0], [0.5, 4.0, 1.0]])
    counts = [[1.0, 1.0, 2.0], [0.0, 5.0, 1.0]]
    dm_counts = [[1.0, 2.0, 3.0], [0.0, 5.0, 1.0]]
    return [val(dr.log_prob(x)), val(dr.prob(x)), val(dr.mean()), outcome(dr.mode, "broadcast"),
            val(d.Dirichlet([1.5, 2.0, 3.0]).mode()), val(d.Dirichlet([0.5, 2.0, 3.0]).mode()), val(dr.variance()),
            val(dr.stddev()), val(dr.covariance()), val(dr.entropy()), str(dr.batch_shape), str(dr.event_shape),
            val(dr.event_shape_tensor()), val(d.kl_divergence(dr, d.Dirichlet([1.0, 1.0, 1.0]))),
            val(m.log_prob(counts)), val(m.prob(counts)), val(m.mean()), val(m.variance()), val(m.covariance()),
            val(m.logits), val(ml.probs), val(ml.log_prob([2.0, 2.0, 1.0])), str(m.event_shape),
            val(dm.log_prob(dm_counts)), val(dm.prob(dm_counts)), val(dm.mean()), val(dm.variance()),
            val(dm.covariance()), str(dm.batch_shape), outcome(lambda: dm.entropy(), "entropy is not implemented"),
            _seeded(tf, dr, [2]), _seeded(tf, dm, 2), val(_seeded(tf, m, 3)[1])]


@program
def p_v1dist_more_gradients(tf):
    d = tf.compat.v1.distributions

    def seeded_sum(make):
        def fn(*params):
            tf.random.set_seed(9)
            return tf.reduce_sum(make(*params).sample(3, seed=4))
        return fn

    return [_grad(tf, seeded_sum(d.Laplace), [0.5, -1.0], [1.5, 0.3]),
            _grad(tf, seeded_sum(d.Exponential), [0.5, 2.0]),
            _grad(tf, seeded_sum(lambda a, r: d.Gamma(a, r)), [1.5, 3.0], [1.0, 0.5]),
            _grad(tf, lambda a, r: d.Gamma(a, r).log_prob([0.5, 2.0]), [1.5, 3.0], [1.0, 0.5]),
            _grad(tf, lambda c1, c0: d.Beta(c1, c0).log_prob([0.3, 0.8]), [0.5, 2.0], [3.0, 1.5]),
            _grad(tf, lambda df, s: d.StudentT(df, 0.5, s).log_prob([0.0, 3.0]), [1.5, 7.0], [1.0, 2.0]),
            _grad(tf, lambda c: d.Dirichlet(c).log_prob([0.2, 0.3, 0.5]), [1.5, 2.0, 0.7]),
            _grad(tf, lambda c: d.kl_divergence(d.Dirichlet(c), d.Dirichlet([1.0, 2.0, 3.0])), [1.5, 2.0, 0.7]),
            _grad(tf, lambda p: d.Multinomial(5.0, probs=p).log_prob([1.0, 3.0, 1.0]), [0.2, 0.5, 0.3])]


@program
def p_v1dist_checked_kl_and_small_api(tf):
    d = tf.compat.v1.distributions
    nan_normal = d.Normal(float("nan"), 1.0)
    return [outcome(lambda: d.kl_divergence(nan_normal, d.Normal(0.0, 1.0), allow_nan_stats=False),
                    "returned NaN values"),
            val(d.kl_divergence(d.Normal(0.5, 1.0), d.Normal(0.0, 1.0), allow_nan_stats=False)),
            val(d.Normal.param_shapes([2, 3])), {k: str(v) for k, v in d.Gamma.param_static_shapes([4]).items()},
            val(d.Categorical(logits=[0.0, 1.0]).is_scalar_batch()), val(d.Dirichlet([1.0, 2.0]).is_scalar_event()),
            val(d.Bernoulli(probs=0.3).prob(1)), val(d.Bernoulli(probs=0.3).log_prob(0.5)),
            repr(d.Bernoulli(probs=[0.3, 0.6], dtype=tf.bool)), d.Bernoulli(probs=0.3, dtype=tf.bool).dtype.name,
            val(d.Bernoulli(probs=[0.3, 0.6], dtype=tf.bool).mode())]
