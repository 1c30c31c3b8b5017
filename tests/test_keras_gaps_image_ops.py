"""keras.ops.image's resampling and measuring functions added for the TF 2.21 keras API gap list (affine and
perspective transforms, map_coordinates, elastic_transform, scale_and_translate, sobel_edges, ssim,
extract_patches_3d) and keras.ops.linalg.jvp: against numpy references, eager vs tf.function, gradients against
finite differences, and inside a Functional model. TF's own numbers are in conformance/keras_gaps_image_ops.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

ops = tf.keras.ops
image = ops.image


def test_affine_identity_and_integer_shift_against_numpy():
    x = np.arange(2 * 4 * 5 * 1, dtype="float32").reshape(2, 4, 5, 1)
    identity = np.array([1, 0, 0, 0, 1, 0, 0, 0], "float32")
    run_all_ways(lambda a: image.affine_transform(a, identity), x, expected=x)
    # output (x, y) reads input (x + 1, y - 1): shifted left by one column and down by one row, zeros around
    shift = np.array([1, 0, 1, 0, 1, -1, 0, 0], "float32")
    want = np.zeros_like(x)
    want[:, 1:, :-1] = x[:, :-1, 1:]
    run_all_ways(lambda a: image.affine_transform(a, shift, interpolation="nearest"), x, expected=want)


def test_affine_channels_first_is_the_transposed_channels_last():
    x = np.random.default_rng(0).random((2, 5, 6, 3)).astype("float32")
    transform = np.array([[1.2, 0.1, -1, 0.05, 0.9, 0.5, 0, 0], [0.8, 0, 0.5, 0, 1.1, -0.5, 0, 0]], "float32")
    last = image.affine_transform(x, transform, fill_mode="reflect").numpy()
    first = image.affine_transform(np.transpose(x, (0, 3, 1, 2)), transform, fill_mode="reflect",
                                   data_format="channels_first").numpy()
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), last, rtol=1e-6)


def test_affine_gradient_wrt_images():
    transform = np.array([1.3, 0.2, -0.4, -0.1, 0.8, 0.3, 0, 0], "float32")
    check_gradients(lambda a: image.affine_transform(a, transform), uniform_arrays((1, 4, 5, 2)))


def test_perspective_with_equal_points_is_identity():
    x = np.random.default_rng(1).random((4, 6, 2)).astype("float32")
    corners = np.array([[0, 0], [0, 4], [6, 0], [6, 4]], "float32")
    run_all_ways(lambda a: image.perspective_transform(a, corners, corners), x, expected=x, atol=1e-5)


def _map_linear_constant(values, ys, xs, fill):
    """numpy bilinear interpolation of a 2-D array, `fill` for corners outside (Keras' constant mode)."""
    out = np.zeros(ys.shape)
    for k, (y, x) in enumerate(zip(ys, xs)):
        y0, x0 = int(np.floor(y)), int(np.floor(x))
        total = 0.0
        for yi, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
            for xi, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
                inside = 0 <= yi < values.shape[0] and 0 <= xi < values.shape[1]
                total += wy * wx * (values[yi, xi] if inside else fill)
        out[k] = total
    return out


def test_map_coordinates_linear_against_numpy():
    values = np.random.default_rng(2).random((4, 5))
    ys, xs = np.array([0.5, 1.25, -0.7, 3.5, 2.0]), np.array([0.2, 3.9, 1.0, 4.5, -1.5])
    want = _map_linear_constant(values, ys, xs, fill=-2.0)
    run_all_ways(lambda v, c: image.map_coordinates(v, c, 1, fill_value=-2.0), values, np.stack([ys, xs]),
                 expected=want, rtol=1e-12)


def test_map_coordinates_fill_modes_on_a_line():
    line = np.arange(4.0)[None]  # 1 x 4: folding along the second axis only
    points = np.array([[0.0] * 5, [-1.0, -2.0, 5.0, 6.0, 7.0]])
    got = {mode: image.map_coordinates(line, points, 0, fill_mode=mode, fill_value=9.0).numpy().tolist()
           for mode in ("constant", "nearest", "wrap", "mirror", "reflect")}
    assert got == {"constant": [9, 9, 9, 9, 9], "nearest": [0, 0, 3, 3, 3], "wrap": [3, 2, 1, 2, 3],
                   "mirror": [1, 2, 3, 2, 1], "reflect": [1, 2, 2, 1, 0]}
    # (Keras' TF "reflect" takes |index| first, so below zero it mirrors; above it repeats the edge pixel)
    # Keras' mirror folds an index equal to the size onto itself and TF's gather then fails: tinytf's too
    with pytest.raises(tf.errors.InvalidArgumentError):
        image.map_coordinates(line, np.array([[0.0], [4.0]]), 0, fill_mode="mirror")


def test_map_coordinates_gradient_wrt_values_and_coordinates():
    coordinates = np.array([[0.3, 1.6, 2.2], [0.4, 2.7, 1.1]])
    check_gradients(lambda v, c: image.map_coordinates(v, c, 1), [uniform_arrays((3, 4))[0], coordinates])


def test_elastic_transform_seeded_and_alpha_zero_identity():
    x = np.random.default_rng(3).random((2, 6, 5, 2)).astype("float32")
    a = image.elastic_transform(x, alpha=3.0, sigma=1.0, seed=4).numpy()
    np.testing.assert_array_equal(a, image.elastic_transform(x, alpha=3.0, sigma=1.0, seed=4).numpy())
    assert not np.allclose(a, x)
    np.testing.assert_allclose(image.elastic_transform(x, alpha=0.0, sigma=1.0, seed=4).numpy(), x, rtol=1e-6)
    graph = tf.function(lambda t: image.elastic_transform(t, alpha=3.0, sigma=1.0, seed=4))(x)
    np.testing.assert_allclose(graph.numpy(), a, rtol=1e-6)


def test_scale_and_translate_docstring_values():
    images = np.arange(9, dtype="float32").reshape((3, 3))
    scale = np.array([2.0, 2.0], "float32")
    want = np.array([[0.0, 0.5, 1.0, 1.5, 2.0], [1.5, 2.0, 2.5, 3.0, 3.5], [3.0, 3.5, 4.0, 4.5, 5.0],
                     [4.5, 5.0, 5.5, 6.0, 6.5], [6.0, 6.5, 7.0, 7.5, 8.0]], "float32")
    run_all_ways(lambda a: image.scale_and_translate(a, (5, 5), scale, -(scale / 2.0 - 0.5), (0, 1), "linear"),
                 images, expected=want)


def test_scale_and_translate_downsampling_against_numpy_triangle_weights():
    # halving with the antialiased triangle filter: output j samples input location 2j + 0.5 with a kernel twice
    # as wide, its weights normalized
    row = np.arange(8, dtype="float64")[None] ** 2
    want = []
    for j in range(4):
        weights = np.maximum(0.0, 1 - np.abs(2 * j + 0.5 - np.arange(8)) / 2)
        want.append(np.sum(weights * row[0]) / weights.sum())
    run_all_ways(lambda r: image.scale_and_translate(r, (1, 4), np.array([1.0, 0.5]), np.array([0.0, 0.0]), (0, 1),
                                                     "linear"), row, expected=np.array([want]), rtol=1e-12)


def test_scale_and_translate_gradient_wrt_images():
    check_gradients(lambda a: image.scale_and_translate(a, (5, 3), np.array([1.6, 0.7]), np.array([0.1, -0.2]),
                                                        (0, 1), "cubic"), uniform_arrays((3, 4)))


def test_sobel_edges_against_numpy():
    x = np.random.default_rng(4).random((1, 5, 6, 2))
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
    ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], float)
    want = np.zeros(x.shape + (2,))
    for i in range(5):
        for j in range(6):
            window = padded[0, i:i + 3, j:j + 3]
            want[0, i, j, :, 0] = np.einsum("hwc,hw->c", window, ky)
            want[0, i, j, :, 1] = np.einsum("hwc,hw->c", window, ky.T)
    run_all_ways(image.sobel_edges, x, expected=want, rtol=1e-10)


def _ssim_numpy(a, b, size, sigma, max_val=1.0, k1=0.01, k2=0.03):
    grid = np.arange(size) - (size - 1) / 2
    g = np.exp(-grid ** 2 / (2 * sigma ** 2))
    g /= g.sum()
    window = np.outer(g, g)

    def blur(img):  # valid correlation of an (H, W) image
        h, w = img.shape[0] - size + 1, img.shape[1] - size + 1
        return np.array([[np.sum(img[i:i + size, j:j + size] * window) for j in range(w)] for i in range(h)])

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    values = []
    for c in range(a.shape[-1]):
        x, y = a[..., c], b[..., c]
        mx, my = blur(x), blur(y)
        vx, vy, cxy = blur(x * x) - mx ** 2, blur(y * y) - my ** 2, blur(x * y) - mx * my
        index = (2 * mx * my + c1) * (2 * cxy + c2) / ((mx ** 2 + my ** 2 + c1) * (vx + vy + c2))
        values.append(index.mean())
    return np.mean(values)


def test_ssim_against_numpy_and_its_gradient():
    rng = np.random.default_rng(5)
    a, b = rng.random((2, 9, 8, 2)), rng.random((2, 9, 8, 2))
    want = np.array([_ssim_numpy(a[i], b[i], 5, 1.2) for i in range(2)])
    run_all_ways(lambda x, y: image.ssim(x, y, filter_size=5, filter_sigma=1.2), a, b, expected=want, rtol=1e-10)
    assert float(image.ssim(a[0], a[0])) == pytest.approx(1.0) if a.shape[1] >= 11 else True
    check_gradients(lambda x, y: image.ssim(x, y, filter_size=3, filter_sigma=1.0),
                    uniform_arrays((1, 4, 4, 1), (1, 4, 4, 1), low=0.0, high=1.0))


def test_extract_patches_3d_against_numpy_slices():
    volumes = np.random.default_rng(6).random((2, 4, 6, 4, 3)).astype("float32")
    want = np.zeros((2, 2, 3, 2, 2 * 2 * 2 * 3), "float32")
    for d in range(2):
        for h in range(3):
            for w in range(2):
                want[:, d, h, w] = volumes[:, 2 * d:2 * d + 2, 2 * h:2 * h + 2, 2 * w:2 * w + 2].reshape(2, -1)
    run_all_ways(lambda v: image.extract_patches_3d(v, 2), volumes, expected=want)
    check_gradients(lambda v: image.extract_patches_3d(v, (1, 2, 2), strides=1), uniform_arrays((1, 2, 3, 3, 1)))


def test_errors_name_the_argument():
    x = np.zeros((1, 4, 4, 1), "float32")
    with pytest.raises(ValueError, match="interpolation"):
        image.affine_transform(x, np.zeros(8), interpolation="bicubic")
    with pytest.raises(ValueError, match="fill_mode"):
        image.map_coordinates(x[0, ..., 0], np.zeros((2, 3)), 1, fill_mode="edge")
    with pytest.raises(ValueError, match="First dim"):
        image.map_coordinates(x, np.zeros((2, 3)), 1)
    with pytest.raises(ValueError, match="method"):
        image.scale_and_translate(x, (1, 2, 2, 1), [0.5, 0.5], [0, 0], (1, 2), "area")
    with pytest.raises(TypeError, match="size"):
        image.extract_patches_3d(np.zeros((4, 4, 4, 1)), (2, 2))


def test_image_ops_in_a_functional_model():
    inputs = tf.keras.Input((6, 5, 1))
    edges = image.sobel_edges(inputs)
    warped = image.affine_transform(inputs, np.array([1, 0, 1, 0, 1, 0, 0, 0], "float32"))
    model = tf.keras.Model(inputs, [edges, warped])
    x = np.random.default_rng(7).random((3, 6, 5, 1)).astype("float32")
    got_edges, got_warped = model.predict(x, verbose=0)
    np.testing.assert_allclose(got_edges, image.sobel_edges(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(got_warped, image.affine_transform(x, np.array([1, 0, 1, 0, 1, 0, 0, 0],
                                                                              "float32")).numpy(), rtol=1e-6)


def test_linalg_jvp_against_finite_differences():
    x, t = np.array([0.3, -1.2, 2.0]), np.array([1.0, 0.5, -0.25])

    def f(u):
        return ops.sum(ops.sin(u) * u) + ops.prod(u)

    primal, tangent = ops.linalg.jvp(f, (tf.constant(x),), (tf.constant(t),))
    eps = 1e-6
    numeric = (float(f(tf.constant(x + eps * t))) - float(f(tf.constant(x - eps * t)))) / (2 * eps)
    assert float(tangent) == pytest.approx(numeric, rel=1e-6)
    assert float(primal) == pytest.approx(float(f(tf.constant(x))))
    assert ops.linalg.jvp is ops.jvp
