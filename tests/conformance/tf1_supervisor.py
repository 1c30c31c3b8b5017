"""tf.compat.v1.train.Supervisor and basic_train_loop as TensorFlow 2.21 runs them: a linear model trained in a
managed session (init_op, saver, summary op and global step made by default), a checkpoint saved by the
supervisor's Saver, restored by a second Supervisor on the same logdir, basic_train_loop with request_stop,
and how managed_session ends on an OutOfRangeError or another error. The service threads are switched off
here (their first run races the training loop): tests/test_supervisor.py checks them."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program


def _linear(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        step = v1.train.get_or_create_global_step()
        x = tf.constant(np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32))
        y = tf.constant([[1.0], [0.0], [2.0], [1.0]])
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer([[0.5], [-0.25]]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        v1.summary.scalar("loss", loss)
        train = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return graph, train, loss, step, w


@program
def p_tf1_supervisor_managed_session(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    graph, train, loss, step, w = _linear(tf)
    with graph.as_default():
        sv = v1.train.Supervisor(logdir=folder, save_model_secs=0, save_summaries_secs=0)
        facts = [graph.finalized, sv.is_chief, sv.global_step.name, type(sv.saver).__name__,
                 sv.summary_op is not None, sv.save_path == os.path.join(folder, "model.ckpt"),
                 len(graph.get_collection(v1.GraphKeys.INIT_OP)), len(graph.get_collection(v1.GraphKeys.SAVERS))]
        losses = []
        with sv.managed_session() as sess:
            for _ in range(5):
                if sv.should_stop():
                    break
                losses.append(float(sess.run([train, loss])[1]))
            sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
            sv.summary_computed(sess, sess.run(sv.summary_op))
            weights = sess.run(w).tolist()
        stopped = sv.should_stop()
    files = sorted(f for f in os.listdir(folder) if not f.startswith("events"))
    graph, train, loss, step, w = _linear(tf)
    with graph.as_default():
        again = v1.train.Supervisor(logdir=folder, save_model_secs=0, save_summaries_secs=0)
        with again.managed_session() as sess:
            restored = [int(sess.run(step)), sess.run(w).tolist()]
    return [facts, np.round(losses, 5).tolist(), np.round(weights, 5).tolist(), files, stopped,
            [restored[0], np.round(restored[1], 5).tolist()]]


@program
def p_tf1_supervisor_basic_train_loop(tf):
    v1 = tf.compat.v1
    graph, train, loss, step, w = _linear(tf)
    with graph.as_default():
        sv = v1.train.Supervisor(logdir=None, init_op=v1.global_variables_initializer(), summary_op=None)
        seen = []

        def one_step(sess, last):
            sess.run(train)
            current = int(sess.run(step))
            seen.append(current)
            if current >= last:
                sv.request_stop()

        v1.train.basic_train_loop(sv, one_step, args=[4])

        def out_of_range():
            with sv.managed_session() as sess:
                sess.run(train)
                raise tf.errors.OutOfRangeError(None, None, "end of input")
            return "swallowed"

        def other_error():
            with sv.managed_session():
                raise ValueError("boom in the loop")

        return [seen, sv.should_stop(), sv.save_path, sv.summary_writer is None, outcome(out_of_range, ""),
                outcome(other_error, "boom in the loop")]


@program
def p_tf1_supervisor_errors(tf):
    v1 = tf.compat.v1

    def not_chief_services():
        graph = tf.Graph()
        with graph.as_default():
            v1.get_variable("v", [], initializer=v1.zeros_initializer())
            sv = v1.train.Supervisor(is_chief=False, logdir=tempfile.mkdtemp())
            return sv.start_standard_services(None)

    def no_writer():
        graph = tf.Graph()
        with graph.as_default():
            v1.get_variable("v", [], initializer=v1.zeros_initializer())
            sv = v1.train.Supervisor(logdir=None)
            with sv.managed_session() as sess:
                sv.summary_computed(sess, b"")

    return [outcome(lambda: v1.train.Supervisor(), "incompatible with eager execution"),
            outcome(not_chief_services, "Only chief supervisor can start standard services"),
            outcome(no_writer, "requires a summary writer")]
