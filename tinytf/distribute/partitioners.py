"""tf.distribute.experimental.partitioners: how ParameterServerStrategy splits a variable into shards along its
first axis (a list with the number of shards per axis; only axis 0 is split). Fixed counts, or counts chosen from
the variable's bytes by TF 1's min_max_variable_partitioner / variable_axis_size_partitioner, whose rules tinytf
already has (compat/v1/partitioned_variables.py)."""

from __future__ import annotations

from tinytf.runtime.shapes import TensorShape


class Partitioner:
    """Base class: `partitioner(shape, dtype, axis=0)` gives the number of shards along each axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


class FixedShardsPartitioner(Partitioner):
    """`num_shards` shards along `axis` (fewer when the axis is shorter)."""

    def __init__(self, num_shards):
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        shape = TensorShape(shape)
        result = [1] * len(shape)
        result[axis] = min(self._num_shards, shape[axis])
        return result


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least `min_shard_bytes`, at most `max_shards`."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        if min_shard_bytes < 1:
            raise ValueError(f"Argument `min_shard_bytes` must be positive. Received: {min_shard_bytes}")
        if max_shards < 1:
            raise ValueError(f"Argument `max_shards` must be positive. Received: {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: {bytes_per_string}")
        self._min_shard_bytes, self._max_shards, self._bytes_per_string = min_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        from tinytf.compat.v1.partitioned_variables import min_max_variable_partitioner

        return min_max_variable_partitioner(max_partitions=self._max_shards, axis=axis,
                                            min_slice_size=self._min_shard_bytes,
                                            bytes_per_string_element=self._bytes_per_string)(TensorShape(shape), dtype)


class MaxSizePartitioner(Partitioner):
    """As few shards as keep each at most `max_shard_bytes` (at most `max_shards` of them when given)."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        if max_shard_bytes < 1:
            raise ValueError(f"Argument `max_shard_bytes` must be positive. Received {max_shard_bytes}")
        if max_shards and max_shards < 1:
            raise ValueError(f"Argument `max_shards` must be positive. Received {max_shards}")
        if bytes_per_string < 1:
            raise ValueError(f"Argument `bytes_per_string` must be positive. Received: {bytes_per_string}")
        self._max_shard_bytes, self._max_shards, self._bytes_per_string = max_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        from tinytf.compat.v1.partitioned_variables import variable_axis_size_partitioner

        return variable_axis_size_partitioner(max_shard_bytes=self._max_shard_bytes, max_shards=self._max_shards,
                                              bytes_per_string_element=self._bytes_per_string,
                                              axis=axis)(TensorShape(shape), dtype)
