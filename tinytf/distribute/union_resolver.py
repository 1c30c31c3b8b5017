"""tf.distribute.cluster_resolver.UnionResolver: several resolvers' clusters merged into one. A job's task
lists are concatenated in resolver order; a job given as {index: address} in any resolver is merged as a
dict, and an index two resolvers both give is TF's KeyError. task_type, task_id, rpc_layer, environment and
num_accelerators come from the first resolver unless given here."""

from __future__ import annotations

from tinytf.train.cluster_spec import ClusterSpec

from .cluster_resolver import ClusterResolver, _format_master


class UnionResolver(ClusterResolver):
    def __init__(self, *args, **kwargs):
        self._rpc_layer = kwargs.pop("rpc_layer", None)
        self._task_type = kwargs.pop("task_type", None)
        self._task_id = kwargs.pop("task_id", None)
        if kwargs:
            raise ValueError(f"Unexpected kwargs provided {kwargs!r}")
        if not args:
            raise ValueError("At least one ClusterResolver is required.")
        for resolver in args:
            if not isinstance(resolver, ClusterResolver):
                raise TypeError("All arguments must be a sub-class of `ClusterResolver.`")
        self._cluster_resolvers = args

    def cluster_spec(self):
        specs = [resolver.cluster_spec().as_dict() for resolver in self._cluster_resolvers]
        merged = {}
        for spec in specs:  # a job's container: TF's first pass, kept as it is (a later dict resets it)
            for job, tasks in spec.items():
                if job in merged:
                    if isinstance(tasks, dict):
                        merged[job] = {}
                else:
                    merged[job] = [] if isinstance(tasks, list) else {}
        for spec in specs:
            for job, tasks in spec.items():
                if isinstance(merged[job], list):
                    merged[job].extend(tasks)
                    continue
                task_dict = dict(enumerate(tasks)) if isinstance(tasks, list) else dict(tasks)
                duplicates = set(task_dict) & set(merged[job])
                if duplicates:
                    raise KeyError(f"Duplicate keys detected when merging two ClusterSpecs: {duplicates!r}")
                merged[job].update(task_dict)
        return ClusterSpec(merged)

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        if task_type is not None and task_id is not None:
            return _format_master(self.cluster_spec().task_address(task_type, task_id), rpc_layer or self._rpc_layer)
        return self._cluster_resolvers[0].master(rpc_layer=rpc_layer)

    @property
    def task_type(self):
        return self._task_type or self._cluster_resolvers[0].task_type

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        return self._task_id or self._cluster_resolvers[0].task_id

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def environment(self):
        return self._cluster_resolvers[0].environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return self._cluster_resolvers[0].num_accelerators(task_type, task_id, config_proto)

    @property
    def rpc_layer(self):
        return self._rpc_layer or self._cluster_resolvers[0].rpc_layer

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer
