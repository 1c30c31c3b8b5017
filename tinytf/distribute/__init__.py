"""tf.distribute: strategies that run one computation on several replicas (MirroredStrategy: threads or
processes on this machine; OneDeviceStrategy: one device; MultiWorkerMirroredStrategy: worker processes
that meet over TCP; experimental.RayStrategy: Ray actors), ReduceOp, the cross-device algorithms, and the
replica / cross-replica contexts. ParameterServerStrategy with tf.distribute.coordinator.ClusterCoordinator trains
asynchronously on the ps and worker tasks of tf.distribute.Server instances (parameter_server.py)."""

from . import cluster_resolver, experimental  # noqa: F401
from .context import ReplicaContext  # noqa: F401
from .cross_device_ops import (  # noqa: F401
    CrossDeviceOps,
    HierarchicalCopyAllReduce,
    NcclAllReduce,
    ReductionToOneDevice,
)
from .extended import StrategyExtended  # noqa: F401
from .input import (  # noqa: F401
    DistributedDataset,
    DistributedIterator,
    InputContext,
    InputOptions,
    InputReplicationMode,
)
from .mirrored import MirroredStrategy  # noqa: F401
from .multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from .one_device import OneDeviceStrategy  # noqa: F401
from .reduce_op import ReduceOp  # noqa: F401
from .run_options import RunOptions  # noqa: F401
from .strategy import (  # noqa: F401
    Strategy,
    experimental_set_strategy,
    get_cross_replica_context,
    get_replica_context,
    get_strategy,
    has_strategy,
    in_cross_replica_context,
)
from .tpu import TPUStrategy  # noqa: F401
from .values import PerReplica as DistributedValues  # noqa: F401


def __getattr__(name):
    # the parameter-server pieces (sockets, threads) are imported when first used: `import tinytf` stays cheap
    if name == "Server":
        from .server import Server

        return Server
    if name == "ParameterServerStrategy":
        from .parameter_server import ParameterServerStrategy

        return ParameterServerStrategy
    if name == "coordinator":
        import importlib

        return importlib.import_module(".coordinator", __name__)
    raise AttributeError(f"module 'tinytf.distribute' has no attribute {name!r}")
