"""PerReplica: one value per replica, what strategy.run returns and what a distributed dataset yields.
It is a plain container; strategy.reduce and experimental_local_results take it apart."""

from __future__ import annotations

from tinytf.runtime import nest
from tinytf.tensor_spec import TensorSpec


class PerReplica:
    """Values that differ per replica (a replica's batch shard, its loss)."""

    def __init__(self, values):
        self.values = tuple(values)

    def __repr__(self):
        inner = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self.values))
        return "PerReplica:{\n" + inner + "\n}"

    # A PerReplica of tensors is a composite (as TF's is a CompositeTensor): a tf.function taking one (a step of a
    # distributed dataset) gets its components as arguments and is traced once per spec, not once per value.
    @property
    def _type_spec(self):
        if not all(hasattr(v, "dtype") and hasattr(v, "_shape") for v in self.values):
            return None  # not all tensors: an ordinary Python argument
        return PerReplicaSpec(type(self), [TensorSpec(v._shape, v.dtype) for v in self.values])

    def _to_components(self):
        return list(self.values)

    def _from_components(self, components):
        return type(self)(components)

    def __str__(self):  # print() shows each replica's value as print shows it, as TF's
        inner = ",\n".join(f"  {i}: {v!s}" for i, v in enumerate(self.values))
        return "PerReplica:{\n" + inner + "\n}"


def local_results(value) -> tuple:
    """The per-replica components of `value` (a PerReplica) or (value,) for an ordinary value; structures are
    taken apart leaf by leaf, as TF's experimental_local_results does. A MirroredVariable gives each
    replica's value (TF gives its per-device component variables)."""
    replica_values = getattr(type(value), "_replica_values", None)
    if replica_values is not None:
        from tinytf.constant import constant

        return tuple(constant(v) for v in value._replica_values)
    leaves = nest.flatten(value, expand_composites=False) if not isinstance(value, PerReplica) else [value]
    counts = {len(v.values) for v in leaves if isinstance(v, PerReplica)}
    if not counts:
        return (value,)
    if len(counts) > 1:
        raise ValueError(f"PerReplica values in one structure disagree on the number of replicas: {sorted(counts)}")
    n = counts.pop()
    return tuple(select_replica(i, value) for i in range(n))


def select_replica(i: int, structure):
    """The structure with every PerReplica leaf replaced by its i-th component."""
    return nest.map_structure(lambda v: v.values[i] if isinstance(v, PerReplica) else v, structure)


def regroup(results: list):
    """Results of the replicas (same structure each) as one structure with PerReplica leaves."""
    if len(results) == 1:
        return results[0]
    return nest.map_structure(lambda *parts: PerReplica(parts), *results)


class Mirrored(PerReplica):
    """The same value on every replica (what a reduction to several devices and `extended.update` of a
    MirroredVariable give): TF's Mirrored, printed as TF prints it."""

    def __repr__(self):
        return "Mirrored" + super().__repr__()[len("PerReplica"):]

    def __str__(self):
        return "Mirrored" + super().__str__()[len("PerReplica"):]


class ValueContext:
    """tf.distribute.experimental.ValueContext: which replica experimental_distribute_values_from_function's
    value_fn is making a value for."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync

    def __repr__(self):
        return (f"tf.distribute.ValueContext(replica id {self.replica_id_in_sync_group}, "
                f" total replicas in sync: {self.num_replicas_in_sync})")


class PerReplicaSpec:
    """The TypeSpec of a PerReplica of tensors: its class and one TensorSpec per replica. Equal specs have the
    same class and component dtypes (shapes are compared by tf.function through the component specs, so a
    trace for a batch of None rows serves every batch size)."""

    def __init__(self, value_class, component_specs):
        self._value_class = value_class
        self._specs = list(component_specs)

    @property
    def _component_specs(self):  # a class attribute: tf.function tells a TypeSpec by it (signature.py)
        return self._specs

    def _from_components(self, components):
        return self._value_class(components)

    def _key(self):
        return (self._value_class, tuple(spec.dtype for spec in self._component_specs))

    def __eq__(self, other):
        return isinstance(other, PerReplicaSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(repr(s) for s in self._component_specs)})"
