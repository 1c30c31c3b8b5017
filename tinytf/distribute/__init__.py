"""tf.distribute: strategies that run one computation on several replicas (MirroredStrategy: threads or
processes on this machine; OneDeviceStrategy: one device; MultiWorkerMirroredStrategy: worker processes
that meet over TCP; experimental.RayStrategy: Ray actors), ReduceOp, the cross-device algorithms, and the
replica / cross-replica contexts. ParameterServerStrategy with tf.distribute.coordinator.ClusterCoordinator trains
asynchronously on the ps and worker tasks of tf.distribute.Server instances (parameter_server.py)."""

from . import cluster_resolver, coordinator, experimental  # noqa: F401
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
from .parameter_server import ParameterServerStrategy  # noqa: F401
from .reduce_op import ReduceOp  # noqa: F401
from .run_options import RunOptions  # noqa: F401
from .server import Server  # noqa: F401
from .strategy import (  # noqa: F401
    Strategy,
    experimental_set_strategy,
    get_cross_replica_context,
    get_replica_context,
    get_strategy,
    has_strategy,
    in_cross_replica_context,
)
from .values import PerReplica as DistributedValues  # noqa: F401
