"""TF1's lookup tables initialized in a Session, and TF1's loss scaling (helper v1rest): FixedLossScale,
DynamicLossScale's schedule, MixedPrecisionLossScaleOptimizer skipping non-finite steps in a Session, and
enable/disable_mixed_precision_graph_rewrite."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_v1rest_lookup_tables_in_session(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        table = v1.lookup.StaticHashTable(v1.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
        found = table.lookup(tf.constant(["a", "c", "b"]))
        size = table.size()
        vocabulary = v1.lookup.StaticVocabularyTable(
            v1.lookup.KeyValueTensorInitializer(["x", "y"], tf.constant([0, 1], tf.int64)), 2)
        ids = vocabulary.lookup(tf.constant(["x", "zz", "y", "q"]))
        init = v1.tables_initializer()
        info = [str(table.key_dtype), str(table.value_dtype), str(vocabulary.value_dtype), str(found.shape)]
    out = {"info": info}
    with v1.Session(graph=graph) as sess:
        out["before_init"] = outcome(lambda: sess.run(found), "not initialized")
        sess.run(init)
        f, s, i, vs = sess.run([found, size, ids, vocabulary.size()])
        out["session"] = [f.tolist(), int(s), i.tolist(), int(vs)]
    eager = v1.lookup.StaticHashTable(v1.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
    out["eager"] = [val(eager.lookup(tf.constant(["a", "c"]))), isinstance(eager, tf.lookup.StaticHashTable),
                    eager.initializer is None]
    return out


@program
def p_v1rest_loss_scales(tf):
    mp = tf.compat.v1.mixed_precision
    dynamic = mp.DynamicLossScale(initial_loss_scale=8, increment_period=2)
    out = {"fixed": [repr(mp.FixedLossScale(128)), mp.FixedLossScale(128).get_config(), val(mp.FixedLossScale(4)())],
           "dynamic": [repr(dynamic), dynamic.get_config()], "steps": []}
    for grad in ([1.0], [np.inf], [1.0], [1.0], [np.nan]):
        _, ok = dynamic.update([tf.constant(grad)])
        out["steps"].append([val(dynamic()), bool(ok)])
    out["below_one"] = outcome(lambda: mp.FixedLossScale(0.5), "at least 1")
    out["abstract"] = outcome(lambda: mp.LossScale(), "abstract")
    train = tf.compat.v1.train.experimental
    out["same"] = [mp.experimental.DynamicLossScale is mp.DynamicLossScale, train.LossScale is mp.LossScale,
                   train.MixedPrecisionLossScaleOptimizer is mp.MixedPrecisionLossScaleOptimizer]
    return out


@program
def p_v1rest_loss_scale_optimizer_session(tf):
    v1 = tf.compat.v1
    mp = v1.mixed_precision
    graph = tf.Graph()
    with graph.as_default():
        w = v1.get_variable("w", initializer=np.array([1.0, 2.0], np.float32))
        x = v1.placeholder(tf.float32, [2])
        loss = tf.reduce_sum(w * w * x)
        opt = mp.MixedPrecisionLossScaleOptimizer(v1.train.GradientDescentOptimizer(0.1), mp.DynamicLossScale(4.0, 2))
        step = opt.apply_gradients(opt.compute_gradients(loss, [w]))
        scale = opt._loss_scale()
        fixed = v1.train.experimental.MixedPrecisionLossScaleOptimizer(v1.train.GradientDescentOptimizer(0.1), 16)
        fixed_grad = fixed.compute_gradients(loss, [w])[0][0]
        wrapped = v1.train.experimental.enable_mixed_precision_graph_rewrite(v1.train.MomentumOptimizer(0.1, 0.9))
        v1.train.experimental.disable_mixed_precision_graph_rewrite()
        init = v1.global_variables_initializer()
    out = {"wrapped": type(wrapped).__name__,
           "keras": outcome(lambda: mp.MixedPrecisionLossScaleOptimizer(tf.keras.optimizers.SGD(), 2),
                            "must be an instance of Optimizer"),
           "rewrite_keras": outcome(lambda: mp.enable_mixed_precision_graph_rewrite(tf.keras.optimizers.SGD()),
                                    "must be an instance of a tf.train.Optimizer"),
           "twice": outcome(lambda: mp.enable_mixed_precision_graph_rewrite(wrapped), "must not already be")}
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        steps = []
        for feed in ([1.0, 1.0], [np.inf, 1.0], [1.0, 2.0], [1.0, 1.0], [1.0, 1.0]):
            sess.run(step, {x: feed})
            steps.append([sess.run(w).tolist(), float(sess.run(scale))])
        out["steps"] = steps
        out["fixed_grad"] = sess.run(fixed_grad, {x: [1.0, 3.0]}).tolist()
    return out
