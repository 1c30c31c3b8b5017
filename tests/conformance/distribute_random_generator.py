"""tf.random.Generator under a 2-replica MirroredStrategy, as TF's "Random number generation" guide runs it:
a generator made in the strategy's scope gives each replica its own stream (the key hashed with the replica
id), one made inside the replica function is each replica's own, and a checkpoint saved and restored in the
scope takes the streams back. The CPU is split into two logical devices as in distribute_mirrored_fit."""

from __future__ import annotations

import tempfile

from . import program, val
from .distribute_mirrored_fit import _two_replicas


def _local(strategy, value):
    return [val(v) for v in strategy.experimental_local_results(value)]


@program
def p_generator_made_in_scope_gives_replicas_their_own_streams(tf):
    strategy = _two_replicas(tf)
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
        first = _local(strategy, strategy.run(lambda: g.normal([])))
        second = _local(strategy, strategy.run(lambda: g.normal([2])))
        ints = _local(strategy, strategy.run(lambda: g.uniform([3], 0, 100, tf.int32)))
    outside = val(g.normal([]))
    return [first, second, ints, outside, val(g.state)]


@program
def p_generator_made_in_the_replica_function(tf):
    strategy = _two_replicas(tf)
    with strategy.scope():
        def f():
            g = tf.random.Generator.from_seed(1)
            return tf.stack([g.normal([]), g.normal([])])
        return [_local(strategy, strategy.run(f)), _local(strategy, strategy.run(f))]


@program
def p_generator_checkpoint_in_scope(tf):
    strategy = _two_replicas(tf)
    path = tempfile.mkdtemp() + "/checkpoint"
    with strategy.scope():
        g = tf.random.Generator.from_seed(1)
        cp = tf.train.Checkpoint(my_generator=g)
        out = [_local(strategy, strategy.run(lambda: g.normal([])))]
        cp.write(path)
        after_save = [_local(strategy, strategy.run(lambda: g.normal([]))) for _ in range(2)]
        cp.restore(path)
        after_restore = [_local(strategy, strategy.run(lambda: g.normal([]))) for _ in range(2)]
    return [out, after_save, after_restore, after_save == after_restore]
