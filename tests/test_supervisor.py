"""tf.compat.v1.train.Supervisor's service threads (they race the training loop, so TF's recorded programs in
tests/conformance/tf1_supervisor.py switch them off): the checkpoint, summary and step-counter threads each run
once as they start, and the events file holds the START/CHECKPOINT/STOP session logs, the graph, the meta
graph and the summaries. Also the loss trained by the supervisor against numpy."""

import glob
import os
import time

import numpy as np

import tinytf as tf

v1 = tf.compat.v1


def _model():
    graph = tf.Graph()
    with graph.as_default():
        step = v1.train.get_or_create_global_step()
        x = np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32)
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer([[0.5], [-0.25]]))
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(x), w) - 1.0))
        v1.summary.scalar("loss", loss)
        train = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return graph, x, train, loss, step


def _wait_for(pattern, seconds=60.0):
    deadline = time.time() + seconds
    while not glob.glob(pattern) and time.time() < deadline:
        time.sleep(0.05)
    return glob.glob(pattern)


def test_services_write_checkpoint_and_events(tmp_path):
    graph, x, train, loss, step = _model()
    with graph.as_default():
        sv = v1.train.Supervisor(logdir=str(tmp_path), save_model_secs=3600, save_summaries_secs=3600)
        with sv.managed_session() as sess:
            assert _wait_for(str(tmp_path / "model.ckpt-*.index")), "the checkpoint thread saves as it starts"
            w = np.array([[0.5], [-0.25]], np.float32)
            for _ in range(3):
                _, got = sess.run([train, loss])
                expected = np.mean((x @ w - 1.0) ** 2)
                np.testing.assert_allclose(got, expected, rtol=1e-5)
                w = w - 0.1 * (2.0 / 4.0) * x.T @ (x @ w - 1.0)  # the gradient step, by hand
    (events,) = glob.glob(str(tmp_path / "events.out.tfevents.*"))
    logs, tags, kinds = [], set(), set()
    for event in v1.train.summary_iterator(events):
        kinds.add(event.WhichOneof("what"))
        if event.HasField("session_log"):
            logs.append(event.session_log.status)
        for value in event.summary.value:
            tags.add(value.tag)
    log = v1.SessionLog
    assert logs[0] == log.START and logs[-1] == log.STOP and log.CHECKPOINT in logs
    assert {"graph_def", "meta_graph_def", "summary"} <= kinds
    assert {"loss", "global_step/sec"} <= tags
    assert os.path.exists(tmp_path / "graph.pbtxt")


def test_loop_calls_its_target_until_stop():
    graph, _, train, _, step = _model()
    with graph.as_default():
        sv = v1.train.Supervisor(logdir=None)
        calls = []
        with sv.managed_session() as sess:
            looper = sv.loop(0.01, lambda: calls.append(1))
            deadline = time.time() + 30
            while len(calls) < 3 and time.time() < deadline:
                time.sleep(0.01)
            sess.run(train)
            assert int(sess.run(step)) == 1
        assert not looper.is_alive() and len(calls) >= 3
