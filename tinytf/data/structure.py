"""Element structures of datasets: nests (tuples, dicts, namedtuples) of TensorSpecs, and elements kept
inside pipelines as flat tuples of numpy values (one per spec), wrapped into tensors only when they leave
the pipeline (an iterator's next element, a traced function's arguments)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import nest, shapes
from tinytf.runtime.errors import OpError
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..constant import convert_to_tensor
from ..ragged.ragged_tensor import RaggedTensor
from ..tensor_spec import TensorSpec
from . import ragged_elements
from .extension_elements import ExtensionParts, is_extension, restore, to_parts
from .ragged_elements import RaggedValue, is_ragged_spec


def normalize(value):
    """A user value as tf.data sees it: tuples, dicts and namedtuples are structure, lists and numpy arrays
    are tensors (TF converts a list to one tensor). Returns the structure with eager tensors as leaves."""
    if isinstance(value, list):
        return convert_to_tensor(value)
    if isinstance(value, ExtensionParts):
        return type(value)(normalize(v) for v in value)
    if is_extension(value):
        return to_parts(value, normalize)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[normalize(v) for v in value])
    if isinstance(value, tuple):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return type(value)((k, normalize(v)) for k, v in value.items())
    if isinstance(value, (Tensor, RaggedTensor)) or _is_sparse(value):
        return value
    return convert_to_tensor(value)


def _is_sparse(value) -> bool:
    from ..sparse import SparseTensor

    return isinstance(value, SparseTensor)


def leaves_of(tensors) -> tuple:
    """The numpy values of a structure of eager tensors, in nest order (a sparse tensor as its three arrays)."""
    def value(t):
        if _is_sparse(t):
            from .sparse_elements import from_sparse_tensor

            return from_sparse_tensor(t)
        if type(t) is RaggedTensor:
            return ragged_elements.from_ragged_tensor(t)
        return t._value
    return tuple(value(t) for t in nest.flatten(tensors))


def spec_of(tensors):
    """The element spec of a structure of tensors."""
    return nest.map_structure(lambda t: t._type_spec if _is_sparse(t) or type(t) is RaggedTensor
                              else TensorSpec(t._shape, t.dtype), tensors)


def flat_specs(structure) -> list:
    return nest.flatten(structure)


def pack(structure, values):
    """Eager tensors (in `structure`'s nest) of flat numpy values."""
    specs = nest.flatten(structure)
    return restore(nest.pack_sequence_as(structure, [_leaf(v, s) for v, s in zip(values, specs)]))


def _leaf(value, spec):
    if type(spec) is DatasetSpec:
        return value
    if type(value) is RaggedValue:
        return ragged_elements.to_ragged_tensor(spec, value)
    if type(value) is tuple:  # a sparse component (sparse_elements.py)
        from .sparse_elements import to_sparse_tensor

        return to_sparse_tensor(spec, value)
    return EagerTensor(value, spec.dtype)


def map_specs(fn, structure):
    return nest.map_structure(fn, structure)


def with_batch_dim(structure, size):
    """Specs of a batch of elements: `size` (None when a last short batch may exist) in front."""
    def add(spec):
        if is_ragged_spec(spec):
            return ragged_elements.batched_spec(spec, size)
        if hasattr(spec, "_component_specs") and not isinstance(spec, DatasetSpec):
            from .sparse_elements import batched_spec

            return batched_spec(spec, size)
        if isinstance(spec, DatasetSpec):  # TF makes opaque nested variants nothing can read: say so instead
            raise TypeError(f"cannot batch elements that are datasets ({spec}): use flat_map or interleave to "
                            "read them, or batch each dataset")
        return TensorSpec(None if spec._shape is None else (size,) + tuple(spec._shape), spec.dtype)
    return nest.map_structure(add, structure)


def without_batch_dim(structure, what: str):
    def drop(spec):
        if spec._shape is not None and len(spec._shape) == 0:
            raise ValueError(f"{what}: cannot unbatch an element with a scalar component ({spec})")
        if is_ragged_spec(spec):
            return ragged_elements.unbatched_spec(spec)
        if hasattr(spec, "_component_specs") and not isinstance(spec, DatasetSpec):
            from .sparse_elements import unbatched_spec

            return unbatched_spec(spec)
        return TensorSpec(None if spec._shape is None else tuple(spec._shape)[1:], spec.dtype)
    return nest.map_structure(drop, structure)


def common_spec(a, b, what: str):
    """The most specific spec covering both structures (concatenate, choose_from_datasets, ...)."""
    try:
        nest.assert_same_structure(a, b)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: incompatible dataset elements: {describe(a)} vs. {describe(b)}") from None
    fa, fb = nest.flatten(a), nest.flatten(b)
    out = []
    for x, y in zip(fa, fb):
        if x.dtype is not y.dtype or is_ragged_spec(x) != is_ragged_spec(y) or (
                is_ragged_spec(x) and (x._ragged_rank, x._row_splits_dtype) != (y._ragged_rank, y._row_splits_dtype)):
            raise TypeError(f"{what}: incompatible dataset elements: {describe(a)} vs. {describe(b)}")
        shape = shapes.most_specific_common(x._shape, y._shape)
        out.append(type(x)(shape, x.dtype, x._ragged_rank, x._row_splits_dtype) if is_ragged_spec(x)
                   else TensorSpec(shape, x.dtype))
    return nest.pack_sequence_as(a, out)


def describe(structure) -> str:
    """The structure as TF prints an element_spec (TensorSpec reprs in tuples and dicts)."""
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in structure.items()) + "}"
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        inner = ", ".join(f"{f}={describe(v)}" for f, v in zip(structure._fields, structure))
        return f"{type(structure).__name__}({inner})"
    if isinstance(structure, tuple):
        inner = ", ".join(describe(v) for v in structure)
        return f"({inner},)" if len(structure) == 1 else f"({inner})"
    return repr(structure)


def as_numpy(tensor_structure):
    """An element as as_numpy_iterator gives it: numpy arrays/scalars in the same nest. As TF 2.21 does, a
    SparseTensor becomes its dense array (zeros where no value is; strings raise TypeError) and a RaggedTensor its
    .numpy() (an array of rows, an object array when their lengths differ)."""
    def numpy(t):
        if hasattr(t, "dense_shape"):
            return _dense_of_sparse(t.indices.numpy(), t.values.numpy(), t.dense_shape.numpy())
        return t.numpy()
    return nest.map_structure(numpy, tensor_structure)


def _dense_of_sparse(indices, values, dense_shape):
    shape = tuple(int(d) for d in dense_shape)
    if values.dtype == object:  # TF's SparseTensor._numpy makes np.zeros of the dtype, which strings have not
        raise TypeError("as_numpy_iterator: a sparse component of strings has no dense numpy form (TF raises too); "
                        "map it with tf.sparse.to_dense(x, default_value=b'') first")
    out = np.zeros(shape, values.dtype)
    if len(values):
        out[tuple(np.asarray(indices).reshape(len(values), -1).T)] = values
    return out


def zero_value(spec):
    """A placeholder value of a spec (unknown dims 0): what an empty optional holds."""
    shape = tuple(0 if d is None else d for d in (spec._shape or ()))
    return np.zeros(shape, spec.dtype.np)


class DatasetSpec:
    """The spec of a dataset: of an element that is itself a dataset (window's components), and of a dataset
    passed to a tf.function (TF's tf.data.DatasetSpec)."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self._shape = dataset_shape

    @staticmethod
    def from_value(value):
        """The spec of the dataset `value` (TF's DatasetSpec.from_value)."""
        return DatasetSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and other.element_spec == self.element_spec

    def __hash__(self):
        return hash(describe(self.element_spec))  # element specs may hold dicts: hash their printed form

    def __repr__(self):
        return f"DatasetSpec({describe(self.element_spec)}, TensorShape({list(self._shape)}))"

    # A dataset passed to a tf.function is keyed by this spec and reaches the graph as one variant tensor.
    @property
    def _component_specs(self) -> list:
        from tinytf.runtime.ops.data import VARIANT

        return [TensorSpec((), VARIANT)]

    def _to_components(self, value) -> list:
        return value._to_components()

    # _from_components (the dataset a variant tensor holds) is installed by symbolic.py, above DatasetV2

    def is_compatible_with(self, other) -> bool:
        return self == getattr(other, "_type_spec", other)


# errors of one element's computation, which become ElementErrors instead of ending the pipeline
ELEMENT_ERRORS = (OpError, ValueError, TypeError, ArithmeticError, IndexError)


class ElementError:
    """An element whose computation failed: it travels down the pipeline in the element's place, so that
    ignore_errors() can drop it and every other consumer raises it when it arrives."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error
