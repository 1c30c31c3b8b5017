"""tf.image.ssim and ssim_multiscale beyond the conformance programs: a numpy SSIM written from the paper's
formula, identities, graphs with passes on and off and unknown sizes, gradients against finite differences."""

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf


def pair(shape, seed=0):
    rng = np.random.RandomState(seed)
    a = rng.rand(*shape).astype(np.float32)
    return a, np.clip(a + rng.randn(*shape).astype(np.float32) * 0.1, 0, 1)


def numpy_ssim(a, b, max_val=1.0, size=11, sigma=1.5, k1=0.01, k2=0.03):
    """Wang et al.'s SSIM with a normalised Gaussian window over every VALID position, then the mean."""
    coords = np.arange(size) - (size - 1) / 2
    g = np.exp(-(coords[:, None] ** 2 + coords[None, :] ** 2) / (2 * sigma ** 2))
    g /= g.sum()
    h, w = a.shape[0] - size + 1, a.shape[1] - size + 1
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    out = []
    for ch in range(a.shape[2]):
        x, y = a[..., ch].astype(np.float64), b[..., ch].astype(np.float64)
        values = []
        for i in range(h):
            for j in range(w):
                px, py = x[i:i + size, j:j + size], y[i:i + size, j:j + size]
                mx, my = (g * px).sum(), (g * py).sum()
                vx, vy = (g * px * px).sum() - mx * mx, (g * py * py).sum() - my * my
                cov = (g * px * py).sum() - mx * my
                values.append((2 * mx * my + c1) * (2 * cov + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2)))
        out.append(np.mean(values))
    return np.mean(out)


def test_ssim_matches_the_paper_formula():
    a, b = pair([20, 17, 2])
    np.testing.assert_allclose(tf.image.ssim(a, b, 1.0).numpy(), numpy_ssim(a, b), rtol=1e-5)
    np.testing.assert_allclose(tf.image.ssim(a * 4, b * 4, 4.0, filter_size=5, filter_sigma=0.9, k1=0.02).numpy(),
                               numpy_ssim(a * 4, b * 4, 4.0, 5, 0.9, 0.02), rtol=1e-5)


def test_identical_images_score_one_and_uint8_scales_with_max_val():
    a, b = pair([2, 48, 48, 3], seed=1)
    np.testing.assert_allclose(tf.image.ssim(a, a, 1.0).numpy(), [1.0, 1.0], rtol=1e-6)
    np.testing.assert_allclose(tf.image.ssim_multiscale(a, a, 1.0, filter_size=3).numpy(), [1.0, 1.0], rtol=1e-5)
    ai, bi = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    np.testing.assert_allclose(tf.image.ssim(ai, bi, 255).numpy(),
                               tf.image.ssim(ai / np.float32(255), bi / np.float32(255), 1.0).numpy(), rtol=1e-5)


def test_multiscale_with_one_scale_is_ssim():
    a, b = pair([1, 25, 23, 1], seed=2)
    np.testing.assert_allclose(tf.image.ssim_multiscale(a, b, 1.0, power_factors=(1.0,)).numpy(),
                               tf.image.ssim(a, b, 1.0).numpy(), rtol=1e-6)


def test_in_a_graph_with_unknown_sizes(passes):
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 2])] * 2)
    def both(x, y):
        return tf.image.ssim(x, y, 1.0, filter_size=5), tf.image.ssim_multiscale(x, y, 1.0, (0.5, 0.5), 5)

    for shape in ([1, 12, 15, 2], [3, 21, 11, 2]):
        a, b = pair(shape, seed=3)
        s, m = both(a, b)
        np.testing.assert_allclose(s.numpy(), tf.image.ssim(a, b, 1.0, filter_size=5).numpy(), rtol=1e-6)
        np.testing.assert_allclose(m.numpy(), tf.image.ssim_multiscale(a, b, 1.0, (0.5, 0.5), 5).numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn", [lambda x, y: tf.image.ssim(x, y, 1.0, filter_size=5),
                                lambda x, y: tf.image.ssim_multiscale(x, y, 1.0, (0.4, 0.6), filter_size=3)])
def test_gradients_against_finite_differences(fn):
    a, b = pair([1, 8, 7, 1], seed=4)
    check_gradients(lambda x: fn(tf.cast(x, tf.float32), tf.constant(b)), [a.astype(np.float64)], rtol=1e-2,
                    atol=1e-3, eps=1e-3)


def test_bad_input():
    a, b = pair([2, 8, 8, 1])
    with pytest.raises(ValueError, match="incompatible"):
        tf.image.ssim(a, b[:, :6], 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.ssim(a, b, 1.0)  # the 11x11 window does not fit in 8x8
