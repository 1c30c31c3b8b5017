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
from tinytf.runtime.optimize import PASS_NAMES

run_eagerly = False  # read on every tf.function call: a module global is the cheapest lookup
# While tf.summary.trace_on is active: called with (ConcreteFunction, leaves) on each tf.function call (calls
# then take the general path); it notes the graph and returns the call's result when it ran the call itself
# (profiling), else None. None when no trace is on.
call_tracer = None
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


def restore_optimizer_options(saved: dict) -> None:
    """Put back options read with optimizer_options() (set_experimental_options only adds: a pass named since
    would stay switched as it was named)."""
    _optimizer.clear()
    _optimizer.update(saved)


class optimizer:
    """`tf.config.optimizer`: per-pass switches, like TF's set_experimental_options."""

    @staticmethod
    def set_experimental_options(options: dict) -> None:
        for name, enabled in options.items():
            if name not in PASS_NAMES and name != "disable_all":
                raise ValueError(f"unknown optimizer pass {name!r}; known passes: {', '.join(PASS_NAMES)}")
            _optimizer[name] = bool(enabled)

    @staticmethod
    def get_experimental_options() -> dict:
        return dict(_optimizer)
