"""tf.compat.v1 breadth, in TF1 graphs run by a Session as TF 2.21 runs them: the names that are TF2's own
objects, TF1's argument names (keep_dims, reduction_indices, dimension, keep_prob, dim, filter, value),
compat.v1.losses with each Reduction and the LOSSES / REGULARIZATION_LOSSES collections, the global step with
the learning-rate decays and an optimizer incrementing it, local variables, ConfigProto, and TF's errors."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_tf1_same_objects(tf):
    v1 = tf.compat.v1
    pairs = [(v1.reshape, tf.reshape), (v1.random_normal, tf.random.normal),
             (v1.nn.relu, tf.nn.relu), (v1.train.CheckpointManager, tf.train.CheckpointManager),
             (v1.dtypes.float32, tf.float32), (v1.errors.InvalidArgumentError, tf.errors.InvalidArgumentError),
             (v1.truncated_normal, tf.random.truncated_normal), (v1.image.flip_left_right, tf.image.flip_left_right)]
    # TF re-wraps these (same signature, another object): the values are what matter
    same_signature = [v1.math.abs(tf.constant([-2.0, 3.0])), v1.linalg.matmul([[1.0, 2.0]], [[3.0], [4.0]]),
                      v1.nn.sigmoid(tf.constant(0.0)), v1.debugging.check_numerics(tf.constant(1.0), "x")]
    return [a is b for a, b in pairs] + [val(v) for v in same_signature]


@program
def p_tf1_reductions_and_renamed_arguments(tf):
    v1 = tf.compat.v1
    x_value = data([2, 3, 4], seed=1)
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3, 4])
        fetches = [
            v1.reduce_sum(x, reduction_indices=[1], keep_dims=True),
            v1.reduce_mean(x, axis=2),
            v1.reduce_max(x, 1, keepdims=True),
            v1.reduce_logsumexp(x, reduction_indices=2),
            v1.count_nonzero(x > 0, reduction_indices=1),
            v1.argmax(x, dimension=2),
            v1.arg_min(x, 1),
            v1.expand_dims(x, dim=1),
            v1.squeeze(v1.expand_dims(x, -1), squeeze_dims=[3]),
            v1.norm(x, axis=2, keep_dims=True),
            v1.to_float(v1.to_int32(x * 10.0)),
            v1.div(tf.constant([-7, 7]), tf.constant(2)),
            v1.div(tf.constant([-7.0, 7.0]), 2.0),
            v1.shape(x), v1.size(x),
            v1.nn.softmax(x, dim=1),
            v1.nn.log_softmax(x, dim=-1),
            v1.nn.moments(x, [0, 1], keep_dims=True)[1],
            v1.nn.in_top_k(tf.reshape(x, [-1, 4]), tf.constant([0, 1, 2, 3, 0, 1]), 2),
            v1.nn.xw_plus_b(tf.reshape(x, [-1, 4]), tf.ones([4, 2]), tf.constant([0.5, -0.5])),
            v1.cond(tf.constant(True), fn1=lambda: tf.constant(1), fn2=lambda: tf.constant(2)),
            v1.while_loop(lambda i: i < 5, lambda i: i + 2, [tf.constant(0)]),
        ]
        with v1.Session() as sess:
            results = sess.run(fetches, {x: x_value})
        errors = [outcome(lambda: v1.reduce_sum(x, axis=1, reduction_indices=1), "Cannot specify both"),
                  outcome(lambda: v1.expand_dims(x), "Must specify an axis"),
                  outcome(lambda: v1.nn.softmax(x, axis=1, dim=1), "Cannot specify both")]
    return [val(r) for r in results] + errors


@program
def p_tf1_nn_convolutions_and_dropout(tf):
    v1 = tf.compat.v1
    images = data([2, 6, 6, 3], seed=2)
    kernel = data([3, 3, 3, 4], seed=3, scale=0.5)
    with tf.Graph().as_default():
        v1.set_random_seed(5)
        x = v1.placeholder(tf.float32, [None, 6, 6, 3])
        conv = v1.nn.conv2d(x, filter=kernel, strides=[1, 1, 1, 1], padding="SAME")
        pooled = v1.nn.max_pool(value=conv, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
        averaged = v1.nn.avg_pool(conv, [1, 3, 3, 1], [1, 3, 3, 1], "VALID")
        depthwise = v1.nn.depthwise_conv2d(x, data([2, 2, 3, 2], seed=4), [1, 1, 1, 1], "VALID", rate=[2, 2])
        transposed = v1.nn.conv2d_transpose(pooled, filter=data([2, 2, 5, 4], seed=5), output_shape=[2, 6, 6, 5],
                                            strides=[1, 2, 2, 1])
        to_depth = v1.nn.space_to_depth(x, 2)
        kept = v1.nn.dropout(tf.ones([1000]), keep_prob=0.75)
        with v1.Session() as sess:
            values = sess.run([conv, pooled, averaged, depthwise, transposed, to_depth, kept], {x: images})
        errors = [outcome(lambda: v1.nn.dropout(x), "must be provided"),
                  outcome(lambda: v1.nn.dropout(x, keep_prob=0.5, rate=0.5), "Cannot specify both"),
                  outcome(lambda: v1.nn.conv2d(x, filter=kernel, filters=kernel, strides=[1, 1, 1, 1],
                                               padding="SAME"), "Cannot specify both")]
    kept_values = values[-1]
    dropout_summary = [sorted(set(np.round(kept_values, 4).tolist())), bool(0.6 < (kept_values > 0).mean() < 0.9)]
    return [val(v) for v in values[:-1]] + [dropout_summary] + errors


@program
def p_tf1_cross_entropies(tf):
    v1 = tf.compat.v1
    logits_value = data([4, 3], seed=6, scale=2.0)
    labels_value = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
    with tf.Graph().as_default():
        logits = v1.placeholder(tf.float32, [None, 3])
        labels = v1.placeholder(tf.float32, [None, 3])
        v1_loss = tf.reduce_sum(v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        v2_loss = tf.reduce_sum(v1.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits))
        sparse = v1.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 2, 1, 2]), logits=logits)
        weighted = v1.nn.weighted_cross_entropy_with_logits(targets=labels, logits=logits, pos_weight=2.0)
        label_grads = [v1.gradients(v1_loss, labels)[0], v1.gradients(v2_loss, labels)[0]]
        with v1.Session() as sess:
            values = sess.run([v1_loss, v2_loss, sparse, weighted, v1.gradients(v1_loss, logits)[0]],
                              {logits: logits_value, labels: labels_value})
            v2_label_grad = sess.run(label_grads[1], {logits: logits_value, labels: labels_value})
        errors = [outcome(lambda: v1.nn.softmax_cross_entropy_with_logits(labels=labels), "must be provided"),
                  outcome(lambda: v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=1),
                          "Cannot specify both")]
    return [val(v) for v in values] + [label_grads[0] is None, val(v2_label_grad)] + errors


@program
def p_tf1_losses_reductions_and_collections(tf):
    v1 = tf.compat.v1
    labels_value = data([4, 3], seed=7)
    predictions_value = data([4, 3], seed=8)
    weights_value = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.float32, [None, 3])
        predictions = v1.placeholder(tf.float32, [None, 3])
        weights = v1.placeholder(tf.float32, [None, 1])
        L = v1.losses
        fetches = [L.mean_squared_error(labels, predictions, weights=weights, reduction=reduction,
                                        loss_collection=None if reduction == L.Reduction.NONE else "losses")
                   for reduction in L.Reduction.all()[:5]]
        fetches += [L.absolute_difference(labels, predictions),
                    L.huber_loss(labels, predictions * 3.0, delta=0.5),
                    L.log_loss(tf.abs(labels), tf.sigmoid(predictions)),
                    L.hinge_loss(tf.cast(labels > 0, tf.float32), predictions),
                    L.cosine_distance(tf.nn.l2_normalize(labels, 1), tf.nn.l2_normalize(predictions, 1), axis=1),
                    L.sigmoid_cross_entropy(tf.cast(labels > 0, tf.float32), predictions, label_smoothing=0.2),
                    L.softmax_cross_entropy(tf.one_hot([0, 1, 2, 0], 3), predictions, weights=weights[:, 0],
                                            label_smoothing=0.1),
                    L.sparse_softmax_cross_entropy(tf.constant([[0], [1], [2], [0]]), predictions),
                    L.mean_pairwise_squared_error(labels, predictions)]
        w = v1.get_variable("w", [3], initializer=v1.constant_initializer([1.0, -2.0, 3.0]),
                            regularizer=lambda t: 0.1 * tf.reduce_sum(tf.square(t)))
        collected = [len(L.get_losses()), len(L.get_regularization_losses()),
                     len(v1.get_collection(v1.GraphKeys.LOSSES))]
        totals = [L.get_regularization_loss(), L.get_total_loss()]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run(fetches + totals, {labels: labels_value, predictions: predictions_value,
                                                  weights: weights_value})
        errors = [outcome(lambda: L.mean_squared_error(labels, predictions, reduction="bogus"),
                          "Invalid Reduction Key"),
                  outcome(lambda: L.mean_squared_error(labels, tf.zeros([4, 2])), "incompatible"),
                  outcome(lambda: L.mean_squared_error(labels_value, predictions_value, weights=tf.ones([4, 2])),
                          "weights can not be broadcast to values"),
                  outcome(lambda: L.cosine_distance(labels, predictions), "You must specify argument `axis`")]
        del w
    return [val(np.round(v, 5)) for v in values] + [collected] + errors


@program
def p_tf1_global_step_decays_and_optimizers(tf):
    v1 = tf.compat.v1
    results = []
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        results.append([step.name, step.dtype.name, v1.train.get_global_step() is step,
                        v1.train.get_or_create_global_step() is step,
                        len(v1.get_collection(v1.GraphKeys.GLOBAL_STEP))])
        results.append(outcome(lambda: v1.train.create_global_step(), "already exists"))
        rates = [v1.train.exponential_decay(0.1, step, 3, 0.5, staircase=True),
                 v1.train.exponential_decay(0.1, step, 3, 0.5),
                 v1.train.piecewise_constant(step, [2, 4], [1.0, 0.5, 0.1]),
                 v1.train.polynomial_decay(0.1, step, 4, end_learning_rate=0.01, power=2.0),
                 v1.train.inverse_time_decay(0.1, step, 5, 0.5, staircase=True),
                 v1.train.natural_exp_decay(0.1, step, 5, 0.5),
                 v1.train.cosine_decay(0.1, step, 6, alpha=0.1)]
        x = v1.placeholder(tf.float32, [None, 2])
        y = v1.placeholder(tf.float32, [None, 1])
        w = v1.get_variable("w", [2, 1], initializer=v1.zeros_initializer())
        loss = v1.losses.mean_squared_error(y, tf.matmul(x, w))
        train = v1.train.GradientDescentOptimizer(rates[0]).minimize(loss, global_step=step)
        config = v1.ConfigProto(allow_soft_placement=True, device_count={"CPU": 1})
        config.gpu_options.allow_growth = True
        feed = {x: [[1.0, 2.0], [3.0, -1.0]], y: [[1.0], [2.0]]}
        with v1.Session(config=config) as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(6):
                results.append([round(float(r), 6) for r in sess.run(rates)])
                sess.run(train, feed, options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE),
                         run_metadata=v1.RunMetadata())
            results.append([v1.train.global_step(sess, step), val(np.round(sess.run(w), 5))])
        results.append(outcome(lambda: v1.train.exponential_decay(0.1, None, 3, 0.5), "None values"))
    return results


@program
def p_tf1_local_variables_and_collections(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        g = v1.get_variable("g", [2], initializer=v1.ones_initializer())
        counter = v1.get_local_variable("counter", [], dtype=tf.int32, initializer=v1.zeros_initializer())
        total = v1.get_variable("total", [], initializer=v1.zeros_initializer(), trainable=False,
                                collections=[v1.GraphKeys.LOCAL_VARIABLES, v1.GraphKeys.METRIC_VARIABLES])
        names = [[v.name for v in v1.global_variables()], [v.name for v in v1.local_variables()],
                 [v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)],
                 [v.name for v in v1.trainable_variables()], [v.name for v in v1.all_variables()]]
        v1.add_to_collections(["a", "b"], g)
        ref = v1.get_collection_ref("a")
        ref.append(counter)
        collected = [len(v1.get_collection("a")), len(v1.get_collection("b"))]
        bump = v1.assign_add(counter, 2)
        add = v1.assign_add(total, 1.5)
        scatter = v1.scatter_update(g, [1], [5.0])
        with v1.Session() as sess:
            sess.run([v1.initialize_all_variables(), v1.local_variables_initializer()])
            sess.run([bump, add])
            sess.run([bump, add, scatter])
            values = sess.run([counter, total, g])
            sess.run(v1.local_variables_initializer())
            reset = sess.run([counter, total, g])
            uninitialized = sess.run(v1.report_uninitialized_variables())
    return [names, collected, val(values[0]), val(values[1]), val(values[2]), val(reset[0]), val(reset[1]),
            val(reset[2]), val(uninitialized)]


@program
def p_tf1_config_protos(tf):
    v1 = tf.compat.v1
    config = v1.ConfigProto(device_count={"CPU": 2}, gpu_options=v1.GPUOptions(allow_growth=True),
                            intra_op_parallelism_threads=2)
    config.gpu_options.per_process_gpu_memory_fraction = 0.5
    config.graph_options.optimizer_options.global_jit_level = v1.OptimizerOptions.ON_1
    results = [str(config), config.device_count["CPU"], config.allow_soft_placement, config.gpu_options.allow_growth,
               v1.RunOptions.FULL_TRACE, v1.RunOptions().trace_level, v1.OptimizerOptions.L1]
    results.append(outcome(lambda: v1.ConfigProto(bogus=1), 'has no "bogus" field'))
    results.append(outcome(lambda: setattr(config, "bogus", 1), 'has no "bogus" field'))
    results.append(outcome(lambda: setattr(config, "gpu_options", v1.GPUOptions()), "Assignment not allowed"))
    return results


@program
def p_tf1_streaming_metrics(tf):
    v1 = tf.compat.v1
    batches = [(np.array([1, 0, 1, 1], np.int64), np.array([1, 1, 0, 1], np.int64), np.array([1.0, 2.0, 0.5, 1.0])),
               (np.array([0, 0, 1, 0], np.int64), np.array([0, 1, 1, 0], np.int64), np.array([1.0, 1.0, 1.0, 0.0]))]
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.int64, [None])
        predictions = v1.placeholder(tf.int64, [None])
        weights = v1.placeholder(tf.float64, [None])
        M = v1.metrics
        pairs = [M.accuracy(labels, predictions), M.accuracy(labels, predictions, weights=weights, name="wacc"),
                 M.mean(tf.cast(predictions, tf.float32) * 2.0), M.precision(labels, predictions),
                 M.recall(labels, predictions, weights=weights), M.true_positives(labels, predictions),
                 M.false_negatives(labels, predictions), M.true_negatives(labels, predictions, weights=weights),
                 M.false_positives(labels, predictions),
                 M.mean_squared_error(labels, predictions, updates_collections=["my_updates"]),
                 M.mean_absolute_error(labels, predictions, metrics_collections=["my_metrics"]),
                 M.root_mean_squared_error(labels, predictions, weights=weights)]
        names = sorted(v.name for v in v1.local_variables())
        collected = [len(v1.get_collection("my_updates")), len(v1.get_collection("my_metrics")),
                     len(v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)), len(v1.global_variables())]
        values = [value for value, _ in pairs]
        updates = [update for _, update in pairs]
        rounds = []
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            rounds.append(sess.run(values))
            for l_value, p_value, w_value in batches:
                rounds.append(sess.run(updates, {labels: l_value, predictions: p_value, weights: w_value}))
            rounds.append(sess.run(values))
            sess.run(v1.local_variables_initializer())
            rounds.append(sess.run(values))
    eager = outcome(lambda: v1.metrics.accuracy(tf.constant([1]), tf.constant([1])), "not supported when eager")
    return [names, collected] + [[round(float(v), 5) for v in r] for r in rounds] + [eager]


@program
def p_tf1_where_py_func_and_initializer_names(tf):
    v1 = tf.compat.v1
    results = []
    with tf.Graph().as_default():
        c = v1.placeholder(tf.bool, [None])
        rows = v1.where(c, tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([[-1, -2], [-3, -4], [-5, -6]]))
        same = v1.where(c, tf.constant([1.0, 2.0, 3.0]), tf.constant([9.0, 8.0, 7.0]))
        indices = v1.where(tf.constant([[True, False], [False, True]]))
        doubled = v1.py_func(lambda a: (a * 2).astype(np.float32), [tf.constant([1.0, 2.5])], tf.float32)
        inits = [v1.get_variable("z", [2], initializer=v1.initializers.zeros()),
                 v1.get_variable("o", [2], initializer=v1.initializers.ones()),
                 v1.get_variable("k", [2], initializer=v1.initializers.constant([3.0, 4.0]))]
        results.append(v1.executing_eagerly_outside_functions())
        results.append([outcome(lambda: v1.where(c, tf.constant([1, 2]), tf.constant([3, 4, 5])), "must be equal"),
                        outcome(lambda: v1.where(tf.constant([True]), tf.constant([1, 2]), tf.constant([3, 4])),
                                "must be equal"),
                        outcome(lambda: v1.where(c, tf.constant([1, 2, 3])), "both be non-None")])
        with v1.Session() as sess:
            sess.run(v1.initializers.global_variables())
            values = sess.run([rows, same, indices, doubled] + inits, {c: [True, False, True]})
        results.append([val(v) for v in values])
    results.append([v1.initializers.zeros is v1.zeros_initializer, v1.zeros is tf.zeros,
                    v1.executing_eagerly_outside_functions(), v1.dimension_value(tf.TensorShape([3, None])[1])])
    results.append(outcome(lambda: v1.where(tf.constant([True]), tf.constant([1, 2]), tf.constant([3, 4])),
                           "must have the same size and shape"))
    return results


@program
def p_tf1_assertions_with_v1_arguments(tf):
    v1 = tf.compat.v1
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])
    checks = [outcome(lambda: v1.assert_equal(x, y, data=[x], message="eq"), "eq"),
              outcome(lambda: v1.assert_less(y, x, None, None, "lt"), "lt"),
              outcome(lambda: v1.assert_positive(-x, message="pos"), "pos"),
              outcome(lambda: v1.assert_rank(x, 2, message="rank"), "rank"),
              outcome(lambda: v1.assert_rank_in(x, [0, 2]), "rank"),
              outcome(lambda: v1.assert_scalar(x), "scalar"),
              outcome(lambda: v1.assert_near(x, y, atol=0.1, message="near"), "near"),
              outcome(lambda: v1.assert_integer(x), "integer"),
              outcome(lambda: v1.assert_type(x, tf.int32), "type")]
    passing = [v1.assert_equal(x, x) is None, v1.assert_rank_at_least(x, 1) is None,
               v1.assert_non_negative(x) is None]
    return [checks, passing]


@program
def p_tf1_adadelta_and_proximal_gradient_descent(tf):
    v1 = tf.compat.v1
    results = []
    for make in (lambda: v1.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6),
                 lambda: v1.train.ProximalGradientDescentOptimizer(0.1, l1_regularization_strength=0.05,
                                                                  l2_regularization_strength=0.1),
                 lambda: v1.train.ProximalGradientDescentOptimizer(0.1)):
        with tf.Graph().as_default():
            x = v1.placeholder(tf.float32, [None, 2])
            y = v1.placeholder(tf.float32, [None, 1])
            w = v1.get_variable("w", initializer=tf.constant([[0.5], [-0.3]]))
            b = v1.get_variable("b", initializer=tf.constant([0.1]))
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
            optimizer = make()
            train = optimizer.minimize(loss)
            slots = sorted(v.name for v in v1.global_variables())
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                for _ in range(4):
                    sess.run(train, {x: [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], y: [[1.0], [2.0], [0.0]]})
                results.append([slots, val(np.round(sess.run(w), 5)), val(np.round(sess.run(b), 5))])
    return results


@program
def p_tf1_dataset_iterators_in_a_session(tf):
    v1 = tf.compat.v1
    out = []
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices((np.arange(5, dtype=np.float32), np.arange(5) * 10)).batch(2)
        it = v1.data.make_one_shot_iterator(ds)
        x, y = it.get_next()
        out.append([str(v1.data.get_output_types(ds)), str(v1.data.get_output_shapes(ds)), x.shape.as_list(),
                    x.dtype.name, y.dtype.name])
        init_it = v1.data.make_initializable_iterator(tf.data.Dataset.range(3))
        z = init_it.get_next()
        with v1.Session() as sess:
            while True:
                try:
                    a, b = sess.run([x, y])
                    out.append([a.tolist(), b.tolist()])
                except tf.errors.OutOfRangeError:
                    out.append("end")
                    break
            try:
                sess.run(z)
            except Exception as e:
                out.append([type(e).__name__, "initialized" in str(e)])
            for _ in range(2):
                sess.run(init_it.initializer)
                out.append([int(sess.run(z)), int(sess.run(z))])
        out.append(outcome(lambda: it.initializer, "does not have an initializer"))
    return out


@program
def p_tf1_argument_order(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        fetches = [v1.transpose(tf.constant(data([2, 3], seed=9)), [1, 0], "t"),
                   v1.pad(tf.constant([[1, 2]]), [[1, 0], [0, 1]], "CONSTANT", "p", 7),
                   v1.boolean_mask(tf.constant([1, 2, 3]), tf.constant([True, False, True]), "bm"),
                   v1.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]], "g"),
                   v1.depth_to_space(tf.constant(data([1, 1, 1, 4], seed=11)), 2, "d2s"),
                   v1.space_to_depth(tf.constant(data([1, 2, 2, 1], seed=12)), 2, "s2d"),
                   v1.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1], 3, tf.float32, "cm", [1.0, 2.0, 3.0, 4.0]),
                   v1.string_to_number(tf.constant(["1.5", "-2"])),
                   v1.string_to_hash_bucket(tf.constant(["a", "b"]), 10),
                   v1.substr(tf.constant(["hello", "world"]), 1, 3),
                   v1.reduce_join(tf.constant([["a", "bc"], ["d", "e"]]), reduction_indices=1, separator="-",
                                  keep_dims=True),
                   v1.bincount(tf.constant([1, 1, 3]), minlength=5)]
        with v1.Session() as sess:
            values = sess.run(fetches)
    return ([np.char.decode(v.astype(bytes)).tolist() if v.dtype.kind in "OS" else val(v) for v in values]
            + [v1.no_regularizer(tf.constant(1.0)) is None])
