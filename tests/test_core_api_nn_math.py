"""tf.nn and tf.math names of the core API against numpy, eagerly and in tf.function with unknown shapes; TF's
values are in tests/conformance/core_api_nn.py and core_api_math.py."""

import numpy as np
import pytest

import tinytf as tf


@pytest.mark.parametrize("compiled", [False, True])
def test_lrn_matches_a_numpy_loop(compiled):
    x = np.random.default_rng(0).standard_normal((2, 3, 3, 6)).astype(np.float32)
    r, bias, alpha, beta = 2, 0.5, 0.2, 0.75
    want = np.empty_like(x)
    for ch in range(6):
        lo, hi = max(0, ch - r), min(6, ch + r + 1)
        want[..., ch] = x[..., ch] / (bias + alpha * np.sum(x[..., lo:hi] ** 2, axis=-1)) ** beta
    fn = tf.function(lambda v: tf.nn.lrn(v, r, bias, alpha, beta)) if compiled else (
        lambda v: tf.nn.lrn(v, r, bias, alpha, beta))
    np.testing.assert_allclose(fn(x).numpy(), want, rtol=1e-5)


def test_depth_space_round_trip_with_unknown_shapes():
    fn = tf.function(lambda v: tf.nn.space_to_depth(tf.nn.depth_to_space(v, 3), 3),
                     input_signature=[tf.TensorSpec([None, None, None, 18])])
    x = np.random.default_rng(1).standard_normal((2, 2, 3, 18)).astype(np.float32)
    np.testing.assert_array_equal(fn(x).numpy(), x)
    y = tf.nn.depth_to_space(x, 3).numpy()
    # TF's DCR order: output (h * 3 + i, w * 3 + j, c) = input (h, w, (i * 3 + j) * 2 + c)
    np.testing.assert_array_equal(y[0, 4, 7, 1], x[0, 1, 2, (1 * 3 + 1) * 2 + 1])


def test_batch_normalization_and_moments_match_numpy():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    mean, var = x.mean(0), x.var(0)
    got = tf.nn.batch_normalization(x, mean, var, np.float32(0.5), np.float32(2.0), 1e-3).numpy()
    np.testing.assert_allclose(got, (x - mean) / np.sqrt(var + 1e-3) * 2.0 + 0.5, rtol=1e-5, atol=1e-6)
    counts, m_ss, v_ss, _ = tf.nn.sufficient_statistics(x, [0])
    m, v = tf.nn.normalize_moments(counts, m_ss, v_ss, None)
    np.testing.assert_allclose(m.numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(v.numpy(), var, rtol=1e-4, atol=1e-6)
    w = rng.uniform(0.5, 2.0, (5, 1)).astype(np.float32)
    wm, wv = tf.nn.weighted_moments(x, [0], w)
    ref_mean = (w * x).sum(0) / w.sum()
    np.testing.assert_allclose(wm.numpy(), ref_mean, rtol=1e-5)
    np.testing.assert_allclose(wv.numpy(), (w * (x - ref_mean) ** 2).sum(0) / w.sum(), rtol=1e-4)


@pytest.mark.parametrize("compiled", [False, True])
def test_pool1d_and_cumulative_logsumexp_match_numpy(compiled):
    x = np.random.default_rng(3).standard_normal((2, 7, 3)).astype(np.float32)

    def ops(v):
        return (tf.nn.max_pool1d(v, 3, 2, "VALID"), tf.nn.avg_pool1d(v, 2, 2, "VALID"),
                tf.math.cumulative_logsumexp(v * 300.0, axis=1))

    fn = tf.function(ops) if compiled else ops
    mx, av, cl = fn(x)
    np.testing.assert_array_equal(mx.numpy(), np.stack([x[:, i:i + 3].max(1) for i in (0, 2, 4)], 1))
    np.testing.assert_allclose(av.numpy(), np.stack([x[:, i:i + 2].mean(1) for i in (0, 2, 4)], 1), rtol=1e-6)
    np.testing.assert_allclose(cl.numpy(), np.logaddexp.accumulate(x * 300.0, axis=1), rtol=1e-6)
    assert np.isfinite(cl.numpy()).all()  # exp(300 * x) alone would overflow float32


def test_convolution_dispatches_by_rank_and_separable_is_two_convs():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 5, 5, 2)).astype(np.float32)
    d = rng.standard_normal((3, 3, 2, 2)).astype(np.float32)
    p = rng.standard_normal((1, 1, 4, 3)).astype(np.float32)
    sep = tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME")
    two = tf.nn.conv2d(tf.nn.depthwise_conv2d(x, d, [1, 1, 1, 1], "SAME"), p, 1, "VALID")
    np.testing.assert_allclose(sep.numpy(), two.numpy(), rtol=1e-5)
    f = rng.standard_normal((2, 2, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.convolution(x, f, padding="SAME").numpy(),
                               tf.nn.conv2d(x, f, 1, "SAME").numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="rank 3, 4 or 5"):
        tf.nn.convolution(tf.ones([2, 3]), tf.ones([1, 1]))


@pytest.mark.parametrize("compiled", [False, True])
def test_lgamma_and_digamma_against_pythons_math(compiled):
    import math

    x = np.array([-7.3, -2.5, -0.5, 0.01, 0.5, 1.0, 2.5, 9.75, 33.0, 171.5, 1e6])
    fn = tf.function(lambda v: (tf.math.lgamma(v), tf.math.digamma(v))) if compiled else (
        lambda v: (tf.math.lgamma(v), tf.math.digamma(v)))
    lg, dg = fn(x)
    np.testing.assert_allclose(lg.numpy(), [math.lgamma(v) for v in x], rtol=1e-13, atol=1e-13)
    h = 1e-5  # digamma is lgamma's derivative: a central difference of Python's lgamma agrees to ~1e-9
    central = [(math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h) for v in x[:-1]]
    np.testing.assert_allclose(dg.numpy()[:-1], central, rtol=1e-6, atol=1e-6)
    # at 1e6 the difference cancels too much: the asymptotic log x - 1/(2x) - 1/(12x^2) is exact there
    np.testing.assert_allclose(dg.numpy()[-1], math.log(1e6) - 0.5e-6 - 1 / 12e12, rtol=1e-15)
    # polygamma(1, x) is digamma's derivative; zeta(2, 1) = pi^2 / 6
    np.testing.assert_allclose(tf.math.polygamma(1.0, 2.5).numpy(),
                               (tf.math.digamma(2.5 + 1e-4) - tf.math.digamma(2.5 - 1e-4)).numpy() / 2e-4,
                               rtol=1e-3)
    np.testing.assert_allclose(tf.math.zeta(2.0, 1.0).numpy(), math.pi ** 2 / 6, rtol=1e-6)
    assert np.isinf(tf.math.lgamma(-3.0).numpy()) and np.isnan(tf.math.digamma(0.0).numpy())


@pytest.mark.parametrize("compiled", [False, True])
def test_inverse_error_functions_invert_pythons_erf(compiled):
    import math

    x = np.array([-0.999999, -0.9, -0.3, -1e-12, 0.0, 1e-9, 0.25, 0.75, 0.99999])
    fn = tf.function(lambda v: (tf.math.erfinv(v), tf.math.erfcinv(1.0 - v), tf.math.ndtri((v + 1.0) / 2.0))) \
        if compiled else (lambda v: (tf.math.erfinv(v), tf.math.erfcinv(1.0 - v), tf.math.ndtri((v + 1.0) / 2.0)))
    inv, cinv, quantile = fn(x)
    np.testing.assert_allclose([math.erf(v) for v in inv.numpy()], x, rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose([math.erfc(v) for v in cinv.numpy()], 1.0 - x, rtol=1e-12)
    np.testing.assert_allclose([0.5 * math.erfc(-v / math.sqrt(2)) for v in quantile.numpy()], (x + 1) / 2,
                               rtol=1e-12)
    assert tf.math.erfinv(1e-12).numpy() != 0.0  # TF 2.21's float32 kernel gives 0 here
    assert np.isinf(tf.math.ndtri(0.0).numpy()) and np.isnan(tf.math.erfinv(1.5).numpy())
