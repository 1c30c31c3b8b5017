"""tf.data.Dataset: the base class. A dataset is a recipe: `_flat_iter()` makes a fresh Python generator
of elements (flat tuples of numpy values, one per leaf of `element_spec`). Transformations are subclasses
in their own modules (sources, transforms, batching, shuffling, parallel); this class only holds the
public methods that build them."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import user_location
from tinytf.runtime.tensor import EagerTensor

from ..tensor_spec import TensorSpec
from .structure import describe

INFINITE = -1
UNKNOWN = -2
AUTOTUNE = -1


class DatasetV2:
    """A sequence of elements, each a nest of tensors described by `element_spec`."""

    _tf_name = "_Dataset"  # the class name TF prints
    _what = None  # the transformation named in error messages, when the class name does not say it

    def __init__(self, element_spec, inputs: tuple = ()):
        self._element_spec = element_spec
        self._inputs = tuple(inputs)
        self._where = user_location()
        self._options = None

    # --- what subclasses provide --------------------------------------------------------------------
    def _flat_iter(self):
        raise NotImplementedError

    def _cardinality(self) -> int:
        return UNKNOWN

    # --- description --------------------------------------------------------------------------------
    @property
    def element_spec(self):
        return self._element_spec

    def cardinality(self):
        """The number of elements, or INFINITE_CARDINALITY (-1) / UNKNOWN_CARDINALITY (-2), as an int64."""
        return EagerTensor(np.int64(self._cardinality()), dtypes.int64)

    def __len__(self) -> int:
        n = self._cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self) -> bool:
        return True  # as TF: a dataset is truthy whatever its length (__len__ must not decide)

    def __repr__(self) -> str:
        return f"<{self._tf_name} element_spec={describe(self._element_spec)}>"

    def _error_context(self) -> str:
        where = f"\n  dataset created at {self._where}" if self._where is not None else ""
        return f"in {self._what or self._tf_name.lstrip('_')}{where}"

    # --- iteration ----------------------------------------------------------------------------------
    def __iter__(self):
        from .iterator import make_iterator

        return make_iterator(self)

    def as_numpy_iterator(self):
        """Elements as numpy values (scalars as numpy scalars), in the element's nest."""
        from .iterator import NumpyIterator

        return NumpyIterator(self)

    def _tinytf_graph_loop_source(self, name: str):
        """AutoGraph's hook: inside a graph, `for x in dataset` is one loop node over an iterator op."""
        from .graph_loop import dataset_loop_source

        return dataset_loop_source(self)

    def _graph_iterator(self):
        """The runtime iterator op's protocol (runtime/ops/data.py): a fresh iterator per run."""
        from .iterator import Iterator

        return Iterator(self)

    # --- tf.function arguments and graph tensors (symbolic.py) ----------------------------------------
    @property
    def _type_spec(self):
        from .structure import DatasetSpec

        return DatasetSpec(self.element_spec)

    def _to_components(self) -> list:
        from .symbolic import as_variant

        return [as_variant(self)]

    def _from_components(self, components):
        return self._type_spec._from_components(components)

    def _graph_inputs(self) -> list:
        """The graph tensors this recipe depends on (empty for a dataset of concrete values)."""
        from .symbolic import graph_inputs

        return graph_inputs(self)

    def _bind(self, values):
        """This recipe with its graph tensors replaced by `values` (what the graph's iterator op does)."""
        from .symbolic import bind

        return bind(self, values)

    # --- options ------------------------------------------------------------------------------------
    def options(self):
        from .options import Options

        for ds in self._lineage():
            if ds._options is not None:
                return ds._options
        return Options()

    def with_options(self, options, name=None):
        from .transforms import OptionsDataset

        return OptionsDataset(self, self.options().merge(options))

    def _lineage(self):
        yield self
        for d in self._inputs:
            yield from d._lineage()

    # --- sources (static) ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        from .sources import TensorSliceDataset

        return TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        from .sources import TensorDataset

        return TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None, **ignored):
        """range(stop), range(start, stop[, step]); TF ignores keywords other than output_type and name."""
        from .sources import RangeDataset

        def build(*bounds):
            return RangeDataset(*bounds, dtype=output_type)
        return _deferred(build, args, lambda: TensorSpec((), dtypes.as_dtype(output_type)), (), "_RangeDataset") \
            or build(*args)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """start, start + step, start + 2 * step, ... without end."""
        from .sources import CounterDataset

        return CounterDataset(start, step, dtype)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        from .sources import GeneratorDataset

        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The files matching glob pattern(s), shuffled unless shuffle=False (TF's default is to shuffle)."""
        from .readers import list_files

        return (_deferred(lambda pattern: list_files(pattern, shuffle, seed), (file_pattern,),
                          lambda: TensorSpec((), dtypes.string), (), "_ShuffleDataset")
                or list_files(file_pattern, shuffle, seed))

    @staticmethod
    def zip(*datasets, name=None):
        from .sources import ZipDataset

        if len(datasets) == 1 and not isinstance(datasets[0], DatasetV2):
            datasets = datasets[0]
        return ZipDataset(datasets)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        from .sampling import ChooseFromDatasets

        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        from .sampling import sample_from_datasets

        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)

    def concatenate(self, dataset, name=None):
        from .sources import ConcatenateDataset

        return ConcatenateDataset(self, dataset)

    # --- element-wise transformations ---------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        from .transforms import MapDataset

        return MapDataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        from .transforms import FilterDataset

        return FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        from .transforms import FlatMapDataset

        return FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        from .transforms import InterleaveDataset

        return InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls)

    def take(self, count, name=None):
        from .transforms import TakeDataset

        return self._unary_deferred(TakeDataset, count) or TakeDataset(self, count)

    def skip(self, count, name=None):
        from .transforms import SkipDataset

        return self._unary_deferred(SkipDataset, count) or SkipDataset(self, count)

    def repeat(self, count=None, name=None):
        from .transforms import RepeatDataset

        return self._unary_deferred(RepeatDataset, count) or RepeatDataset(self, count)

    def _unary_deferred(self, cls, *args, element_spec=None, build=None):
        """`cls(self, *args)` (or `build(self, *args)`) made when the graph runs, if some of `args` are graph
        tensors; None otherwise."""
        spec = self.element_spec if element_spec is None else element_spec
        return _deferred(build or cls, (self, *args), lambda: spec, (self,), cls._tf_name)

    def enumerate(self, start=0, name=None):
        from .transforms import ZipDataset, enumerate_dataset

        spec = (TensorSpec((), dtypes.int64), self.element_spec)
        return _deferred(enumerate_dataset, (self, start), lambda: spec, (self,), ZipDataset._tf_name) \
            or enumerate_dataset(self, start)

    def take_while(self, predicate, name=None):
        from .transforms import TakeWhileDataset

        return TakeWhileDataset(self, predicate)

    def scan(self, initial_state, scan_func, name=None):
        from .transforms import ScanDataset

        return ScanDataset(self, initial_state, scan_func)

    def shard(self, num_shards, index, name=None):
        from .transforms import ShardDataset

        return self._unary_deferred(ShardDataset, num_shards, index) or ShardDataset(self, num_shards, index)

    def unique(self, name=None):
        from .transforms import UniqueDataset

        return UniqueDataset(self)

    def ignore_errors(self, log_warning=False, name=None):
        from .transforms import IgnoreErrorsDataset

        return IgnoreErrorsDataset(self)

    def cache(self, filename="", name=None):
        from .transforms import CacheDataset

        return CacheDataset(self, filename)

    def apply(self, transformation_func):
        result = transformation_func(self)
        if not isinstance(result, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object.")
        return result

    def reduce(self, initial_state, reduce_func, name=None):
        from .reduce import reduce_dataset

        return reduce_dataset(self, initial_state, reduce_func)

    def get_single_element(self, name=None):
        from .reduce import single_element

        return single_element(self)

    # --- batching -----------------------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        from .batching import BatchDataset
        from .structure import with_batch_dim

        return (self._unary_deferred(BatchDataset, batch_size, drop_remainder,
                                     element_spec=with_batch_dim(self.element_spec, None))
                or BatchDataset(self, batch_size, drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        from .batching import PaddedBatchDataset
        from .symbolic import any_symbolic, concrete_args

        if any_symbolic(concrete_args([batch_size])):  # the spec is that of a batch of any size
            spec = PaddedBatchDataset(self, 1, padded_shapes, padding_values, False).element_spec
            return self._unary_deferred(PaddedBatchDataset, batch_size, element_spec=spec, build=lambda ds, size: (
                PaddedBatchDataset(ds, size, padded_shapes, padding_values, drop_remainder)))
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def unbatch(self, name=None):
        from .batching import UnbatchDataset

        return UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        from .batching import RebatchDataset

        return RebatchDataset(self, batch_size, drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        from .symbolic import any_symbolic, concrete_args
        from .windows import WindowDataset

        if any_symbolic(concrete_args([size, shift, stride, drop_remainder])):  # a window's spec has no sizes
            spec = WindowDataset(self, 1).element_spec
            return self._unary_deferred(WindowDataset, size, shift, stride, drop_remainder, element_spec=spec)
        return WindowDataset(self, size, shift, stride, drop_remainder)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        from .windows import GroupByWindowDataset

        return GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        from .windows import bucket_by_sequence_length

        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)

    # --- order and time -----------------------------------------------------------------------------
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        from .shuffling import ShuffleDataset

        return (self._unary_deferred(ShuffleDataset, buffer_size, build=lambda ds, size: (
            ShuffleDataset(ds, size, seed, reshuffle_each_iteration)))
                or ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration))

    def prefetch(self, buffer_size, name=None):
        from .parallel import PrefetchDataset

        return self._unary_deferred(PrefetchDataset, buffer_size) or PrefetchDataset(self, buffer_size)


def _deferred(build, args, element_spec, inputs, tf_name):
    """A dataset `build(*args)` made when the graph runs (symbolic.Deferred), when some of `args` are graph
    tensors that are not constants; None otherwise (the caller builds it now). `element_spec` is a function:
    the spec without the tensors' values."""
    from .symbolic import Deferred, any_symbolic, concrete_args

    args = concrete_args(args)
    if not any_symbolic(args):
        return None
    return Deferred(build, args, element_spec(), inputs, tf_name)


Dataset = DatasetV2
