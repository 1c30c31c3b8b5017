"""The rest of TF1's tf.compat.v1.train, in TF1 graphs and sessions: FtrlOptimizer (l1, l2, shrinkage, beta, other
learning-rate powers), ProximalAdagradOptimizer and AdagradDAOptimizer trained a few steps with their slot names,
linear_cosine_decay and noisy_linear_cosine_decay, batch_join / shuffle_batch_join and the maybe_ batchers, and
tf.train.ClusterSpec. Recorded like tf1_rnn (TF_USE_LEGACY_KERAS=1 with tf_keras 2.21 on the path)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val

X = np.array([[1.0, -2.0], [0.5, 1.5], [-1.0, 0.25], [2.0, 1.0]], np.float32)
Y = np.array([[1.0], [-0.5], [0.75], [2.0]], np.float32)


def _train(tf, make_optimizer, steps=4, with_global_step=False):
    """A linear model trained `steps` steps in a TF1 session: weights after each step and the variables' names."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        step = v1.train.get_or_create_global_step()
        w = v1.get_variable("w", initializer=np.array([[0.3], [-0.2]], np.float32))
        b = v1.get_variable("b", initializer=np.array([0.1], np.float32))
        loss = tf.reduce_mean(tf.square(tf.matmul(X, w) + b - Y))
        optimizer = make_optimizer(step)
        train = optimizer.minimize(loss, global_step=step)
        init = v1.global_variables_initializer()
        names = sorted(v.name for v in v1.global_variables())
        slot_names = optimizer.get_slot_names()
        slot_of_w = [optimizer.get_slot(w, n).name for n in slot_names]
    history = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(steps):
            sess.run(train)
            history.append([sess.run(w).round(6).tolist(), sess.run(b).round(6).tolist()])
        final_step = int(sess.run(step))
    return {"names": names, "slots": slot_names, "slot_of_w": slot_of_w, "history": history, "step": final_step}


@program
def p_tf1_more_ftrl(tf):
    v1 = tf.compat.v1
    return [
        _train(tf, lambda step: v1.train.FtrlOptimizer(0.5)),
        _train(tf, lambda step: v1.train.FtrlOptimizer(0.5, l1_regularization_strength=0.05,
                                                       l2_regularization_strength=0.1)),
        _train(tf, lambda step: v1.train.FtrlOptimizer(0.3, learning_rate_power=-0.3, initial_accumulator_value=0.5,
                                                       l2_shrinkage_regularization_strength=0.2, beta=0.4,
                                                       accum_name="acc", linear_name="lin")),
        _train(tf, lambda step: v1.train.FtrlOptimizer(0.2, learning_rate_power=0.0, l1_regularization_strength=0.01)),
    ]


@program
def p_tf1_more_proximal_adagrad_and_dual_averaging(tf):
    v1 = tf.compat.v1
    return [
        _train(tf, lambda step: v1.train.ProximalAdagradOptimizer(0.4)),
        _train(tf, lambda step: v1.train.ProximalAdagradOptimizer(0.4, initial_accumulator_value=0.2,
                                                                  l1_regularization_strength=0.05,
                                                                  l2_regularization_strength=0.2)),
        _train(tf, lambda step: v1.train.AdagradDAOptimizer(0.5, step)),
        _train(tf, lambda step: v1.train.AdagradDAOptimizer(0.5, step, initial_gradient_squared_accumulator_value=0.3,
                                                            l1_regularization_strength=0.02,
                                                            l2_regularization_strength=0.1)),
    ]


@program
def p_tf1_more_optimizer_argument_errors(tf):
    train = tf.compat.v1.train
    return [
        outcome(lambda: train.FtrlOptimizer(0.1, initial_accumulator_value=-1.0), "needs to be positive or zero"),
        outcome(lambda: train.FtrlOptimizer(0.1, learning_rate_power=0.5), "needs to be negative or zero"),
        outcome(lambda: train.FtrlOptimizer(0.1, l1_regularization_strength=-0.1), "l1_regularization_strength"),
        outcome(lambda: train.FtrlOptimizer(0.1, l2_regularization_strength=-0.1), "l2_regularization_strength"),
        outcome(lambda: train.FtrlOptimizer(0.1, l2_shrinkage_regularization_strength=-0.1), "l2_shrinkage"),
        outcome(lambda: train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0), "must be positive"),
        outcome(lambda: train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=0.0),
                "must be positive"),
    ]


@program
def p_tf1_more_linear_cosine_decay(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        step = v1.placeholder(tf.int64, [])
        plain = v1.train.linear_cosine_decay(0.1, step, 10)
        tuned = v1.train.linear_cosine_decay(0.5, step, 20, num_periods=2.0, alpha=0.1, beta=0.01)
        no_noise = v1.train.noisy_linear_cosine_decay(0.2, step, 8, initial_variance=0.0, num_periods=1.0)
        noisy = v1.train.noisy_linear_cosine_decay(0.2, step, 8)
        as_float64 = outcome(lambda: v1.train.linear_cosine_decay(np.float64(0.3), step, 5), "float64")
    values = []
    with v1.Session(graph=graph) as sess:
        for s in [0, 1, 5, 9, 10, 25]:
            values.append([round(float(v), 6) for v in sess.run([plain, tuned, no_noise], {step: s})])
        noisy_value = sess.run(noisy, {step: 3})
    return {"values": values, "dtypes": [plain.dtype.name, noisy.dtype.name], "float64": as_float64,
            "noisy_is_finite": bool(np.isfinite(noisy_value)), "shape": noisy.shape.as_list()}


@program
def p_tf1_more_linear_cosine_decay_eager(tf):
    step = tf.Variable(0, dtype=tf.int64)
    decayed = tf.compat.v1.train.linear_cosine_decay(1.0, step, 4, beta=0.0)
    values = []
    for s in range(6):
        step.assign(s)
        values.append(round(float(decayed()), 6))
    return {"callable": callable(decayed), "values": values}


def _drain(v1, fetch, graph):
    """Every batch a queue pipeline gives until OutOfRangeError, with its queue runners started and stopped."""
    batches = []
    with v1.Session(graph=graph) as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(v1.local_variables_initializer())
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        try:
            while True:
                batches.append(sess.run(fetch))
        except v1.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    return batches


@program
def p_tf1_more_batch_join(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        first = v1.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
        second = v1.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue() + 100
        values, labels = v1.train.batch_join([[first, tf.constant(1)], [second, tf.constant(2)]], batch_size=3,
                                             allow_smaller_final_batch=True)
        shapes = [values.shape.as_list(), labels.shape.as_list()]
    batches = _drain(v1, [values, labels], graph)
    pairs = sorted((int(v), int(label)) for vs, ls in batches for v, label in zip(vs, ls))
    sizes = sorted(len(vs) for vs, _ in batches)
    return {"pairs": pairs, "sizes": sizes, "shapes": shapes}


@program
def p_tf1_more_shuffle_batch_join_dict(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        a = v1.train.range_input_producer(5, num_epochs=1, shuffle=False).dequeue()
        b = v1.train.range_input_producer(5, num_epochs=1, shuffle=False).dequeue() + 10
        examples = [{"x": a, "y": tf.cast(a, tf.float32)}, {"x": b, "y": tf.cast(b, tf.float32)}]
        out = v1.train.shuffle_batch_join(examples, batch_size=2, capacity=20, min_after_dequeue=1, seed=3,
                                          allow_smaller_final_batch=True)
        keys = sorted(out)
    batches = _drain(v1, out, graph)
    xs = sorted(int(x) for batch in batches for x in batch["x"])
    consistent = all(np.array_equal(batch["x"].astype(np.float32), batch["y"]) for batch in batches)
    return {"keys": keys, "xs": xs, "consistent": consistent}


@program
def p_tf1_more_maybe_batch(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        n = v1.train.range_input_producer(10, num_epochs=1, shuffle=False).dequeue()
        evens = v1.train.maybe_batch([n, n * n], tf.equal(n % 2, 0), batch_size=2, allow_smaller_final_batch=True)
    rows_graph = v1.Graph()  # a graph of its own: each session drains every queue runner of its graph
    with rows_graph.as_default():
        rows = tf.reshape(tf.range(12), [6, 2])
        producer = v1.train.slice_input_producer([rows], num_epochs=1, shuffle=False)[0]
        kept = v1.train.maybe_batch([tf.reshape(producer, [1, 2])], tf.greater(producer[:1], 3), batch_size=2,
                                    enqueue_many=True, allow_smaller_final_batch=True)
    first = [[v.tolist() for v in batch] for batch in _drain(v1, evens, graph)]
    second = [batch.tolist() for batch in _drain(v1, kept, rows_graph)]
    return {"evens": first, "rows": second}


def _drain_built(v1, build):
    """Drain the pipeline `build()` makes in a graph of its own (a session starts every runner of its graph)."""
    graph = v1.Graph()
    with graph.as_default():
        fetch = build()
    return sorted(int(v) for batch in _drain(v1, fetch, graph) for v in batch)


@program
def p_tf1_more_maybe_batch_join_and_shuffle(tf):
    v1 = tf.compat.v1

    def producer(limit):
        return v1.train.range_input_producer(limit, num_epochs=1, shuffle=False).dequeue()

    def joined():
        return v1.train.maybe_batch_join([[producer(8)], [producer(8) + 50]], tf.constant(True), batch_size=4,
                                         allow_smaller_final_batch=True)

    def shuffled():
        k = producer(9)
        return v1.train.maybe_shuffle_batch([k], 3, capacity=10, min_after_dequeue=2, keep_input=k < 6, seed=2,
                                            allow_smaller_final_batch=True)

    def shuffled_join():  # each list enqueues its rows once; the vector keep_input drops the middle row of each
        a = v1.train.limit_epochs(tf.constant([1, 2, 3]), num_epochs=1)
        b = v1.train.limit_epochs(tf.constant([21, 22, 23]), num_epochs=1)
        return v1.train.maybe_shuffle_batch_join([[a], [b]], 2, capacity=10, min_after_dequeue=1,
                                                 keep_input=tf.constant([True, False, True]), enqueue_many=True,
                                                 allow_smaller_final_batch=True)

    return [_drain_built(v1, joined), _drain_built(v1, shuffled), _drain_built(v1, shuffled_join)]


@program
def p_tf1_more_batcher_errors(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = tf.constant([1, 2])
        return [
            outcome(lambda: v1.train.maybe_batch([x], tf.constant([True, False]), 2), "cannot be a vector"),
            outcome(lambda: v1.train.maybe_batch([x], tf.constant([[True]]), 2, enqueue_many=True),
                    "must be 0 or 1 dimensions"),
            outcome(lambda: v1.train.batch_join([[x], [tf.constant([1.0, 2.0])]], 2),
                    "Expected types to be consistent"),
            outcome(lambda: v1.train.batch_join([{"a": x}, {"b": x}], 2), "must have the same keys"),
            outcome(lambda: v1.train.batch_join([], 2), "Expected at least one"),
        ]


@program
def p_tf1_more_batcher_eager_error(tf):
    return outcome(lambda: tf.compat.v1.train.batch_join([[tf.constant(1)]], 2), "not supported when eager")


@program
def p_tf1_more_cluster_spec(tf):
    spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222", "w2:2222"], "ps": ["ps0:2222", "ps1:2222"]})
    sparse = tf.compat.v1.train.ClusterSpec({"worker": {1: "w1:2222", 3: "w3:2222"}, "chief": ["c:1"]})
    from_def = tf.train.ClusterSpec(sparse.as_cluster_def())
    copy = tf.train.ClusterSpec(spec)
    cluster_def = spec.as_cluster_def()
    return {
        "as_dict": spec.as_dict(), "sparse": {k: val(v) for k, v in sparse.as_dict().items()},
        "jobs": sorted(spec.jobs), "num_tasks": [spec.num_tasks("worker"), sparse.num_tasks("worker")],
        "task_indices": sparse.task_indices("worker"), "address": sparse.task_address("worker", 3),
        "job_tasks": sparse.job_tasks("worker"), "repr": repr(spec), "sparse_repr": repr(sparse),
        "from_def": repr(from_def), "copy_equal": copy == spec.as_dict(), "bool": [bool(spec),
                                                                                 bool(tf.train.ClusterSpec({}))],
        "def_jobs": [job.name for job in cluster_def.job], "def_bytes": list(cluster_def.SerializeToString()),
        "errors": [outcome(lambda: spec.num_tasks("chief"), "No such job in cluster"),
                   outcome(lambda: spec.task_address("worker", 7), "No task with index 7"),
                   outcome(lambda: tf.train.ClusterSpec(["w0"]), "must be a dictionary"),
                   outcome(lambda: tf.train.ClusterSpec({"w": "a:1"}), "must be a list or a dictionary")],
    }


@program
def p_tf1_more_moving_average_zero_debias(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2])
        loss = tf.reduce_sum(x * x, name="loss")
        w = tf.Variable([1.0, 2.0], name="w")
        ema = v1.train.ExponentialMovingAverage(0.9, zero_debias=True)
        update = ema.apply([loss, w])
        plain = v1.train.ExponentialMovingAverage(0.5, name="Plain")
        plain_update = plain.apply([loss])
        names = [v.name for v in v1.global_variables()]
        average_names = [ema.average(loss).name, ema.average(w).name, plain.average(loss).name]
        moving = [v.name for v in v1.get_collection(v1.GraphKeys.MOVING_AVERAGE_VARIABLES)]
        init = v1.global_variables_initializer()
    history = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for step in range(4):
            sess.run([update, plain_update], {x: [1.0, float(step)]})
            sess.run(w.assign_add([0.5, -0.5]))
            history.append([float(sess.run(ema.average(loss))), sess.run(ema.average(w)).tolist(),
                            float(sess.run(plain.average(loss)))])
    return {"names": names, "averages": average_names, "moving": moving, "history": history}


@program
def p_tf1_more_checkpoint_reader_and_events(tf):
    import os
    import tempfile

    v1 = tf.compat.v1
    with tempfile.TemporaryDirectory() as folder:
        graph = v1.Graph()
        with graph.as_default():
            tf.Variable([[1.0, 2.0]], name="weights")
            step = v1.train.get_or_create_global_step()
            saver = v1.train.Saver()
            init = v1.global_variables_initializer()
            writer = v1.summary.FileWriter(folder)
        with v1.Session(graph=graph) as sess:
            sess.run(init)
            prefix = saver.save(sess, os.path.join(folder, "model"), global_step=3)
        reader = v1.train.NewCheckpointReader(prefix)
        shapes = sorted(reader.get_variable_to_shape_map().items())
        value = reader.get_tensor("weights").tolist()
        missing = outcome(lambda: v1.train.NewCheckpointReader(os.path.join(folder, "nothing")),
                          "Failed to find any matching files")
        summary = v1.Summary(value=[v1.Summary.Value(tag="loss", simple_value=0.25)])
        writer.add_summary(summary, global_step=7)
        writer.close()
        events = [name for name in os.listdir(folder) if name.startswith("events.out")]
        read = list(v1.train.summary_iterator(os.path.join(folder, events[0])))
        values = [(e.step, v.tag, round(v.simple_value, 6)) for e in read for v in e.summary.value]
        kinds = [e.WhichOneof("what") for e in read]
    return {"shapes": [[k, list(s)] for k, s in shapes], "value": value, "missing": missing, "values": values,
            "kinds": kinds, "step": int(step is not None)}


@program
def p_tf1_more_init_from_checkpoint(tf):
    import os
    import tempfile

    v1 = tf.compat.v1
    with tempfile.TemporaryDirectory() as folder:
        graph = v1.Graph()
        with graph.as_default():
            with v1.variable_scope("pretrained"):
                v1.get_variable("w", initializer=np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
                v1.get_variable("b", initializer=np.array([0.5, -0.5], np.float32))
            v1.get_variable("other", initializer=np.array([7.0], np.float32))
            saver = v1.train.Saver()
            init = v1.global_variables_initializer()
        with v1.Session(graph=graph) as sess:
            sess.run(init)
            prefix = saver.save(sess, os.path.join(folder, "model"))
        graph = v1.Graph()
        with graph.as_default():
            with v1.variable_scope("model"):
                w = v1.get_variable("w", [2, 2])
                b = v1.get_variable("b", [2])
            single = v1.get_variable("single", [1])
            untouched = v1.get_variable("untouched", initializer=np.array([9.0], np.float32))
            v1.train.init_from_checkpoint(prefix, {"pretrained/": "model/", "other": "single"})
            errors = [
                outcome(lambda: v1.train.init_from_checkpoint(prefix, {"missing": "single"}), "is not found in"),
                outcome(lambda: v1.train.init_from_checkpoint(prefix, {"other": "model/w"}), "doesn't match"),
                outcome(lambda: v1.train.init_from_checkpoint(prefix, {"pretrained": "model/"}),
                        "should map to scope only"),
            ]
            init = v1.global_variables_initializer()
        with v1.Session(graph=graph) as sess:
            sess.run(init)
            values = [v.tolist() for v in sess.run([w, b, single, untouched])]
    return {"values": values, "errors": errors}


@program
def p_tf1_more_session_manager(tf):
    import os
    import tempfile

    v1 = tf.compat.v1
    with tempfile.TemporaryDirectory() as folder:
        graph = v1.Graph()
        with graph.as_default():
            w = tf.Variable([1.0, 2.0], name="w")
            counter = v1.get_variable("counter", initializer=0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
            bump = w.assign_add([1.0, 1.0])
            saver = v1.train.Saver([w])
            ready = v1.report_uninitialized_variables(v1.global_variables())
            manager = v1.train.SessionManager(local_init_op=v1.local_variables_initializer(), ready_op=ready,
                                              graph=graph, recovery_wait_secs=0.01)
            init = v1.global_variables_initializer()
            fresh = manager.prepare_session("", init_op=init, saver=saver, checkpoint_dir=folder)
            first = [fresh.run(w).tolist(), int(fresh.run(counter))]
            fresh.run(bump)
            saver.save(fresh, os.path.join(folder, "model"))
            restored = manager.prepare_session("", init_op=init, saver=saver, checkpoint_dir=folder)
            second = restored.run(w).tolist()
            recovered, ok = manager.recover_session("", saver=saver, checkpoint_dir=folder)
            empty = os.path.join(folder, "empty")
            os.makedirs(empty)
            not_recovered, not_ok = manager.recover_session("", saver=saver, checkpoint_dir=empty)
            errors = [
                outcome(lambda: manager.prepare_session(""), "Init operations did not make model ready"),
                outcome(lambda: v1.train.SessionManager(graph=graph).prepare_session(""), "no init_op or init_fn"),
                outcome(lambda: v1.train.SessionManager(ready_op=ready, graph=graph).prepare_session(
                    "", init_op=v1.no_op()), "Init operations did not make model ready"),
                outcome(lambda: manager.prepare_session("", saver=saver, checkpoint_dir=folder,
                                                        checkpoint_filename_with_path="x"), "Can not provide both"),
                outcome(lambda: manager.wait_for_session("", max_wait_secs=0.02), "was not ready after waiting"),
            ]
            with_fn = v1.train.SessionManager(graph=graph).prepare_session(
                "", init_fn=lambda sess: sess.run(init))
            fn_value = with_fn.run(w).tolist()
    return {"first": first, "second": second, "recovered": [ok, recovered.run(w).tolist()], "not": not_ok,
            "errors": errors, "fn": fn_value}
