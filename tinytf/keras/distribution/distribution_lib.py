"""The classes and functions of keras.distribution (see __init__.py), with Keras 3.15's checks and messages."""

from __future__ import annotations

import collections.abc
import contextlib
import math
import re

import numpy as np

import tinytf as _tf

DEFAULT_BATCH_DIM_NAME = "batch"
_state = {"distribution": None}


def _unsupported(name):
    # Keras 3.15 looks these up on its TF backend's distribution_lib, which does not define them
    return AttributeError(f"module 'keras.src.backend.tensorflow.distribution_lib' has no attribute '{name}' "
                          f"(keras.distribution.{name} is not supported with the TensorFlow backend)")


def list_devices(device_type=None):
    """Names ("cpu:0", "gpu:1", ...) of the logical devices of `device_type`; by default the accelerators, or
    the CPUs when there are none."""
    devices = _tf.config.list_logical_devices(device_type=device_type.upper() if device_type else None)
    cpus = [d for d in devices if d.device_type.lower() == "cpu"]
    others = [d for d in devices if d.device_type.lower() != "cpu"]
    if device_type is None:
        devices = others or cpus
    return [f"{d.device_type.lower()}:{d.name.split(':')[-1]}" for d in devices]


def get_device_count(device_type=None):
    raise _unsupported("get_device_count")


def initialize(job_addresses=None, num_processes=None, process_id=None):
    raise _unsupported("initialize")


def distribute_tensor(tensor, layout):
    """KerasTensors pass through (Keras does so on every backend); real tensors need the backend's sharding."""
    from ..models.keras_tensor import KerasTensor
    if isinstance(tensor, KerasTensor):
        return tensor
    raise _unsupported("distribute_tensor")


def distribution():
    """The distribution set by set_distribution or the innermost Distribution.scope(), or None."""
    return _state["distribution"]


def set_distribution(value):
    _state["distribution"] = value


class DeviceMesh:
    """Devices laid out in an n-d grid whose axes have names ("batch", "model", ...)."""

    def __init__(self, shape, axis_names, devices=None):
        if not shape or not axis_names:
            raise ValueError(f"Shape and axis_names cannot be empty. Received: shape={shape}, axis_names={axis_names}")
        if len(shape) != len(axis_names):
            raise ValueError(f"Shape and axis_names should have same size. Received: shape={shape}, "
                             f"axis_names={axis_names}")
        devices = np.array(list_devices() if devices is None else devices)
        if math.prod(shape) != math.prod(devices.shape):
            raise ValueError(f"Shape does not match the number of devices. Received: shape={shape}; "
                             f"devices.shape={devices.shape}")
        self._shape, self._axis_names = shape, axis_names
        self._devices = np.reshape(devices, shape)

    @property
    def shape(self):
        return self._shape

    @property
    def axis_names(self):
        return self._axis_names

    @property
    def devices(self):
        return self._devices

    @property
    def backend_mesh(self):
        # TF's backend builds a DTensor mesh, which fails unless dtensor's accelerator system is initialized
        raise ValueError("Accelerators are uninitialized, please run dtensor.initialize_accelerator_system() first. "
                         "(tinytf has no DTensor: a DeviceMesh has no backend mesh.)")

    def __repr__(self):
        return f"<{type(self).__name__} shape={self.shape}, axis_names={self.axis_names}>"

    __str__ = __repr__


class TensorLayout:
    """How a tensor's axes map onto the mesh's axes (None: not sharded along that axis)."""

    def __init__(self, axes, device_mesh=None):
        self._axes = tuple(axes)
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def axes(self):
        return self._axes

    @property
    def device_mesh(self):
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, device_mesh):
        if self._device_mesh is not None:
            raise ValueError(f"Cannot override device mesh value. Existing value is {self._device_mesh}")
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def backend_layout(self):
        if self._device_mesh is None:
            raise ValueError("Cannot create sharding when device mesh is not set for TensorLayout.")
        return self._device_mesh.backend_mesh

    def _validate_axes(self):
        if self._device_mesh:
            valid = set(self._device_mesh.axis_names)
            names = set(self._axes) - {None}
            if names - valid:
                raise ValueError(f"Invalid axis names for Layout. Valid axis names: {valid}, Got {names}")

    def __repr__(self):
        return f"<{type(self).__name__} axes={self.axes}, device_mesh={self.device_mesh}>"

    __str__ = __repr__


class Distribution:
    """A mesh, the name of its batch axis, and how data and variables are laid out on it (one process here)."""

    def __init__(self, device_mesh, batch_dim_name=None, auto_shard_dataset=True):
        self._device_mesh, self._batch_dim_name = device_mesh, batch_dim_name
        self._auto_shard_dataset = auto_shard_dataset
        self._num_processes, self._process_id = 1, 0  # TF's distribution_lib has no multi-process support
        self._is_multi_process = False

    @property
    def num_processes(self):
        return self._num_processes

    @property
    def num_model_replicas(self):
        raise NotImplementedError()

    @property
    def data_shard_id(self):
        replicas = self.num_model_replicas
        if replicas >= self.num_processes:
            return self._process_id
        return self._process_id // (self.num_processes // replicas)

    def get_data_layout(self, data_shape):
        raise NotImplementedError()

    def get_variable_layout(self, variable):
        raise NotImplementedError()

    def get_tensor_layout(self, path):
        raise NotImplementedError()

    @contextlib.contextmanager
    def scope(self):
        """This distribution as the current one, the previous one back on exit."""
        previous = distribution()
        set_distribution(self)
        try:
            yield
        finally:
            set_distribution(previous)

    @property
    def device_mesh(self):
        return self._device_mesh

    @property
    def batch_dim_name(self):
        return self._batch_dim_name

    @property
    def auto_shard_dataset(self):
        return self._auto_shard_dataset

    @auto_shard_dataset.setter
    def auto_shard_dataset(self, value):
        self._auto_shard_dataset = value

    def distribute_dataset(self, dataset):
        """The dataset itself: with one process there is nothing to shard."""
        return dataset

    def __repr__(self):
        return f"<{type(self).__name__} device_mesh={self.device_mesh}>"

    __str__ = __repr__


def _batch_sharded(data_shape, batch_dim_name, mesh):
    spec = [None] * len(data_shape)
    spec[0] = batch_dim_name
    return TensorLayout(spec, mesh)


class DataParallel(Distribution):
    """Every variable replicated on every device of a 1-d mesh, batches split along its axis."""

    def __init__(self, device_mesh=None, devices=None, auto_shard_dataset=True):
        if device_mesh:
            if not isinstance(device_mesh, DeviceMesh):
                raise ValueError(f"Expect `mesh` to be an instance of `DeviceMesh`. Received: mesh={device_mesh} (of "
                                 f"type {type(device_mesh)})")
            super().__init__(device_mesh, device_mesh.axis_names[0], auto_shard_dataset)
            if self.device_mesh.devices.ndim != 1:
                # Keras 3.15 means to warn here but passes ndim as warnings.warn's category: a TypeError
                raise TypeError("category must be a Warning subclass, not 'int' (Keras 3.15's DataParallel fails on "
                                f"a mesh of {device_mesh.devices.ndim} dimensions: it expects a 1-D mesh)")
            return
        devices = np.array(devices if devices else list_devices())
        mesh = DeviceMesh(shape=devices.shape, axis_names=[DEFAULT_BATCH_DIM_NAME], devices=devices)
        super().__init__(mesh, DEFAULT_BATCH_DIM_NAME, auto_shard_dataset)

    @property
    def num_model_replicas(self):
        return self.device_mesh.devices.size

    def get_data_layout(self, data_shape):
        return _batch_sharded(data_shape, self.batch_dim_name, self.device_mesh)

    def get_variable_layout(self, variable):
        if getattr(variable, "_layout", None) is not None:
            return variable._layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path):
        return None


class ModelParallel(Distribution):
    """Variables laid out by a LayoutMap (by their paths), batches split along the batch axis of its mesh."""

    def __init__(self, *, layout_map=None, batch_dim_name=None, auto_shard_dataset=True, **kwargs):
        kwargs.pop("device_mesh", None)
        if layout_map is None:
            raise ValueError("You must specify a layout_map argument.")
        if not isinstance(layout_map, LayoutMap):
            raise ValueError(f"Argument `layout_map` must be a `LayoutMap` instance. Received: layout_map={layout_map}")
        mesh = layout_map.device_mesh
        super().__init__(mesh, batch_dim_name or mesh.axis_names[0], auto_shard_dataset)
        self._layout_map = layout_map

    @property
    def num_model_replicas(self):
        return self.device_mesh.shape[self.device_mesh.axis_names.index(self.batch_dim_name)]

    def get_data_layout(self, data_shape):
        return _batch_sharded(data_shape, self.batch_dim_name, self.device_mesh)

    def get_variable_layout(self, variable):
        if getattr(variable, "_layout", None) is not None:
            return variable._layout
        layout = self._layout_map[variable.path]
        if layout is not None:
            return layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path):
        return self._layout_map[path]


class LayoutMap(collections.abc.MutableMapping):
    """Layouts by variable path: a key is a regular expression that must match a whole path; a path matching
    two keys is an error. Tuples become TensorLayouts on the map's mesh."""

    def __init__(self, device_mesh):
        self._layout_map = collections.OrderedDict()
        self._device_mesh = device_mesh

    def __getitem__(self, key):
        if key in self._layout_map:
            return self._layout_map[key]
        matching = [pattern for pattern in self._layout_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Path '{key}' matches multiple layout specification keys: {matching}. Please make sure "
                             "each tensor/variable path only matches at most one layout specification key in the "
                             "LayoutMap.")
        return self._layout_map[matching[0]] if matching else None

    def __setitem__(self, key, layout):
        if key in self._layout_map:
            raise ValueError(f"{key} already exist in the LayoutMap with value {self._layout_map[key]}. Please make "
                             "sure to not use duplicated keys.")
        if isinstance(layout, tuple):
            layout = TensorLayout(axes=layout, device_mesh=None)
        if not isinstance(layout, TensorLayout):
            raise ValueError(f"{layout} should be a TensorLayout type, got {type(layout)}")
        if layout.device_mesh is None and self.device_mesh is not None:
            layout.device_mesh = self.device_mesh
        self._layout_map[key] = layout

    def __delitem__(self, key):
        return self._layout_map.pop(key)

    def __len__(self):
        return len(self._layout_map)

    def __iter__(self):
        return iter(self._layout_map)

    @property
    def device_mesh(self):
        return self._device_mesh
