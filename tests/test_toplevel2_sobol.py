"""tf.math.sobol_sample beyond the recorded conformance programs: the defining properties of a Sobol sequence
(every block of 2^k points puts one point in each dyadic interval of each coordinate, the first dimension is
van der Corput's), skip as a shift of the sequence, graph against eager with passes on and off."""

from __future__ import annotations

import numpy as np

import tinytf as tf


def test_first_dimension_is_van_der_corput():
    points = tf.math.sobol_sample(1, 15, dtype=tf.float64).numpy()[:, 0]
    gray = [i ^ (i >> 1) for i in range(1, 16)]
    want = [float(int(format(g, "032b")[::-1], 2)) / 2 ** 32 for g in gray]
    np.testing.assert_array_equal(points, want)


def test_every_dyadic_interval_gets_one_point():
    # points 0 .. 2^k - 1 of the sequence (the zero point, then 2^k - 1 from sobol_sample) are a (0, k, 1)-net in
    # every coordinate: each interval [j / 2^k, (j + 1) / 2^k) holds exactly one of them
    k = 7
    points = np.vstack([np.zeros((1, 300)), tf.math.sobol_sample(300, 2 ** k - 1, dtype=tf.float64).numpy()])
    cells = np.floor(points * 2 ** k).astype(int)
    for d in range(points.shape[1]):
        assert sorted(cells[:, d].tolist()) == list(range(2 ** k)), f"dimension {d}"


def test_skip_shifts_the_sequence(passes):
    whole = tf.math.sobol_sample(17, 40, dtype=tf.float64).numpy()
    np.testing.assert_array_equal(tf.math.sobol_sample(17, 25, skip=15, dtype=tf.float64).numpy(), whole[15:])
    traced = tf.function(lambda skip: tf.math.sobol_sample(17, 25, skip=skip, dtype=tf.float64))(tf.constant(15))
    np.testing.assert_array_equal(traced.numpy(), whole[15:])
    assert tf.math.sobol_sample(17, 25).dtype == tf.float32
