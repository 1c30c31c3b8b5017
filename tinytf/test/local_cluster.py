"""tf.test.create_local_cluster: a cluster of worker and ps tf.distribute.Servers in this process, each on a
free port of localhost (the system picks them: nothing can take a port between choosing and binding it)."""

from __future__ import annotations


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None, ps_config=None):
    """Start `num_workers` "worker" and `num_ps` "ps" servers; returns (workers, ps_servers)."""
    from tinytf.distribute.server import Server

    servers = {"worker": [], "ps": []}
    for job, count in (("worker", num_workers), ("ps", num_ps)):
        for _ in range(count):  # each bound first, on port 0, so the cluster spec names real ports
            servers[job].append(Server({job: ["localhost:0"]}, job_name=job, task_index=0, protocol=protocol,
                                       start=True))
    cluster = {job: [s.target.split("://", 1)[1] for s in servers[job]] for job in ("worker", "ps") if servers[job]}
    from tinytf.train.cluster_spec import ClusterSpec

    cluster_def = ClusterSpec(cluster).as_cluster_def()
    for job, config in (("worker", worker_config), ("ps", ps_config)):
        for index, server in enumerate(servers[job]):
            server._join_cluster(cluster_def, index, config)
    return servers["worker"], servers["ps"]
