"""TF1's MonitoredTrainingSession programs: an MNIST-style MLP fed by a QueueRunner pipeline, trained to a step
with checkpoints and summaries, then restored; the stock hooks; SingularMonitoredSession; the checkpoint-state
helpers; and tf.train.ExponentialMovingAverage eagerly and in a TF1 graph. The MLP uses tf.compat.v1.layers:
recorded with tf_keras as tests/conformance/tf1_rnn.py says."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program, val
from .tf1_rnn import fixed, inputs


def _mlp_graph(tf, num_epochs=None):
    """A 8-16-3 MLP over 48 examples, batches of 12 from slice_input_producer -> batch (no shuffling, one thread,
    so the batches come in order), weights from fixed arrays."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        global_step = v1.train.get_or_create_global_step()
        images = inputs([48, 8], 0.5)
        labels = (np.abs(images.sum(1) * 3).astype(np.int64) % 3)
        image, label = v1.train.slice_input_producer([images, labels], num_epochs=num_epochs, shuffle=False)
        image_batch, label_batch = v1.train.batch([image, label], batch_size=12)
        hidden = v1.layers.dense(image_batch, 16, activation=tf.nn.relu,
                                 kernel_initializer=v1.constant_initializer(fixed([8, 16])))
        logits = v1.layers.dense(hidden, 3, kernel_initializer=v1.constant_initializer(fixed([16, 3], 2.0)))
        loss = v1.losses.sparse_softmax_cross_entropy(label_batch, logits)
        v1.summary.scalar("loss", loss)
        train_op = v1.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=global_step)
    return graph, train_op, loss, global_step


@program
def p_tf1_monitored_training_session_mlp(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    graph, train_op, loss, global_step = _mlp_graph(tf)
    with graph.as_default():
        final = v1.train.FinalOpsHook(global_step)
        losses = []
        with v1.train.MonitoredTrainingSession(checkpoint_dir=folder, save_checkpoint_steps=4,
                                               save_summaries_steps=3, log_step_count_steps=5,
                                               hooks=[v1.train.StopAtStepHook(last_step=10),
                                                      v1.train.NanTensorHook(loss), final]) as sess:
            while not sess.should_stop():
                _, current = sess.run([train_op, loss])
                losses.append(float(current))
    state = v1.train.get_checkpoint_state(folder)
    saved = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
    has_events = any(name.startswith("events.out.tfevents") for name in os.listdir(folder))
    graph, train_op, loss, global_step = _mlp_graph(tf)
    with graph.as_default():
        ended = v1.train.FinalOpsHook(global_step)
        with v1.train.MonitoredTrainingSession(checkpoint_dir=folder, save_checkpoint_secs=None,
                                               save_summaries_steps=None, log_step_count_steps=None,
                                               hooks=[v1.train.StopAtStepHook(num_steps=3), ended]) as sess:
            restored_at = int(sess.run(global_step))
            more = []
            while not sess.should_stop():
                _, current = sess.run([train_op, loss])
                more.append(float(current))
            late = outcome(lambda: sess.run(global_step), "Run called even after should_stop requested")
        ended_at = int(ended.final_ops_values)
    return [losses, int(final.final_ops_values), saved, os.path.basename(state.model_checkpoint_path), has_events,
            v1.train.checkpoint_exists(state.model_checkpoint_path), restored_at, more, late, ended_at]


@program
def p_tf1_monitored_session_ends_with_the_input(tf):
    """num_epochs=1: the pipeline's OutOfRangeError ends the loop; the `with` block swallows it."""
    v1 = tf.compat.v1
    graph, train_op, loss, global_step = _mlp_graph(tf, num_epochs=1)
    steps = 0
    with graph.as_default():
        with v1.train.SingularMonitoredSession() as sess:
            raw_step = int(sess.raw_session().run(global_step))
            while not sess.should_stop():
                sess.run(train_op)
                steps += 1
    return [steps, raw_step]


def _hook_graph(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        global_step = v1.train.get_or_create_global_step()
        x = v1.placeholder(tf.float32, [])
        bump = v1.assign_add(global_step, 1)
        nan_at_three = tf.where(tf.equal(x, 3.0), tf.constant(np.nan, tf.float32), x)
    return graph, x, bump, nan_at_three


@program
def p_tf1_monitored_hooks(tf):
    """A MonitoredSession finalizes its graph, so each session here has a graph of its own."""
    v1 = tf.compat.v1
    graph, x, bump, nan_at_three = _hook_graph(tf)
    feeds = iter(range(100))
    seen = []
    with graph.as_default():
        double = 2.0 * x

    class Recorder(v1.train.SessionRunHook):
        def before_run(self, run_context):
            return v1.train.SessionRunArgs({"x": x, "double": double})

        def after_run(self, run_context, run_values):
            seen.append([float(run_values.results["x"]), float(run_values.results["double"]),
                         type(run_context.original_args).__name__])

    with graph.as_default():
        hooks = [v1.train.FeedFnHook(lambda: {x: float(next(feeds))}), Recorder(),
                 v1.train.NanTensorHook(nan_at_three, fail_on_nan_loss=False)]
        with v1.train.MonitoredSession(hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(bump)
        results = [outcome(lambda: tf.constant(1.0).dtype.name, "Graph is finalized")]  # unfinalized on close
    graph, x, bump, nan_at_three = _hook_graph(tf)
    with graph.as_default():
        counter = iter(range(100))
        failing = v1.train.MonitoredSession(hooks=[v1.train.FeedFnHook(lambda: {x: float(next(counter))}),
                                                   v1.train.NanTensorHook(nan_at_three)])
        try:
            for _ in range(5):
                failing.run(bump)
        except v1.train.NanLossDuringTrainingError as e:
            results.append(["NanLossDuringTrainingError", str(e)])
        failing.close()
    graph, x, bump, nan_at_three = _hook_graph(tf)
    with graph.as_default():
        with v1.train.MonitoredSession(hooks=[v1.train.FeedFnHook(lambda: {x: 1.0})]) as sess:
            results.append(outcome(lambda: sess.run(bump, feed_dict={x: 2.0}),
                                   "Same tensor is fed by a SessionRunHook and user"))
    results.append(outcome(lambda: v1.train.StopAtStepHook(), "One of num_steps or last_step must be specified"))
    results.append(outcome(lambda: v1.train.StopAtStepHook(1, 2), "Only one of num_steps or last_step"))
    return [seen, results]


@program
def p_tf1_exponential_moving_average(tf):
    v1 = tf.compat.v1
    weight = tf.Variable([1.0, 2.0], name="weight")
    ema = tf.train.ExponentialMovingAverage(0.5)
    ema.apply([weight])
    weight.assign([3.0, 6.0])
    ema.apply([weight])
    eager = [val(ema.average(weight)), ema.average(weight).name, ema.average_name(weight)]
    graph = v1.Graph()
    with graph.as_default():
        step = v1.train.get_or_create_global_step()
        w = tf.Variable([1.0, -1.0], name="w")
        b = tf.Variable(0.5, name="b")
        averages = v1.train.ExponentialMovingAverage(0.99, num_updates=step)
        update = averages.apply([w, b])
        move = v1.assign(w, [2.0, 2.0])
        bump = v1.assign_add(step, 5)
        init = v1.global_variables_initializer()
        names = [v.name for v in v1.global_variables()]
        restore_keys = sorted(averages.variables_to_restore())
        averaged = [v.name for v in v1.get_collection(v1.GraphKeys.MOVING_AVERAGE_VARIABLES)]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(move)
        sess.run(update)
        first = sess.run([averages.average(w), averages.average(b)])
        sess.run(bump)
        sess.run(update)
        second = sess.run(averages.average(w))
    return [eager, names, restore_keys, averaged, val(first), val(second)]
