"""tf.image.resize's kernel methods (bicubic, area, lanczos3/5, gaussian, mitchellcubic, antialias) beyond the
conformance programs: numpy identities of the kernels, graphs with passes on and off and dynamic sizes,
gradients against finite differences, and bad input."""

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf
from tinytf.runtime.ops import image_resize_kernels as kernels

METHODS = ["bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"]


def images(shape, seed=0):
    return np.random.RandomState(seed).rand(*shape).astype(np.float32)


@pytest.mark.parametrize("method", ["bicubic", "area", "lanczos3", "lanczos5", "bilinear"])  # the interpolating ones
@pytest.mark.parametrize("antialias", [False, True])
def test_same_size_is_the_identity(method, antialias):
    x = images([2, 5, 6, 3])
    np.testing.assert_allclose(tf.image.resize(x, [5, 6], method=method, antialias=antialias).numpy(), x,
                               rtol=1e-5, atol=1e-6)


def test_area_by_an_integer_factor_is_the_block_mean():
    x = images([2, 6, 9, 2])
    expected = x.reshape(2, 3, 2, 3, 3, 2).mean(axis=(2, 4))
    np.testing.assert_allclose(tf.image.resize(x, [3, 3], method="area").numpy(), expected, rtol=1e-5, atol=1e-6)


def test_antialiased_box_downscale_by_two_is_the_block_mean():
    x = images([1, 8, 4, 1])
    out = kernels.scale_and_translate(x, [4, 2], [0.5, 0.5], [0.0, 0.0], "box", True).numpy()
    np.testing.assert_allclose(out, x.reshape(1, 4, 2, 2, 2, 1).mean(axis=(2, 4)), rtol=1e-5, atol=1e-6)


def test_antialiased_bilinear_is_the_triangle_kernel_and_plain_bilinear_is_not():
    x = images([1, 9, 9, 1])
    antialiased = tf.image.resize(x, [3, 3], antialias=True).numpy()
    triangle = kernels.scale_and_translate(x, [3, 3], [1 / 3, 1 / 3], [0.0, 0.0], "triangle", True).numpy()
    np.testing.assert_allclose(antialiased, triangle, rtol=1e-6)
    assert not np.allclose(antialiased, tf.image.resize(x, [3, 3]).numpy())


@pytest.mark.parametrize("kernel_type", kernels.KERNEL_TYPES)
def test_every_weight_row_sums_to_one(kernel_type):
    for antialias in (False, True):
        for n_in, n_out in ((7, 3), (4, 11), (5, 5)):
            w = kernels.scale_translate_weights(kernel_type, n_in, n_out, n_out / n_in, 0.0, antialias)
            np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-5)


def test_translation_outside_the_image_reads_nothing():
    x = images([1, 4, 4, 1]) + 1.0
    out = kernels.scale_and_translate(x, [4, 4], [1.0, 1.0], [0.0, 3.0], "lanczos3", False).numpy()
    assert np.all(out[0, :, :3, 0] == 0.0) and np.all(out[0, :, 3:, 0] > 0.0)


def test_legacy_bicubic_with_align_corners_keeps_the_corners():
    x = images([1, 4, 5, 1])
    out = kernels.resize_bicubic(x, [7, 9], align_corners=True).numpy()
    for i, j in ((0, 0), (-1, -1), (0, -1), (-1, 0)):
        np.testing.assert_allclose(out[0, i, j], x[0, i, j], rtol=1e-6)


@pytest.mark.parametrize("method", METHODS)
def test_in_a_graph_with_dynamic_shapes(method, passes):
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def f(x, n):
        return tf.image.resize(x, tf.stack([n, n + 2]), method=method, antialias=True)

    for shape in ([1, 5, 6, 2], [3, 9, 4, 2]):
        x = images(shape)
        out = f(x, tf.constant(4))
        assert out.dtype == tf.float32 and out.shape == (shape[0], 4, 6, 2)
        np.testing.assert_allclose(out.numpy(), tf.image.resize(x, [4, 6], method=method, antialias=True).numpy(),
                                   rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("method", METHODS)
def test_static_shapes_in_a_graph(method):
    @tf.function
    def f(x):
        out = tf.image.resize(x, [4, 7], method=method)
        assert out.shape.as_list() == [5, 4, 7, 3]
        return out

    x = images([5, 6, 6, 3])
    np.testing.assert_allclose(f(x).numpy(), tf.image.resize(x, [4, 7], method=method).numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float16, np.float64])
def test_other_dtypes_give_float32(dtype):
    x = (images([1, 4, 5, 1]) * 100).astype(dtype)
    for method in METHODS:
        out = tf.image.resize(x, [3, 8], method=method)
        assert out.dtype == tf.float32
        np.testing.assert_allclose(out.numpy(), tf.image.resize(x.astype(np.float32), [3, 8], method=method).numpy(),
                                   rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("method", ["bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"])
@pytest.mark.parametrize("antialias", [False, True])
def test_gradients_against_finite_differences(method, antialias):
    check_gradients(lambda x: tf.image.resize(x, [3, 7], method=method, antialias=antialias),
                    [np.random.RandomState(1).rand(2, 5, 4, 2)], rtol=2e-3, atol=2e-3, eps=1e-2)


def test_area_gradient_raises_lookup_error_as_tf():
    x = tf.constant(images([1, 4, 4, 1]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.resize(x, [2, 2], method="area"))
    with pytest.raises(LookupError, match="resize_area"):
        tape.gradient(y, x)


@pytest.mark.filterwarnings("ignore:The dtype of the watched tensor")
def test_integer_images_get_no_gradient():
    x = tf.constant(np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.resize(x, [2, 3], method="lanczos3"))
    assert tape.gradient(y, x) is None


def test_resize_with_pad_uses_the_method():
    x = images([4, 8, 1])
    padded = tf.image.resize_with_pad(x, 6, 6, method="lanczos3").numpy()
    np.testing.assert_allclose(padded[1:4], tf.image.resize(x, [3, 6], method="lanczos3").numpy(), rtol=1e-6)
    assert np.all(padded[0] == 0) and np.all(padded[4:] == 0)


def test_bad_input():
    x = images([4, 4, 1])
    with pytest.raises(ValueError, match="Resize method is not implemented"):
        tf.image.resize(x, [2, 2], method="cubic")
    with pytest.raises(ValueError, match="align_corners must be False"):
        kernels.resize_bicubic(x[None], [2, 2], align_corners=True, half_pixel_centers=True)
    with pytest.raises(ValueError, match="unknown kernel type"):
        kernels.scale_and_translate(x[None], [2, 2], [1.0, 1.0], [0.0, 0.0], "cubic")
    with pytest.raises(tf.errors.InvalidArgumentError, match="output dimensions must be positive"):
        kernels.resize_area(x[None], [0, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not supported"):
        kernels.resize_bicubic(tf.constant([[[[True]]]]), [2, 2])
    with pytest.raises(ValueError, match="4-dimensional"):
        kernels.resize_area(x, [2, 2])


@pytest.mark.parametrize("shape, size", [((3, 9, 7, 2), (13, 5)), ((1, 1, 6, 1), (4, 4)), ((2, 5, 5, 0), (3, 3))])
def test_separable_products_are_each_others_adjoint(shape, size):
    """_separable (width then height, channels turned before the width's product) and _adjoint (height then
    width) are the same matrices transposed: <resize(x), g> == <x, adjoint(g)>, and the weights of one size
    are one cached, read-only matrix."""
    rng = np.random.default_rng(12)
    x = rng.normal(size=shape)
    g = rng.normal(size=(shape[0], *size, shape[3]))
    rows, cols = kernels._bicubic_matrices(shape, *size, False, True)
    assert rows is kernels.bicubic_weights(shape[1], size[0], False, True) and not rows.flags.writeable
    y = kernels._separable(x, rows, cols)
    back = kernels._adjoint(g, rows, cols)
    assert y.shape == g.shape and back.shape == x.shape and y.flags.c_contiguous and back.flags.c_contiguous
    np.testing.assert_allclose(np.sum(y * g), np.sum(x * back), rtol=1e-4, atol=1e-4)
    want = np.einsum("oh,bhwc,pw->bopc", rows.astype(np.float64), x, cols.astype(np.float64))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
