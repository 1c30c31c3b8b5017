"""tf.data.experimental: the aliases TF 2.21 still has for methods that moved onto Dataset."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.tensor import EagerTensor

from ..deprecation_warning import warn_once
from .autoshard import SHARD_HINT, AutoShardPolicy  # noqa: F401
from .csv_datasets import CsvDataset, make_csv_dataset  # noqa: F401
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, DatasetV2  # noqa: F401
from .iterator import Optional  # noqa: F401
from .options import ThreadingOptions  # noqa: F401
from .sampling import RandomDataset  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


def Counter(start=0, step=1, dtype=dtypes.int64, name=None):  # noqa: N802 - TF's name
    """`tf.data.experimental.Counter`: what Dataset.counter gives."""
    return DatasetV2.counter(start, step, dtype)


def cardinality(dataset):
    return dataset.cardinality()


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    from .sampling import sample_from_datasets as sample

    return sample(datasets, weights, seed, stop_on_empty_dataset)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    return DatasetV2.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def get_single_element(dataset):
    return dataset.get_single_element()


def from_list(elements, name=None):
    """Elements given as a list (each one a nest of tensors), as one slice dataset."""
    from .dataset import DatasetV2
    from .structure import normalize

    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    normalized = [normalize(e) for e in elements]
    columns = list(zip(*[nest.flatten(e) for e in normalized]))
    for column in columns:
        if len({t.dtype for t in column}) != 1:
            raise TypeError(f"from_list: the elements' components must have one dtype, got "
                            f"{sorted({t.dtype.name for t in column})}")
    if all(len({np.shape(t._value) for t in column}) == 1 for column in columns):
        stacked = [EagerTensor(np.stack([t._value for t in column]), column[0].dtype) for column in columns]
        return DatasetV2.from_tensor_slices(nest.pack_sequence_as(normalized[0], stacked))
    # elements whose shapes differ (TF: from_list([[1], [2, 3]])): kept as they are, each component's spec the
    # most specific shape compatible with all of them
    from .windows import _ListDataset

    specs = [_common_spec(column) for column in columns]
    items = [tuple(t._value for t in row) for row in zip(*columns)]
    return _ListDataset(nest.pack_sequence_as(normalized[0], specs), items)


def _common_spec(column):
    from ..tensor_spec import TensorSpec

    shapes = {np.shape(t._value) for t in column}
    if len({len(s) for s in shapes}) != 1:
        return TensorSpec(None, column[0].dtype)
    dims = [d[0] if len(set(d)) == 1 else None for d in zip(*shapes)]
    return TensorSpec(dims, column[0].dtype)


# TF 2.21's deprecation notices of the experimental transformations that became Dataset methods:
# (the module TF names, its "Instructions for updating" text), logged once on the first call
_DEPRECATED = {
    "enumerate": ("enumerate_dataset", "tensorflow.python.data.experimental.ops.enumerate_ops",
                  "Use `tf.data.Dataset.enumerate()`."),
    "ragged_batch": ("dense_to_ragged_batch", "tensorflow.python.data.experimental.ops.batching",
                     "Use `tf.data.Dataset.ragged_batch` instead."),
    "unbatch": ("unbatch", "tensorflow.python.data.experimental.ops.batching", "Use `tf.data.Dataset.unbatch()`."),
    "unique": ("unique", "tensorflow.python.data.experimental.ops.unique", "Use `tf.data.Dataset.unique(...)"),
    "ignore_errors": ("ignore_errors", "tensorflow.python.data.experimental.ops.error_ops",
                      "Use `tf.data.Dataset.ignore_errors` instead."),
    "take_while": ("take_while", "tensorflow.python.data.experimental.ops.take_while_ops",
                   "Use `tf.data.Dataset.take_while(...)"),
    "scan": ("scan", "tensorflow.python.data.experimental.ops.scan_ops", "Use `tf.data.Dataset.scan(...) instead"),
}


def _transformation(method):
    def make(*args, **kwargs):
        if method in _DEPRECATED:
            warn_once(*_DEPRECATED[method])
        return lambda dataset: getattr(dataset, method)(*args, **kwargs)
    make.__name__ = method
    make.__doc__ = f"`tf.data.experimental.{method}(...)`: the transformation for Dataset.apply."
    return make


enumerate_dataset = _transformation("enumerate")
dense_to_ragged_batch = _transformation("ragged_batch")
unbatch = _transformation("unbatch")
unique = _transformation("unique")
ignore_errors = _transformation("ignore_errors")
take_while = _transformation("take_while")
scan = _transformation("scan")
group_by_window = _transformation("group_by_window")
bucket_by_sequence_length = _transformation("bucket_by_sequence_length")


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """`tf.data.experimental.rejection_resample(...)`: the transformation for Dataset.apply."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)


# --- tf.data.experimental's own transformations, sources, tables and utilities (experimental_*.py,
# record_sources.py, lookup_tables.py, saving.py hold them; the small compositions are here) ---------------
from .experimental_transforms import (  # noqa: E402, F401
    Reducer,
    assert_cardinality,
    dense_to_sparse_batch,
    group_by_reducer,
    pad_to_cardinality,
)
from .iterator import Iterator as _Iterator  # noqa: E402
from .lookup_tables import DatasetInitializer, index_table_from_dataset, table_from_dataset  # noqa: E402, F401
from .options import (  # noqa: E402, F401
    AutotuneAlgorithm,
    AutotuneOptions,
    DistributeOptions,
    ExternalStatePolicy,
    OptimizationOptions,
    ServiceOptions,
)
from .random_access import at  # noqa: E402, F401
from .record_sources import SqlDataset, TFRecordWriter  # noqa: E402, F401
from .saving import load, save, snapshot  # noqa: E402, F401
from .symbolic import as_variant as _as_variant  # noqa: E402
from .symbolic import from_variant as _from_variant  # noqa: E402


def get_structure(dataset_or_iterator):
    """`tf.data.experimental.get_structure(d)`: the element spec of a dataset or an iterator."""
    if isinstance(dataset_or_iterator, (DatasetV2, _Iterator)):
        return dataset_or_iterator.element_spec
    raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or "
                    f"tf.data.Iterator object, but got {type(dataset_or_iterator)}.")


def get_next_as_optional(iterator):
    """`tf.data.experimental.get_next_as_optional(it)`: `it.get_next_as_optional()`."""
    return iterator.get_next_as_optional()


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """`tf.data.experimental.map_and_batch(...)`: map then batch (TF fuses them; the elements are the same)."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError(f"`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to be "
                         f"set, but `num_parallel_batches` was set to {num_parallel_batches} and "
                         f"`num_parallel_calls` as set to {num_parallel_calls}.")
    if num_parallel_batches is not None:
        num_parallel_calls = num_parallel_batches * batch_size if isinstance(batch_size, int) else AUTOTUNE
    return lambda dataset: _named(dataset.map(map_func, num_parallel_calls).batch(batch_size, drop_remainder),
                                  "_MapAndBatchDataset")


def _named(dataset, tf_name):
    """The last stage of a composition, printed with the name of TF's fused dataset."""
    dataset._tf_name = tf_name
    return dataset


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """`tf.data.experimental.parallel_interleave(...)`: interleave with parallel calls; `sloppy` lets elements
    come in the order they are ready (deterministic=False)."""
    return lambda dataset: _named(dataset.interleave(map_func, cycle_length, block_length,
                                                     num_parallel_calls=cycle_length, deterministic=not sloppy),
                                  "ParallelInterleaveDataset")


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """`tf.data.experimental.shuffle_and_repeat(...)`: shuffle (reshuffled each epoch) then repeat."""
    return lambda dataset: _named(dataset.shuffle(buffer_size, seed).repeat(count), "_ShuffleAndRepeatDataset")


def copy_to_device(target_device, source_device="/cpu:0"):
    """`tf.data.experimental.copy_to_device(...)`: tinytf has one device, the CPU; its elements already are
    where a copy would put them, so the dataset is the same (as TF's copy from CPU to CPU)."""
    from .transforms import OptionsDataset

    _check_cpu(target_device, "copy_to_device")
    return lambda dataset: _named(OptionsDataset(dataset, None), "_CopyToDeviceDataset")


def prefetch_to_device(device, buffer_size=None):
    """`tf.data.experimental.prefetch_to_device(...)`: on the CPU, TF's prefetch."""
    _check_cpu(device, "prefetch_to_device")
    return lambda dataset: dataset.prefetch(AUTOTUNE if buffer_size is None else buffer_size)


def _check_cpu(device, what):
    """A device name's type ("/cpu:0", "/device:CPU:0", "/job:localhost/.../device:GPU:1") must be the CPU."""
    for part in str(device).split("/"):
        fields = part.split(":")
        kind = fields[1] if fields[0].lower() == "device" and len(fields) > 1 else fields[0]
        if fields[0].lower() in ("job", "replica", "task", ""):
            continue
        if kind.upper() != "CPU":
            raise ValueError(f"{what}: tinytf runs on the CPU only; there is no device {device!r}")


def enable_debug_mode():
    """`tf.data.experimental.enable_debug_mode()`: parallel stages run sequentially and deterministically (the
    user functions of tinytf's pipelines already run in order, element by element). ValueError in a graph."""
    from tinytf.runtime.context import state

    from . import debug_mode

    if state.graph is not None:
        raise ValueError("`enable_debug_mode() is only supported in eager mode.")
    debug_mode.enabled = True


def to_variant(dataset):
    """`tf.data.experimental.to_variant(dataset)`: the scalar tf.variant tensor that stands for the dataset
    (the component tf.function passes it as)."""
    return _as_variant(dataset)


def from_variant(variant, structure):
    """`tf.data.experimental.from_variant(variant, structure)`: the dataset a variant tensor stands for."""
    return _from_variant(structure, variant)


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """`tf.data.experimental.parse_example_dataset(features, ...)`: a dataset of batches of serialized Examples
    parsed into dicts of features (tf.io.parse_example on each batch)."""
    from ..io.parsing import parse_example

    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")

    def apply(dataset):
        spec = dataset.element_spec
        if not (hasattr(spec, "dtype") and spec.dtype.is_string and spec.shape.rank == 1):
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead it is `{spec}`.")
        parallel = None if num_parallel_calls == 1 else num_parallel_calls
        return dataset.map(lambda serialized: parse_example(serialized, features), parallel, deterministic)
    return apply


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None, reader_args=None,
                                  num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None, parser_num_threads=None,
                                  sloppy_ordering=False, drop_final_batch=False):
    """`tf.data.experimental.make_batched_features_dataset(...)`: batches of parsed Examples (feature dicts, and
    the label apart when `label_key` is given) from the files matching `file_pattern`, as TF composes it:
    list_files, interleave of `reader`, shuffle, repeat, batch, parse, prefetch."""
    from .readers import TFRecordDataset

    reader = TFRecordDataset if reader is None else reader
    reader_num_threads = 1 if reader_num_threads is None else reader_num_threads
    parser_num_threads = 2 if parser_num_threads is None else parser_num_threads
    prefetch_buffer_size = AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size
    reader_args = [] if reader_args is None else reader_args
    dataset = DatasetV2.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    dataset = dataset.interleave(lambda filename: reader(filename, *reader_args), cycle_length=reader_num_threads,
                                 block_length=1, num_parallel_calls=reader_num_threads,
                                 deterministic=not sloppy_ordering)
    spec = dataset.element_spec
    if isinstance(spec, tuple) and len(spec) == 2 and all(s.dtype.is_string for s in spec):
        dataset = dataset.map(lambda _, v: v)  # (key, value) records: the Example is the value
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys: "
                             f"{features.keys()}.")
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(prefetch_buffer_size)




def get_model_proto(iterator):
    """`tf.data.experimental.get_model_proto(iterator)`: TF's analytical autotuning model of an iterator's
    pipeline. tinytf's pipelines run each stage as written, without that model, so this raises what TF raises
    for an iterator that has none (NotFoundError); a non-iterator and graph mode are TF's ValueErrors."""
    from tinytf.runtime.context import state
    from tinytf.runtime.errors import NotFoundError

    from .iterator import NumpyIterator

    if state.graph is not None:  # checked first: a graph's iterators are of another class
        raise ValueError("get_model_proto is not supported in graph mode.")
    if not isinstance(iterator, (_Iterator, NumpyIterator)):
        raise ValueError("Only supports `tf.data.Iterator`-typed `iterator`.")
    raise NotFoundError("Cannot find this iterator's analytical model: tinytf's tf.data has no autotuning model "
                        "(each stage runs as written; see tf.data.Options().autotune), as TF's iterators with "
                        "autotune disabled have none.")


def make_saveable_from_iterator(iterator, external_state_policy=None):
    """`tf.data.experimental.make_saveable_from_iterator` (TF1's Saver of iterator state). Eagerly TF 2.21
    raises AttributeError (its iterator resource has no name); tf.train.Checkpoint(iterator=it) is the TF2 way."""
    from tinytf.runtime.context import state

    warn_once("make_saveable_from_iterator", "tensorflow.python.data.experimental.ops.iterator_ops",
              "`make_saveable_from_iterator` is intended for use in TF1 with `tf.compat.v1.Saver`. In TF2, use "
              "`tf.train.Checkpoint` instead.")
    if state.graph is None:
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")
    raise NotImplementedError("make_saveable_from_iterator: tinytf's tf.compat.v1.train.Saver saves variables "
                              "only; checkpoint the iterator with tf.train.Checkpoint(iterator=it)")


def distributed_save(dataset, path, data_service_address, compression="AUTO"):
    """`tf.data.experimental.distributed_save`: the tf.data service's workers write `dataset` to `path`
    (service/distributed_save.py)."""
    from .service.distributed_save import distributed_save as save_with_service

    return save_with_service(dataset, path, data_service_address, compression)


def __getattr__(name):
    """`tf.data.experimental.service` is imported when first used (its servers' modules: sockets, threads)."""
    if name == "service":
        import importlib

        return importlib.import_module(".service", __package__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

