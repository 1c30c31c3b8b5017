"""TPUClusterResolver and TPUStrategy on a machine without TPUs. The resolver works as TF's does without the
Cloud TPU API: no name is TF's ValueError, "local" is this host with no TPU (master "", empty cluster, zero
TPUs), a "grpc://host:port" address is one worker at that address, and any other name would be looked up on
the GCE metadata server, which is not reachable here (urllib's URLError, as TF gives offline). TPUStrategy
finds no TPU: without a resolver it raises the resolver's ValueError, with one it raises the NotFoundError of
TF's TPU system initialization (TF 2.21 on a CPU build fails inside TPUStrategy with an IndexError from its
empty device list instead; the error a TPU-less cluster gives is the one tinytf keeps)."""

from __future__ import annotations

import collections
import urllib.error

from tinytf.runtime.errors import NotFoundError
from tinytf.train.cluster_spec import ClusterSpec

from .cluster_resolver import ClusterResolver
from .strategy import Strategy


class TPUClusterResolver(ClusterResolver):
    """TPUClusterResolver(tpu=None, zone=None, project=None, job_name='worker', coordinator_name=None,
    coordinator_address=None, credentials='default', service=None, discovery_url=None)."""

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker", coordinator_name=None,
                 coordinator_address=None, credentials="default", service=None, discovery_url=None):
        if isinstance(tpu, (list, tuple)):
            tpu = tpu[0] if tpu else None
        if not tpu:
            raise ValueError("Please provide a TPU Name to connect to.")
        if tpu != "local" and not tpu.startswith("grpc://"):
            raise urllib.error.URLError(f"the TPU {tpu!r} would be looked up on the GCE metadata server "
                                        "(http://metadata.google.internal), which is not reachable from here")
        self._tpu, self._job_name = tpu, job_name
        self.task_type, self.task_id = job_name, 0
        self._coordinator_name, self._coordinator_address = coordinator_name, coordinator_address

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return "" if self._tpu == "local" else self._tpu

    def get_master(self):
        return self.master()

    def get_job_name(self):
        return self._job_name

    def cluster_spec(self):
        if self._tpu == "local":
            return ClusterSpec({})
        cluster = {self._job_name: [self._tpu.split("://", 1)[1]]}
        if self._coordinator_name:
            cluster[self._coordinator_name] = [self._coordinator_address]
        return ClusterSpec(cluster)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return collections.defaultdict(int, {"TPU": 0})

    @property
    def environment(self):
        return ""


class TPUStrategy(Strategy):
    """tf.distribute.TPUStrategy(tpu_cluster_resolver=None, experimental_device_assignment=None,
    experimental_spmd_xla_partitioning=False): no TPU here, so constructing one raises (see the module)."""

    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False):
        resolver = tpu_cluster_resolver if tpu_cluster_resolver is not None else TPUClusterResolver("")
        raise NotFoundError(None, None, f"TPUs not found in the cluster (master {resolver.master()!r}): tinytf runs "
                                        "on the CPU and has no TPU system to initialize")


class TPUStrategyV1(TPUStrategy):
    """tf.distribute.experimental.TPUStrategy(tpu_cluster_resolver=None, device_assignment=None) (deprecated)."""

    def __init__(self, tpu_cluster_resolver=None, device_assignment=None):
        super().__init__(tpu_cluster_resolver, device_assignment)
