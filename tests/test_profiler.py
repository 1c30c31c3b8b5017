"""tf.profiler.experimental (helper gapsa): the host profiler's spans of eager ops, tf.function calls and Trace
blocks, written as a Chrome trace under TF's run folder; the server and client over TCP; TF's errors."""

from __future__ import annotations

import glob
import gzip
import json
import os
import socket

import pytest

import tinytf as tf

P = tf.profiler.experimental


def _events(logdir):
    files = glob.glob(os.path.join(str(logdir), "plugins", "profile", "*", "*.trace.json.gz"))
    assert len(files) == 1, files
    run = os.path.basename(os.path.dirname(files[0]))
    assert len(run.split("_")) == 6  # TF's run folder: YYYY_MM_DD_HH_MM_SS
    with gzip.open(files[0], "rt") as f:
        trace = json.load(f)
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


@tf.function
def _triple(a):
    return a * 3


def test_profile_records_ops_functions_and_trace_spans(tmp_path):
    x = tf.constant([1.0, 2.0])
    _triple(x)  # traced and specialized before profiling: the profiler must still see the calls
    _triple(x)
    with P.Profile(str(tmp_path)):
        with P.Trace("train", step_num=3, _r=1):
            y = x * 2 + 1
        _triple(x)
    events = _events(tmp_path)
    names = [e["name"] for e in events]
    assert names[:2] == ["Mul", "AddV2"] and "train" in names and "__inference__triple" in names
    train = events[names.index("train")]
    assert train["args"] == {"step_num": "3", "_r": "1"} and train["dur"] >= events[0]["dur"]
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in events)
    assert y.numpy().tolist() == [3.0, 5.0]
    x * 5  # after stop: nothing recorded, no error
    assert _triple(x).numpy().tolist() == [3.0, 6.0]


def test_profile_inside_gradient_tape_and_trace_without_profiler(tmp_path):
    with P.Trace("outside"):  # no profiler: a no-op
        pass
    v = tf.Variable(2.0)
    P.start(str(tmp_path), options=P.ProfilerOptions(host_tracer_level=3))
    try:
        with tf.GradientTape() as tape:
            loss = _triple(v) * v
        grad = tape.gradient(loss, v)
    finally:
        P.stop()
    assert float(grad) == 12.0
    assert "Mul" in [e["name"] for e in _events(tmp_path)]


def test_errors_as_tf(tmp_path):
    with pytest.raises(tf.errors.UnavailableError, match="No profiler is running"):
        P.stop()
    P.start(str(tmp_path))
    try:
        with pytest.raises(tf.errors.AlreadyExistsError, match="Another profiler is running"):
            P.start(str(tmp_path))
    finally:
        P.stop()
    assert P.ProfilerOptions() == (2, 0, 1, None)


def _free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def test_client_without_server_raises_unavailable(tmp_path, capsys):
    port = _free_port()
    with pytest.raises(RuntimeError, match="UNAVAILABLE: No trace event was collected"):
        P.client.trace(f"grpc://localhost:{port}", str(tmp_path), 10)
    assert "Remaining attempt(s): 0" in capsys.readouterr().out
    with pytest.raises(RuntimeError, match="failed to connect to all addresses"):
        P.client.monitor(f"grpc://localhost:{port}", 10)


def test_server_and_client_trace_this_process(tmp_path):
    import threading

    port = _free_port()
    P.server.start(port)
    stop = threading.Event()

    def work():
        x = tf.constant([1.0])
        while not stop.is_set():
            x = x * 1.0

    worker = threading.Thread(target=work)
    worker.start()
    try:
        P.client.trace(f"grpc://localhost:{port}", str(tmp_path), 200)
        summary = P.client.monitor(f"localhost:{port}", 100, level=2)
    finally:
        stop.set()
        worker.join()
    assert "Mul" in [e["name"] for e in _events(tmp_path)]
    assert summary.startswith("Monitored for 100 ms:") and "Mul:" in summary


def test_stop_removes_the_op_observer(tmp_path):
    from tinytf.runtime.context import shared

    before = len(shared.op_observers)
    P.start(str(tmp_path))
    assert len(shared.op_observers) == before + 1
    P.stop()
    assert len(shared.op_observers) == before


def test_functions_returning_none_run_once_per_call_while_profiled(tmp_path):
    v = tf.Variable(0.0)

    @tf.function
    def bump():
        v.assign_add(1.0)

    bump()
    with P.Profile(str(tmp_path)):
        bump()
        bump()
    bump()
    assert float(v) == 4.0
    from tinytf import config

    assert config.call_tracer is None  # stop() put the previous tracer (none) back
    writer = tf.summary.create_file_writer(str(tmp_path / "tb"))
    with writer.as_default():
        tf.summary.trace_on(graph=True, profiler=True)
        bump()
        tf.summary.trace_export("bump", step=0)
    assert float(v) == 5.0
