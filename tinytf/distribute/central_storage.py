"""tf.distribute.experimental.CentralStorageStrategy(compute_devices=None, parameter_device=None): the replicas
compute as MirroredStrategy's (each on its share of the batch, gradients summed over the replicas), while
every variable is one copy on the parameter device, which each replica reads and the one update writes (TF's
AggregatingVariable: a replica's assignment is combined by the variable's aggregation, as a mirrored
variable's is).

On tinytf's CPU the replicas are threads of this process sharing that one copy (never forked processes,
whatever TINYTF_MIRRORED_REPLICAS says: processes would each hold a copy). As in TF on a machine without
GPUs, the default is one replica on CPU:0 (not every logical CPU, as MirroredStrategy takes), and
parameter_devices reports the parameter device as it was given."""

from __future__ import annotations

from .extended import StrategyExtended
from .mirrored import MirroredStrategy

_CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


class ParameterServerStrategyExtended(StrategyExtended):
    """strategy.extended of CentralStorageStrategy (TF names it after the parameter-server strategy it shares
    its implementation with)."""

    @property
    def parameter_devices(self) -> tuple:
        return (self._container_strategy._parameter_device,)


class CentralStorageStrategy(MirroredStrategy):
    """See the module."""

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(list(compute_devices) if compute_devices else ["/cpu:0"])
        self._backend = "threads"
        if parameter_device is None:  # TF: the one compute device, else the CPU
            parameter_device = self._worker_devices()[0] if len(self.extended_devices) == 1 else _CPU0
        self._parameter_device = parameter_device

    @property
    def extended(self):
        extended = self.__dict__.get("_extended")
        if extended is None:
            extended = self._extended = ParameterServerStrategyExtended(self)
        return extended

    @property
    def replica_backend(self) -> str:
        return "threads"

    @replica_backend.setter
    def replica_backend(self, backend: str) -> None:
        if backend != "threads":
            raise ValueError("CentralStorageStrategy: the replicas share the one copy of the variables, so they run "
                             f"as threads of this process; got replica_backend={backend!r}")
