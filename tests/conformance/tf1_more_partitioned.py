"""TF1's partitioned variables (helper v1more): the partitioners' answers, get_variable / variable_scope with a
partitioner (shard names, shapes, slice specs, collections, reuse and its errors), the whole variable in ops and
in a training step, assign, create_partitioned_variables, and Saver checkpoints of shards read back into another
partitioning and into one variable."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program


def _ranged(tf, full, plus=0.0):
    """An initializer that gives each shard its slice of arange(full) + plus (so every slice is recognisable)."""
    def init(shape, dtype=None, partition_info=None):
        whole = np.arange(np.prod(full), dtype=np.float32).reshape(full) + plus
        index = tuple(slice(o, o + n) for o, n in zip(partition_info.var_offset, shape))
        return tf.constant(whole[index])
    return init


@program
def p_tf1_partitioners(tf):
    v1 = tf.compat.v1
    shape = tf.TensorShape([100, 4])
    return {
        "fixed": [v1.fixed_size_partitioner(3)(shape=tf.TensorShape([7, 2]), dtype=tf.float32),
                  v1.fixed_size_partitioner(3)(shape=tf.TensorShape([2, 2]), dtype=tf.float32),
                  v1.fixed_size_partitioner(2, axis=1)(shape=tf.TensorShape([2, 5]), dtype=tf.float32)],
        "min_max": [v1.min_max_variable_partitioner(max_partitions=4, min_slice_size=8)(shape=shape, dtype=tf.float32),
                    v1.min_max_variable_partitioner(max_partitions=100, min_slice_size=64)(shape=shape,
                                                                                           dtype=tf.float64),
                    v1.min_max_variable_partitioner()(shape=shape, dtype=tf.float32),
                    v1.min_max_variable_partitioner(8, min_slice_size=16)(shape=tf.TensorShape([10]),
                                                                          dtype=tf.string)],
        "axis_size": [v1.variable_axis_size_partitioner(64)(shape=shape, dtype=tf.float32),
                      v1.variable_axis_size_partitioner(64, max_shards=3)(shape=shape, dtype=tf.float32),
                      v1.variable_axis_size_partitioner(1)(shape=shape, dtype=tf.float32),
                      v1.variable_axis_size_partitioner(100, axis=1)(shape=shape, dtype=tf.int32)],
        "min_max_axis_error": outcome(
            lambda: v1.min_max_variable_partitioner(axis=2)(shape=shape, dtype=tf.float32),
            "Cannot partition variable along axis 2"),
        "axis_size_error": outcome(lambda: v1.variable_axis_size_partitioner(0), "must be positive"),
        "max_shards_error": outcome(lambda: v1.variable_axis_size_partitioner(10, max_shards=-1),
                                    "max_shards must be positive"),
    }


@program
def p_tf1_partitioned_get_variable(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        with v1.variable_scope("s", partitioner=v1.fixed_size_partitioner(3)):
            w = v1.get_variable("w", [7, 2], initializer=_ranged(tf, [7, 2]))
        v = v1.get_variable("v", [2, 5], initializer=_ranged(tf, [2, 5], 100.0),
                            partitioner=v1.fixed_size_partitioner(2, axis=1))
        c = v1.get_variable("c", initializer=tf.constant(np.arange(6, dtype=np.float32)),
                            partitioner=v1.fixed_size_partitioner(4))
        with v1.variable_scope("s", reuse=True, partitioner=v1.fixed_size_partitioner(3)):
            again = v1.get_variable("w", [7, 2])
        with v1.variable_scope("s", reuse=True, partitioner=v1.fixed_size_partitioner(2)):
            other = outcome(lambda: v1.get_variable("w", [7, 2]), "specified partitions")
        with v1.variable_scope("s", partitioner=v1.fixed_size_partitioner(3)):
            exists = outcome(lambda: v1.get_variable("w", [7, 2]), "already exists")
        with v1.variable_scope("t", reuse=True, partitioner=v1.fixed_size_partitioner(3)):
            missing = outcome(lambda: v1.get_variable("x", [7, 2]), "does not exist")
        whole = tf.convert_to_tensor(w)
        total = tf.reduce_sum(whole * 2.0)
        product = tf.matmul(tf.ones([1, 7]), w)
        rows = tf.nn.embedding_lookup(w, [0, 3, 6])
        assign = w.assign(np.full([7, 2], 5.0, np.float32))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run([total, product, rows, tf.convert_to_tensor(v), tf.convert_to_tensor(c)])
            sess.run(assign)
            after = sess.run(whole)
        return {
            "type": type(w).__name__, "name": w.name, "shape": w.get_shape().as_list(), "dtype": w.dtype.name,
            "len": len(w), "shards": [[s.name, s.shape.as_list()] for s in w],
            "specs": [s._save_slice_info.spec for s in w] + [s._save_slice_info.spec for s in v],
            "full_names": [s._save_slice_info.full_name for s in c],
            "partitions": [w._get_partitions(), v._get_partitions(), c._get_partitions()],
            "c_shards": [s.shape.as_list() for s in c],
            "global": [x.name for x in v1.global_variables()],
            "trainable": [x.name for x in v1.trainable_variables()],
            "same": again is w, "other": other, "exists": exists, "missing": missing,
            "whole_shape": whole.shape.as_list(),
            "values": [np.asarray(x).tolist() for x in values], "after": after.tolist(),
            "operator": outcome(lambda: w * 2.0, "unsupported operand"),
        }


@program
def p_tf1_partitioned_training(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(1)
        x = v1.placeholder(tf.float32, [None, 6])
        w = v1.get_variable("w", [6, 1], initializer=_ranged(tf, [6, 1]),
                            partitioner=v1.min_max_variable_partitioner(max_partitions=3, min_slice_size=4))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        grads = v1.gradients(loss, list(w))
        train = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
        data = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            first = sess.run(grads, {x: data})
            for _ in range(3):
                sess.run(train, {x: data})
            final = sess.run(list(w))
    return {"shards": len(w), "grads": [g.tolist() for g in first], "final": [f.tolist() for f in final]}


@program
def p_tf1_create_partitioned_variables(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        parts = v1.create_partitioned_variables([5, 3], [1, 2], v1.constant_initializer(2.0))
        named = v1.create_partitioned_variables([4], [2], tf.constant([1.0, 2.0, 3.0, 4.0]), name="p")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run(parts + named)
        return {"names": [p.name for p in parts + named], "specs": [p._save_slice_info.spec for p in parts + named],
                "values": [x.tolist() for x in values],
                "rank_error": outcome(lambda: v1.create_partitioned_variables([], [], 1.0), "rank at least 1"),
                "length_error": outcome(lambda: v1.create_partitioned_variables([4, 2], [2], 1.0),
                                        "must have the length")}


@program
def p_tf1_partitioned_checkpoint(tf):
    """Saved as 3 shards, read back as 2 shards, as one variable, and through tf.train.load_checkpoint."""
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    prefix = os.path.join(folder, "ckpt")
    graph = v1.Graph()
    with graph.as_default():
        w = v1.get_variable("w", [7, 2], initializer=_ranged(tf, [7, 2]), partitioner=v1.fixed_size_partitioner(3))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            v1.train.Saver().save(sess, prefix)
            whole_saver = v1.train.Saver({"w": w})
            sess.run(w.assign(np.zeros([7, 2], np.float32)))
            whole_saver.restore(sess, prefix)
            restored = sess.run(tf.convert_to_tensor(w))
    two = v1.Graph()
    with two.as_default():
        w2 = v1.get_variable("w", [7, 2], partitioner=v1.fixed_size_partitioner(2))
        with v1.Session() as sess:
            v1.train.Saver().restore(sess, prefix)
            as_two = sess.run(list(w2))
    one = v1.Graph()
    with one.as_default():
        w1 = v1.get_variable("w", [7, 2])
        wrong = v1.get_variable("u", [3, 2], partitioner=v1.fixed_size_partitioner(2))
        with v1.Session() as sess:
            v1.train.Saver([w1]).restore(sess, prefix)
            as_one = sess.run(w1)
            shape_error = outcome(lambda: v1.train.Saver({"w": wrong}).restore(sess, prefix), "shape")
    reader = tf.train.load_checkpoint(prefix)
    return {"restored": restored.tolist(), "as_two": [x.tolist() for x in as_two], "as_one": as_one.tolist(),
            "shape_error": shape_error, "keys": reader.get_variable_to_shape_map(),
            "read": reader.get_tensor("w").tolist(), "listed": [list(x) for x in tf.train.list_variables(prefix)]}
