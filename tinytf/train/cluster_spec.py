"""tf.train.ClusterSpec (also tf.compat.v1.train.ClusterSpec): the jobs and tasks of a distributed computation,
each task an address, kept as TF keeps them ({job: {task index: address}}) and convertible to and from TF's
ClusterDef protocol buffer (ClusterDef and JobDef are the messages of TF's cluster.proto, as the tensorboard package
ships them: the same field numbers, so the bytes are TF's)."""

from __future__ import annotations

from tensorboard.compat.proto.cluster_pb2 import ClusterDef, JobDef


def _text(value, what):
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    raise TypeError(f"{what} {value!r} must be bytes or unicode")


class ClusterSpec:
    """A cluster: job names mapped to lists of addresses, or to {task index: address} for sparse jobs."""

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            self._cluster_spec = {}
            for job_name, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    job_tasks = dict(enumerate(tasks))
                elif isinstance(tasks, dict):
                    job_tasks = {int(i): task for i, task in tasks.items()}
                else:
                    raise TypeError(f"The tasks for job {job_name!r} must be a list or a dictionary from integers "
                                    "to strings.")
                self._cluster_spec[job_name] = job_tasks
            self._cluster_def = self._make_cluster_def()
        elif isinstance(cluster, (ClusterDef, ClusterSpec)):
            self._cluster_def = ClusterDef()
            self._cluster_def.MergeFrom(cluster if isinstance(cluster, ClusterDef) else cluster.as_cluster_def())
            self._cluster_spec = {job.name: {i: job.tasks[i] for i in job.tasks} for job in self._cluster_def.job}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")

    def __bool__(self):
        return bool(self._cluster_spec)

    def __eq__(self, other):
        return self._cluster_spec == other

    def __ne__(self, other):
        return self._cluster_spec != other

    __hash__ = None  # TF's ClusterSpec defines __eq__ only: unhashable, as here

    def __repr__(self):
        as_dict = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {as_dict[k]!r}" for k in sorted(as_dict)) + "})"

    def as_dict(self) -> dict:
        """{job: list of addresses} where a job's task indices are 0..n-1, else {job: {index: address}}."""
        result = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                result[job] = {}
            elif max(indices) + 1 == len(indices):
                result[job] = self.job_tasks(job)
            else:
                result[job] = {i: self.task_address(job, i) for i in indices}
        return result

    def as_cluster_def(self) -> ClusterDef:
        return self._cluster_def

    @property
    def jobs(self) -> list:
        return list(self._cluster_spec.keys())

    def _job(self, job_name):
        try:
            return self._cluster_spec[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name) -> int:
        return len(self._job(job_name))

    def task_indices(self, job_name) -> list:
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name) -> list:
        """The addresses by task index, None where a sparse job has no task of that index."""
        job = self._job(job_name)
        tasks = [None] * (max(job) + 1)
        for i, address in job.items():
            tasks[i] = address
        return tasks

    def _make_cluster_def(self) -> ClusterDef:
        cluster_def = ClusterDef()
        for job_name, tasks in sorted(self._cluster_spec.items()):
            job = cluster_def.job.add()
            job.name = _text(job_name, "Job name")
            for i, address in sorted(tasks.items()):
                job.tasks[i] = _text(address, "Task address")
        return cluster_def


__all__ = ["ClusterDef", "ClusterSpec", "JobDef"]
