"""tf.distribute.CrossDeviceOps: how a strategy combines values that live on several devices (one per
replica) into the devices of a destination. TF ships three algorithms: ReductionToOneDevice (copy every
component to one device, add them there, copy the sum back), HierarchicalCopyAllReduce (a tree of copies
between GPUs) and NcclAllReduce (NVIDIA's ring all-reduce). tinytf's replicas all live in this machine's
memory, so the copies cost nothing and each algorithm is the arithmetic it does: ReductionToOneDevice adds the
components with its `accumulation_fn` (tf.math.add_n by default, or yours); HierarchicalCopyAllReduce adds
them pairwise, as its tree does (replica 0 + 1, 2 + 3, then the pairs); NcclAllReduce adds them in ring order
(replica 0, 1, 2, ...). With one or two replicas all three give the same bits.

The values are tensors, so a reduction works eagerly and inside a tf.function alike; a destination with
several devices (a MirroredVariable, a Mirrored or PerReplica value, a list of devices) gets a Mirrored value
holding the result once per device, a single device (a device string, a plain variable) gets the tensor."""

from __future__ import annotations

import tinytf as _tf

from .reduce_op import ReduceOp
from .values import Mirrored, PerReplica


def _check_reduce_op(reduce_op) -> ReduceOp:
    if not isinstance(reduce_op, ReduceOp):  # TF takes only the enum here (strings are strategy.reduce's)
        raise ValueError("`reduce_op` must be Reduce.SUM or Reduce.MEAN.")
    return reduce_op


def destination_count(destinations) -> int:
    """How many devices `destinations` names: a device string 1, a list of devices its length, a distributed
    value or a MirroredVariable one per replica, a plain variable or tensor 1."""
    if destinations is None:
        raise ValueError("destinations can not be None")
    if isinstance(destinations, str):
        if not destinations:
            raise ValueError("destinations can not be empty")
        return 1
    if isinstance(destinations, (list, tuple)):
        if not destinations:
            raise ValueError("destinations can not be empty")
        return len(destinations)
    if isinstance(destinations, PerReplica):
        return len(destinations.values)
    replica_values = getattr(type(destinations), "_replica_values", None)
    if replica_values is not None:  # a MirroredVariable: one component per replica of its strategy
        return destinations._strategy.num_replicas_in_sync
    return 1


def _components(value) -> list:
    if isinstance(value, PerReplica):
        return [_tf.convert_to_tensor(v) for v in value.values]
    return [_tf.convert_to_tensor(value)]


def _on_destinations(result, destinations):
    n = destination_count(destinations)
    return Mirrored([result] * n) if n > 1 else result


class CrossDeviceOps:
    """Base class of the cross-device reduction and broadcast algorithms (TF's tf.distribute.CrossDeviceOps).
    Subclasses say how the components are added (`_accumulate`)."""

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        """The SUM or MEAN of `per_replica_value`'s components (a plain tensor is one component), placed on
        `destinations`."""
        reduce_op = _check_reduce_op(reduce_op)
        return _on_destinations(self._reduce(reduce_op, per_replica_value), destinations)

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        """reduce() of each (value, destinations) pair, in order."""
        reduce_op = _check_reduce_op(reduce_op)
        pairs = list(value_destination_pairs)
        for pair in pairs:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError("`value_destination_pairs` should be a list or tuple of tuples of "
                                 "(value, destinations)")
        return [self.reduce(reduce_op, value, destinations, options) for value, destinations in pairs]

    def broadcast(self, tensor, destinations):
        """`tensor` on every device of `destinations`."""
        return _on_destinations(_tf.convert_to_tensor(tensor), destinations)

    def _reduce(self, reduce_op, value):
        parts = _components(value)
        total = parts[0] if len(parts) == 1 else self._accumulate(parts)
        if reduce_op is ReduceOp.MEAN and len(parts) > 1:
            if total.dtype.is_floating or total.dtype.is_complex:
                total = total / _tf.cast(len(parts), total.dtype)
            else:
                total = total // _tf.cast(len(parts), total.dtype)
        return total

    def _accumulate(self, parts: list):
        return _tf.math.add_n(parts)


class ReductionToOneDevice(CrossDeviceOps):
    """Every component is added on one device (`reduce_to_device`, the first destination by default) with
    `accumulation_fn` (tf.math.add_n by default), and the sum is copied to the destinations."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn or _tf.math.add_n

    def _accumulate(self, parts: list):
        return self.accumulation_fn(parts)


class _PackedAllReduce(CrossDeviceOps):
    _name = ""

    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"{self._name} requires num_packs >= 0, but {num_packs} is specified")
        self.num_packs = num_packs  # how many packs TF concatenates gradients into: the sums are the same


class HierarchicalCopyAllReduce(_PackedAllReduce):
    """The components added pairwise, as TF's copy tree adds them (0 + 1, 2 + 3, ..., then the pairs' sums)."""

    _name = "HierarchicalCopy"

    def _accumulate(self, parts: list):
        while len(parts) > 1:
            pairs = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
            parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
        return parts[0]


class NcclAllReduce(_PackedAllReduce):
    """The components added in ring order (replica 0, 1, 2, ...), as a ring all-reduce accumulates them."""

    _name = "NCCL all-reduce"

    def _accumulate(self, parts: list):
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total
