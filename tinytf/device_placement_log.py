"""tf.debugging.set_log_device_placement / get_log_device_placement: while on, every eager op prints the
device it ran on, in the words of TF's eager executor ("Executing op AddV2 in device /job:localhost/replica:0/
task:0/device:CPU:0"), on stderr as TF's C++ log does. tinytf runs every op on the host CPU."""

from __future__ import annotations

import sys

from tinytf.runtime.context import add_op_observer, remove_op_observer

DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
_on = [False]


def _log(op, inputs, outputs, start_ns, end_ns) -> None:
    from tinytf.graph_def.node_names import tf_type

    sys.stderr.write(f"Executing op {tf_type(op)} in device {DEVICE}\n")


def set_log_device_placement(enabled: bool) -> None:
    """Turn the placement log of eager ops on or off (TF's switch is process-wide, and so is this one)."""
    enabled = bool(enabled)
    if enabled and not _on[0]:
        add_op_observer(_log)
    elif not enabled and _on[0]:
        remove_op_observer(_log)
    _on[0] = enabled


def get_log_device_placement() -> bool:
    return _on[0]
