"""tf.config.experimental_connect_to_cluster and experimental_connect_to_host: make this program a task of a
cluster. As TF does, a job of this program's own (`job_name`, "localhost" by default) is added to the cluster
when the cluster has none, and the program's server for it is started on a free port. tinytf then checks that
every other task answers (a "ping" over TCP, waiting up to `timeout` seconds for tasks still starting) and keeps
the cluster as the current one (`current_server_def()`).

Not done: ops placed with tf.device("/job:worker/task:0") still run in this process (TF runs them on that task).
ParameterServerStrategy's variables and ClusterCoordinator's closures are what go to the tasks."""

from __future__ import annotations

import time

from tinytf.runtime.errors import UnavailableError
from tinytf.train.server_def import ServerDef

_LOCAL_MASTERS = ("", "local")
_current: dict = {"server_def": None, "server": None}
CONNECT_TIMEOUT_SECONDS = 120.0  # tasks may still be importing (seconds on a loaded machine), as MultiWorker waits


def current_server_def():
    """The ServerDef of the cluster this program connected to (None before any connect)."""
    return _current["server_def"]


def connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0, protocol=None,
                       make_master_device_default=True, cluster_device_filters=None,
                       timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
    """Connect this program to the cluster (see the module)."""
    from tinytf.runtime.context import state
    from tinytf.train.cluster_spec import ClusterSpec

    from .cluster_resolver import ClusterResolver
    from .server import Server

    if state.graph is not None:
        raise ValueError("`tf.config.experimental_connect_to_cluster` can only be called in eager mode.")
    if isinstance(cluster_spec_or_resolver, ClusterSpec):
        spec = cluster_spec_or_resolver
    elif isinstance(cluster_spec_or_resolver, ClusterResolver):
        if cluster_spec_or_resolver.master() in _LOCAL_MASTERS:
            return  # TF: nothing to do for a local master
        spec = cluster_spec_or_resolver.cluster_spec()
    else:
        raise ValueError("`cluster_spec_or_resolver` must be a `ClusterSpec` or a `ClusterResolver`.")
    jobs = spec.as_dict()
    server = _current["server"]
    if job_name not in spec.jobs:  # this program's own job, on a port the system picks
        if server is None or server.server_def.job_name != job_name:
            server = Server({job_name: ["localhost:0"]}, protocol=protocol or "grpc")
            _current["server"] = server
        jobs = dict(jobs, **{job_name: [server.target.split("://", 1)[1]]})
    full = ClusterSpec(jobs)
    for job in spec.jobs:
        for index in spec.task_indices(job):
            if (job, index) != (job_name, task_index):
                _ping(job, index, spec.task_address(job, index), timeout)
    _current["server_def"] = ServerDef(cluster=full.as_cluster_def(), job_name=job_name, task_index=task_index,
                                       protocol=protocol or "grpc")


def connect_to_remote_host(remote_host=None, job_name="worker") -> None:
    """Connect to one task (or a list of them) as the job `job_name`."""
    from tinytf.train.cluster_spec import ClusterSpec

    if not remote_host:
        raise ValueError("Must provide at least one remote_host")
    hosts = [remote_host] if isinstance(remote_host, str) else list(remote_host)
    connect_to_cluster(ClusterSpec({job_name: [h.split("://", 1)[-1] for h in hosts]}))


def _ping(job, index, address, timeout) -> None:
    """Wait until the task answers, up to `timeout` seconds (tasks may still be starting)."""
    from .server import Connection

    deadline = time.monotonic() + timeout
    while True:
        try:
            connection = Connection(address, timeout=max(0.1, min(5.0, deadline - time.monotonic())),
                                    who=f"/job:{job}/task:{index}")
            try:
                connection.call(("ping",))
            finally:
                connection.close()
            return
        except UnavailableError as e:
            if time.monotonic() >= deadline:
                raise UnavailableError(None, None, f"experimental_connect_to_cluster: {e.message}") from None
            time.sleep(0.1)
