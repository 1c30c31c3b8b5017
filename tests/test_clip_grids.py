"""Norm clipping, l2_normalize, meshgrid, roll, is_tensor and device: eagerly, as graphs with passes on and
off, against numpy, and with gradients against finite differences."""

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

X = np.array([[1.0, -2.0, 3.0], [0.5, 0.25, -4.0]], np.float32)


def test_clip_by_norm_all_ways():
    norm = np.linalg.norm(X)
    run_all_ways(lambda x: tf.clip_by_norm(x, 2.0), tf.constant(X), expected=X * 2.0 / norm)
    rows = np.linalg.norm(X, axis=1, keepdims=True)
    run_all_ways(lambda x: tf.clip_by_norm(x, 3.0, axes=[1]), tf.constant(X), expected=X * 3.0 / np.maximum(rows, 3.0))


def test_clip_by_global_norm_and_global_norm():
    a, b = X, np.array([2.0, -1.0], np.float32)
    total = np.sqrt((a ** 2).sum() + (b ** 2).sum())

    def fn(x, y):
        clipped, norm = tf.clip_by_global_norm([x, None, y], 1.5)
        return clipped[0], clipped[2], norm, tf.linalg.global_norm([x, y])

    out = run_all_ways(fn, tf.constant(a), tf.constant(b), rtol=1e-5,
                       expected=[a * 1.5 / total, b * 1.5 / total, total, total])
    assert len(out) == 4


def test_l2_normalize_all_ways():
    run_all_ways(lambda x: tf.nn.l2_normalize(x, axis=1), tf.constant(X),
                 expected=X / np.linalg.norm(X, axis=1, keepdims=True))
    run_all_ways(lambda x: tf.nn.l2_normalize(x), tf.zeros([3]), expected=np.zeros(3))


def test_meshgrid_and_roll_with_run_time_shapes():
    x, y = np.arange(3, dtype=np.float32), np.arange(4, dtype=np.float32) * 10
    gx, gy = np.meshgrid(x, y)
    run_all_ways(lambda a, b: tf.meshgrid(a, b), tf.constant(x), tf.constant(y), expected=[gx, gy])
    ix, iy = np.meshgrid(x, y, indexing="ij")
    run_all_ways(lambda a, b: tf.meshgrid(a, b, indexing="ij"), tf.constant(x), tf.constant(y), expected=[ix, iy])
    run_all_ways(lambda a, s: tf.roll(a, s, axis=1), tf.constant(X), tf.constant(-1), expected=np.roll(X, -1, axis=1))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def unknown_length(v):
        return tf.roll(v, 2, axis=0)

    np.testing.assert_array_equal(unknown_length(tf.range(5.0)).numpy(), np.roll(np.arange(5.0), 2))


@pytest.mark.parametrize("fn", [
    lambda x: tf.clip_by_norm(x, 0.5),
    lambda x: tf.clip_by_norm(x, 10.0, axes=[0]),
    lambda x: tf.clip_by_global_norm([x, x * 2.0], 0.7)[0][1],
    lambda x: tf.nn.l2_normalize(x, axis=0),
    lambda x: tf.roll(x, shift=[1, 2], axis=[0, 1]),
    lambda x: tf.meshgrid(x[0], x[1])[0] * tf.meshgrid(x[0], x[1])[1],
])
def test_gradients_match_finite_differences(fn):
    check_gradients(fn, uniform_arrays((2, 3), seed=3))


def test_is_tensor_and_device():
    assert tf.is_tensor(tf.constant(1)) and tf.is_tensor(tf.Variable(1.0)) and not tf.is_tensor(np.ones(2))
    with tf.device("/job:localhost/replica:0/task:0/device:GPU:0"):
        assert int(tf.constant(2) * 3) == 6
    with pytest.raises(ValueError, match="Unknown attribute 'not a device' is encountered while parsing"):
        with tf.device("not a device"):
            pass
    for spec in ("CPU:0", "cpu:0", "GPU:1", "/cpu:*", "device:CPU:0", "gpu", ""):  # TF's shorter forms
        with tf.device(spec):
            assert int(tf.constant(2) * 3) == 6
    with pytest.raises(ValueError, match="invalid literal"):
        with tf.device("CPU:a"):
            pass
