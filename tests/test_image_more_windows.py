"""tf.image's window ops beyond the conformance programs: numpy references, graphs with passes on and off,
gradients against finite differences, the noise of extract_glimpse, and bad input."""

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf


def images(shape, seed=0):
    return np.random.RandomState(seed).rand(*shape).astype(np.float32)


def test_crop_and_resize_of_the_whole_image_at_its_size_is_the_image():
    x = images([2, 5, 7, 3])
    out = tf.image.crop_and_resize(x, [[0, 0, 1, 1], [0, 0, 1, 1]], [1, 0], [5, 7])
    np.testing.assert_allclose(out.numpy(), x[[1, 0]], rtol=1e-6)


def test_crop_and_resize_of_a_pixel_aligned_box_is_a_slice():
    x = images([1, 9, 9, 2])
    out = tf.image.crop_and_resize(x, [[2 / 8, 4 / 8, 6 / 8, 8 / 8]], [0], [5, 5], method="nearest")
    np.testing.assert_array_equal(out.numpy()[0], x[0, 2:7, 4:9])


def test_crop_and_resize_flipped_box_flips():
    x = images([1, 4, 6, 1])
    out = tf.image.crop_and_resize(x, [[1, 1, 0, 0]], [0], [4, 6]).numpy()
    np.testing.assert_allclose(out[0], x[0, ::-1, ::-1], rtol=1e-6)


def test_crop_and_resize_in_a_graph(passes):
    @tf.function
    def f(x, boxes, index):
        return tf.image.crop_and_resize(x, boxes, index, [3, 4], extrapolation_value=-1.0)

    x, boxes = images([2, 5, 6, 1]), np.array([[-0.3, 0.1, 0.7, 1.2], [0.2, 0.2, 0.4, 0.9]], np.float32)
    eager = tf.image.crop_and_resize(x, boxes, [1, 0], [3, 4], extrapolation_value=-1.0).numpy()
    np.testing.assert_array_equal(f(x, boxes, tf.constant([1, 0])).numpy(), eager)
    assert (eager == -1.0).any()


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_image_gradient(method):
    boxes = tf.constant([[0.13, 0.21, 0.77, 0.88], [-0.21, 0.04, 0.52, 1.27]])
    check_gradients(lambda x: tf.image.crop_and_resize(x, boxes, [1, 0], [3, 4], method),
                    [np.random.RandomState(1).rand(2, 5, 4, 2)], rtol=1e-3, atol=1e-3, eps=1e-3)


def test_crop_and_resize_boxes_gradient():
    image = tf.constant(np.random.RandomState(2).rand(2, 5, 4, 2))
    base = tf.constant([[0.13, 0.21, 0.77, 0.88], [-0.21, 0.04, 0.52, 1.27]], tf.float64)
    check_gradients(lambda b: tf.image.crop_and_resize(image, tf.cast(b + base, tf.float32), [1, 0], [3, 4]),
                    [np.zeros((2, 4))], rtol=2e-3, atol=2e-3, eps=1e-3)


def numpy_patches(x, k, s, r, padding):
    """Reference ExtractImagePatches by explicit loops."""
    b, h, w, d = x.shape
    eff = [k[i] + (k[i] - 1) * (r[i] - 1) for i in (0, 1)]
    if padding == "VALID":
        out = [int(np.ceil((n - e + 1) / st)) for n, e, st in zip((h, w), eff, s)]
        pad = [0, 0]
    else:
        out = [int(np.ceil(n / st)) for n, st in zip((h, w), s)]
        pad = [max((o - 1) * st + e - n, 0) // 2 for o, st, e, n in zip(out, s, eff, (h, w))]
    res = np.zeros((b, out[0], out[1], k[0] * k[1] * d), x.dtype)
    for i in range(out[0]):
        for j in range(out[1]):
            vals = []
            for a in range(k[0]):
                for c in range(k[1]):
                    y, z = i * s[0] + a * r[0] - pad[0], j * s[1] + c * r[1] - pad[1]
                    inside = 0 <= y < h and 0 <= z < w
                    vals.append(x[:, y, z] if inside else np.zeros((b, d), x.dtype))
            res[:, i, j] = np.concatenate(vals, axis=1)
    return res


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("k, s, r", [((3, 3), (2, 2), (1, 1)), ((2, 3), (1, 3), (2, 1)), ((1, 4), (3, 1), (1, 2))])
def test_extract_patches_against_loops(padding, k, s, r):
    x = images([2, 7, 8, 3])
    out = tf.image.extract_patches(x, [1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
    np.testing.assert_array_equal(out.numpy(), numpy_patches(x, k, s, r, padding))


def test_extract_patches_keeps_nan_and_integers():
    x = np.arange(16, dtype=np.uint8).reshape(1, 4, 4, 1)
    out = tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
    assert out.dtype == tf.uint8 and out.numpy()[0, 0, 0].tolist() == [0, 1, 4, 5]
    f = images([1, 4, 4, 1])
    f[0, 0, 0, 0] = np.nan
    patches = tf.image.extract_patches(f, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID").numpy()
    assert np.isnan(patches).sum() == 1


def test_extract_patches_in_a_graph_with_unknown_sizes(passes):
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 2])])
    def f(x):
        return tf.image.extract_patches(x, [1, 2, 3, 1], [1, 1, 2, 1], [1, 1, 1, 1], "SAME")

    for shape in ([1, 5, 6, 2], [3, 2, 9, 2]):
        x = images(shape)
        np.testing.assert_array_equal(f(x).numpy(), numpy_patches(x, (2, 3), (1, 2), (1, 1), "SAME"))


def test_extract_patches_gradient():
    check_gradients(lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
                    [np.random.RandomState(3).rand(1, 6, 5, 2)])


def test_extract_glimpse_noise_is_drawn_from_the_image_range():
    x = images([1, 6, 6, 1]) + 5.0
    out = tf.image.extract_glimpse(x, [4, 4], [[-3.0, -3.0]], centered=False, normalized=False).numpy()[0, ..., 0]
    np.testing.assert_array_equal(out[3:, 3:], x[0, :1, :1, 0])
    noise = out[:3].ravel()
    assert noise.min() >= x.min() and noise.max() <= x.max() and len(set(noise.tolist())) > 1
    gaussian = tf.image.extract_glimpse(x, [4, 4], [[-3.0, -3.0]], centered=False, normalized=False,
                                       noise="gaussian").numpy()
    assert np.isfinite(gaussian).all()


def test_glimpse_and_boxes_have_no_gradient_as_in_tf():
    x = tf.constant(images([1, 4, 4, 3]))
    for fn in (lambda v: tf.image.extract_glimpse(v, [2, 2], [[0.0, 0.0]]),
               lambda v: tf.image.draw_bounding_boxes(v, [[[0.1, 0.1, 0.9, 0.9]]], None)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))
        with pytest.raises(LookupError):
            tape.gradient(y, x)


def test_draw_bounding_boxes_paints_only_the_outline():
    x = np.zeros((1, 9, 9, 3), np.float32)
    out = tf.image.draw_bounding_boxes(x, [[[0.25, 0.25, 0.75, 0.75]]], [[1.0, 0.5, 0.25]]).numpy()[0]
    painted = np.zeros((9, 9), bool)
    painted[2, 2:7] = painted[6, 2:7] = painted[2:7, 2] = painted[2:7, 6] = True
    np.testing.assert_array_equal(out[..., 0] == 1.0, painted)
    np.testing.assert_array_equal(out[painted], np.tile([1.0, 0.5, 0.25], (16, 1)))


def test_bad_input():
    x = images([2, 4, 4, 1])
    with pytest.raises(tf.errors.OutOfRangeError, match="box_index"):
        tf.image.crop_and_resize(x, [[0, 0, 1, 1]], [2], [2, 2])
    with pytest.raises(ValueError, match="boxes must be 2-D"):
        tf.function(lambda: tf.image.crop_and_resize(x, [0.0, 0.0, 1.0, 1.0], [0], [2, 2]))()
    with pytest.raises(ValueError, match=r"\[1, rows, cols, 1\]"):
        tf.image.extract_patches(x, [2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="padding"):
        tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "FULL")
    with pytest.raises(ValueError, match="noise"):
        tf.image.extract_glimpse(x, [2, 2], [[0.0, 0.0], [0.0, 0.0]], noise="salt")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Channel depth"):
        tf.image.draw_bounding_boxes(images([1, 4, 4, 2]), [[[0.0, 0.0, 1.0, 1.0]]], None)
