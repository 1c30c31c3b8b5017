"""`StructuredTensor.Spec`: the TypeSpec of a StructuredTensor, its field specs (by name) and its static shape
(a RaggedShapeSpec). Its components are, as TF's, each field's components in sorted field order, then the inner-shape
vector, then each row partition's row splits; so tf.nest.flatten(st, expand_composites=True) lists the
same tensors as TF's, and tf.function keys and traces a StructuredTensor argument by this spec."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..composite import TypeSpec
from ..ragged.row_partition import RowPartition
from ..tensor_spec import TensorSpec
from ..type_spec_base import TypeSpec as _BaseTypeSpec
from . import partitions as _p
from .shape_spec import RaggedShapeSpec, RowPartitionSpec
from .structured_tensor import StructuredTensor


def _field_spec(value):
    if isinstance(value, Tensor):
        return TensorSpec(value._shape, value.dtype)
    return value._type_spec


def _partition_spec(partition) -> RowPartitionSpec:
    splits = partition.row_splits()
    length = partition.static_uniform_row_length
    length = None if length is None else int(length)
    nrows = partition.static_nrows
    if isinstance(splits, EagerTensor):
        nvals = int(splits.numpy()[-1])
    else:
        nvals = nrows * length if nrows is not None and length is not None else None
    return RowPartitionSpec(nrows, nvals, length, partition.dtype)


def spec_of(st: StructuredTensor) -> StructuredTensorSpec:
    fields = {k: _field_spec(v) for k, v in st._fields.items()}
    parts = tuple(_partition_spec(p) for p in st._row_partitions)
    if st.rank == 0:
        inner = TensorShape([])
    elif isinstance(st._inner_shape, EagerTensor):
        inner = TensorShape([int(st._inner_shape.numpy()[0])])
    else:
        inner = TensorShape([parts[-1].nvals if parts else st._shape._dims[0]])
    return StructuredTensorSpec(_ragged_shape=RaggedShapeSpec(parts, inner, st._dtype), _fields=fields)


class StructuredTensorSpec(TypeSpec):
    """StructuredTensor.Spec(_ragged_shape, _fields): the type of a StructuredTensor."""

    __slots__ = ("_fields", "_ragged_shape")
    value_type = StructuredTensor

    def __init__(self, _ragged_shape, _fields):
        if not isinstance(_fields, dict) or any(not isinstance(k, str) for k in _fields):
            raise TypeError("StructuredTensor.Spec: _fields must be a dict with string keys")
        if not isinstance(_ragged_shape, RaggedShapeSpec):
            raise TypeError(f"StructuredTensor.Spec: _ragged_shape must be a DynamicRaggedShape.Spec, got "
                            f"{type(_ragged_shape).__name__}")
        self._fields, self._ragged_shape = dict(_fields), _ragged_shape

    @classmethod
    def _deserialize(cls, serialization):
        fields, ragged_shape = serialization
        return cls(_ragged_shape=ragged_shape, _fields=dict(fields))

    def _serialize(self) -> tuple:
        return (self._fields, self._ragged_shape)

    def __hash__(self):
        return hash(("StructuredTensor.Spec", tuple(sorted(self._fields.items())), self._ragged_shape))

    # the public TypeSpec's rules (every fact compared), not composite.TypeSpec's component-only check
    is_compatible_with = _BaseTypeSpec.is_compatible_with

    @property
    def _shape(self) -> TensorShape:
        shape = self._ragged_shape
        if shape.rank == 0:
            return TensorShape([])
        nrows = shape.row_partitions[0].nrows if shape.row_partitions else shape.static_inner_shape._dims[0]
        return TensorShape([nrows] + [p.uniform_row_length for p in shape.row_partitions])

    shape = _shape

    @property
    def _field_specs(self) -> dict:
        return self._fields

    @property
    def rank(self) -> int:
        return self._ragged_shape.rank

    @classmethod
    def _from_fields_and_rank(cls, fields: dict, rank: int) -> StructuredTensorSpec:
        """The spec of a StructuredTensor of rank `rank` with these field specs (its shape read off them)."""
        shape = None
        for key, spec in fields.items():
            field_shape = TensorShape(spec.shape) if hasattr(spec, "shape") else None
            if field_shape is None or field_shape.rank is None:
                raise ValueError(f"Cannot convert spec of {key}.")
            if field_shape.rank < rank:
                raise ValueError(f"Rank of field {key} is {field_shape.rank}, but must be at least {rank}.")
            head = field_shape[:rank]
            shape = head if shape is None else shape.merge_with(head)
        if shape is None:
            raise ValueError("Must provide at least one field")
        return cls._from_tensor_shape(fields, shape, _spec_dtype(fields))

    @classmethod
    def _from_tensor_shape(cls, fields: dict, shape: TensorShape, dtype) -> StructuredTensorSpec:
        dims = list(shape._dims)
        if not dims:
            return cls(_ragged_shape=RaggedShapeSpec((), TensorShape([]), dtype), _fields=fields)
        parts, rows = [], dims[0]
        for length in dims[1:]:
            nvals = None if rows is None or length is None else rows * length
            parts.append(RowPartitionSpec(rows, nvals, length, dtype))
            rows = nvals
        return cls(_ragged_shape=RaggedShapeSpec(parts, TensorShape([rows]), dtype), _fields=fields)

    # --- tf.data: a StructuredTensor travels as its fields (StructuredTensor._pipeline_components) ---------
    def _pipeline_rank(self, first) -> int:
        """This spec's rank, plus the dimensions a pipeline added to (or minus those it took from) the fields."""
        before = self._fields[sorted(self._fields)[0]].shape.rank
        after = first.shape.rank if hasattr(first, "shape") else None
        return self.rank if before is None or after is None else self.rank + after - before

    def _pipeline_spec(self, specs: list) -> StructuredTensorSpec:
        fields = dict(zip(sorted(self._fields), specs))
        return StructuredTensorSpec._from_fields_and_rank({k: fields[k] for k in self._fields},
                                                          self._pipeline_rank(specs[0]))

    def _from_pipeline_components(self, values: list) -> StructuredTensor:
        fields = dict(zip(sorted(self._fields), values))
        return StructuredTensor.from_fields_and_rank({k: fields[k] for k in self._fields},
                                                     self._pipeline_rank(values[0]))

    # --- composite protocol ---------------------------------------------------------------------------------
    @property
    def _component_specs(self) -> list:
        out = []
        for key in sorted(self._fields):
            spec = self._fields[key]
            out.extend([spec] if isinstance(spec, TensorSpec) else spec._component_specs)
        return out + self._ragged_shape._component_specs

    def _from_components(self, components):
        components, index, fields = list(components), 0, {}
        for key in sorted(self._fields):
            spec = self._fields[key]
            if isinstance(spec, TensorSpec):
                fields[key] = components[index]
                index += 1
            else:
                count = len(spec._component_specs)
                fields[key] = spec._from_components(components[index:index + count])
                index += count
        fields = {k: fields[k] for k in self._fields}  # the schema's own order
        shape = self._ragged_shape
        inner, parts = components[index], []
        index += 1
        for pspec in shape.row_partitions:
            splits = components[index]
            index += 1
            # built without ops: this also runs on a traced function's outputs once its graph is closed
            length = None if pspec.uniform_row_length is None else convert_to_tensor(
                np.array(pspec.uniform_row_length, pspec.dtype.np))
            parts.append(RowPartition(splits, uniform_row_length=length, nrows=pspec.nrows, internal=True))
        if index != len(components):
            raise ValueError(f"StructuredTensor.Spec: expected {index} components, got {len(components)}")
        static = self._shape
        nrows = None  # found from the components when first asked for (StructuredTensor.nrows)
        if static.rank and static._dims[0] is not None:
            nrows = _p.int_tensor(static._dims[0], shape.dtype)
        return StructuredTensor(fields, static, nrows, tuple(parts), shape.dtype, internal=True, inner_shape=inner)

    def __repr__(self):
        return f"StructuredTensor.Spec(_fields={self._fields!r}, _ragged_shape={self._ragged_shape!r})"


def _spec_dtype(field_specs: dict):
    found = [getattr(s, "row_splits_dtype", None) for s in field_specs.values()]
    found += [s._ragged_shape.dtype for s in field_specs.values() if isinstance(s, StructuredTensorSpec)]
    if dtypes.int64 in found:
        return dtypes.int64
    return dtypes.int32 if dtypes.int32 in found else dtypes.int64


StructuredTensorSpec.__name__ = StructuredTensorSpec.__qualname__ = "StructuredTensor.Spec"  # as TF names it
StructuredTensor.Spec = StructuredTensorSpec
