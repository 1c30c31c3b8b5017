"""tf.random.Generator beyond the conformance programs (tests/conformance/random_generator.py holds TF's
numbers): several draws in one graph stay distinct whatever the passes do, graph and eager give the same
stream, concurrent eager draws never share counters, and the statistics are those of the distributions."""

import threading

import numpy as np
import pytest

import tinytf as tf


def test_draws_in_one_graph_are_distinct_and_match_eager():
    eager = tf.random.Generator.from_seed(3)
    expected = [eager.normal([2]).numpy() for _ in range(3)]
    graph = tf.random.Generator.from_seed(3)

    @tf.function
    def three():
        return graph.normal([2]), graph.normal([2]), graph.normal([2])

    got = [t.numpy() for t in three()]
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    assert not np.array_equal(got[0], got[1])
    np.testing.assert_array_equal(graph.state.numpy(), eager.state.numpy())


def test_concurrent_eager_draws_use_disjoint_counters():
    g = tf.random.Generator.from_seed(11)
    draws, threads = [], []

    def worker():
        for _ in range(50):
            draws.append(g.uniform_full_int([1], tf.int64).numpy()[0])

    for _ in range(4):
        threads.append(threading.Thread(target=worker))
        threads[-1].start()
    for t in threads:
        t.join()
    assert len(set(draws)) == 200
    reference = tf.random.Generator.from_seed(11)
    assert sorted(draws) == sorted(reference.uniform_full_int([1], tf.int64).numpy()[0] for _ in range(200))
    assert g.state.numpy().tolist() == [11 + 200 * 256, 0, 0]


def test_state_moves_by_256_per_value_with_carry():
    g = tf.random.Generator.from_state([-256, 0, 9], "philox")
    g.normal([3, 2])
    np.testing.assert_array_equal(g.state.numpy(), [-256 + 6 * 256 - 2**64 + 2**64, 1, 9])


def test_distributions():
    g = tf.random.Generator.from_seed(5)
    normal = g.normal([20000]).numpy()
    assert abs(normal.mean()) < 0.03 and abs(normal.std() - 1) < 0.03
    uniform = g.uniform([20000], minval=-2.0, maxval=3.0).numpy()
    assert uniform.min() >= -2.0 and uniform.max() < 3.0 and abs(uniform.mean() - 0.5) < 0.05
    ints = g.uniform([20000], minval=0, maxval=7, dtype=tf.int32).numpy()
    assert set(np.unique(ints)) == set(range(7))
    truncated = g.truncated_normal([20000]).numpy()
    assert np.abs(truncated).max() < 2.0


def test_unsupported_and_bad_arguments():
    with pytest.raises(NotImplementedError, match="Philox"):
        tf.random.Generator.from_seed(1, alg="threefry")
    with pytest.raises(ValueError, match="Unsupported algorithm"):
        tf.random.Generator.from_seed(1, alg=7)
    with pytest.raises(ValueError, match="non-negative"):
        tf.random.Generator.from_seed(1).skip(-1)
    with pytest.raises(TypeError):
        tf.random.Generator.from_seed(1).normal([2], dtype=tf.int32)


def test_global_generator_can_be_replaced():
    mine = tf.random.Generator.from_seed(1)
    before = tf.random.get_global_generator()
    try:
        tf.random.set_global_generator(mine)
        assert tf.random.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(before)
