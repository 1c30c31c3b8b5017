"""tf.math.lgamma, digamma, polygamma, zeta and lbeta as TensorFlow 2.21 computes them, across the domain (poles,
negative arguments, tails, large values) in float32 and float64, with gradients (first and second order)."""

from __future__ import annotations

from . import program, val

_X = [-3.5, -2.5, -1.5, -0.5, -0.1, 0.0, 1e-8, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 7.0, 10.0, 20.5, 50.0, 170.5,
      1e5, -1.0, -2.0, float("inf")]


def _grads(tf, fn, x, order=2):
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
    return [val(y), val(g)] + ([val(outer.gradient(g, x))] if order == 2 else [])


@program
def p_lgamma_digamma_values(tf):
    return [val(tf.math.lgamma(tf.constant(_X, tf.float64))), val(tf.math.lgamma(tf.constant(_X, tf.float32))),
            val(tf.math.digamma(tf.constant(_X, tf.float64))), val(tf.math.digamma(tf.constant(_X, tf.float32))),
            val(tf.math.lgamma(tf.constant([[0.5, 1.5], [2.5, -0.75]]))), val(tf.math.lgamma(float("nan")))]


@program
def p_polygamma_zeta_lbeta_values(tf):
    n = tf.constant([0.0, 1.0, 2.0, 3.0, 1.0, 2.0, 4.0, 1.0, 5.0], tf.float64)
    x = tf.constant([0.5, 0.5, 1.5, 2.0, -1.5, 10.0, 3.3, 0.0, 0.25], tf.float64)
    s = tf.constant([1.5, 2.0, 3.0, 4.2, 10.0, 2.0, 3.0, 2.0, 2.0, 1.0, 30.0], tf.float64)
    q = tf.constant([0.1, 0.5, 1.0, 2.0, 3.7, 10.0, -0.5, 0.0, -1.0, 2.0, 1.5], tf.float64)
    return [val(tf.math.polygamma(n, x)), val(tf.math.polygamma(tf.constant(1.0), tf.constant([0.3, 7.0]))),
            val(tf.math.zeta(s, q)), val(tf.math.zeta(tf.constant([2.0, 3.0]), tf.constant([1.0, 0.5]))),
            val(tf.math.lbeta([[1.0, 2.0], [3.0, 4.0]])), val(tf.math.lbeta([0.5, 0.5, 2.0])),
            val(tf.math.lbeta(tf.constant([[0.25, 8.0]], tf.float64)))]


@program
def p_special_gradients(tf):
    x = [0.3, 1.7, 4.0, -0.5, 12.0]
    return [_grads(tf, tf.math.lgamma, x), _grads(tf, tf.math.digamma, x),
            _grads(tf, lambda v: tf.math.polygamma(2.0, v), [0.8, 3.5]),
            _grads(tf, lambda v: tf.math.zeta(3.0, v), [0.8, 3.5]),
            _grads(tf, lambda v: tf.math.lbeta(v), [[1.5, 2.5, 0.7]], order=1),
            val(tf.function(lambda v: (tf.math.lgamma(v), tf.math.digamma(v)))(tf.constant([2.5, 0.25])))]


@program
def p_ndtri_erfinv_erfcinv(tf):
    # arguments where TF 2.21's own kernels are accurate: its erfinv loses digits near 0 (float64 goes through
    # ndtri((x + 1) / 2), float32 uses a single-precision approximation); tinytf keeps them
    p = [1e-300, 1e-50, 1e-20, 1e-10, 1e-5, 0.001, 0.02, 0.0751, 0.1, 0.3, 0.4999, 0.5, 0.7, 0.924, 0.99, 0.0, 1.0,
         -0.1, 1.5]
    x = [-0.999, -0.95, -0.5, -0.1, 0.0, 0.2, 0.6, 0.9, 0.9999, -1.0, 1.0, 1.2]
    y = [1e-200, 1e-20, 1e-5, 0.01, 0.3, 0.9, 1.0, 1.3, 1.99, 0.0, 2.0, -0.5]
    return [val(tf.math.ndtri(tf.constant(p, tf.float64))), val(tf.math.ndtri(tf.constant(p[5:], tf.float32))),
            val(tf.math.erfinv(tf.constant(x, tf.float64))), val(tf.math.erfinv(tf.constant([-0.95, -0.5, 0.6, 0.9]))),
            val(tf.math.erfcinv(tf.constant(y, tf.float64))), val(tf.math.erfcinv(tf.constant(y[3:], tf.float32))),
            _grads(tf, tf.math.erfinv, [-0.7, 0.1, 0.95]), _grads(tf, tf.math.ndtri, [0.2, 0.5, 0.999]),
            _grads(tf, tf.math.erfcinv, [0.3, 1.0, 1.6]),
            val(tf.function(tf.math.erfinv)(tf.constant([0.5, -0.25])))]
