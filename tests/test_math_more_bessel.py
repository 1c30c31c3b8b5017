"""tf.math.bessel_i0 / i0e / i1 / i1e against numpy's np.i0 (Cephes) and the defining integral, the series and
asymptotic branches meeting at 30, eager against tf.function (passes on and off), gradients against finite
differences. TF's numbers: tests/conformance/math_more_bessel.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

X = np.array([-60.0, -29.99, -3.0, -0.2, 0.0, 0.5, 4.0, 29.99, 30.0, 30.01, 75.0])


def _integral(order, x):
    """I_n(x) = (1/pi) * integral_0^pi exp(x cos t) cos(n t) dt, by the trapezoid rule (spectrally accurate)."""
    t = np.linspace(0, np.pi, 4001)
    values = np.exp(np.multiply.outer(x, np.cos(t))) * np.cos(order * t)
    return np.trapezoid(values, t, axis=-1) / np.pi


def test_bessel_against_numpy_and_the_integral(passes):
    np.testing.assert_allclose(tf.math.bessel_i0(X).numpy(), np.i0(X), rtol=1e-14)
    np.testing.assert_allclose(tf.function(tf.math.bessel_i0e)(X).numpy(), np.exp(-np.abs(X)) * np.i0(X), rtol=1e-14)
    np.testing.assert_allclose(tf.math.bessel_i1(X).numpy(), _integral(1, X), rtol=1e-12, atol=1e-15)
    scaled = np.exp(-np.abs(X)) * _integral(1, X)
    np.testing.assert_allclose(tf.function(tf.math.bessel_i1e)(X).numpy(), scaled, rtol=1e-12, atol=1e-15)


def test_bessel_edges():
    x = tf.constant([np.inf, -np.inf, np.nan, 800.0], tf.float32)
    # TF computes I(inf) as e^inf * I_e(inf) = inf * 0: NaN; a large finite argument overflows to inf
    assert np.isnan(tf.math.bessel_i0(x).numpy()[:3]).all() and np.isnan(tf.math.bessel_i1(x).numpy()[:3]).all()
    assert tf.math.bessel_i0(x).numpy()[3] == np.inf
    assert tf.math.bessel_i0e(x).numpy()[[0, 1]].tolist() == [0.0, 0.0]
    assert np.isnan(tf.math.bessel_i1e(x).numpy()[2])
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        tf.math.bessel_i0(tf.constant([1, 2]))


@pytest.mark.parametrize("name", ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"])
def test_bessel_gradients(name):
    fn = getattr(tf.math, name)
    # the unscaled functions reach 1e12 past 30: a finite difference there cannot see the other elements
    x = np.array([-35.0, -3.1, -0.4, 0.6, 2.2, 31.5]) if name.endswith("e") else np.array([-6.0, -3.1, -0.4, 0.6, 2.2,
                                                                                           5.5])
    check_gradients(fn, [x], rtol=1e-6)
