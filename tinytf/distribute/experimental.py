"""tf.distribute.experimental: RayStrategy (data-parallel training on Ray actors; needs `ray`), the
experimental aliases of MultiWorkerMirroredStrategy and ParameterServerStrategy, the communication options
(and CollectiveHints), CentralStorageStrategy, TPUStrategy, the preemption handler, rpc, ValueContext, the
variable partitioners and the coordinator's experimental names."""

import types as _types

from . import experimental_rpc as rpc  # noqa: F401
from . import partitioners  # noqa: F401
from .central_storage import CentralStorageStrategy  # noqa: F401
from .multi_worker import (  # noqa: F401
    CommunicationImplementation,
    CommunicationOptions,
    MultiWorkerMirroredStrategy,  # noqa: F401
)
from .preemption import PreemptionCheckpointHandler, PreemptionWatcher, TerminationConfig  # noqa: F401
from .tpu import TPUStrategyV1 as TPUStrategy  # noqa: F401
from .values import ValueContext  # noqa: F401

CollectiveCommunication = CommunicationImplementation  # TF's older name


def __getattr__(name):
    if name == "RayStrategy":  # imported lazily so that tinytf never needs ray unless this is used
        from .ray_strategy import RayStrategy

        return RayStrategy
    if name == "ParameterServerStrategy":  # the parameter-server pieces (sockets, threads) when first used
        from .parameter_server import ParameterServerStrategy

        return ParameterServerStrategy
    if name == "coordinator":
        from . import coordinator

        namespace = globals()["coordinator"] = _types.SimpleNamespace(
            ClusterCoordinator=coordinator.ClusterCoordinator, RemoteValue=coordinator.RemoteValue,
            PerWorkerValues=coordinator.PerWorkerValues)
        return namespace
    raise AttributeError(f"module 'tinytf.distribute.experimental' has no attribute {name!r}")


class CollectiveHints:
    """tf.distribute.experimental.CollectiveHints(bytes_per_pack=0, timeout_seconds=None): TF's deprecated
    name for CommunicationOptions without `implementation`; constructing one gives the same Options object."""

    def __new__(cls, bytes_per_pack=0, timeout_seconds=None):
        return CommunicationOptions(bytes_per_pack=bytes_per_pack, timeout_seconds=timeout_seconds)

