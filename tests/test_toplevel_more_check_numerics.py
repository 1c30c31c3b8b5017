"""tf.debugging.enable_check_numerics: every op's floating outputs checked, eagerly (fast paths included) and in
functions traced while it is on; functions traced before stay unchecked, as in TF; per thread."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinytf as tf


@pytest.fixture
def checks():
    tf.debugging.enable_check_numerics()
    yield
    tf.debugging.disable_check_numerics()


def test_eager_ops_and_operator_fast_paths_are_checked(checks):
    x = tf.constant([1.0, 0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'(?s)output 0 of eagerly-executing op "log".*-Inf'):
        tf.math.log(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'(?s)op "divide".*\+Inf elements: 1'):
        x / 0.0  # the operator's numpy fast path steps aside while checks are on
    with pytest.raises(tf.errors.InvalidArgumentError, match="NaN elements: 1"):
        tf.sqrt(tf.constant([-1.0]))[0]
    np.testing.assert_array_equal((x + 1.0).numpy(), [2.0, 1.0])  # finite results pass
    assert tf.constant([1, 0]) // 1 is not None  # integer outputs are not checked


def test_functions_traced_while_checking_check_every_run_and_older_ones_do_not(checks):
    def body(x):
        return tf.math.log(x) * 2.0

    tf.debugging.disable_check_numerics()
    before = tf.function(body)
    before(tf.constant([1.0]))
    tf.debugging.enable_check_numerics()
    after = tf.function(body)
    np.testing.assert_allclose(after(tf.constant([1.0, np.e])).numpy(), [0.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match='output 0 of graph op "log"'):
        after(tf.constant([1.0, 0.0]))
    assert np.isneginf(before(tf.constant([0.0])).numpy()[0])  # traced before: unchecked, as in TF


def test_unused_checked_values_are_still_checked_and_gradients_flow(checks):
    @tf.function
    def unused(x):
        tf.math.log(x)  # stateful checks run in program order even when the value is dropped
        return x + 1.0

    with pytest.raises(tf.errors.InvalidArgumentError):
        unused(tf.constant([0.0]))
    x = tf.constant([2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log(x) * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [np.log(2.0) + 1.0])


def test_checks_are_per_thread(checks):
    seen = []
    worker = threading.Thread(target=lambda: seen.append(tf.math.log(tf.constant([0.0])).numpy()[0]))
    worker.start()
    worker.join()
    assert np.isneginf(seen[0])
    tf.debugging.disable_check_numerics()
    assert np.isneginf(tf.math.log(tf.constant([0.0])).numpy()[0])
