"""Datasets that start pipelines: slices of tensors, whole tensors, ranges, Python generators, and the two
that join datasets (zip, concatenate)."""

from __future__ import annotations

import copy

import numpy as np

from tinytf.runtime import dtypes, nest, shapes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.array import constant_value
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..constant import convert_to_tensor
from ..ragged.ragged_tensor import RaggedTensor
from ..tensor_spec import TensorSpec
from .dataset import INFINITE, UNKNOWN, DatasetV2, dataset_methods
from .extension_elements import specs_as_parts, values_as_parts
from .ragged_elements import RaggedValue, from_ragged_tensor, is_ragged_spec, ragged_rows
from .sparse_elements import sparse_rows
from .structure import ElementError, common_spec, leaves_of, normalize, spec_of, without_batch_dim
from .symbolic import concrete_args, concrete_where_known, deferred, is_symbolic, symbolic_tensors


def with_values(structure, graph_tensors, values):
    """`structure` with its graph tensors replaced by eager tensors of `values`."""
    by_id = {id(t): EagerTensor(v, t.dtype) for t, v in zip(graph_tensors, values)}
    return nest.map_structure(lambda t: by_id.get(id(t), t), structure, expand_composites=True)


def as_int(value, what: str) -> int:
    """A count argument (Python int or scalar tensor, a graph constant included) as an int."""
    if is_symbolic(value):
        known = constant_value(value)
        if known is None:
            raise TypeError(f"{what} must be known when the dataset is built here, got the graph tensor {value!r}")
        value = known
    elif isinstance(value, Tensor):
        value = value.numpy()
    try:
        return int(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be an integer scalar, got {value!r}") from None


class TensorSliceDataset(DatasetV2):
    """One element per row of the first dimension of every component."""

    _tf_name = "_TensorSliceDataset"

    def __init__(self, tensors):
        element = concrete_where_known(normalize(tensors))
        leaves = nest.flatten(element)
        if symbolic_tensors(element):
            self._init_symbolic(element, leaves)
            return
        for t in leaves:
            if t.shape.rank == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, got the scalar {t!r} "
                                 "in from_tensor_slices")
        # a sparse or ragged component is sliced into its rows now (slices of a list of them are not batches: no
        # fast path)
        self._arrays = tuple(ragged_rows(a) if type(a) is RaggedValue else sparse_rows(a) if type(a) is tuple else a
                             for a in leaves_of(element))
        self._has_sparse = any(type(a) is list for a in self._arrays)
        sizes = {len(a) for a in self._arrays}
        if len(sizes) > 1:
            raise InvalidArgumentError(
                "Dimensions of the components of from_tensor_slices differ: all must have the same size in the "
                f"0th dimension, got sizes {[len(a) for a in self._arrays]}")
        super().__init__(without_batch_dim(spec_of(element), "from_tensor_slices"))
        self._size = sizes.pop() if sizes else 0

    def _init_symbolic(self, element, leaves):
        """Slices of graph tensors (a tf.function's arguments): the values arrive when the graph runs."""
        for t in leaves:
            if t.shape.rank == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, got the scalar {t!r} "
                                 "in from_tensor_slices")
        sizes = {t.shape[0] for t in leaves if t.shape.rank is not None and t.shape[0] is not None}
        if len(sizes) > 1:
            raise ValueError(f"Dimensions of the components of from_tensor_slices differ: {sorted(sizes)}")
        super().__init__(without_batch_dim(spec_of(element), "from_tensor_slices"))
        self._structure = element
        self._graph_tensors = symbolic_tensors(element)
        self._size = UNKNOWN
        self._has_sparse = False

    def _bound_copy(self, values):
        return TensorSliceDataset(with_values(self._structure, self._graph_tensors, values))

    def _cardinality(self):
        return self._size

    def _flat_iter(self):
        arrays = self._arrays
        if len(arrays) == 1:
            (array,) = arrays
            for i in range(self._size):
                yield (array[i],)
            return
        for i in range(self._size):
            yield tuple(a[i] for a in arrays)

    def _slices(self, start: int, stop: int) -> tuple:
        """Rows start:stop of every component (batches read per slice, not per row)."""
        return tuple(a[start:stop] for a in self._arrays)


class TensorDataset(DatasetV2):
    """One element: the whole structure."""

    _tf_name = "_TensorDataset"

    def __init__(self, tensors):
        element = concrete_where_known(normalize(tensors))
        super().__init__(spec_of(element))
        if symbolic_tensors(element):  # graph tensors: the values arrive when the graph runs
            self._structure = element
            self._graph_tensors = symbolic_tensors(element)
            return
        self._values = leaves_of(element)

    def _bound_copy(self, values):
        return TensorDataset(with_values(self._structure, self._graph_tensors, values))

    def _cardinality(self):
        return 1

    def _flat_iter(self):
        yield self._values


_INT64_MAX = (1 << 63) - 1


class RangeDataset(DatasetV2):
    """range(stop), range(start, stop), range(start, stop, step), as int64 by default."""

    _tf_name = "_RangeDataset"

    def __init__(self, *args, dtype=dtypes.int64):
        """`dtype` is Dataset.range's `output_type` (TF's keyword; other keywords are ignored, as TF does)."""
        ints = [as_int(a, "range's arguments") for a in args]
        if not 1 <= len(ints) <= 3:
            raise ValueError(f"Dataset.range takes 1 to 3 arguments (start, stop, step), got {len(ints)}")
        if len(ints) == 3 and ints[2] == 0:
            raise InvalidArgumentError("step must be a non-zero integer in Dataset.range")
        self._range = range(*ints)
        self._dtype = dtypes.as_dtype(dtype)
        super().__init__(TensorSpec((), self._dtype))

    def _cardinality(self):
        n = len(self._range)
        return INFINITE if n == _INT64_MAX else n  # TF counts a range of 2**63 - 1 elements as infinite

    def _flat_iter(self):
        kind = self._dtype.np.type
        for i in self._range:
            yield (kind(i),)


class CounterDataset(DatasetV2):
    """start, start + step, ... without end (tf.data.Dataset.counter, tf.data.experimental.Counter)."""

    _tf_name = "_CounterDataset"

    def __init__(self, start=0, step=1, dtype=dtypes.int64):
        self._start, self._step = as_int(start, "counter's start"), as_int(step, "counter's step")
        self._dtype = dtypes.as_dtype(dtype)
        super().__init__(TensorSpec((), self._dtype))

    def _cardinality(self):
        return INFINITE

    def _flat_iter(self):
        kind, value = self._dtype.np.type, self._start
        while True:
            yield (kind(value),)
            value += self._step


class GeneratorDataset(DatasetV2):
    """Elements yielded by a Python generator, checked against the declared signature."""

    _tf_name = "_FlatMapDataset"  # TF builds it as a flat_map over a generator-state dataset
    _what = "from_generator"

    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("The `output_types` and `output_shapes` arguments can only be used without "
                                "`output_signature`.")
            spec = output_signature
        else:
            if output_types is None:
                raise TypeError("The `output_types` argument can not be None if `output_signature` is not given.")
            shapes_ = output_shapes if output_shapes is not None else \
                nest.map_structure(lambda _: None, output_types)
            spec = _zip_types_and_shapes(output_types, shapes_)
        spec = specs_as_parts(spec)
        super().__init__(spec)
        self._generator = generator
        # As TF, the generator is called with its args as numpy values (bytes for a string scalar). Graph tensors
        # (a tf.function's arguments) are graph inputs of the dataset, given their values when the graph's iterator
        # op binds it (_bound_copy).
        self._args = tuple(concrete_args([convert_to_tensor(a) if isinstance(a, (list, tuple)) else a
                                          for a in (args or ())]))
        self._graph_tensors = tuple(a for a in self._args if is_symbolic(a))
        if not self._graph_tensors:
            self._args = tuple(a.numpy() if isinstance(a, Tensor) else a for a in self._args)
        self._specs = nest.flatten(spec)

    def _bound_copy(self, values):
        new = copy.copy(self)
        given = {id(t): EagerTensor(np.asarray(v), t.dtype).numpy() for t, v in zip(self._graph_tensors, values)}
        new._args = tuple(given[id(a)] if is_symbolic(a) else a.numpy() if isinstance(a, Tensor) else a
                          for a in self._args)
        new._graph_tensors = ()
        return new

    def _flat_iter(self):
        for value in self._generator(*self._args):
            try:
                yield self._check(value)
            except InvalidArgumentError as e:
                yield ElementError(e)

    def _check(self, value) -> tuple:
        try:
            leaves = _flatten_up_to(self._element_spec, values_as_parts(value))
        except (TypeError, ValueError, KeyError):
            raise InvalidArgumentError(
                f"TypeError: `generator` yielded an element that did not match the expected structure. The "
                f"expected structure was {self._element_spec}, but the yielded element was {value}.\n"
                f"  {self._error_context()}") from None
        out = []
        for leaf, spec in zip(leaves, self._specs):
            if is_ragged_spec(spec):
                out.append(self._check_ragged(leaf, spec))
                continue
            try:  # as TF, numpy's conversion decides (2.5 becomes int32 2; "a" does not convert)
                array = np.asarray(leaf.numpy() if isinstance(leaf, Tensor) else leaf)
                if array.dtype.kind in "USO" and spec.dtype.np.kind not in "USO":
                    raise ValueError("not a number")
                tensor = convert_to_tensor(array.astype(spec.dtype.np, copy=False), spec.dtype)
            except (TypeError, ValueError):
                raise InvalidArgumentError(
                    "TypeError: `generator` yielded an element that could not be converted to the expected type. "
                    f"The expected type was {spec.dtype.name}, but the yielded element was {leaf}.\n"
                    f"  {self._error_context()}") from None
            if not shapes.is_subshape(tensor._shape, spec._shape):
                raise InvalidArgumentError(
                    f"`generator` yielded an element of shape {shapes.fmt(tensor._shape)} where an element of "
                    f"shape {shapes.fmt(spec._shape)} was expected.\n  {self._error_context()}")
            out.append(tensor._value)
        return tuple(out)

    def _check_ragged(self, leaf, spec):
        """A yielded RaggedTensor of the spec's dtype and ragged rank (a dense value where the rank is 0)."""
        if spec._ragged_rank == 0 or type(leaf) is not RaggedTensor:
            leaf = convert_to_tensor(leaf, spec.dtype) if spec._ragged_rank == 0 else leaf
        if spec._ragged_rank == 0 and isinstance(leaf, Tensor) and leaf.dtype is spec.dtype:
            return leaf._value
        if (type(leaf) is not RaggedTensor or leaf.dtype is not spec.dtype or leaf.ragged_rank != spec._ragged_rank
                or not shapes.is_subshape(leaf._static_shape(), spec._shape)):
            raise InvalidArgumentError(
                f"TypeError: `generator` yielded an element that did not match the expected structure. The expected "
                f"structure was {self._element_spec}, but the yielded element was {leaf}.\n  {self._error_context()}")
        return from_ragged_tensor(leaf)


def _flatten_up_to(spec, value) -> list:
    """`value`'s parts at the leaves of `spec` (a list is a whole tensor where the spec has a TensorSpec, and a
    tuple where it has a tuple)."""
    if isinstance(spec, TensorSpec) or is_ragged_spec(spec):
        return [value]
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise TypeError("structure")
        return [leaf for k in sorted(spec) for leaf in _flatten_up_to(spec[k], value[k])]
    if not isinstance(value, (tuple, list)) or len(value) != len(spec):
        raise TypeError("structure")
    return [leaf for s, v in zip(spec, value) for leaf in _flatten_up_to(s, v)]


def _zip_types_and_shapes(types, shapes_):
    if isinstance(types, dtypes.DType) or not nest.is_nested(types):
        return TensorSpec(shapes_, types)
    flat_types = nest.flatten(types)
    flat_shapes = _flatten_shapes(types, shapes_)
    return nest.pack_sequence_as(types, [TensorSpec(s, t) for t, s in zip(flat_types, flat_shapes)])


def _flatten_shapes(types, shapes_):
    """Shapes in the nest of `types` (a shape is itself a tuple/list, so it ends the descent)."""
    if isinstance(types, dict):
        return [s for k in sorted(types) for s in _flatten_shapes(types[k], shapes_[k])]
    if isinstance(types, (tuple, list)):
        return [s for t, sh in zip(types, shapes_) for s in _flatten_shapes(t, sh)]
    return [shapes_]


class ZipDataset(DatasetV2):
    """Tuples (or the given nest) of the members' elements, until the shortest ends."""

    _tf_name = "_ZipDataset"

    def __init__(self, datasets):
        members = nest.flatten(datasets)
        for d in members:
            if not isinstance(d, DatasetV2):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                f"`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                                f"`tuple` instead. Got {type(d).__name__}")
        super().__init__(nest.pack_sequence_as(datasets, [d._spec_inside for d in members]), members)
        self._members = members

    def _cardinality(self):
        counts = [d._cardinality() for d in self._members]
        if UNKNOWN in counts:
            return UNKNOWN
        finite = [n for n in counts if n >= 0]
        return min(finite) if finite else INFINITE

    def _flat_iter(self):
        iterators = [d._flat_iter() for d in self._members]
        try:
            while True:
                out = ()
                for it in iterators:
                    item = next(it, None)
                    if item is None:
                        return
                    out += item
                yield out
        finally:
            for it in iterators:
                it.close()


class ConcatenateDataset(DatasetV2):
    """This dataset's elements, then the other's."""

    _tf_name = "_ConcatenateDataset"

    def __init__(self, first, second):
        super().__init__(common_spec(first._spec_inside, second._spec_inside, "concatenate"), (first, second))
        self._first, self._second = first, second

    def _cardinality(self):
        a, b = self._first._cardinality(), self._second._cardinality()
        if INFINITE in (a, b):
            return INFINITE
        return UNKNOWN if UNKNOWN in (a, b) else a + b

    def _flat_iter(self):
        yield from self._first._flat_iter()
        yield from self._second._flat_iter()


@dataset_methods
class _SourceMethods:
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None, **ignored):
        """range(stop), range(start, stop[, step]); TF ignores keywords other than output_type and name."""
        def build(*bounds):
            return RangeDataset(*bounds, dtype=output_type)
        return deferred(build, args, lambda: TensorSpec((), dtypes.as_dtype(output_type)), (), "_RangeDataset") \
            or build(*args)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """start, start + step, start + 2 * step, ... without end."""
        return CounterDataset(start, step, dtype)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*datasets, name=None):
        if len(datasets) == 1 and not isinstance(datasets[0], DatasetV2):
            datasets = datasets[0]
        return ZipDataset(datasets)

    def concatenate(self, dataset, name=None):
        return ConcatenateDataset(self, dataset)
