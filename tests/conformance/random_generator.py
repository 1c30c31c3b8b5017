"""tf.random.Generator as TensorFlow 2.21 gives it, bit for bit: construction from seeds, states and
key/counter, every draw (normal, uniform floats and integers, full-range integers, truncated normal) and the
state it leaves, skip/reset/split/make_seeds, draws inside tf.function, and checkpoints; the code of TF's
"Random number generation" guide among them."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program, val


@program
def p_guide_generator_from_seed(tf):
    g1 = tf.random.Generator.from_seed(1)
    first = g1.normal(shape=[2, 3])
    g2 = tf.random.Generator.from_seed(1, alg="philox")
    return [val(first), val(g2.normal(shape=[2, 3])), val(g1.state), val(g2.state), g1.algorithm]


@program
def p_guide_reset_and_split(tf):
    g = tf.random.Generator.from_seed(1)
    before = g.normal([])
    g.reset_from_seed(1)
    again = g.normal([])
    g = tf.random.Generator.from_seed(1)
    new_gs = g.split(3)
    return [val(before), val(again), [val(new_g.normal([])) for new_g in new_gs], val(g.normal([])),
            [val(new_g.state) for new_g in new_gs]]


@program
def p_guide_generator_in_tf_function(tf):
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def foo():
        return g.normal([])

    return [val(foo()), val(foo()), val(g.state)]


@program
def p_guide_checkpoint_restores_the_stream(tf):
    with tempfile.TemporaryDirectory() as folder:
        filename = os.path.join(folder, "checkpoint")
        g = tf.random.Generator.from_seed(1)
        cp = tf.train.Checkpoint(generator=g)
        first = g.normal([])
        cp.write(filename)
        after_save = [val(g.normal([])), val(g.normal([]))]
        cp.restore(filename)
        after_restore = [val(g.normal([])), val(g.normal([]))]
        keys = sorted(k for k, _ in tf.train.list_variables(filename))
    return [val(first), after_save, after_restore, keys]


@program
def p_generator_draws_and_states(tf):
    g = tf.random.Generator.from_seed(1)
    out = []
    for draw in (lambda: g.uniform([3]), lambda: g.normal([5]), lambda: g.uniform([2], maxval=10, minval=0,
                                                                                   dtype=tf.int32),
                 lambda: g.uniform([2, 2], minval=2.0, maxval=5.0), lambda: g.uniform([3], dtype=tf.float64),
                 lambda: g.uniform([2], minval=-5, maxval=5, dtype=tf.int64),
                 lambda: g.uniform_full_int([3], tf.int32), lambda: g.uniform_full_int([2], tf.uint32),
                 lambda: g.uniform_full_int([2], tf.int64), lambda: g.uniform([3], dtype=tf.float16),
                 lambda: g.truncated_normal([6]), lambda: g.truncated_normal([3], mean=1.0, stddev=2.0,
                                                                                 dtype=tf.float64),
                 lambda: g.normal([2], mean=1.0, stddev=[1.0, 2.0]), lambda: g.normal([3], dtype=tf.float16)):
        out.append([val(draw()), val(g.state)])
    return out


@program
def p_generator_states_from_seeds_and_counters(tf):
    states = [tf.random.Generator.from_seed(seed).state for seed in (0, 7, 2**64 + 5, 2**63, -3, [5, 6])]
    g = tf.random.Generator.from_key_counter(key=3, counter=[5, 6], alg="philox")
    carried = tf.random.Generator.from_state([-1, 5, 0], "philox")
    carried.uniform([1])
    skipped = tf.random.Generator.from_seed(1)
    skipped.skip(10)
    seeds = tf.random.Generator.from_seed(7).make_seeds(2)
    auto = tf.random.Generator.from_seed(1, alg="auto_select")
    copy = tf.random.Generator(copy_from=skipped)
    return [[val(s) for s in states], val(g.state), val(g.key), val(carried.state), val(skipped.state),
            val(seeds), auto.algorithm, val(auto.uniform([2])), val(copy.state),
            val(tf.random.stateless_uniform([2], seed=seeds[:, 0]))]


@program
def p_generator_errors(tf):
    g = tf.random.Generator.from_seed(1)
    return [outcome(lambda: g.uniform([2], maxval=5, dtype=tf.int32), "must be both"),
            outcome(lambda: g.uniform([2], minval=3, maxval=None, dtype=tf.int32), "must be both"),
            outcome(lambda: g.uniform([2], minval=5, maxval=2, dtype=tf.int32), "Need minval < maxval"),
            outcome(lambda: tf.random.Generator.from_state([1, 2], "philox"), "incompatible"),
            val(g.state)]
