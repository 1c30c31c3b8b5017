"""tf.distribute.cluster_resolver: where the tasks of a multi-worker job are and which one this process is.
ClusterResolver is the abstract base; SimpleClusterResolver holds what it is given; TFConfigClusterResolver
reads the TF_CONFIG environment variable (JSON: {"cluster": {job: [addresses]}, "task": {"type", "index"},
"rpc_layer", "environment"}) every time it is asked, as TF's does. SlurmClusterResolver (slurm_resolver.py)
reads SLURM's environment; KubernetesClusterResolver and GCEClusterResolver (service_resolvers.py) ask a
client object for the tasks; UnionResolver (union_resolver.py) merges resolvers; TPUClusterResolver (tpu.py)
finds no TPU."""

from __future__ import annotations as _annotations

import abc as _abc
import collections as _collections
import json as _json
import os as _os

from tinytf.train.cluster_spec import ClusterSpec as _ClusterSpec


def _format_master(address: str, rpc_layer) -> str:
    return f"{rpc_layer}://{address}" if rpc_layer else address


class ClusterResolver(_abc.ABC):
    """tf.distribute.cluster_resolver.ClusterResolver: subclasses give cluster_spec() and master()."""

    @_abc.abstractmethod
    def cluster_spec(self):
        """The tf.train.ClusterSpec of the cluster."""

    @_abc.abstractmethod
    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """The address of a task (this one by default), with the rpc layer's prefix ("grpc://host:port")."""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        """Accelerators (GPUs, TPUs) per device type on the task: none on tinytf's CPU."""
        return _collections.defaultdict(int)

    @property
    def environment(self) -> str:
        return ""

    @property
    def task_type(self):
        return getattr(self, "_task_type", None)

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        return getattr(self, "_task_id", None)

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return getattr(self, "_rpc_layer", None)

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer


class SimpleClusterResolver(ClusterResolver):
    """A ClusterResolver holding a given ClusterSpec, master address, task and accelerators."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="", num_accelerators=None,
                 rpc_layer=None):
        if not isinstance(cluster_spec, _ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        if not isinstance(master, str):
            raise TypeError("master must be a string.")
        self._cluster_spec = cluster_spec
        self._master = master
        self._task_type, self._task_id = task_type, task_id
        self._environment = environment
        self._num_accelerators = num_accelerators if num_accelerators is not None else {}
        self._rpc_layer = rpc_layer

    def cluster_spec(self):
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        if task_type is not None and task_id is not None:
            master = self._cluster_spec.task_address(task_type, task_id)
        else:
            master = self._master
        return _format_master(master, rpc_layer or self._rpc_layer)

    @property
    def environment(self):
        return self._environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return self._num_accelerators


def _tf_config() -> dict:
    text = _os.environ.get("TF_CONFIG", "{}")
    return _json.loads(text) if text else {}  # TF: a JSONDecodeError for text that is not JSON


class TFConfigClusterResolver(ClusterResolver):
    """The cluster, task and rpc layer of the TF_CONFIG environment variable (read at each call, so a
    program that sets TF_CONFIG after making the resolver sees the new value); task_type, task_id and
    rpc_layer given here override TF_CONFIG's."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer = rpc_layer
        self._environment = environment

    @property
    def task_type(self):
        if self._task_type is not None:
            return self._task_type
        task = _tf_config().get("task", {})
        return str(task["type"]) if "type" in task else None

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        if self._task_id is not None:
            return self._task_id
        task = _tf_config().get("task", {})
        return int(task["index"]) if "index" in task else None

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return self._rpc_layer if self._rpc_layer is not None else _tf_config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer

    @property
    def environment(self):
        return self._environment if self._environment is not None else _tf_config().get("environment")

    def cluster_spec(self):
        return _ClusterSpec(_tf_config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        if task_type is None or task_id is None:
            return ""
        spec = self.cluster_spec()
        if task_type not in spec.jobs:
            raise ValueError(f"No such job in cluster: {task_type!r}")
        return _format_master(spec.task_address(task_type, task_id),
                              self.rpc_layer if rpc_layer is None else rpc_layer)


# defined in their own modules, which build on the classes above (so imported last)
from .service_resolvers import (  # noqa: E402,F401
    GCEClusterResolver,
    KubernetesClusterResolver,
    KubernetesExecutableLocation,
)
from .slurm_resolver import SlurmClusterResolver  # noqa: E402,F401
from .tpu import TPUClusterResolver  # noqa: E402,F401
from .union_resolver import UnionResolver  # noqa: E402,F401
