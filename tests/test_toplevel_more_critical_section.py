"""tf.CriticalSection: executions are serialized eagerly, in tf.function graphs and across threads (a body that
yields the GIL between its read and its write loses updates without the section, and none with it), nests of
outputs and gradients pass through, re-entering a section raises ValueError."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tinytf as tf


def slow_counter(v):
    """v's value, then v += 1, with a pause in between that lets other threads in."""
    def count():
        value = v.read_value()
        with tf.control_dependencies([value]):
            pause = tf.py_function(lambda: time.sleep(0.002) or 0.0, [], tf.float32)
        with tf.control_dependencies([pause]):
            with tf.control_dependencies([v.assign_add(1.0)]):
                return tf.identity(value)
    return count


def run_threads(step, threads=3, each=8):
    seen = []

    def worker():
        for _ in range(each):
            seen.append(float(step()))

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return seen


@pytest.mark.parametrize("in_graph", [False, True])
def test_executions_are_serialized_across_threads(in_graph):
    v = tf.Variable(0.0)
    cs = tf.CriticalSection()
    count = slow_counter(v)
    step = (lambda: cs.execute(count))
    seen = run_threads(tf.function(step) if in_graph else step)
    assert sorted(seen) == [float(i) for i in range(24)] and v.numpy() == 24.0
    # without the section, the same body loses updates: the check above can fail
    u = tf.Variable(0.0)
    unguarded = run_threads(tf.function(slow_counter(u)) if in_graph else slow_counter(u))
    assert len(set(unguarded)) < 24


def test_outputs_nests_and_gradients_pass_through():
    cs = tf.CriticalSection(name="cs")
    x = tf.Variable(3.0)

    @tf.function
    def graph():
        with tf.GradientTape() as tape:
            out = cs.execute(lambda: {"square": x * x, "pair": (x + 1.0, 7)})
        return tape.gradient(out["square"], x), out["pair"]

    with tf.GradientTape() as tape:
        eager = cs.execute(lambda: x * x)
    assert float(eager) == 9.0 and float(tape.gradient(eager, x)) == 6.0
    grad, (plus, seven) = graph()
    assert float(grad) == 6.0 and float(plus) == 4.0 and int(seven) == 7
    assert cs.name == "cs"


def test_reentering_a_section_raises_and_a_failed_graph_run_does_not_deadlock_its_thread():
    cs = tf.CriticalSection()
    with pytest.raises(ValueError, match="already running"):
        cs.execute(lambda: cs.execute(lambda: tf.constant(1.0)))
    with pytest.raises(ValueError, match="already running"):
        tf.function(lambda: cs.execute(lambda: cs.execute(lambda: tf.constant(1.0))))()
    other = tf.CriticalSection()
    assert float(cs.execute(lambda: other.execute(lambda: tf.constant(2.0)))) == 2.0  # two sections nest

    @tf.function
    def checked(x):
        return cs.execute(lambda: tf.debugging.check_numerics(x, "bad"))

    with pytest.raises(tf.errors.InvalidArgumentError):
        checked(tf.constant(np.inf))
    assert float(checked(tf.constant(1.0))) == 1.0
