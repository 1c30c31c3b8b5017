"""`tf.compat.v1.train.replica_device_setter`: the device function of TF1's between-graph replication. Ops that
hold state (variables, hash tables, accumulators: TF's STANDARD_PS_OPS) go to the parameter-server job, one ps
task after another (round robin) unless a strategy says otherwise; every other op goes to the worker device; a
device the op already names is merged in. It returns placement strings as TF does; tinytf itself runs every op
on the CPU, so the strings matter where a graph is exported for TF."""

from __future__ import annotations

import logging

from ...device_spec import DeviceSpec
from ...train.cluster_spec import ClusterSpec

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp", "ResourceConditionalAccumulator",
                   "DecisionTreeResource")


class _RoundRobinStrategy:
    """Each call: the next ps task, cycling."""

    def __init__(self, num_tasks):
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op):
        task = self._next_task
        self._next_task = (self._next_task + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op):
        """The device string for `op` (an Operation or a NodeDef: its `op` type and `device`)."""
        current = DeviceSpec.from_string(getattr(op, "device", "") or "")
        node_def = op if hasattr(op, "op") and isinstance(op.op, str) else op.node_def
        if self._ps_tasks and self._ps_device and node_def.op in self._ps_ops:
            ps_device = DeviceSpec.from_string(self._ps_device)
            if ps_device.job and (not current.job or current.job == ps_device.job):
                ps_device = ps_device.replace(task=self._ps_strategy(op))
            return ps_device.make_merged_spec(current).to_string()
        worker = DeviceSpec.from_string(self._worker_device or "")
        return worker.make_merged_spec(current).to_string()


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker", merge_devices=True,
                          cluster=None, ps_ops=None, ps_strategy=None):
    """A device function for `tf.compat.v1.device`, or None when there is no parameter server."""
    if cluster is not None:
        spec = (cluster if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster)).as_dict()
        ps_job = DeviceSpec.from_string(ps_device).job
        if ps_job not in spec or spec[ps_job] is None:
            return None
        ps_tasks = len(spec[ps_job])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        logging.getLogger("tensorflow").warning(
            "DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy).device_function


__all__ = ["replica_device_setter"]
