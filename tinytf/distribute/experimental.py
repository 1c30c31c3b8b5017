"""tf.distribute.experimental: RayStrategy (data-parallel training on Ray actors; needs `ray`), the
experimental aliases of MultiWorkerMirroredStrategy and ParameterServerStrategy, the communication options,
ValueContext, the variable partitioners and the coordinator's experimental names."""

import types as _types

from . import coordinator as _coordinator
from . import partitioners  # noqa: F401
from .multi_worker import (  # noqa: F401
    CommunicationImplementation,
    CommunicationOptions,
    MultiWorkerMirroredStrategy,  # noqa: F401
)
from .parameter_server import ParameterServerStrategy  # noqa: F401
from .values import ValueContext  # noqa: F401

coordinator = _types.SimpleNamespace(ClusterCoordinator=_coordinator.ClusterCoordinator,
                                     RemoteValue=_coordinator.RemoteValue,
                                     PerWorkerValues=_coordinator.PerWorkerValues)

CollectiveCommunication = CommunicationImplementation  # TF's older name


def __getattr__(name):
    if name == "RayStrategy":  # imported lazily so that tinytf never needs ray unless this is used
        from .ray_strategy import RayStrategy

        return RayStrategy
    raise AttributeError(f"module 'tinytf.distribute.experimental' has no attribute {name!r}")
