"""tf.train.ServerDef: what a tf.distribute.Server is (its cluster, job, task, protocol), as the fields of TF's
tensorflow_server.proto. TF's message is a protocol buffer; tinytf's is a plain object with the same fields and
MergeFrom, so programs that build one or read `server.server_def.job_name` run unchanged (the protobuf bytes of
TF's message are not made: nothing in tinytf reads them)."""

from __future__ import annotations

from .cluster_spec import ClusterDef, ClusterSpec

_FIELDS = ("cluster", "job_name", "task_index", "protocol", "port", "default_session_config")


class ServerDef:
    """ServerDef(cluster=ClusterDef, job_name="", task_index=0, protocol="", port=0, default_session_config=None)."""

    def __init__(self, cluster=None, job_name: str = "", task_index: int = 0, protocol: str = "", port: int = 0,
                 default_session_config=None):
        self.cluster = ClusterDef()
        if cluster is not None:
            self.cluster.MergeFrom(cluster.as_cluster_def() if isinstance(cluster, ClusterSpec) else cluster)
        self.job_name = job_name
        self.task_index = int(task_index)
        self.protocol = protocol
        self.port = int(port)
        self.default_session_config = default_session_config

    def MergeFrom(self, other: ServerDef) -> None:  # noqa: N802  (the protobuf method's name)
        """Fields set in `other` (non-empty, non-zero) replace this one's; the cluster's jobs are merged."""
        if not isinstance(other, ServerDef):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected ServerDef got "
                            f"{type(other).__name__}.")
        self.cluster.MergeFrom(other.cluster)
        for name in _FIELDS[1:]:
            value = getattr(other, name)
            if value:
                setattr(self, name, value)

    def __eq__(self, other):
        return isinstance(other, ServerDef) and all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = None  # as a protobuf message: compared by value, unhashable

    def __repr__(self):  # protobuf's text format, the fields that are set
        lines = []
        for job in self.cluster.job:
            tasks = "".join(f"    tasks {{\n      key: {k}\n      value: \"{job.tasks[k]}\"\n    }}\n"
                            for k in sorted(job.tasks))
            lines.append(f"cluster {{\n  job {{\n    name: \"{job.name}\"\n{tasks}  }}\n}}")
        if self.job_name:
            lines.append(f"job_name: \"{self.job_name}\"")
        if self.task_index:
            lines.append(f"task_index: {self.task_index}")
        if self.protocol:
            lines.append(f"protocol: \"{self.protocol}\"")
        if self.port:
            lines.append(f"port: {self.port}")
        return "\n".join(lines) + ("\n" if lines else "")

    __str__ = __repr__


def make_server_def(server_or_cluster_def, job_name, task_index, protocol, config) -> ServerDef:
    """The ServerDef of `tf.distribute.Server(...)`'s arguments, filled in as TF's _make_server_def does."""
    if isinstance(server_or_cluster_def, ServerDef):
        server_def = ServerDef()
        server_def.MergeFrom(server_or_cluster_def)
        if job_name is not None:
            server_def.job_name = job_name
        if task_index is not None:
            server_def.task_index = task_index
        if protocol is not None:
            server_def.protocol = protocol
        if config is not None:
            server_def.default_session_config = config
        return server_def
    try:
        cluster_spec = ClusterSpec(server_or_cluster_def)
    except TypeError:
        raise TypeError("Could not convert `server_or_cluster_def` to a `tf.train.ServerDef` or "
                        "`tf.train.ClusterSpec`.") from None
    if job_name is None:
        if len(cluster_spec.jobs) != 1:
            raise ValueError("Must specify an explicit `job_name`.")
        job_name = cluster_spec.jobs[0]
    if task_index is None:
        indices = cluster_spec.task_indices(job_name)
        if len(indices) != 1:
            raise ValueError("Must specify an explicit `task_index`.")
        task_index = indices[0]
    return ServerDef(cluster=cluster_spec.as_cluster_def(), job_name=job_name, task_index=task_index,
                     protocol=protocol or "grpc", default_session_config=config)
