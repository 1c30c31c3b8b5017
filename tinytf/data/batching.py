"""batch, padded_batch, unbatch, rebatch.

Batching is where per-element Python work would dominate, so a batch asks its input for whole batches
first (`_batches`, see vectorized.py): slices of tensors, shuffled index gathers and element-wise maps run
once per batch, as TF's own map-and-batch fusion does. Any other input is stacked element by element."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest, shapes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.tensor import Tensor

from ..constant import convert_to_tensor
from ..tensor_spec import TensorSpec
from .dataset import INFINITE, UNKNOWN, UnaryDataset, dataset_methods
from .ragged_elements import (
    RaggedValue,
    dense_to_ragged_spec,
    dense_to_ragged_value,
    is_ragged_spec,
    ragged_rows,
    stack_ragged,
)
from .sources import as_int
from .structure import ElementError, with_batch_dim, without_batch_dim
from .symbolic import any_symbolic, concrete_args, deferred_transform, is_symbolic


def _dense(spec) -> bool:
    """A TensorSpec, not a composite's (sparse, ragged) or a dataset's spec."""
    from .sparse_elements import is_sparse_spec

    return isinstance(spec, TensorSpec) and not is_sparse_spec(spec)


def _ragged_columns(structure) -> dict:
    """Position -> spec of the ragged components of flat elements of `structure` (batched by stack_ragged)."""
    return {i: s for i, s in enumerate(nest.flatten(structure)) if is_ragged_spec(s)}


def _batch_cardinality(n, size, drop_remainder):
    if n < 0:
        return n
    return n // size if drop_remainder else -(-n // size)


def stack_components(items, context, ragged=None) -> tuple:
    """One batch of flat elements: each component stacked along a new first dimension (`ragged`: position ->
    spec of the ragged components, see _ragged_columns)."""
    out = []
    for c in range(len(items[0])):
        column = [item[c] for item in items]
        if ragged and c in ragged:
            out.append(stack_ragged(column, ragged[c], context))
            continue
        if type(column[0]) in (tuple, bytes):  # sparse components batch whatever their shapes; bytes are scalars
            out.append(_stack(column))
            continue
        first = np.shape(column[0])
        for i, value in enumerate(column):
            if np.shape(value) != first:
                raise InvalidArgumentError(
                    f"Cannot add tensor to the batch: number of elements does not match. Shapes are: [tensor]: "
                    f"{list(np.shape(value))}, [batch]: {list(first)} (component {c}: element {i} of the batch has "
                    f"another shape than element 0; pad them with padded_batch).\n  {context}")
        out.append(_stack(column))
    return tuple(out)


def _stack(column):
    """np.stack, except that string elements (bytes, as readers yield them) stay an object array: numpy
    would make fixed-width bytes of them."""
    if type(column[0]) is tuple:  # sparse components
        from .sparse_elements import stack_sparse

        return stack_sparse(column)
    if type(column[0]) is bytes:
        out = np.empty(len(column), dtype=object)
        out[:] = column
        return out
    return np.stack(column)


class BatchDataset(UnaryDataset):
    _tf_name = "_BatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        self._size = as_int(batch_size, "batch_size")
        if self._size <= 0:
            raise InvalidArgumentError(f"Batch size must be greater than zero, got {self._size}")
        self._drop = bool(drop_remainder)
        n = input_dataset._cardinality()
        static = self._drop or n == INFINITE
        super().__init__(input_dataset, with_batch_dim(input_dataset._spec_inside, self._size if static else None))

    def _cardinality(self):
        return _batch_cardinality(self._input._cardinality(), self._size, self._drop)

    def _flat_iter(self):
        from .vectorized import batches_of

        fast = batches_of(self._input, self._size, self._drop)
        if fast is not None:
            yield from fast
            return
        items = []
        context = self._error_context()
        ragged = _ragged_columns(self._input._spec_inside)
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                items = []
                yield item
                continue
            items.append(item)
            if len(items) == self._size:
                yield _stack_or_error(items, context, ragged)
                items = []
        if items and not self._drop:
            yield _stack_or_error(items, context, ragged)


def _stack_or_error(items, context, ragged=None):
    try:
        return stack_components(items, context, ragged)
    except InvalidArgumentError as e:
        return ElementError(e)


class PaddedBatchDataset(UnaryDataset):
    """Batches whose components are padded to `padded_shapes` (unknown dims: the batch's longest)."""

    _tf_name = "_PaddedBatchDataset"

    def __init__(self, input_dataset, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
        self._size = as_int(batch_size, "batch_size")
        self._drop = bool(drop_remainder)
        spec = input_dataset._spec_inside
        specs = nest.flatten(spec)
        for s in specs:
            if not _dense(s):
                raise TypeError(f"`padded_batch` is only supported for datasets that produce tensor elements but "
                                f"type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{s!r}`.")
        if padded_shapes is None:
            for s in specs:
                if s._shape is None:
                    raise ValueError("You must provide `padded_shapes` argument because component has unknown rank.")
            padded = [s._shape for s in specs]
        else:
            padded = _flatten_shapes_like(spec, padded_shapes)
            padded = [shapes.as_shape(p.as_list() if hasattr(p, "as_list") else p) for p in padded]
            for s, p in zip(specs, padded):
                if s._shape is not None and (len(s._shape) != len(p) or not all(
                        a is None or b is None or a <= b for a, b in zip(s._shape, p))):
                    raise ValueError(f"The padded shape {shapes.fmt(p)} is not compatible with the shape "
                                     f"{shapes.fmt(s._shape)} of the corresponding input component.")
        self._padded = [tuple(p) for p in padded]
        if padding_values is None:
            self._pads = [np.zeros((), s.dtype.np) for s in specs]
        else:
            values = nest.flatten(padding_values) if nest.is_nested(padding_values) else [padding_values] * len(specs)
            self._pads = [_padding_value(v, s) for v, s in zip(values, specs)]
        batch_dim = self._size if self._drop else None
        out = [TensorSpec((batch_dim,) + p, s.dtype) for p, s in zip(self._padded, specs)]
        super().__init__(input_dataset, nest.pack_sequence_as(spec, out))

    def _cardinality(self):
        return _batch_cardinality(self._input._cardinality(), self._size, self._drop)

    def _flat_iter(self):
        items = []
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            items.append(item)
            if len(items) == self._size:
                yield self._pad(items)
                items = []
        if items and not self._drop:
            yield self._pad(items)

    def _pad(self, items):
        out = []
        for c, (target, pad) in enumerate(zip(self._padded, self._pads)):
            column = [np.asarray(item[c]) for item in items]
            longest = np.max([np.shape(v) for v in column], axis=0) if column[0].ndim else ()
            shape = tuple(int(longest[d]) if t is None else t for d, t in enumerate(target))
            for v in column:
                if any(a > b for a, b in zip(v.shape, shape)):
                    return ElementError(InvalidArgumentError(
                        f"Attempted to pad to a smaller size than the input element: component {c} has shape "
                        f"{list(v.shape)}, padded shape {list(shape)}.\n  {self._error_context()}"))
            batch = np.full((len(column),) + shape, pad, dtype=column[0].dtype)
            for i, v in enumerate(column):
                batch[(i,) + tuple(slice(0, n) for n in v.shape)] = v
            out.append(batch)
        return tuple(out)


def _padding_value(value, spec):
    """A padding value as a scalar of the component's dtype; like TF, a value of another dtype is refused."""
    tensor = convert_to_tensor(value)
    if tensor.dtype is not spec.dtype:
        raise TypeError(f"Invalid `padding_values`. `padding_values` values type {tensor.dtype.name} does not match "
                        f"type {spec.dtype.name} of the corresponding input component.")
    return np.asarray(tensor._value)


def _flatten_shapes_like(spec, padded_shapes):
    """padded_shapes in the nest of the element (each shape a list/tuple/TensorShape ends the descent)."""
    if isinstance(spec, dict):
        return [s for k in sorted(spec) for s in _flatten_shapes_like(spec[k], padded_shapes[k])]
    if isinstance(spec, tuple):
        return [s for sp, ps in zip(spec, padded_shapes) for s in _flatten_shapes_like(sp, ps)]
    if hasattr(padded_shapes, "numpy"):
        padded_shapes = [int(d) for d in padded_shapes.numpy()]
    if isinstance(padded_shapes, int):
        padded_shapes = [padded_shapes]
    return [[None if d is None or d == -1 else d for d in (padded_shapes.as_list() if hasattr(
        padded_shapes, "as_list") else padded_shapes)]]


class UnbatchDataset(UnaryDataset):
    _tf_name = "_UnbatchDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset, without_batch_dim(input_dataset._spec_inside, "unbatch"))

    def _cardinality(self):
        return INFINITE if self._input._cardinality() == INFINITE else UNKNOWN

    def _flat_iter(self):
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            rows = rows_of(item, self._error_context())
            if type(rows) is ElementError:
                yield rows
                continue
            yield from rows


def _split(component):
    """The rows of one component: a sparse one (a tuple) by its first index, a ragged one by its row splits."""
    if type(component) is RaggedValue:
        return ragged_rows(component)
    if type(component) is tuple:
        from .sparse_elements import sparse_rows

        return sparse_rows(component)
    return component


def rows_of(item, context):
    """A batch's elements (a list of flat elements), or an ElementError when its components' sizes differ."""
    columns = [_split(c) for c in item]
    n = len(columns[0])
    if any(len(c) != n for c in columns):
        return ElementError(InvalidArgumentError(
            f"Input element must have the same batch size in each component. Component 0 had size {n} "
            f"but component had size {[len(c) for c in columns]}.\n  {context}"))
    return [tuple(c[i] for c in columns) for i in range(n)]


def _batch_sizes(batch_size) -> list:
    """rebatch's `batch_size`: a scalar or a vector of sizes (a list, an array or a tensor), as ints."""
    value = batch_size.numpy() if isinstance(batch_size, Tensor) and not is_symbolic(batch_size) else batch_size
    if isinstance(value, (list, tuple, np.ndarray)) and np.ndim(value) == 1:
        sizes = [as_int(v, "batch_size") for v in value]
        if not sizes or min(sizes) < 0:
            raise InvalidArgumentError(f"rebatch: batch_sizes must be a non-empty vector of non-negative sizes, "
                                       f"got {list(value)}")
        return sizes
    return [as_int(batch_size, "batch_size")]


class RebatchDataset(UnaryDataset):
    """The input's rows, batched again into batches of `batch_size` rows; a vector of sizes is cycled through
    (TF's RebatchDatasetV2: [2, 1, 1] over batches of 4 gives sizes 2, 1, 1, 2, 1, 1, ...)."""

    _tf_name = "_RebatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        self._sizes = _batch_sizes(batch_size)
        self._drop = bool(drop_remainder)
        inner = without_batch_dim(input_dataset._spec_inside, "rebatch")
        static = self._sizes[0] if self._drop and len(set(self._sizes)) == 1 else None
        super().__init__(input_dataset, with_batch_dim(inner, static))

    def _size_cycle(self):
        while True:
            yield from self._sizes

    def _cardinality(self):
        return UNKNOWN  # TF 2.21: unknown even over an infinite input

    def _flat_iter(self):
        if any(not _dense(s) for s in nest.flatten(self._input._spec_inside)):
            yield from self._by_rows()
            return
        pending, rows = [], 0
        sizes = self._size_cycle()
        size = next(sizes)
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            pending.append(item)
            rows += len(item[0])
            while rows >= size:
                joined = tuple(np.concatenate([p[c] for p in pending]) for c in range(len(item)))
                yield tuple(c[:size] for c in joined)
                rest = tuple(c[size:] for c in joined)
                rows -= size
                pending = [rest] if rows else []
                size = next(sizes)
        if rows and not self._drop:
            yield tuple(np.concatenate([p[c] for p in pending]) for c in range(len(pending[0])))

    def _by_rows(self):
        """Rebatching elements with sparse components: their rows, batched again (the dense shape of a new batch
        is the largest of its rows', each row keeping its batch's)."""
        context = self._error_context()
        ragged = _ragged_columns(without_batch_dim(self._input._spec_inside, "rebatch"))
        pending = []
        sizes = self._size_cycle()
        size = next(sizes)
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            rows = rows_of(item, context)
            if type(rows) is ElementError:
                yield rows
                continue
            pending.extend(rows)
            while len(pending) >= size:
                yield stack_components(pending[:size], context, ragged)
                del pending[:size]
                size = next(sizes)
        if pending and not self._drop:
            yield stack_components(pending, context, ragged)


class DenseToRaggedDataset(UnaryDataset):
    """ragged_batch's first step: components with unknown dimensions become ragged (ragged_elements.
    dense_to_ragged_spec), so that the batch after it stacks them into RaggedTensors."""

    _tf_name = "_DenseToRaggedDataset"

    def __init__(self, input_dataset, row_splits_dtype):
        splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"row_splits_dtype must be tf.int32 or tf.int64, got {splits_dtype.name}")
        spec = nest.map_structure(lambda s: dense_to_ragged_spec(s, splits_dtype), input_dataset._spec_inside)
        super().__init__(input_dataset, spec)
        before = nest.flatten(input_dataset._spec_inside)
        self._ranks = [(i, s._ragged_rank, splits_dtype.np)  # the dense components that become ragged
                       for i, s in enumerate(nest.flatten(spec)) if s is not before[i] and s._ragged_rank > 0]

    def _flat_iter(self):
        ranks = self._ranks
        for item in self._input._flat_iter():
            if type(item) is ElementError or not ranks:
                yield item
                continue
            item = list(item)
            for i, rank, splits_dtype in ranks:
                item[i] = dense_to_ragged_value(item[i], rank, splits_dtype)
            yield tuple(item)


@dataset_methods
class _BatchingMethods:
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        return (deferred_transform(self, BatchDataset, batch_size, drop_remainder,
                                   element_spec=with_batch_dim(self._spec_inside, None))
                or BatchDataset(self, batch_size, drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        if any_symbolic(concrete_args([batch_size])):  # the spec is that of a batch of any size
            spec = PaddedBatchDataset(self, 1, padded_shapes, padding_values, False)._spec_inside
            return deferred_transform(self, PaddedBatchDataset, batch_size, element_spec=spec, build=lambda ds, size: (
                PaddedBatchDataset(ds, size, padded_shapes, padding_values, drop_remainder)))
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64, name=None):
        """Batches whose components of varying shape are RaggedTensors (TF's dense_to_ragged_batch)."""
        return DenseToRaggedDataset(self, row_splits_dtype).batch(batch_size, drop_remainder)

    def unbatch(self, name=None):
        return UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return RebatchDataset(self, batch_size, drop_remainder)
