"""window (elements that are datasets), group_by_window and bucket_by_sequence_length."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.context import state as context
from tinytf.runtime.errors import InvalidArgumentError

from ..tensor_spec import TensorSpec
from .dataset import INFINITE, UNKNOWN, DatasetV2, UnaryDataset, dataset_methods
from .functions import TracedDatasetFunction, TracedFunction
from .sources import as_int
from .structure import DatasetSpec, ElementError, describe
from .symbolic import any_symbolic, concrete_args, deferred_transform, is_symbolic, lifted_tensors, with_bound_functions


class _ListDataset(DatasetV2):
    """A dataset over flat elements already in memory (one window's component)."""

    _tf_name = "_VariantDataset"

    def __init__(self, element_spec, items):
        super().__init__(element_spec)
        self._items = items

    def _cardinality(self):
        return len(self._items)

    def _flat_iter(self):
        yield from self._items


class WindowDataset(UnaryDataset):
    """Windows of `size` elements, every `shift`, taking every `stride`-th: each component a dataset."""

    _tf_name = "_WindowDataset"

    def __init__(self, input_dataset, size, shift=None, stride=1, drop_remainder=False):
        self._size = as_int(size, "size")
        self._shift = self._size if shift is None else as_int(shift, "shift")
        self._stride = as_int(stride, "stride")
        for name, v in (("size", self._size), ("shift", self._shift), ("stride", self._stride)):
            if v <= 0:
                raise InvalidArgumentError(f"Window {name} must be greater than zero, but got {v}.")
        self._drop = bool(drop_remainder)
        spec = nest.map_structure(lambda s: DatasetSpec(s), input_dataset._spec_inside)
        super().__init__(input_dataset, spec)

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0:
            return n
        if self._drop:
            span = (self._size - 1) * self._stride + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)

    def _flat_iter(self):
        span = (self._size - 1) * self._stride + 1
        buffer = []
        specs = nest.flatten(self._input._spec_inside)
        items = self._input._flat_iter()
        exhausted = False
        while True:
            while not exhausted and len(buffer) < span:
                item = next(items, None)
                if item is None:
                    exhausted = True
                elif type(item) is not ElementError:
                    buffer.append(item)
            if not buffer or (self._drop and len(buffer) < span):
                return
            window = buffer[:span:self._stride]
            yield tuple(_ListDataset(spec, [(item[c],) for item in window]) for c, spec in enumerate(specs))
            if self._shift >= len(buffer):
                skip = self._shift - len(buffer)
                buffer = []
                for _ in range(skip):
                    if next(items, None) is None:
                        exhausted = True
                        break
                if exhausted:
                    return
            else:
                buffer = buffer[self._shift:]


class GroupByWindowDataset(UnaryDataset):
    """Elements grouped by key_func's int64 key; a group of window_size elements (or what is left at the
    end) is handed to reduce_func(key, window_dataset), whose dataset's elements are the output."""

    _tf_name = "_GroupByWindowDataset"

    def __init__(self, input_dataset, key_func, reduce_func, window_size=None, window_size_func=None):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        self._key = TracedFunction(key_func, [input_dataset._spec_inside], "group_by_window key_func")
        if not isinstance(self._key.output_spec, TensorSpec) or self._key.output_spec.dtype is not dtypes.int64:
            raise ValueError(f"Invalid `key_func`. `key_func` must return a single tf.int64 tensor. Got type="
                             f"{describe(self._key.output_spec)}.")
        self._size_func = None if window_size_func is None else TracedFunction(
            window_size_func, [TensorSpec((), dtypes.int64)], "window_size_func")
        (size,) = concrete_args([window_size])
        # a window_size that is a graph tensor (a tf.function's argument) is a graph input, set by _bound_copy
        self._size_tensor = size if is_symbolic(size) else None
        self._window_size = None if size is None or self._size_tensor is not None else as_int(size, "window_size")
        self._reduce_func = reduce_func
        super().__init__(input_dataset)
        self._element_spec = None
        # Inside a graph reduce_func is traced once, as TF does, on (key, window dataset): it may read the enclosing
        # function's tensors; its dataset is a recipe bound per window. A function that graphs cannot run (Python
        # on values) is called per window instead.
        self._traced_reduce = None
        if context.graph is not None:
            try:
                self._traced_reduce = TracedDatasetFunction(
                    reduce_func, (TensorSpec((), dtypes.int64), DatasetSpec(input_dataset._spec_inside)),
                    "group_by_window")
                self._element_spec = self._traced_reduce.element_spec
            except Exception:  # noqa: BLE001 - see above
                self._traced_reduce = None
        self._graph_tensors = lifted_tensors(self._key, *([] if self._size_func is None else [self._size_func])) \
            + (() if self._traced_reduce is None else self._traced_reduce.lifted) \
            + (() if self._size_tensor is None else (self._size_tensor,))

    def _bound_copy(self, values):
        values = list(values)
        names = ["_key"] + ([] if self._size_func is None else ["_size_func"])
        n_functions = sum(len(getattr(self, name).lifted) for name in names)
        new = with_bound_functions(self, values[:n_functions], *names)
        rest = values[n_functions:]
        if self._traced_reduce is not None:
            n = len(self._traced_reduce.lifted)
            new._traced_reduce = self._traced_reduce.bound(rest[:n])
            rest = rest[n:]
        if self._size_tensor is not None:
            new._window_size = as_int(int(rest[0]), "window_size")
            new._size_tensor = None
        return new

    def _reduce_window(self, key, spec, group):
        """The dataset reduce_func makes of one window."""
        window = _ListDataset(spec, group)
        if self._traced_reduce is not None:
            return self._traced_reduce(self._traced_reduce_structure, (np.int64(key), window))
        return self._reduce_func(_int64(key), window)

    @property
    def _traced_reduce_structure(self):
        return (TensorSpec((), dtypes.int64), DatasetSpec(self._input._spec_inside))

    @property
    def element_spec(self):
        if self._element_spec is None:
            from ..scopes import init_scope

            empty = _ListDataset(self._input._spec_inside, [])
            with init_scope():
                self._element_spec = self._reduce_func(_int64(0), empty).element_spec
        return self._element_spec

    def _cardinality(self):
        return INFINITE if self._input._cardinality() == INFINITE else UNKNOWN

    def __repr__(self):
        self.element_spec  # noqa: B018 - computed lazily
        return super().__repr__()

    def _limit(self, key):
        if self._size_func is None:
            return self._window_size
        return int(self._size_func((np.int64(key),))[0])

    def _flat_iter(self):
        groups: dict = {}
        spec = self._input._spec_inside
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            key = int(self._key(item)[0])
            group = groups.setdefault(key, [])
            group.append(item)
            if len(group) == self._limit(key):
                del groups[key]
                yield from self._reduce_window(key, spec, group)._flat_iter()
        for key, group in sorted(groups.items()):  # TF flushes what is left by key
            yield from self._reduce_window(key, spec, group)._flat_iter()


def _int64(value):
    from tinytf.runtime.tensor import EagerTensor

    return EagerTensor(np.int64(value), dtypes.int64)


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder):
    """Elements bucketed by length (bucket i holds lengths in [boundaries[i-1], boundaries[i])), each bucket
    padded-batched with its own batch size, as TF composes it from group_by_window."""
    boundaries = list(bucket_boundaries)
    sizes = list(bucket_batch_sizes)
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1, got {len(sizes)} and "
                         f"{len(boundaries)}")
    length_fn = TracedFunction(element_length_func, [dataset._spec_inside], "element_length_func")
    lows = [np.iinfo(np.int32).min] + boundaries
    highs = boundaries + [np.iinfo(np.int32).max]

    def bucket_of(length_fn, *element):
        from tinytf.runtime.tensor import EagerTensor

        flat = tuple(t._value for t in nest.flatten(element))
        length = int(length_fn(flat)[0])
        for i, (lo, hi) in enumerate(zip(lows, highs)):
            if lo <= length < hi:
                return EagerTensor(np.int64(i), dtypes.int64)
        return EagerTensor(np.int64(len(sizes) - 1), dtypes.int64)

    def batch_bucket(key, window):
        i = int(key.numpy())
        if no_padding:
            return window.batch(sizes[i], drop_remainder=drop_remainder)
        shapes_ = padded_shapes
        if pad_to_bucket_boundary:
            if i == len(boundaries):
                raise InvalidArgumentError("When pad_to_bucket_boundary=True, elements must have length < "
                                           "max(bucket_boundaries).")
            bound = highs[i] - 1
            shapes_ = nest.map_structure(lambda s: TensorSpec([bound] + [None] * (len(s._shape) - 1), s.dtype)._shape,
                                         window.element_spec)
            shapes_ = nest.map_structure(lambda s: s, shapes_)
        return window.padded_batch(sizes[i], shapes_, padding_values, drop_remainder=drop_remainder)

    result = _EagerGroupByWindow(dataset, bucket_of, batch_bucket, sizes, length_fn)
    # TF traces the bucket's batching at construction: padded_batch's refusal of ragged or sparse elements
    # (and its padded_shapes errors) are raised here, not at the first element
    result.element_spec  # noqa: B018
    return result


class _EagerGroupByWindow(GroupByWindowDataset):
    """group_by_window with Python key and size functions (bucket_by_sequence_length's, which index lists):
    key_of(self._key, *element), `_key` the traced length function."""

    def __init__(self, input_dataset, key_of, reduce_func, sizes, length_fn):
        UnaryDataset.__init__(self, input_dataset)
        self._element_spec = None
        self._reduce_func = reduce_func
        self._key_of = key_of
        self._sizes = sizes
        self._key, self._size_func = length_fn, None
        self._traced_reduce = self._size_tensor = None
        self._graph_tensors = lifted_tensors(length_fn)

    def _limit(self, key):
        return self._sizes[key]

    def _flat_iter(self):
        from .structure import pack

        spec = self._input._spec_inside
        groups: dict = {}
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            element = pack(spec, item)
            key = int(self._key_of(self._key, *element) if isinstance(element, tuple)
                      else self._key_of(self._key, element))
            group = groups.setdefault(key, [])
            group.append(item)
            if len(group) == self._limit(key):
                del groups[key]
                yield from self._reduce_func(_int64(key), _ListDataset(spec, group))._flat_iter()
        for key, group in sorted(groups.items()):  # TF flushes what is left by key
            yield from self._reduce_func(_int64(key), _ListDataset(spec, group))._flat_iter()


@dataset_methods
class _WindowMethods:
    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        if any_symbolic(concrete_args([size, shift, stride, drop_remainder])):  # a window's spec has no sizes
            spec = WindowDataset(self, 1)._spec_inside
            return deferred_transform(self, WindowDataset, size, shift, stride, drop_remainder, element_spec=spec)
        return WindowDataset(self, size, shift, stride, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        return GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)
