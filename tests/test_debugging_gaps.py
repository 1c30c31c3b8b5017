"""tf.debugging's traceback filtering and device-placement log (helper gapsa)."""

from __future__ import annotations

import os
import subprocess
import sys
import traceback

import pytest

import tinytf as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@tf.function
def _bad_reshape(x):
    return tf.reshape(x, [5])


def _user_layer(x):
    return _bad_reshape(x)


def _frames(error):
    return [(f.filename, f.name) for f in traceback.extract_tb(error.__traceback__)]


def _internal(filename):
    return "<tinytf-graph" in filename or any(
        filename.startswith(os.path.join(ROOT, d) + os.sep) for d in ("tinytf", "runtime", "autograph"))


def test_function_errors_hide_tinytf_frames_unless_disabled():
    assert tf.debugging.is_traceback_filtering_enabled()
    with pytest.raises(ValueError) as info:
        _user_layer(tf.constant([1.0, 2.0]))
    frames = _frames(info.value)
    assert any(name == "_user_layer" for _, name in frames)
    assert not any(_internal(f) for f, _ in frames), frames
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with pytest.raises(ValueError) as info:
            _user_layer(tf.constant([1.0, 2.0]))
        assert any(_internal(f) for f, _ in _frames(info.value))
    finally:
        tf.debugging.enable_traceback_filtering()


_SCRIPT = """
import tinytf as tf
{switch}
def user_code():
    return tf.reshape(tf.constant([1.0, 2.0]), [5])
user_code()
"""


@pytest.mark.parametrize("enabled", [True, False])
def test_uncaught_eager_error_printed_without_tinytf_frames(enabled, tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(_SCRIPT.format(switch="" if enabled else "tf.debugging.disable_traceback_filtering()"))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert "InvalidArgumentError" in run.stderr and "in user_code" in run.stderr
    shows_internal = "runtime/dispatch.py" in run.stderr
    assert shows_internal is (not enabled), run.stderr


def test_log_device_placement_logs_eager_ops(capfd):
    assert not tf.debugging.get_log_device_placement()
    a = tf.constant([1.0, 2.0])
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement()
        b = a + 1  # the operator fast path steps aside while logging
        tf.matmul([[1.0]], [[2.0]])
        assert float(a[0]) == 1.0
    finally:
        tf.debugging.set_log_device_placement(False)
    a * 3  # not logged
    err = capfd.readouterr().err
    device = "in device /job:localhost/replica:0/task:0/device:CPU:0"
    assert f"Executing op AddV2 {device}" in err and f"Executing op MatMul {device}" in err
    assert f"Executing op StridedSlice {device}" in err and "op Mul " not in err
    assert b.numpy().tolist() == [2.0, 3.0]
