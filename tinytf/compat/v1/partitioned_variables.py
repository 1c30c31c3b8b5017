"""TF1's partitioned variables: `get_variable(..., partitioner=p)` makes one variable as several shards along
one axis (`w/part_0`, `w/part_1`, ...), each an ordinary variable of the graph's collections that knows which
slice of the whole it is (`_save_slice_info`). The PartitionedVariable that holds them converts to the whole
tensor (a concat of the shards) wherever an op takes it, and a Saver writes the shards as slices of one tensor
named like the whole (`w`), as TF does: TF reads such a checkpoint into any partitioning, or into one variable,
and so does tinytf (the slice keys: tinytf/train/slice_keys.py)."""

from __future__ import annotations

import functools
import inspect
import math

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.ops.array import concat, identity
from tinytf.runtime.ops.indexing import slice as slice_op
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ...scopes import name_scope
from ...tensor_conversion import register_tensor_conversion_function


class SaveSliceInfo:
    """Which slice of the full variable `full_name` a shard holds (TF's `Variable.SaveSliceInfo`)."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None, save_slice_info_def=None,
                 import_scope=None):
        self.full_name = full_name
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)
        self.var_shape = list(var_shape)

    @property
    def spec(self) -> str:
        """TF's text form: the full shape, then `offset,length` per dimension ("7 2 3,2:0,2")."""
        full = " ".join(str(d) for d in self.full_shape)
        return f"{full} " + ":".join(f"{o},{s}" for o, s in zip(self.var_offset, self.var_shape))

    def __repr__(self):
        return f"SaveSliceInfo({self.full_name!r}, spec={self.spec!r})"


class PartitionInfo:
    """What an initializer that takes `partition_info` is told: the full shape and this shard's offset."""

    def __init__(self, full_shape, var_offset):
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)

    def single_offset(self, shape):
        return self.var_offset[self.single_slice_dim(shape)]

    def single_slice_dim(self, shape):
        for i, (full, part) in enumerate(zip(self.full_shape, shape)):
            if full != part:
                return i
        return 0


class PartitionedVariable:
    """`tf.compat.v1.PartitionedVariable`: the shards of one variable. Iterating gives the shards; in an op it
    is the whole tensor; `assign*` split the value over the shards. (TF has no operators on it: `w * 2` raises
    TypeError there too; convert it first.)"""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        self._name = name
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._variable_list = sorted(variable_list, key=lambda v: v._save_slice_info.var_offset)
        self._partitions = list(partitions)
        if len(self._shape) != len(self._partitions):
            raise ValueError(f"len(shape) != len(partitions): {self._shape} vs. {self._partitions}")

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def _partition_axes(self):
        axes = [i for i, p in enumerate(self._partitions) if p > 1]
        return axes or [0]

    def _concat(self):
        if len(self._variable_list) == 1:
            with name_scope(None):
                return identity(self._variable_list[0], name=self._name)
        with name_scope(self._name + "/ConcatPartitions/"):
            whole = concat(list(self._variable_list), self._partition_axes()[0])
        with name_scope(None):
            return identity(whole, name=self._name)

    def as_tensor(self):
        """The whole variable as one tensor (a concat of the shards)."""
        return self._concat()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _split(self, value):
        """`value`'s slice for each shard, by the shards' offsets."""
        value = value if isinstance(value, Tensor) else np.asarray(value, dtype=self._dtype.np)
        parts = []
        for variable in self._variable_list:
            info = variable._save_slice_info
            if isinstance(value, Tensor):
                parts.append(slice_op(value, info.var_offset, info.var_shape))
            else:
                parts.append(value[tuple(slice(o, o + n) for o, n in zip(info.var_offset, info.var_shape))])
        return parts

    def _apply(self, method, value, use_locking, name, read_value):
        results = [getattr(v, method)(part, use_locking=use_locking, read_value=read_value)
                   for v, part in zip(self._variable_list, self._split(value))]
        return results

    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._apply("assign", value, use_locking, name, read_value)

    def assign_add(self, value, use_locking=False, name=None, read_value=True):
        return self._apply("assign_add", value, use_locking, name, read_value)

    def assign_sub(self, value, use_locking=False, name=None, read_value=True):
        return self._apply("assign_sub", value, use_locking, name, read_value)

    def __repr__(self):
        return f"<PartitionedVariable {self._name!r} shape={self._shape} dtype={self._dtype.name} " \
               f"shards={len(self._variable_list)}>"


def _convert(value, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
        raise ValueError(f"Incompatible type conversion requested to type '{dtypes.as_dtype(dtype).name}' for "
                         f"variable of type '{value.dtype.name}'")
    if as_ref:
        raise NotImplementedError("PartitionedVariable doesn't support being used as a reference.")
    return value.as_tensor()


register_tensor_conversion_function(PartitionedVariable, _convert)


# ---- partitioners: (shape, dtype) -> how many shards along each axis ----

def _element_size(dtype, bytes_per_string_element) -> int:
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string_element if dtype == dtypes.string else dtype.size


def fixed_size_partitioner(num_shards, axis=0):
    """`tf.compat.v1.fixed_size_partitioner`: `num_shards` shards along `axis` (fewer when the axis is shorter)."""
    def _partitioner(shape, **unused_args):
        partitions = [1] * len(shape)
        partitions[axis] = min(num_shards, TensorShape(shape)[axis])
        return partitions
    return _partitioner


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16, max_shards=None):
    """`tf.compat.v1.variable_axis_size_partitioner`: shards along `axis` of at most `max_shard_bytes` each where
    one axis allows it (at most `max_shards` of them)."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. Currently, "
                         f"max_shard_bytes is {max_shard_bytes} andbytes_per_string_element is "
                         f"{bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        partitions = [1] * len(shape)
        bytes_per_slice = shape.num_elements() / shape[axis] * _element_size(dtype, bytes_per_string_element)
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        shards = int(math.ceil(shape[axis] / slices_per_shard))
        partitions[axis] = min(max_shards, shards) if max_shards else shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10, bytes_per_string_element=16):
    """`tf.compat.v1.min_max_variable_partitioner`: as many shards along `axis` as keep each at least
    `min_slice_size` bytes, and at most `max_partitions`."""
    def _partitioner(shape, dtype):
        shape = TensorShape(shape)
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is only {shape}")
        total = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = [1] * len(shape)
        partitions[axis] = max(1, min(shape[axis], max_partitions, int(math.ceil(total / min_slice_size))))
        return partitions
    return _partitioner


# ---- making the shards ----

def call_partitioner(partitioner, shape, dtype) -> list:
    """The partitioner's answer, checked as TF checks it (one partitioned axis, a length per dimension)."""
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but instead was {shape}.")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    partitions = partitioner(shape=shape, dtype=dtype)
    if not isinstance(partitions, (list, tuple)):
        raise ValueError(f"Partitioner must return a sequence, but saw: {partitions}")
    if len(partitions) != len(shape):
        raise ValueError(f"Partitioner returned a partition list that does not match the Variable's rank: "
                         f"{partitions} vs. {shape}")
    if any(p < 1 for p in partitions):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {partitions}")
    return list(partitions)


def slice_dim_and_count(partitions) -> tuple[int, int]:
    """The one axis to split and into how many shards ([1, 1] splits axis 0 into one)."""
    dim, count = 0, 1
    for i, p in enumerate(partitions):
        if p > 1:
            if count > 1:
                raise ValueError(f"Can only slice a variable along one dimension: partitions={partitions}")
            dim, count = i, p
    return dim, count


def iter_slices(full_shape, count, dim):
    """(offset, shape) of each shard: equal lengths, the first `length % count` shards one longer."""
    size, extra = divmod(full_shape[dim], count)
    offset = 0
    for i in range(count):
        length = size + (1 if i < extra else 0)
        shard_offset = [0] * len(full_shape)
        shard_offset[dim] = offset
        shard_shape = list(full_shape)
        shard_shape[dim] = length
        yield shard_offset, shard_shape
        offset += length


def shard_initializer(initializer, offset, shape, full_shape, dtype):
    """The initializer of one shard: a callable is called with the shard's shape (and `partition_info` when it
    takes one); a value or a tensor of the full shape gives its slice."""
    if initializer is None:
        return None
    if callable(initializer) and not isinstance(initializer, Tensor):
        if inspect.isclass(initializer):
            initializer = initializer()
        try:
            takes_info = "partition_info" in inspect.signature(initializer).parameters
        except (TypeError, ValueError):
            takes_info = False
        if takes_info:
            return functools.partial(initializer, partition_info=PartitionInfo(full_shape, offset))
        return initializer
    if isinstance(initializer, Tensor):
        return slice_op(initializer, offset, shape)
    value = np.asarray(initializer, dtype=None if dtype is None else dtypes.as_dtype(dtype).np)
    return value[tuple(slice(o, o + n) for o, n in zip(offset, shape))]


__all__ = ["PartitionedVariable", "fixed_size_partitioner", "min_max_variable_partitioner",
           "variable_axis_size_partitioner"]
