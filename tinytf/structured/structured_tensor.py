"""`tf.experimental.StructuredTensor`: a tensor of structures that share one schema, kept field-major (one
Tensor, RaggedTensor or nested StructuredTensor per field, whose outer `rank` dimensions are the structures'
shape). Its shape is the row count and one RowPartition per further dimension (partitions.py); its Spec
(spec.py) makes it a composite tensor, so tf.function, tf.nest and control flow carry it as its components.
The Python-value conversions are in pyval.py."""

from __future__ import annotations

import re

from tinytf.runtime import shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ..composite import CompositeTensor
from ..ragged.dynamic_shape import DynamicRaggedShape
from ..ragged.ragged_tensor import RaggedTensor
from ..ragged.row_partition import RowPartition
from . import partitions as _p

# Field names TF allows today (it may relax this later).
_FIELD_NAME_RE = re.compile("^[a-zA-Z][a-zA-Z0-9_]*$")


def _to_field_value(value):
    """A field value as a Tensor, RaggedTensor or StructuredTensor (lists become tensors)."""
    if isinstance(value, (Tensor, RaggedTensor, StructuredTensor)) or hasattr(type(value), "_type_spec"):
        return value
    try:
        return convert_to_tensor(value)
    except (ValueError, TypeError) as e:
        raise TypeError(f"Unexpected type for value in `fields`: {value!r}") from e


def _with_shape_dtype(value, dtype):
    if isinstance(value, RaggedTensor):
        return value.with_row_splits_dtype(dtype)
    if isinstance(value, StructuredTensor):
        return value.with_shape_dtype(dtype)
    return value


class StructuredTensor(CompositeTensor):
    """A multidimensional collection of structures with the same schema (build it with `from_pyval`,
    `from_fields` or `from_fields_and_rank`)."""

    __slots__ = ("_fields", "_shape", "_nrows", "_row_partitions", "_dtype", "_inner_shape")

    def __init__(self, fields, shape, nrows, row_partitions, dtype, internal=False, inner_shape=None):
        if not internal:
            raise ValueError("StructuredTensor's constructor is private; use StructuredTensor.from_fields, "
                             "from_fields_and_rank or from_pyval")
        self._fields, self._shape, self._nrows = fields, shape, nrows
        self._row_partitions, self._dtype = tuple(row_partitions), dtype
        if inner_shape is None:  # made now, so a traced value's components all belong to its graph
            if shape.rank == 0:
                inner_shape = convert_to_tensor(_zeros_vector(dtype))
            else:
                inner_shape = _a.reshape(_p.nvals_of(nrows, self._row_partitions), [1])
        self._inner_shape = inner_shape  # TF's DynamicRaggedShape inner shape: [number of structures]

    # --- factories ------------------------------------------------------------------------------------------
    @classmethod
    def from_fields(cls, fields, shape=(), nrows=None, row_partitions=None, validate=False) -> StructuredTensor:
        """A StructuredTensor of rank `len(shape)` whose field `k` holds fields[k] (its outer dimensions are
        the structures' shape). Shapes are checked statically (and eagerly by value); `validate` adds no run-time
        check, as in TF 2.21, whose StructuredTensor ignores it."""
        shape = TensorShape(shapes.as_shape(shape))
        rank = shape.rank
        if rank is None:
            raise ValueError("StructuredTensor's shape must have known rank.")
        if not isinstance(fields, dict):
            raise TypeError(f"fields must be a dictionary, got {type(fields).__name__}")
        if rank < 2 and row_partitions:
            raise ValueError("row_partitions must be None or [] if shape.rank<2")
        if rank == 0 and nrows is not None:
            raise ValueError("nrows must be None if shape.rank==0")
        if row_partitions is not None:
            row_partitions = tuple(row_partitions)
            if len(row_partitions) != max(0, rank - 1):
                raise ValueError("len(row_partitions) must be shape.rank-1")
        converted = {}
        for key, value in fields.items():
            if not isinstance(key, str):
                raise TypeError(f"Unexpected type for key in `fields`: {key}")
            if not _FIELD_NAME_RE.match(key):
                raise ValueError(f"Field name {key!r} is not currently allowed.")
            converted[key] = _to_field_value(value)
        return cls._build(converted, shape, nrows, row_partitions)

    @classmethod
    def from_fields_and_rank(cls, fields, rank, validate=False, dtype=None) -> StructuredTensor:
        """A StructuredTensor of rank `rank` from a nonempty dict of fields (the shape read off the fields)."""
        if not fields:
            raise ValueError("Must provide at least one field")
        if not isinstance(rank, int):
            raise ValueError("rank must be an integer")
        if rank < 0:
            raise ValueError("rank must be nonnegative")
        converted = {k: _to_field_value(v) for k, v in fields.items()}
        return cls._build(converted, TensorShape([None] * rank), None, None, dtype=dtype)

    @classmethod
    def from_shape(cls, ragged_shape) -> StructuredTensor:
        """A StructuredTensor with no fields and the shape of a DynamicRaggedShape."""
        parts = tuple(ragged_shape.row_partitions)
        rank, dtype = ragged_shape.rank, ragged_shape.dtype
        if rank > 1 and len(parts) < rank - 1:  # uniform inner dimensions become uniform partitions
            static = ragged_shape._static_inner
            inner = ragged_shape.inner_shape
            dims = [static[i] if static is not None and static[i] is not None else inner[i]
                    for i in range(rank - len(parts))]
            parts += _p.uniform_partitions(dims, rank - 1 - len(parts), dtype)
        nrows = ragged_shape[0] if rank else None
        return cls._build({}, TensorShape([None] * rank), nrows, parts if rank > 1 else None, dtype=dtype)

    @classmethod
    def _build(cls, fields: dict, shape: TensorShape, nrows, row_partitions, dtype=None) -> StructuredTensor:
        """Infer, merge and check the shape of `fields` against the given `shape`, `nrows`, `row_partitions`."""
        rank = shape.rank
        if dtype is None:
            dtype = _p.shape_dtype_of(fields, nrows, row_partitions)
        fields = {k: _with_shape_dtype(v, dtype) for k, v in fields.items()}
        if rank == 0:
            return cls(fields, shape, None, (), dtype, internal=True)
        found_nrows, found_parts = None, None
        for key, value in fields.items():
            value_rank = _p.field_rank(value)
            if value_rank is not None and value_rank < rank:
                raise ValueError(f"Error in shape of {key}: a field of rank {value_rank} in a StructuredTensor of "
                                 f"rank {rank}")
            v_nrows, v_parts = _p.outer_shape(value, rank, dtype)
            if found_nrows is None:
                found_nrows, found_parts = v_nrows, v_parts
                continue
            a, b = _p.static_int(found_nrows), _p.static_int(v_nrows)
            if a is not None and b is not None and a != b:
                raise ValueError("fields have incompatible nrows")
            for mine, theirs in zip(found_parts, v_parts):
                if not _p.same_partitions(mine, theirs):
                    raise ValueError("fields have incompatible row_partitions")
        if nrows is not None:
            nrows = _p.int_tensor(nrows, dtype)
            if found_nrows is not None:
                a, b = _p.static_int(found_nrows), _p.static_int(nrows)
                if a is not None and b is not None and a != b:
                    raise ValueError("fields have incompatible nrows")
            else:
                found_nrows = nrows
        if row_partitions is not None:
            row_partitions = tuple(p.with_dtype(dtype) for p in row_partitions)
            if found_parts is not None:
                for mine, theirs in zip(found_parts, row_partitions):
                    if not _p.same_partitions(mine, theirs):
                        raise ValueError("fields have incompatible row_partitions")
            else:
                found_parts = row_partitions
        if found_nrows is None and shape._dims[0] is not None:
            found_nrows = _p.int_tensor(shape._dims[0], dtype)
        if found_parts is None and rank > 1 and shape.is_fully_defined():
            found_parts = _p.uniform_partitions(list(shape._dims), rank - 1, dtype)
        if found_nrows is None and found_parts:
            found_nrows = found_parts[0].nrows()
        if found_nrows is None:
            raise ValueError("Must specify `nrows`, a fully specified `shape`, or have `fields` if `rank=1`")
        if found_parts is None:
            found_parts = ()
            if rank > 1:
                raise ValueError("Must specify row_partitions, a fully specified shape, or have fields if rank > 1")
        inferred = _p.static_shape(found_nrows, found_parts)
        if not inferred.is_compatible_with(shape):
            raise ValueError(f"Incompatible shapes: the fields give {inferred}, the shape given is {shape}")
        return cls(fields, inferred.merge_with(shape), found_nrows, found_parts, dtype, internal=True)

    # --- properties -----------------------------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """The rank of this StructuredTensor (never None)."""
        return self._shape.rank

    @property
    def shape(self) -> TensorShape:
        """The static shape: known rank, dimensions possibly None (ragged or unknown)."""
        return self._shape

    @property
    def row_partitions(self) -> tuple:
        """One RowPartition per dimension after the first (empty when rank < 2)."""
        return self._row_partitions

    def nrows(self):
        """The number of rows (the outermost dimension) as a scalar integer tensor, None for rank 0."""
        if self._nrows is None and self.rank > 0:  # rebuilt from components: read off them now
            self._nrows = self._row_partitions[0].nrows() if self._row_partitions else self._inner_shape[0]
        return self._nrows

    def field_names(self) -> tuple:
        return tuple(self._fields)

    def field_value(self, field_name):
        """The value of one field, or of a nested field named by a path (tuple of names)."""
        if isinstance(field_name, (list, tuple)):
            value = self
            for name in field_name:
                if not isinstance(value, StructuredTensor):
                    raise KeyError(f"Field path {field_name} not found in {self}")
                value = value.field_value(name)
            return value
        return self._fields[field_name]

    def with_shape_dtype(self, dtype) -> StructuredTensor:
        """The same value with row partitions (and ragged fields' row splits) of `dtype`."""
        from tinytf.runtime import dtypes

        dtype = dtypes.as_dtype(dtype)
        if dtype is self._dtype:
            return self
        fields = {k: _with_shape_dtype(v, dtype) for k, v in self._fields.items()}
        nrows = None if self.rank == 0 else _p.int_tensor(self.nrows(), dtype)
        return StructuredTensor(fields, self._shape, nrows, tuple(p.with_dtype(dtype) for p in self._row_partitions),
                                dtype, internal=True)

    # --- TF's ExtensionType fields (tf.experimental.extension_type.as_dict reads them) ---------------------
    @classmethod
    def _tf_extension_type_fields(cls) -> list:
        from ..extension_type.fields import Field

        return [Field("_fields", dict), Field("_ragged_shape", DynamicRaggedShape)]

    @property
    def _ragged_shape(self) -> DynamicRaggedShape:
        """The structures' shape as TF keeps it: the row partitions and the inner shape [number of structures]."""
        return DynamicRaggedShape(self._row_partitions, self._inner_shape, dtype=self._dtype)

    # --- transforms -----------------------------------------------------------------------------------------
    def with_updates(self, updates: dict, validate=False) -> StructuredTensor:
        """A copy with fields set (a value), transformed (a function of the old value) or removed (None);
        a tuple key names a nested field."""
        from .updates import with_updates

        return with_updates(self, updates, validate)

    def promote(self, source_path, new_name) -> StructuredTensor:
        """A copy with field `source_path` also under its grandparent as `new_name`, the dimensions between
        grandparent and parent merged."""
        from .updates import promote

        return promote(self, source_path, new_name)

    def partition_outer_dimension(self, row_partition) -> StructuredTensor:
        """This value with its outer dimension cut into rows by `row_partition` (rank + 1)."""
        if not isinstance(row_partition, RowPartition):
            raise TypeError("row_partition must be a RowPartition.")
        if self.rank == 0:
            raise ValueError(f"Shape {self.shape} must have rank at least 1")
        return partition_outer(self, row_partition)

    def merge_dims(self, outer_axis, inner_axis) -> StructuredTensor:
        """Dimensions outer_axis..inner_axis merged into one, in row-major order."""
        rank = self.rank
        outer = _positive_axis(outer_axis, rank, "outer_axis")
        inner = _positive_axis(inner_axis, rank, "inner_axis")
        if not outer <= inner:
            raise ValueError(f"Expected outer_axis ({outer}) to be less than or equal to inner_axis ({inner})")
        if outer == inner:  # TF's _merge_dims asserts outer < inner
            raise AssertionError(f"merge_dims: outer_axis ({outer}) must be less than inner_axis ({inner})")
        return merge_dims(self, outer, inner)

    # --- indexing -------------------------------------------------------------------------------------------
    def __getitem__(self, key):
        from .indexing import getitem

        return getitem(self, key)

    # --- conversion -----------------------------------------------------------------------------------------
    @classmethod
    def from_pyval(cls, pyval, typespec=None) -> StructuredTensor:
        """A StructuredTensor from a nested Python dict (or list of dicts); lists become Tensors (rank < 2) or
        RaggedTensors."""
        from .pyval import from_pyval

        return from_pyval(pyval, typespec, ())

    def to_pyval(self):
        """This value as nested Python dicts and lists (eager only)."""
        from .pyval import to_pyval

        return to_pyval(self)

    def __repr__(self):
        items = sorted(self._fields.items())
        parts = ('"{}": {}'.format(k, str(v).replace("\n", "\n            ")) for k, v in items)
        body = ",\n        ".join(parts)
        return f"<StructuredTensor(\n    fields={{\n        {body}}},\n    shape={self._shape})>"

    # --- composite protocol ---------------------------------------------------------------------------------
    @property
    def _type_spec(self):
        from .spec import spec_of

        return spec_of(self)

    def _pipeline_components(self) -> list:
        """What tf.data carries for this value: its fields (sorted by name), which all share the outer
        dimensions, so slicing and batching them slices and batches the structures (spec.py rebuilds it)."""
        if not self._fields:
            raise ValueError("tf.data cannot carry a StructuredTensor without fields")
        return [self._fields[k] for k in sorted(self._fields)]

    def _to_components(self) -> list:
        out = []
        for key in sorted(self._fields):
            value = self._fields[key]
            if isinstance(value, Tensor):
                out.append(value)
            else:
                out.extend(value._to_components())
        out.append(self._inner_shape)  # the inner shape, then the partitions' row splits (TF's sorted order)
        out.extend(p.row_splits() for p in self._row_partitions)
        return out


def _zeros_vector(dtype):
    import numpy as np

    return np.zeros([0], dtype.np)


def _positive_axis(axis, rank, name):
    if not isinstance(axis, int):
        raise TypeError(f"{name} must be an int; got {type(axis).__name__}")
    if not -rank <= axis < rank:
        raise ValueError(f"{name}={axis} out of bounds: expected {-rank}<={name}<{rank}")
    return axis + rank if axis < 0 else axis


# --- merge_dims and partition_outer_dimension, for every kind of field value -----------------------------------
def merge_dims(value, outer: int, inner: int):
    """Dimensions outer..inner of a Tensor, RaggedTensor or StructuredTensor merged into one."""
    if isinstance(value, RaggedTensor):
        return value.merge_dims(outer, inner)
    if isinstance(value, Tensor):
        static = value._shape
        if static is not None and all(d is not None for d in static):
            size = 1
            for d in static[outer:inner + 1]:
                size *= d
            return _a.reshape(value, list(static[:outer]) + [size] + list(static[inner + 1:]))
        dims = _a.shape(value)
        new = _a.concat([dims[:outer], _a.reshape(_reduce_prod(dims[outer:inner + 1]), [1]), dims[inner + 1:]], 0)
        return _a.reshape(value, new)
    fields = {k: merge_dims(v, outer, inner) for k, v in value._fields.items()}
    nrows, parts = _p.merge_partitions(value.nrows(), value._row_partitions, outer, inner)
    dims = list(value._shape._dims)
    merged_static = _p.static_shape(nrows, parts)
    shape = TensorShape(dims[:outer] + [None] + dims[inner + 1:]).merge_with(merged_static)
    return StructuredTensor(fields, shape, nrows, parts, value._dtype, internal=True)


def _reduce_prod(t):
    from tinytf.runtime.ops import reduce as _r

    return _r.reduce_prod(t)


def partition_outer(value, row_partition):
    """`value` with its outer dimension cut by `row_partition` (TF's _partition_outer_dimension)."""
    ragged = row_partition.uniform_row_length() is None
    if isinstance(value, Tensor) and not ragged:
        length = row_partition.static_uniform_row_length
        nrows = row_partition.static_nrows
        static = value._shape
        if length is not None and nrows is not None and static is not None and None not in static[1:]:
            return _a.reshape(value, [nrows, int(length)] + list(static[1:]))
        head = _a.stack([row_partition.nrows(), row_partition.uniform_row_length()])
        return _a.reshape(value, _a.concat([head, _a.shape(value, out_type=row_partition.dtype)[1:]], 0))
    if isinstance(value, (Tensor, RaggedTensor)):
        return RaggedTensor._from_row_partition(value, row_partition)
    fields = {k: partition_outer(v, row_partition) for k, v in value._fields.items()}
    partition = row_partition.with_dtype(value._dtype)
    nrows = partition.nrows()
    static_nrows = _p.static_int(nrows)
    nrows = _p.int_tensor(static_nrows if static_nrows is not None else nrows, value._dtype)
    length = row_partition.static_uniform_row_length
    shape = TensorShape([static_nrows, None if length is None else int(length)]).concatenate(value._shape[1:])
    return StructuredTensor(fields, shape, nrows, (partition,) + value._row_partitions, value._dtype, internal=True)
