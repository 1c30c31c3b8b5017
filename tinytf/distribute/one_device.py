"""tf.distribute.OneDeviceStrategy: one replica on one named device. Code written for a strategy (scope, run,
reduce, distributed datasets, Keras fit under the scope) runs on that device as it would without one: TF's way
to test a distributed program on one device before moving it to MirroredStrategy."""

from __future__ import annotations

from .device_names import full_device_name
from .strategy import Strategy, run_in_one_replica


class OneDeviceStrategy(Strategy):
    """OneDeviceStrategy(device): variables made under the scope and every replica computation on `device`
    ("/cpu:0", a logical CPU of a split, "/cpu:1", or a GPU name, which runs on the CPU as TF's soft placement
    does on a machine without GPUs)."""

    _extended_class = "OneDeviceExtended"

    _num_replicas = 1

    def __init__(self, device):
        self._device = str(device)

    def _worker_devices(self) -> tuple:
        return (full_device_name(self._device),)

    def _run_replicas(self, fn, args, kwargs):
        return run_in_one_replica(self, fn, args, kwargs)
