"""tf.config: run functions eagerly, switch graph passes on and off, check every graph (for tests)."""

from __future__ import annotations

import os
import weakref

# Devices and threads (tinytf/config_devices.py): the CPU, as TF describes a machine without GPUs
from tinytf.config_devices import (  # noqa: F401
    LogicalDevice,
    LogicalDeviceConfiguration,
    PhysicalDevice,
    experimental,
    get_logical_device_configuration,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_logical_device_configuration,
    set_soft_device_placement,
    set_visible_devices,
)
from tinytf.config_devices import threading_options as threading  # noqa: F401
from tinytf.runtime import context
from tinytf.runtime.optimize import OFF_BY_DEFAULT, PASS_NAMES

run_eagerly = False  # read on every tf.function call: a module global is the cheapest lookup
# While tf.summary.trace_on is active: called with (ConcreteFunction, leaves) on each tf.function call (calls
# then take the general path); it notes the graph and returns the call's result when it ran the call itself
# (profiling), else None. None when no trace is on.
call_tracer = None
# What a call tracer returns when it ran a call whose result is None (None itself means "not run, go on")
RAN_RETURNING_NONE = object()
_settings = {
    "check_graphs": os.environ.get("TINYTF_CHECK_GRAPHS", "") not in ("", "0"),
}
# Graph optimizer passes by name -> enabled (absent means on). TINYTF_PASSES=none starts with every pass off
# (CI runs the whole test suite both ways).
_optimizer: dict = {"disable_all": True} if os.environ.get("TINYTF_PASSES", "") == "none" else {}


_specialized: "weakref.WeakSet" = weakref.WeakSet()  # Functions whose __call__ was specialized


def run_functions_eagerly(enabled: bool) -> None:
    """With True, @tf.function calls run the Python function as written (no tracing, no AutoGraph)."""
    global run_eagerly
    run_eagerly = bool(enabled)
    if run_eagerly:  # specialized calls skip this check: send them back to the general path
        unspecialize_all()


def unspecialize_all() -> None:
    """Send every specialized tf.function back to its general call path (which checks settings and tapes)."""
    for function in list(_specialized):
        function._unspecialize()
    _specialized.clear()


def note_specialized(function) -> None:
    _specialized.add(function)


context.tape_started_listeners.append(unspecialize_all)


def functions_run_eagerly() -> bool:
    return run_eagerly


def check_graphs() -> bool:
    return _settings["check_graphs"]


def set_check_graphs(enabled: bool) -> None:
    """Run the graph checker on every traced graph and after every pass (the test suite turns this on)."""
    _settings["check_graphs"] = bool(enabled)


def optimizer_options() -> dict:
    return dict(_optimizer)


def optimizer_snapshot() -> tuple:
    """Every optimizer switch as set now (tinytf's passes and TF's option names), for restore_optimizer_snapshot."""
    return dict(_optimizer), dict(_tf_options)


def restore_optimizer_snapshot(snapshot: tuple) -> None:
    passes, tf_named = snapshot
    restore_optimizer_options(passes)
    _tf_options.clear()
    _tf_options.update(tf_named)


def restore_optimizer_options(saved: dict) -> None:
    """Put back options read with optimizer_options() (set_experimental_options only adds: a pass named since
    would stay switched as it was named)."""
    _optimizer.clear()
    _optimizer.update(saved)


# TF's option names (Grappler's RewriterConfig, in its order): each maps onto the tinytf passes doing that job;
# the others (layout, host pinning, plugins, ...) have nothing to switch here and are only reported back
_TF_OPTIONS = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping", "arithmetic_optimization",
               "dependency_optimization", "loop_optimization", "function_optimization", "debug_stripper",
               "disable_model_pruning", "scoped_allocator_optimization", "pin_to_host_optimization",
               "implementation_selector", "auto_mixed_precision", "use_plugin_optimizers", "disable_meta_optimizer",
               "auto_mixed_precision_onednn_bfloat16", "auto_mixed_precision_mkl")
_TF_OPTION_PASSES = {
    "constant_folding": ("constant_folding",),
    "arithmetic_optimization": ("simplification", "common_subexpression"),
    "remapping": ("conv_epilogue", "relu_pool_gradient"),
    "loop_optimization": ("loop_invariant_motion", "stack_release"),
    "debug_stripper": ("debug_stripper",),
}
_tf_options: dict = {}  # what the program set under TF's names, as get_experimental_options reports it


class optimizer:
    """`tf.config.optimizer`: per-pass switches, under TF's option names (constant_folding, debug_stripper,
    arithmetic_optimization, disable_meta_optimizer, ...) or tinytf's own pass names (fusion, buffer_planning...)."""

    @staticmethod
    def set_experimental_options(options: dict) -> None:
        for name, value in options.items():
            if name == "min_graph_nodes":
                _tf_options[name] = int(value)
            elif name == "disable_model_pruning":
                _tf_options[name] = bool(value)
                _optimizer["pruning"] = not value
            elif name == "disable_meta_optimizer":
                _tf_options[name] = bool(value)
                _optimizer["disable_all"] = bool(value)
            elif name in _TF_OPTIONS:
                _tf_options[name] = bool(value)
                for pass_name in _TF_OPTION_PASSES.get(name, ()):
                    _optimizer[pass_name] = bool(value)
            elif name in PASS_NAMES or name == "disable_all":
                _optimizer[name] = bool(value)
            # else: TF ignores an option name it does not know, and so does tinytf

    @staticmethod
    def get_experimental_options() -> dict:
        out = {}
        for name in _TF_OPTIONS:
            if name == "disable_meta_optimizer":
                out[name] = bool(_optimizer.get("disable_all", False))
            elif name == "disable_model_pruning":
                out[name] = not _optimizer.get("pruning", True)
            elif name in _tf_options:
                out[name] = _tf_options[name]
        if "min_graph_nodes" in _tf_options:
            out["min_graph_nodes"] = _tf_options["min_graph_nodes"]
        for name, value in _optimizer.items():  # tinytf's own switches, where they differ from the default
            default = name in OFF_BY_DEFAULT or name == "disable_all"
            if value != (not default):
                out.setdefault(name, value)
        return out


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0, protocol=None,
                                    make_master_device_default=True, cluster_device_filters=None):
    """Make this program a task of the cluster and check that its tasks answer (tinytf/distribute/remote.py)."""
    from tinytf.distribute.remote import connect_to_cluster

    return connect_to_cluster(cluster_spec_or_resolver, job_name, task_index, protocol, make_master_device_default,
                              cluster_device_filters)


def experimental_connect_to_host(remote_host=None, job_name="worker"):
    """experimental_connect_to_cluster with a cluster of the given host(s) as the job `job_name`."""
    from tinytf.distribute.remote import connect_to_remote_host

    return connect_to_remote_host(remote_host, job_name)
