"""tf.distribute.cluster_resolver.SlurmClusterResolver: the cluster of a SLURM job step, from the environment
variables SLURM sets in every task (SLURM_PROCID, SLURM_STEP_NUM_TASKS, SLURM_STEP_NODELIST,
SLURM_STEP_TASKS_PER_NODE), parsed as TF parses them: the node list's ranges ("n[01-03],m5") expanded in order,
tasks per node ("2(x3),1") repeated, hosts sorted by name, each host's tasks on port_base, port_base + 1, ...,
and the jobs (sorted by name) taking the task list in rank order. GPUs: the number comes from
CUDA_VISIBLE_DEVICES (or `nvidia-smi`, which this machine lacks) unless given, and cluster_spec() sets
CUDA_VISIBLE_DEVICES to this task's share, as TF does (harmless here: tinytf runs on the CPU)."""

from __future__ import annotations

import os
import re
import subprocess

from tinytf.train.cluster_spec import ClusterSpec

from .cluster_resolver import ClusterResolver, _format_master


def expand_hostlist(hostlist: str) -> list:
    """'n[1-2],m5,o[3-4,6]' -> ['n1', 'n2', 'm5', 'o3', 'o4', 'o6'] (zero padding kept, order kept)."""

    def parts():
        in_brackets, current = False, ""
        for c in hostlist:
            if in_brackets:
                if c == "[":
                    raise ValueError("nested '['")
                in_brackets = c != "]"
            elif c == "[":
                in_brackets = True
            elif c == ",":
                if not current:
                    raise ValueError("empty host name")
                yield current
                current = ""
                continue
            current += c
        if current:
            yield current

    def expand_range(expression):
        for part in expression.split(","):
            bounds = part.split("-")
            if len(bounds) == 1:
                bounds = bounds * 2
            elif len(bounds) != 2:
                raise ValueError(f"bad range {part!r}")
            digits = len(bounds[0])
            for i in range(int(bounds[0]), int(bounds[1]) + 1):
                yield str(i).zfill(digits)

    hosts = []
    try:
        for part in parts():
            match = re.match(r"([^,[\]]*)(\[([^\]]+)\])?$", part)
            if match is None:
                raise ValueError(f"Invalid part: {part}")
            prefix = match.group(1) or ""
            if match.group(3) is None:
                hosts.append(prefix)
            else:
                hosts.extend(prefix + i for i in expand_range(match.group(3)))
    except Exception as e:  # TF wraps every parsing failure alike
        raise ValueError(f'Invalid hostlist format "{hostlist}": {e}') from None
    return hosts


def expand_tasks_per_node(tasks_per_node: str) -> list:
    """'3(x2),2,1' -> [3, 3, 2, 1]."""
    result = []
    try:
        for part in tasks_per_node.split(","):
            match = re.match(r"(\d+)(\(x(\d+)\))?$", part)
            if match is None:
                raise ValueError(f"bad part {part!r}")
            result.extend([int(match.group(1))] * int(match.group(3) or 1))
    except Exception as e:
        raise ValueError(f'Invalid tasks-per-node list format "{tasks_per_node}": {e}') from None
    return result


def _slurm_var(name: str) -> str:
    name = "SLURM_" + name
    try:
        return os.environ[name]
    except KeyError:
        raise RuntimeError(f"{name} not found in environment. Not running inside a SLURM step?") from None


def get_num_gpus() -> int:
    """The NVIDIA GPUs of this node: CUDA_VISIBLE_DEVICES's entries, else nvidia-smi's list (as TF)."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return len(os.environ["CUDA_VISIBLE_DEVICES"].split(","))
    try:
        output = subprocess.check_output(["nvidia-smi", "--list-gpus"], encoding="utf-8")
    except subprocess.CalledProcessError as e:
        raise RuntimeError("Could not get number of GPUs from nvidia-smi. Maybe it is missing?\n"
                           f"Output: {e.output}") from None
    return sum(line.startswith("GPU ") for line in output.strip().split("\n"))


class SlurmClusterResolver(ClusterResolver):
    """SlurmClusterResolver(jobs=None, port_base=8888, gpus_per_node=None, gpus_per_task=None,
    tasks_per_node=None, auto_set_gpu=True, rpc_layer='grpc'): see the module."""

    def __init__(self, jobs=None, port_base=8888, gpus_per_node=None, gpus_per_task=None, tasks_per_node=None,
                 auto_set_gpu=True, rpc_layer="grpc"):
        self._rank = int(_slurm_var("PROCID"))
        self._jobs = jobs if jobs is not None else {"worker": int(_slurm_var("STEP_NUM_TASKS"))}
        self._port_base = port_base
        if tasks_per_node is None:
            hosts = expand_hostlist(_slurm_var("STEP_NODELIST"))
            self._task_configuration = dict(zip(hosts, expand_tasks_per_node(_slurm_var("STEP_TASKS_PER_NODE"))))
        elif isinstance(tasks_per_node, dict):
            self._task_configuration = tasks_per_node
        else:
            hosts = expand_hostlist(_slurm_var("STEP_NODELIST"))
            self._task_configuration = {host: int(tasks_per_node) for host in hosts}
        max_tasks_per_node = max(self._task_configuration.values())
        num_tasks = sum(self._task_configuration.values())
        if gpus_per_node is None:
            gpus_per_node = get_num_gpus()
        if gpus_per_task is None:
            gpus_per_task = gpus_per_node // max_tasks_per_node
        self._gpus_per_node, self._gpus_per_task = gpus_per_node, gpus_per_task
        self._auto_set_gpu = auto_set_gpu
        self.task_type = None
        self.task_id = None
        self.rpc_layer = rpc_layer
        self._gpu_allocation, self._cluster_allocation = [], {}
        if max_tasks_per_node * self._gpus_per_task > self._gpus_per_node:
            raise RuntimeError("Requested more GPUs per node than available.")
        if sum(self._jobs.values()) != num_tasks:
            raise RuntimeError(f"Requested {sum(self._jobs.values())} tasks but only {num_tasks} were assigned.")

    def cluster_spec(self):
        """The cluster, resolved again at each call; it also sets task_type / task_id from SLURM_PROCID."""
        tasks = []
        self._gpu_allocation, self._cluster_allocation = [], {}
        for host, num_tasks in sorted(self._task_configuration.items()):
            # TF's zip: a node gets at most gpus_per_node / gpus_per_task tasks (range(.., .., 0) raises as TF's)
            for port_offset, gpu_offset in zip(range(num_tasks),
                                               range(0, self._gpus_per_node, self._gpus_per_task)):
                tasks.append(f"{host}:{self._port_base + port_offset}")
                self._gpu_allocation.append(",".join(str(g) for g in range(gpu_offset,
                                                                           gpu_offset + self._gpus_per_task)))
        start = 0
        for task_type, num_tasks in sorted(self._jobs.items()):
            end = start + num_tasks
            self._cluster_allocation[task_type] = tasks[start:end]
            if start <= self._rank < end:
                self.task_type, self.task_id = task_type, self._rank - start
            start = end
        if self._auto_set_gpu:
            os.environ["CUDA_VISIBLE_DEVICES"] = self._gpu_allocation[self._rank]
        return ClusterSpec(self._cluster_allocation)

    def get_task_info(self):
        """(task_type, task_id) of this process: None until cluster_spec() has run, as in TF."""
        return self.task_type, self.task_id

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is not None and task_id is not None:
            return _format_master(self.cluster_spec().task_address(task_type, task_id), rpc_layer or self.rpc_layer)
        return ""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {"GPU": self._gpus_per_task}
