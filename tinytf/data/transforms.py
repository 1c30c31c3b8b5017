"""Element-wise and counting transformations: map, filter, flat_map, interleave, take, skip, repeat,
enumerate, take_while, scan, shard, unique, ignore_errors, cache, with_options.

Failed elements travel as `ElementError`s (structure.py): a stage passes them on untouched."""

from __future__ import annotations

import copy
import os
import pickle

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.errors import FailedPreconditionError, InvalidArgumentError

from ..tensor_spec import TensorSpec
from . import debug_mode
from .autoshard import SHARD_HINT
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, DatasetV2, UnaryDataset, dataset_methods
from .functions import TracedDatasetFunction, TracedFunction
from .parallel import parallel_map
from .sources import RangeDataset, ZipDataset, as_int
from .structure import ELEMENT_ERRORS, ElementError, common_spec, describe, normalize, spec_of
from .symbolic import (
    concrete_args,
    concrete_where_known,
    deferred,
    deferred_transform,
    is_symbolic,
    lifted_tensors,
    with_bound_functions,
)


class OptionsDataset(UnaryDataset):
    _tf_name = "_OptionsDataset"

    def __init__(self, input_dataset, options):
        super().__init__(input_dataset)
        self._options = options

    def _flat_iter(self):
        return self._input._flat_iter()


class MapDataset(UnaryDataset):
    """map_func traced once; applied per element, in a thread pool when num_parallel_calls is set."""

    def __init__(self, input_dataset, map_func, num_parallel_calls=None, deterministic=None):
        self._function = TracedFunction(map_func, [input_dataset._spec_inside], "map")
        super().__init__(input_dataset, self._function.output_spec)
        self._parallel = num_parallel_calls is not None and (num_parallel_calls == AUTOTUNE or num_parallel_calls > 1)
        self._workers = os.cpu_count() or 2 if num_parallel_calls in (None, AUTOTUNE) else int(num_parallel_calls)
        self._deterministic = deterministic
        self._tf_name = "_ParallelMapDataset" if num_parallel_calls is not None else "_MapDataset"
        self._graph_tensors = lifted_tensors(self._function)

    def _bound_copy(self, values):
        return with_bound_functions(self, values, "_function")

    def _flat_iter(self):
        fn = self._function
        if self._parallel and not debug_mode.enabled:  # enable_debug_mode: sequential, in order
            deterministic = self._deterministic
            if deterministic is None:
                deterministic = self.options().deterministic is not False
            yield from parallel_map(self._input._flat_iter(), fn, self._workers, deterministic)
            return
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            try:
                yield fn(item)
            except ELEMENT_ERRORS as e:
                yield ElementError(e)


class FilterDataset(UnaryDataset):
    _tf_name = "_FilterDataset"

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._predicate = _predicate(predicate, input_dataset._spec_inside, "filter")
        self._graph_tensors = lifted_tensors(self._predicate)

    def _bound_copy(self, values):
        return with_bound_functions(self, values, "_predicate")

    def _cardinality(self):
        return UNKNOWN  # TF 2.21: unknown even over an infinite input (no count is known)

    def _flat_iter(self):
        predicate = self._predicate
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            try:
                keep = predicate(item)[0]
            except ELEMENT_ERRORS as e:
                yield ElementError(e)
                continue
            if keep:
                yield item


def _predicate(fn, spec, what):
    traced = TracedFunction(fn, [spec], what)
    out = traced.output_spec
    if not isinstance(out, TensorSpec) or out.dtype is not dtypes.bool_ or (out._shape is not None and len(out._shape)):
        raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return "
                         f"type was {describe(out)}.")
    return traced


class FlatMapDataset(UnaryDataset):
    """map_func returns a dataset per element; their elements follow one another. The function is traced once,
    at construction (TracedDatasetFunction): per element, the traced graph computes the tensors the returned
    dataset's recipe depends on, and the recipe is bound to them."""

    _tf_name = "_FlatMapDataset"

    def __init__(self, input_dataset, map_func):
        super().__init__(input_dataset)
        # Traced once, here, as TF does: the function's errors surface when the pipeline is built, and the
        # element spec is known before the first element (it may read the enclosing function's tensors)
        self._map = TracedDatasetFunction(map_func, input_dataset._spec_inside, self._what_maps)
        self._element_spec = self._map.element_spec
        self._graph_tensors = self._map.lifted

    _what_maps = "flat_map"

    def _bound_copy(self, values):
        new = copy.copy(self)
        new._map, new._graph_tensors = self._map.bound(values), ()
        return new

    def _cardinality(self):
        return UNKNOWN  # TF 2.21: unknown even over an infinite input (no count is known)

    def _flat_iter(self):
        structure = self._input._spec_inside
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            yield from _returned_dataset(self._map(structure, item), "flat_map")._flat_iter()


def _returned_dataset(value, what):
    if not isinstance(value, DatasetV2):
        raise TypeError(f"The `map_func` argument of {what} must return a `Dataset` object, got "
                        f"{type(value).__name__}.")
    return value


class InterleaveDataset(FlatMapDataset):
    """TF's interleave: up to cycle_length datasets open at once, block_length elements from each in turn;
    an exhausted one frees its slot, which the next input element fills when the cycle comes back to it."""

    _tf_name = "_InterleaveDataset"
    _what_maps = "interleave"

    def __init__(self, input_dataset, map_func, cycle_length=None, block_length=None, num_parallel_calls=None):
        super().__init__(input_dataset, map_func)
        # cycle_length and block_length may be graph tensors (a tf.function's arguments): graph inputs of the
        # dataset, given their values when the graph's iterator op binds it (_bound_copy)
        self._sizes = tuple(concrete_args([cycle_length, block_length]))
        if any(is_symbolic(a) for a in self._sizes):
            self._graph_tensors = tuple(getattr(self, "_graph_tensors", ())) + tuple(
                a for a in self._sizes if is_symbolic(a))
        else:
            self._set_sizes(*self._sizes)
        if num_parallel_calls is not None:
            self._tf_name = "_ParallelInterleaveDataset"

    def _set_sizes(self, cycle_length, block_length):
        cycle = AUTOTUNE if cycle_length is None else as_int(cycle_length, "cycle_length")
        self._cycle = (os.cpu_count() or 1) if cycle == AUTOTUNE else cycle
        self._block = 1 if block_length is None else as_int(block_length, "block_length")
        if self._cycle <= 0 or self._block <= 0:
            raise InvalidArgumentError("cycle_length and block_length of interleave must be positive")

    def _bound_copy(self, values):
        values = list(values)
        sizes = [a for a in self._sizes if is_symbolic(a)]
        n_lifted = len(values) - len(sizes)
        new = super()._bound_copy(values[:n_lifted]) if n_lifted else copy.copy(self)
        given = dict(zip(map(id, sizes), values[n_lifted:]))
        new._set_sizes(*[int(given[id(a)]) if is_symbolic(a) else a for a in self._sizes])
        new._graph_tensors = ()
        return new

    def _flat_iter(self):
        structure = self._input._spec_inside
        inputs = self._input._flat_iter()
        slots = [None] * self._cycle
        index = block = open_count = 0
        end_of_input = False
        while not end_of_input or open_count:
            current = slots[index]
            if current is not None:
                item = next(current, None)
                if item is not None:
                    yield item
                    block += 1
                    if block == self._block:
                        block, index = 0, (index + 1) % self._cycle
                    continue
                slots[index] = None
                open_count -= 1
                block, index = 0, (index + 1) % self._cycle
            elif not end_of_input:
                item = next(inputs, None)
                if item is None:
                    end_of_input = True
                elif type(item) is ElementError:
                    yield item
                else:
                    slots[index] = _returned_dataset(self._map(structure, item), "interleave")._flat_iter()
                    open_count += 1
            else:
                block, index = 0, (index + 1) % self._cycle


class TakeDataset(UnaryDataset):
    _tf_name = "_TakeDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = as_int(count, "take's count")

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count < 0:
            return n
        return self._count if n in (INFINITE,) or n >= self._count else (n if n >= 0 else UNKNOWN)

    def _flat_iter(self):
        remaining = self._count
        if remaining == 0:
            return
        for item in self._input._flat_iter():
            yield item
            if type(item) is not ElementError:
                remaining -= 1
                if remaining == 0:
                    return


class SkipDataset(UnaryDataset):
    _tf_name = "_SkipDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = as_int(count, "skip's count")

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0:
            return n if self._count >= 0 else (0 if n == INFINITE else UNKNOWN)
        return 0 if self._count < 0 else max(n - self._count, 0)

    def _flat_iter(self):
        to_skip = self._count
        for item in self._input._flat_iter():
            if to_skip != 0 and type(item) is not ElementError:
                to_skip -= 1
                continue
            yield item


class RepeatDataset(UnaryDataset):
    _tf_name = "_RepeatDataset"

    def __init__(self, input_dataset, count=None):
        super().__init__(input_dataset)
        self._count = -1 if count is None else as_int(count, "repeat's count")

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count < 0:
            return 0 if n == 0 else INFINITE  # TF: a forever repeat of an unknown count is infinite too
        return n * self._count if n >= 0 else n if self._count else 0

    def _flat_iter(self):
        done = 0
        while self._count < 0 or done < self._count:
            empty = True
            for item in self._input._flat_iter():
                empty = False
                yield item
            if empty:
                return  # as TF: repeating an empty dataset ends instead of spinning
            done += 1


def enumerate_dataset(dataset, start=0):
    """(index, element) pairs: TF builds it as zip(range(start, int64 max), dataset)."""
    counter = RangeDataset(as_int(start, "enumerate's start"), np.iinfo(np.int64).max)
    return ZipDataset((counter, dataset))


class TakeWhileDataset(UnaryDataset):
    _tf_name = "_TakeWhileDataset"

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._predicate = _predicate(predicate, input_dataset._spec_inside, "take_while")
        self._graph_tensors = lifted_tensors(self._predicate)

    def _bound_copy(self, values):
        return with_bound_functions(self, values, "_predicate")

    def _cardinality(self):
        return UNKNOWN

    def _flat_iter(self):
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            if not self._predicate(item)[0]:
                return
            yield item


class ScanDataset(UnaryDataset):
    """scan_func(state, element) -> (new_state, output), the state carried from element to element."""

    _tf_name = "_ScanDataset"

    def __init__(self, input_dataset, initial_state, scan_func):
        state = concrete_where_known(normalize(initial_state))
        state_spec = spec_of(state)
        traced = TracedFunction(scan_func, [state_spec, input_dataset._spec_inside], "scan")
        out = traced.output_spec
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError(f"The scan function must return a pair comprising the new state and the output value, "
                            f"got {describe(out)}.")
        new_state_spec = out[0]
        relaxed = common_spec(state_spec, new_state_spec, "scan (the new state against the initial state)")
        if relaxed != state_spec:
            state_spec = relaxed
            traced = TracedFunction(scan_func, [state_spec, input_dataset._spec_inside], "scan")
        super().__init__(input_dataset, traced.output_spec[1])
        self._function = traced
        leaves = nest.flatten(state)  # an initial state of graph tensors takes their values when bound
        self._initial = tuple(None if is_symbolic(t) else t._value for t in leaves)
        self._n_state = len(self._initial)
        self._graph_tensors = lifted_tensors(self._function) + tuple(t for t in leaves if is_symbolic(t))

    def _bound_copy(self, values):
        n = len(self._function.lifted)
        new = with_bound_functions(self, values[:n], "_function")
        state = iter(values[n:])
        new._initial = tuple(next(state) if v is None else v for v in self._initial)
        return new

    def _flat_iter(self):
        state = self._initial
        n = self._n_state
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            out = self._function(state + item)
            state, output = out[:n], out[n:]
            yield output


class ShardDataset(UnaryDataset):
    _tf_name = "_ShardDataset"

    def __init__(self, input_dataset, num_shards, index):
        super().__init__(input_dataset)
        self._n = as_int(num_shards, "num_shards")
        self._index = as_int(index, "index")
        if self._n == SHARD_HINT:  # a placeholder that a distribution strategy's HINT policy fills in
            return
        if self._n <= 0:
            raise InvalidArgumentError(
                f"Number of shards must be greater than zero (currently num_shards = {self._n}).")
        if not 0 <= self._index < self._n:
            raise InvalidArgumentError(f"Index must be between 0 and {self._n - 1} (currently index = {self._index}).")

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0 or self._n == SHARD_HINT:
            return n if n < 0 else UNKNOWN
        return n // self._n + (1 if n % self._n > self._index else 0)

    def _flat_iter(self):
        if self._n == SHARD_HINT:
            raise FailedPreconditionError(
                "`tf.data.Dataset.shard(SHARD_HINT, ...)` can only be used in "
                "`tf.distribute.Strategy.experimental_distribute_dataset()` with "
                "`tf.data.experimental.AutoShardPolicy.HINT` policy, or tf.data service with "
                "`tf.data.experimental.service.ShardingPolicy.HINT` processing mode.")
        for i, item in enumerate(self._input._flat_iter()):
            if i % self._n == self._index:
                yield item


def _ragged_of_supported_dtype(spec) -> bool:
    from ..ragged import RaggedTensorSpec

    return isinstance(spec, RaggedTensorSpec) and (spec.dtype in (dtypes.int32, dtypes.int64)
                                                   or spec.dtype.name == "string")


class UniqueDataset(UnaryDataset):
    _tf_name = "_UniqueDataset"

    def __init__(self, input_dataset):
        spec = input_dataset._spec_inside
        if _ragged_of_supported_dtype(spec):
            # TF's Python check reads the legacy output type (the ragged tensor's dtype) and lets it pass; the
            # kernel then refuses the ragged tensor's variant component
            raise InvalidArgumentError("UniqueDataset only supports inputs with a single `tf.int32`, `tf.int64`, "
                                       "or `tf.string` component.")
        if not isinstance(spec, TensorSpec) or spec.dtype not in (
                dtypes.int32, dtypes.int64) and getattr(spec.dtype, "name", "") != "string":
            raise TypeError(f"Unique does not support type {describe(spec)}: it supports datasets of int32, int64 "
                            "or string elements.")
        super().__init__(input_dataset)

    def _cardinality(self):
        return UNKNOWN  # TF 2.21: unknown even over an infinite input (no count is known)

    def _flat_iter(self):
        seen = set()
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                yield item
                continue
            value = item[0]
            key = value.item() if isinstance(value, np.generic) else np.asarray(value).tobytes()
            if key not in seen:
                seen.add(key)
                yield item


class IgnoreErrorsDataset(UnaryDataset):
    _tf_name = "_IgnoreErrorsDataset"

    def _cardinality(self):
        return UNKNOWN  # TF 2.21: unknown even over an infinite input (no count is known)

    def _flat_iter(self):
        for item in self._input._flat_iter():
            if type(item) is not ElementError:
                yield item


class CacheDataset(UnaryDataset):
    """The first complete pass keeps its elements (in memory, or in `filename`); later passes read them."""

    _tf_name = "CacheDataset"

    def __init__(self, input_dataset, filename=""):
        super().__init__(input_dataset)
        self._filename = str(filename.numpy().decode() if hasattr(filename, "numpy") else filename)
        self._cached = None

    def _inputs_started_at_creation(self):
        return () if self._load() is not None else self._inputs

    def _load(self):
        if self._cached is None and self._filename and os.path.exists(self._filename + ".tinytf-cache"):
            with open(self._filename + ".tinytf-cache", "rb") as f:
                self._cached = pickle.load(f)
        return self._cached

    def _flat_iter(self):
        cached = self._load()
        if cached is not None:
            yield from cached
            return
        elements = []
        for item in self._input._flat_iter():
            if type(item) is not ElementError:
                elements.append(item)
            yield item
        self._cached = elements
        if self._filename:
            with open(self._filename + ".tinytf-cache", "wb") as f:
                pickle.dump(elements, f)



@dataset_methods
class _TransformMethods:
    def with_options(self, options, name=None):
        return OptionsDataset(self, self.options().merge(options))

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return MapDataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        return FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        return FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        return InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls)

    def take(self, count, name=None):
        return deferred_transform(self, TakeDataset, count) or TakeDataset(self, count)

    def skip(self, count, name=None):
        return deferred_transform(self, SkipDataset, count) or SkipDataset(self, count)

    def repeat(self, count=None, name=None):
        return deferred_transform(self, RepeatDataset, count) or RepeatDataset(self, count)

    def enumerate(self, start=0, name=None):
        spec = (TensorSpec((), dtypes.int64), self._spec_inside)
        return deferred(enumerate_dataset, (self, start), lambda: spec, (self,), ZipDataset._tf_name) \
            or enumerate_dataset(self, start)

    def take_while(self, predicate, name=None):
        return TakeWhileDataset(self, predicate)

    def scan(self, initial_state, scan_func, name=None):
        return ScanDataset(self, initial_state, scan_func)

    def shard(self, num_shards, index, name=None):
        return deferred_transform(self, ShardDataset, num_shards, index) or ShardDataset(self, num_shards, index)

    def unique(self, name=None):
        return UniqueDataset(self)

    def ignore_errors(self, log_warning=False, name=None):
        return IgnoreErrorsDataset(self)

    def cache(self, filename="", name=None):
        return CacheDataset(self, filename)
