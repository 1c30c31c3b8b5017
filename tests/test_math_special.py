"""igamma, igammac, betainc and tf.math.special (runtime/ops/special_gamma_beta.py, special_functions.py): eager and
in tf.function (passes on and off), float64 values against TF 2.21's float64 outputs recorded in
tests/tf_reference/math_special.json at 1e-12, and against identities that owe nothing to either implementation
(closed forms, Wronskians, functional equations, direct quadrature)."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "tf_reference", "math_special.json")) as _f:
    RECORDED = json.load(_f)["programs"]
GRID = [-30.0, -12.5, -3.7, -1.0, -0.2, 0.0, 1e-6, 0.05, 0.5, 0.999, 1.0, 1.499, 1.5, 2.0, 4.1, 7.3, 11.8, 16.5,
        19.9, 20.1, 24.9, 25.1, 29.5, float("inf"), float("-inf"), float("nan")]
SPECIAL = ("bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence")


def _close(got, want, rtol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    np.testing.assert_allclose(got[finite], want[finite], rtol=rtol, atol=1e-300)


@pytest.mark.parametrize("name", SPECIAL)
def test_special_float64_matches_tf_to_1e12(name):
    want = RECORDED["math_special_grid_float64"][name][2]
    got = run_all_ways(getattr(tf.math.special, name), tf.constant(GRID, tf.float64))
    # 1e-12 relative, and 1e-15 absolute near the zeros of the oscillating functions
    got, want = np.asarray(got.numpy()), np.asarray(want, np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-12, atol=1e-15)
    assert np.array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])


def test_igamma_float64_matches_tf():
    a = [0.5, 1.0, 3.0, 10.0, 100.0, 1e-3, 0.0, -1.0, 2.0, 2.0, 2.0, float("nan"), 5.0, 1e4, 0.2, 30.0, 2.0]
    x = [0.2, 1.0, 7.5, 3.0, 110.0, 1e-3, 1.0, 1.0, 0.0, float("inf"), -1.0, 1.0, 1e-300, 1.01e4, 25.0, 29.0, 60.0]
    lower, upper = RECORDED["igamma_igammac_values"]["float64"]
    got = run_all_ways(lambda p, q: (tf.math.igamma(p, q), tf.math.igammac(p, q)), tf.constant(a, tf.float64),
                       tf.constant(x, tf.float64))
    # at a = 1e4 the prefactor x^a e^-x / Gamma(a) is e^(92203 - 10100 - 82099.7): float64's spacing at 1e5 is
    # 1.5e-11, so that element agrees to ~2e-11 (TF's Cephes switches to Temme's expansion there); the rest to 1e-13
    _close(got[0].numpy(), lower[2], 5e-11)
    _close(got[1].numpy(), upper[2], 5e-11)
    others = [i for i in range(len(a)) if a[i] != 1e4]
    _close(got[0].numpy()[others], np.asarray(lower[2])[others], 1e-13)
    grads = RECORDED["igamma_gradients"]["igamma"]
    at = tf.constant([0.5, 1.0, 3.0, 10.0, 100.0, 1e-3, 2.0, 30.0], tf.float64)
    xt = tf.constant([0.2, 1.0, 7.5, 3.0, 110.0, 1e-3, 60.0, 29.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([at, xt])
        y = tf.math.igamma(at, xt)
    da, dx = tape.gradient(y, [at, xt])
    np.testing.assert_allclose(da.numpy(), grads[0][2], rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(dx.numpy(), grads[1][2], rtol=1e-12)


def test_igamma_closed_forms():
    x = np.array([1e-3, 0.2, 1.0, 3.3, 9.0, 40.0])
    t = tf.constant(x, tf.float64)
    np.testing.assert_allclose(tf.math.igammac(1.0, t).numpy(), np.exp(-x), rtol=1e-14)
    np.testing.assert_allclose(tf.math.igamma(0.5, t).numpy(), [math.erf(math.sqrt(v)) for v in x], rtol=1e-14)
    # P(3, x) = 1 - e^-x (1 + x + x^2 / 2): Q in closed form, no cancellation in it
    np.testing.assert_allclose(tf.math.igammac(3.0, t).numpy(), np.exp(-x) * (1 + x + x * x / 2), rtol=1e-13)
    # the complex-step dP/da against a central difference of P itself
    a = tf.constant([0.3, 2.0, 7.5, 50.0], tf.float64)
    xs = tf.constant([0.5, 6.0, 5.0, 55.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.math.igamma(a, xs)
    h = 1e-6
    central = (tf.math.igamma(a + h, xs) - tf.math.igamma(a - h, xs)).numpy() / (2 * h)
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), central, rtol=1e-7)


def test_betainc_identities():
    x = np.array([0.01, 0.2, 0.5, 0.77, 0.999])
    t = tf.constant(x, tf.float64)
    np.testing.assert_allclose(tf.math.betainc(tf.constant(2.5, tf.float64), 1.0, t).numpy(), x ** 2.5, rtol=1e-13)
    np.testing.assert_allclose(tf.math.betainc(tf.constant(1.0, tf.float64), 3.0, t).numpy(), 1 - (1 - x) ** 3,
                               rtol=1e-13)
    a, b = tf.constant([0.3, 4.0, 60.0], tf.float64), tf.constant([7.0, 0.8, 45.0], tf.float64)
    xs = tf.constant([0.1, 0.9, 0.55], tf.float64)
    np.testing.assert_allclose((tf.math.betainc(a, b, xs) + tf.math.betainc(b, a, 1.0 - xs)).numpy(), 1.0,
                               rtol=1e-13)
    got = run_all_ways(tf.math.betainc, a, b, xs)
    assert got.dtype is tf.float64
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.betainc(tf.constant(1.0), tf.constant(1.0, tf.float64), 0.5)


def test_bessel_wronskians():
    x = np.linspace(0.05, 40.0, 400)
    t = tf.constant(x, tf.float64)
    s = tf.math.special
    # J1 Y0 - J0 Y1 = 2 / (pi x)
    np.testing.assert_allclose((s.bessel_j1(t) * s.bessel_y0(t) - s.bessel_j0(t) * s.bessel_y1(t)).numpy(),
                               2 / (math.pi * x), rtol=1e-12)
    # I0 K1 + I1 K0 = 1 / x, on the scaled forms (no overflow)
    np.testing.assert_allclose((s.bessel_i0e(t) * s.bessel_k1e(t) + s.bessel_i1e(t) * s.bessel_k0e(t)).numpy(),
                               1 / x, rtol=1e-12)


def test_dawson_fresnel_expint_spence_against_quadrature_and_identities():
    s = tf.math.special
    # Fresnel integrals and Dawson's integral by a fine composite Simpson rule
    for x in (0.3, 1.2, 2.7):
        t = np.linspace(0.0, x, 20001)
        w = np.ones_like(t)
        w[1:-1:2], w[2:-1:2] = 4, 2
        h = (t[1] - t[0]) / 3
        np.testing.assert_allclose(float(s.fresnel_cos(tf.constant(x, tf.float64))),
                                   h * np.sum(w * np.cos(math.pi * t * t / 2)), rtol=1e-12)
        np.testing.assert_allclose(float(s.fresnel_sin(tf.constant(x, tf.float64))),
                                   h * np.sum(w * np.sin(math.pi * t * t / 2)), rtol=1e-12)
        np.testing.assert_allclose(float(s.dawsn(tf.constant(x, tf.float64))),
                                   math.exp(-x * x) * h * np.sum(w * np.exp(t * t)), rtol=1e-12)
    # Ei'(x) = e^x / x: the difference of two values is the integral of e^t / t between them
    t = np.linspace(1.0, 3.0, 20001)
    w = np.ones_like(t)
    w[1:-1:2], w[2:-1:2] = 4, 2
    integral = (t[1] - t[0]) / 3 * np.sum(w * np.exp(t) / t)
    ei = s.expint(tf.constant([1.0, 3.0], tf.float64)).numpy()
    np.testing.assert_allclose(ei[1] - ei[0], integral, rtol=1e-12)
    # spence(x) + spence(1/x) = -ln(x)^2 / 2, and spence(0) = pi^2 / 6
    x = np.array([0.1, 0.5, 2.0, 7.0, 40.0])
    both = (s.spence(tf.constant(x, tf.float64)) + s.spence(tf.constant(1 / x, tf.float64))).numpy()
    np.testing.assert_allclose(both, -np.log(x) ** 2 / 2, rtol=1e-13, atol=1e-15)
    assert float(s.spence(tf.constant(0.0, tf.float64))) == pytest.approx(math.pi ** 2 / 6, rel=1e-15)


@pytest.mark.parametrize("name", SPECIAL)
def test_special_all_ways_float32_and_dtype_rules(name):
    fn = getattr(tf.math.special, name)
    got = run_all_ways(fn, tf.constant([0.3, 1.7, 6.0], tf.float32))
    assert got.dtype is tf.float32
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        fn(tf.constant([1, 2]))


def test_compat_v1_names():
    v1 = tf.compat.v1
    assert v1.igamma is tf.math.igamma and v1.igammac is tf.math.igammac and v1.betainc is tf.math.betainc
    assert v1.math.special.bessel_j0 is tf.math.special.bessel_j0
    from tinytf.math import special  # importable, as `from tensorflow.math import special` is

    assert special is tf.math.special and "spence" in dir(special)
