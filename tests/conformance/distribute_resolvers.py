"""The cluster resolvers TF 2.21 offers besides TF_CONFIG's: SlurmClusterResolver from SLURM's environment
variables (node lists with ranges, tasks per node, jobs, ports, GPUs per task), KubernetesClusterResolver and
GCEClusterResolver driven by injected fake clients (as TF's own tests drive them), UnionResolver merging
resolvers, TPUClusterResolver without a TPU, TPUStrategy's error, KubernetesExecutableLocation and
CollectiveHints. Environment variables a program sets are put back afterwards."""

from __future__ import annotations

import os
import types

from . import outcome, program, val

_SLURM = ("SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_NODELIST", "SLURM_STEP_TASKS_PER_NODE",
          "CUDA_VISIBLE_DEVICES")


def _with_env(env, fn):
    saved = {k: os.environ.get(k) for k in _SLURM}
    try:
        for k in _SLURM:
            os.environ.pop(k, None)
        os.environ.update(env)
        return fn()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _slurm_view(resolver):
    before = list(resolver.get_task_info())
    spec = resolver.cluster_spec().as_dict()
    return [before, spec, list(resolver.get_task_info()), resolver.master(),
            outcome(lambda: resolver.master("ps", 0, "http"), "No such job"),
            dict(resolver.num_accelerators()), os.environ.get("CUDA_VISIBLE_DEVICES"), resolver.rpc_layer]


@program
def p_slurm_resolver_from_environment(tf):
    slurm = tf.distribute.cluster_resolver.SlurmClusterResolver
    base = {"SLURM_PROCID": "3", "SLURM_STEP_NUM_TASKS": "5", "SLURM_STEP_NODELIST": "t02n[08-09],a1",
            "SLURM_STEP_TASKS_PER_NODE": "2(x2),1", "CUDA_VISIBLE_DEVICES": "0,1,2,3"}
    out = [_with_env(base, lambda: _slurm_view(slurm(jobs={"ps": 1, "worker": 4}, port_base=9000)))]
    out.append(_with_env(base, lambda: _slurm_view(slurm(gpus_per_node=2, gpus_per_task=1, auto_set_gpu=False))))
    out.append(_with_env(dict(base, SLURM_PROCID="0"), lambda: _slurm_view(
        slurm(jobs={"worker": 4, "chief": 1}, tasks_per_node={"x": 3, "b": 2}, gpus_per_node=6, rpc_layer=""))))
    out.append(_with_env(dict(base, SLURM_STEP_NODELIST="n[1-2]"), lambda: _slurm_view(
        slurm(jobs={"worker": 4}, tasks_per_node=2, gpus_per_node=4))))
    errors = [
        _with_env({}, lambda: outcome(lambda: slurm(), "SLURM_PROCID not found")),
        _with_env(base, lambda: outcome(lambda: slurm(jobs={"worker": 2}), "Requested 2 tasks but only 5")),
        _with_env(base, lambda: outcome(lambda: slurm(gpus_per_node=2, gpus_per_task=2), "more GPUs per node")),
        _with_env(dict(base, SLURM_STEP_NODELIST="n[1-2"), lambda: outcome(slurm, "Invalid hostlist format")),
        _with_env(dict(base, SLURM_STEP_TASKS_PER_NODE="2(y2)"), lambda: outcome(slurm, "tasks-per-node")),
    ]
    return out + errors


class _Request:
    def __init__(self, answer):
        self.answer = answer

    def execute(self):
        return self.answer


class _Compute:
    """A stand-in for googleapiclient's compute service: one instance group of two pages."""

    pages = [{"items": [{"instance": "zones/z/instances/vm-b"}, {"instance": "zones/z/instances/vm-a"}]},
             {"items": [{"instance": "zones/z/instances/vm-c"}]}]
    ips = {"vm-a": "10.0.0.9", "vm-b": "10.0.0.10", "vm-c": "10.0.0.2"}

    def instanceGroups(self):  # noqa: N802 - the client's name
        return self

    def instances(self):
        return self

    def listInstances(self, **kwargs):  # noqa: N802
        return _Request(self.pages[0])

    def listInstances_next(self, previous_request, previous_response):  # noqa: N802
        index = self.pages.index(previous_response) + 1
        return _Request(self.pages[index]) if index < len(self.pages) else None

    def get(self, project, zone, instance):
        return _Request({"networkInterfaces": [{"networkIP": self.ips[instance]}]})


def _pod(name, ip, phase="Running"):
    return types.SimpleNamespace(metadata=types.SimpleNamespace(name=name),
                                 status=types.SimpleNamespace(host_ip=ip, phase=phase))


class _Kubernetes:
    pods = {"job-name=a": [_pod("w2", "10.1.0.2"), _pod("w1", "10.1.0.1")], "job-name=b": [_pod("w0", "10.1.0.3")],
            "job-name=ps": [_pod("ps0", "10.2.0.1")], "job-name=bad": [_pod("p", "1.1.1.1", "Pending")]}

    def list_pod_for_all_namespaces(self, label_selector):
        return types.SimpleNamespace(items=self.pods[label_selector])


@program
def p_service_resolvers_with_injected_clients(tf):
    cr = tf.distribute.cluster_resolver
    gce = cr.GCEClusterResolver("project", "zone", "group", 8470, service=_Compute())
    out = [gce.cluster_spec().as_dict(), gce.master(), gce.master("worker", 2, rpc_layer=""), gce.task_type,
           gce.task_id, gce.rpc_layer, outcome(lambda: setattr(gce, "task_type", "ps"), "cannot reset")]
    gce.task_id = 1
    out.append(gce.master())
    k8s = cr.KubernetesClusterResolver({"worker": ["job-name=a", "job-name=b"], "ps": ["job-name=ps"]},
                                       override_client=_Kubernetes())
    out += [k8s.cluster_spec().as_dict(), k8s.master(), k8s.task_type, k8s.task_id, k8s.rpc_layer]
    k8s.task_type, k8s.task_id = "worker", 2
    out += [k8s.master(), k8s.master("ps", 0, "http")]
    default = cr.KubernetesClusterResolver(override_client=_Kubernetes(), tf_server_port=1)
    out.append(outcome(lambda: default.cluster_spec(), "job-name=tensorflow"))
    bad = cr.KubernetesClusterResolver({"worker": ["job-name=bad"]}, override_client=_Kubernetes())
    out.append(outcome(bad.cluster_spec, "is not running"))
    out.append(outcome(lambda: cr.KubernetesClusterResolver(), "Kubernetes Python client must be installed"))
    out.append(outcome(lambda: cr.GCEClusterResolver("p", "z", "g", 1), "googleapiclient must be installed"))
    location = cr.KubernetesExecutableLocation
    out.append([[m.name, m.value] for m in location])
    return out


@program
def p_union_resolver_merges(tf):
    cr = tf.distribute.cluster_resolver
    spec = tf.train.ClusterSpec
    first = cr.SimpleClusterResolver(spec({"worker": ["a:1", "b:2"], "ps": ["p:1"]}), task_type="worker",
                                     task_id=1, rpc_layer="grpc", master="m:0", environment="google")
    second = cr.SimpleClusterResolver(spec({"worker": ["c:3"], "chief": ["d:4"]}))
    union = cr.UnionResolver(first, second)
    out = [union.cluster_spec().as_dict(), union.master(), union.master("worker", 2), union.task_type,
           union.task_id, union.rpc_layer, union.environment]
    union.task_type, union.task_id, union.rpc_layer = "chief", 0, "http"
    out += [union.task_type, union.task_id, union.master("chief", 0), union.rpc_layer]
    sparse = cr.SimpleClusterResolver(spec({"worker": {3: "e:5", 7: "f:6"}}))
    other = cr.SimpleClusterResolver(spec({"worker": {1: "g:7"}}))
    out.append(cr.UnionResolver(sparse, other).cluster_spec().as_dict())
    clash = cr.UnionResolver(sparse, cr.SimpleClusterResolver(spec({"worker": {3: "h:8"}})))
    out.append(outcome(clash.cluster_spec, "Duplicate keys"))
    out.append(outcome(lambda: cr.UnionResolver(), "At least one ClusterResolver"))
    out.append(outcome(lambda: cr.UnionResolver(first, "x"), "sub-class of `ClusterResolver"))
    out.append(outcome(lambda: cr.UnionResolver(first, bad=1), "Unexpected kwargs"))
    return out


@program
def p_tpu_resolver_and_strategy_without_a_tpu(tf):
    cr = tf.distribute.cluster_resolver
    local = cr.TPUClusterResolver(tpu="local")
    remote = cr.TPUClusterResolver(tpu="grpc://10.1.2.3:8470")
    return [outcome(lambda: cr.TPUClusterResolver(), "Please provide a TPU Name"),
            [local.master(), local.cluster_spec().as_dict(), dict(local.num_accelerators()), local.task_type,
             local.task_id, local.environment],
            [remote.master(), remote.get_master(), remote.cluster_spec().as_dict()],
            outcome(lambda: tf.distribute.TPUStrategy(), "Please provide a TPU Name"),
            outcome(lambda: tf.distribute.experimental.TPUStrategy(), "Please provide a TPU Name")]


@program
def p_collective_hints_are_communication_options(tf):
    hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=5, timeout_seconds=3.0)
    options = tf.distribute.experimental.CommunicationOptions
    return [hints.bytes_per_pack, hints.timeout_seconds, isinstance(hints, options),
            val(tf.distribute.experimental.CollectiveHints().bytes_per_pack),
            outcome(lambda: tf.distribute.experimental.CollectiveHints(bytes_per_pack=-1), "must be >=0")]
