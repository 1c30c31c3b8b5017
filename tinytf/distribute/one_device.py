"""tf.distribute.OneDeviceStrategy: one replica on one named device. Code written for a strategy (scope, run,
reduce, distributed datasets, Keras fit under the scope) runs on that device as it would without one: TF's way
to test a distributed program on one device before moving it to MirroredStrategy."""

from __future__ import annotations

from .strategy import Strategy, run_in_one_replica


class OneDeviceStrategy(Strategy):
    """OneDeviceStrategy(device): variables made under the scope and every replica computation on `device`
    (a CPU: "/cpu:0", or a logical CPU of a split, "/cpu:1")."""

    _extended_class = "OneDeviceExtended"

    _num_replicas = 1

    def __init__(self, device):
        device = str(device)
        if "cpu" not in device.lower():
            raise ValueError(f"OneDeviceStrategy: tinytf runs on the CPU only; got device {device!r}")
        self._device = device

    def _worker_devices(self) -> tuple:
        tail = self._device.rsplit(":", 1)[-1]
        index = int(tail) if tail.isdigit() else 0
        return (f"/job:localhost/replica:0/task:0/device:CPU:{index}",)

    def _run_replicas(self, fn, args, kwargs):
        return run_in_one_replica(self, fn, args, kwargs)
