"""The last plain names of tf.compat.v1: TF1's mutable DeviceSpec, VariableAggregation with its TF1 alias,
`device` and `container` scopes, and the build constants TF 2.21 reports. tinytf runs everything on the CPU and
keeps no resource containers, so the scopes check their argument and place nothing (as tf.device does)."""

from __future__ import annotations

import contextlib

from tinytf.runtime.context import state

from ...device import device as _device
from ...device_spec import DeviceSpec as _DeviceSpecV2
from ...device_spec import _as_device_type, _as_int_or_none, _as_str_or_none, _string_to_components
from ...variables import VariableAggregation as _VariableAggregationV2
from .graph import get_default_graph

# TF 2.21's wheel for Linux (tf.sysconfig's compile flags say the same): the C++11 ABI, not monolithic, C++17
CXX11_ABI_FLAG = 1
MONOLITHIC_BUILD = 0
CXX_VERSION = 201703


class VariableAggregation(_VariableAggregationV2):
    """TF1's VariableAggregation: TF2's values, and ONLY_FIRST_TOWER, TF1's name of ONLY_FIRST_REPLICA."""

    ONLY_FIRST_TOWER = _VariableAggregationV2.ONLY_FIRST_REPLICA


class DeviceSpec(_DeviceSpecV2):
    """TF1's DeviceSpec: TF2's, with settable fields and in-place `parse_from_string` / `merge_from`."""

    __slots__ = ()

    def _changed(self):
        self._as_string = None
        self._hash = None

    def to_string(self) -> str:
        if self._as_string is None:
            self._as_string = _DeviceSpecV2(*self._components()).to_string()
        return self._as_string

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self.to_string())
        return self._hash

    def _set(self, field, value):
        setattr(self, field, value)
        self._changed()

    job = property(lambda self: self._job, lambda self, v: self._set("_job", _as_str_or_none(v)))
    replica = property(lambda self: self._replica, lambda self, v: self._set("_replica", _as_int_or_none(v)))
    task = property(lambda self: self._task, lambda self, v: self._set("_task", _as_int_or_none(v)))
    device_type = property(lambda self: self._device_type,
                           lambda self, v: self._set("_device_type", _as_device_type(v)))
    device_index = property(lambda self: self._device_index,
                            lambda self, v: self._set("_device_index", _as_int_or_none(v)))

    def parse_from_string(self, spec):
        """Set the fields from `spec` ("/job:ps/task:0/device:CPU:0"); returns self."""
        self._job, self._replica, self._task, self._device_type, self._device_index = _string_to_components(spec)
        self._changed()
        return self

    def merge_from(self, dev):
        """Take `dev`'s set fields into this spec."""
        merged = self.make_merged_spec(dev)
        self._job, self._replica, self._task, self._device_type, self._device_index = merged._components()
        self._changed()


def device(device_name_or_function):
    """`tf.compat.v1.device`: a placement scope. A device function (replica_device_setter's) is accepted while a
    TF1 graph is being built, as TF accepts it there; tinytf places every op on the CPU either way."""
    if callable(device_name_or_function):
        if state.graph is None:
            raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
        return contextlib.nullcontext()
    return _device(device_name_or_function)


@contextlib.contextmanager
def container(container_name):
    """`tf.compat.v1.container`: the resource container of the stateful ops built inside (kept by name in the
    graph's `_container`, as TF's Graph keeps it; tinytf's Sessions hold every resource per Session anyway)."""
    graph = get_default_graph()
    previous = getattr(graph, "_container", "")
    graph._container = container_name
    try:
        yield container_name
    finally:
        graph._container = previous


__all__ = ["CXX11_ABI_FLAG", "CXX_VERSION", "DeviceSpec", "MONOLITHIC_BUILD", "VariableAggregation", "container",
           "device"]
