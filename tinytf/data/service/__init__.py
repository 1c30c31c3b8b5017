"""tf.data.experimental.service: a dispatcher and workers (real servers on 127.0.0.1, threads and sockets)
that run a dataset's pipeline away from its consumer. See docs/data.md, "tf.data service"."""

from .client import DataServiceDataset, distribute, from_dataset_id, register_dataset  # noqa: F401
from .dispatcher import DispatcherConfig, DispatchServer
from .policies import CrossTrainerCache, ShardingPolicy
from .worker import WorkerConfig, WorkerServer

__all__ = ["DispatchServer", "DispatcherConfig", "WorkerServer", "WorkerConfig", "distribute", "register_dataset",
           "from_dataset_id", "ShardingPolicy", "CrossTrainerCache"]
