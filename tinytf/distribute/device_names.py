"""A replica's device as TF names it. TF accepts any device name for a strategy's replicas, GPUs on a machine
without GPUs included (soft placement runs the work on the CPU): tinytf keeps the name and runs on the CPU."""

from __future__ import annotations


def full_device_name(device) -> str:
    """'/gpu:1', 'GPU:1', '/device:GPU:1' or a full name -> '/job:localhost/replica:0/task:0/device:GPU:1'."""
    last = str(device).rsplit("/", 1)[-1]
    last = last[len("device:"):] if last.lower().startswith("device:") else last
    kind, _, index = last.partition(":")
    return f"/job:localhost/replica:0/task:0/device:{kind.upper() or 'CPU'}:{int(index) if index.isdigit() else 0}"
