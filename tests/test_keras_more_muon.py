"""keras.optimizers.Muon beyond the recorded conformance programs: the Newton-Schulz step against numpy, and
one Muon step on a 2-D weight against a numpy transcription of Keras 3.15's update."""

import numpy as np

import tinytf as tf


def _numpy_newton_schulz(x, steps=5, a=3.4445, b=-4.7750, c=2.0315):
    tall = x.shape[0] > x.shape[1]
    x = x.T if tall else x
    x = x / (np.linalg.norm(x) + 1e-7)
    for _ in range(steps):
        m = x @ x.T
        x = a * x + (b * m + (c * m) @ m) @ x
    return x.T if tall else x


def test_newton_schulz_matches_numpy_and_flattens_the_spectrum():
    opt = tf.keras.optimizers.Muon()
    rng = np.random.default_rng(0)
    for shape in ((6, 3), (3, 7), (5, 5)):
        g = rng.normal(size=shape).astype(np.float32)
        got = opt.zeropower_via_newtonschulz5(tf.constant(g), 5).numpy()
        np.testing.assert_allclose(got, _numpy_newton_schulz(g.astype(np.float64)), rtol=2e-4, atol=2e-5)
        singular = np.linalg.svd(got, compute_uv=False)
        assert singular.min() > 0.5 and singular.max() < 1.3  # roughly orthogonal, as the quintic aims


def test_one_muon_step_matches_numpy_eager_and_traced():
    rng = np.random.default_rng(1)
    w0 = rng.normal(size=(4, 3)).astype(np.float32)
    g = rng.normal(size=(4, 3)).astype(np.float32)
    lr, wd, mom = 0.1, 0.004, 0.95
    w = w0 - w0 * wd * lr
    m = g.copy()  # m = 0 + g + 0 * (mom - 1)
    update = _numpy_newton_schulz((g + mom * m).astype(np.float64))
    want = w - lr * update * np.sqrt(4.0) * 0.2
    for traced in (False, True):
        var = tf.Variable(w0)
        opt = tf.keras.optimizers.Muon(learning_rate=lr)
        apply = tf.function(opt.apply_gradients) if traced else opt.apply_gradients
        apply([(tf.constant(g), var)])
        np.testing.assert_allclose(var.numpy(), want, rtol=1e-4, atol=1e-5)
