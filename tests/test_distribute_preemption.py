"""PreemptionCheckpointHandler: a SIGTERM sent to a training process makes it save a checkpoint at the next
step and exit with TF's restartable code 42; the restarted process resumes from that checkpoint (its variables
and total_run_calls) and ends as an uninterrupted run. With two MultiWorkerMirroredStrategy workers, a SIGTERM
to one makes both save at the same step, the chief into checkpoint_dir and the other into a temporary folder
it removes. Training runs in forked processes (the handler replaces the process's SIGTERM handler)."""

import json
import multiprocessing
import os
import signal
import socket
import time

import numpy as np
import pytest

import tinytf as tf

STEPS = 60


def _train(checkpoint_dir, connection, signal_after=None, config=None):
    if config is not None:
        os.environ["TF_CONFIG"] = json.dumps(config)
    else:
        os.environ.pop("TF_CONFIG", None)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        v = tf.Variable(0.0)
    checkpoint = tf.train.Checkpoint(v=v)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(strategy.cluster_resolver, checkpoint,
                                                                     checkpoint_dir)
    start = handler.total_run_calls
    connection.send(("started", start, float(v.numpy())))

    def step():
        v.assign_add(strategy.reduce("SUM", tf.constant(1.0), axis=None) / strategy.num_replicas_in_sync)
        time.sleep(0.01)

    for i in range(start, STEPS):
        handler.run(step)
        if signal_after is not None and i == start + signal_after:
            connection.send(("ready", i))
            time.sleep(0.2)  # the SIGTERM arrives while this worker trains on
    connection.send(("finished", handler.total_run_calls, float(v.numpy())))


def _start(target, *args):
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(*args[:1], send, *args[1:]), daemon=True)
    process.start()
    send.close()
    return process, receive


def _messages(receive, timeout=120):
    out = []
    while receive.poll(timeout):
        try:
            out.append(receive.recv())
        except EOFError:
            break
    return out


def _finish(process):
    process.join(60)
    if process.is_alive():
        process.kill()
        process.join()
    return process.exitcode


def test_sigterm_saves_a_checkpoint_and_a_restart_resumes_from_it(tmp_path):
    folder = str(tmp_path / "ckpt")
    process, receive = _start(_train, folder, 5)
    assert receive.recv() == ("started", 0, 0.0)
    assert receive.recv()[0] == "ready"
    os.kill(process.pid, signal.SIGTERM)
    rest = _messages(receive, 60)
    assert _finish(process) == 42 and rest == []  # saved and exited before finishing
    assert tf.train.latest_checkpoint(folder) is not None
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(folder))
    saved_runs = int(reader.get_tensor("checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE"))
    assert 6 < saved_runs < STEPS
    assert float(reader.get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE")) == saved_runs  # one add per counted run

    process, receive = _start(_train, folder)  # the restart: no signal this time
    messages = _messages(receive, 120)
    assert _finish(process) == 0
    assert messages == [("started", saved_runs, float(saved_runs)), ("finished", STEPS, float(STEPS))]


def test_a_termination_watcher_fn_with_save_fn_exit_fn_and_a_grace_period(tmp_path):
    notices, saves, exits = [], [], []
    v = tf.Variable(0.0)
    config = tf.distribute.experimental.TerminationConfig(
        termination_watcher_fn=lambda: notices.append(1) or len(notices) >= 1,
        exit_fn=lambda: exits.append(handler.total_run_calls), grace_period=0.3,
        save_fn=lambda: saves.append((handler.total_run_calls, float(v.numpy()))))
    before = signal.getsignal(signal.SIGTERM)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, tf.train.Checkpoint(v=v),
                                                                     str(tmp_path), config)
    assert signal.getsignal(signal.SIGTERM) == before  # a watcher function: no signal handler
    deadline = time.time() + 10
    while not handler._received_own_sigterm.is_set() and time.time() < deadline:
        time.sleep(0.01)
    for _ in range(200):
        handler.run(lambda: v.assign_add(1.0))
        if exits:
            break
        time.sleep(0.005)
    assert saves[0] == (1, 1.0)  # the notice was there before the first run: saved after it
    assert len(saves) == 2 and saves[1][0] > 1  # the grace period trained on, then saved once more and exited
    assert exits == [saves[1][0]]
    handler._stop_poll_thread()


def test_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="checkpoint_dir must be passed"):
        tf.distribute.experimental.PreemptionCheckpointHandler(None, tf.train.Checkpoint(v=tf.Variable(1.0)))
    watcher = tf.distribute.experimental.PreemptionWatcher()
    assert watcher.preemption_message is None and watcher.block_until_worker_exit() is None
    assert vars(tf.distribute.experimental.TerminationConfig()) == {
        "termination_watcher_fn": None, "exit_fn": None, "grace_period": None, "save_fn": None}


def _free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def test_two_workers_save_at_the_same_step_when_one_is_told(tmp_path):
    folder = str(tmp_path / "ckpt")
    cluster = {"worker": [f"127.0.0.1:{p}" for p in _free_ports(2)]}
    runs = [_start(_train, folder, 5, {"cluster": cluster, "task": {"type": "worker", "index": i}})
            for i in range(2)]
    for _, receive in runs:
        assert receive.recv() == ("started", 0, 0.0)
        assert receive.recv()[0] == "ready"
    os.kill(runs[1][0].pid, signal.SIGTERM)  # the non-chief worker is preempted
    assert [_messages(receive, 60) for _, receive in runs] == [[], []]
    assert [_finish(process) for process, _ in runs] == [42, 42]
    assert sorted(os.listdir(tmp_path)) == ["ckpt"]  # the worker's workertemp_1 is gone
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(folder))
    saved_runs = int(reader.get_tensor("checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE"))
    assert 6 < saved_runs < STEPS
    np.testing.assert_equal(reader.get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE"), saved_runs)
