"""tf.data.experimental.at(dataset, index): the element at `index`, for the pipelines TF gives random access
(sources, map, batch, zip, concatenate, skip, take, repeat, shard, prefetch, and anything under an in-memory
cache). The element is the one iteration gives at that position; other stages are TF's UnimplementedError."""

from __future__ import annotations

from tinytf.runtime.errors import FailedPreconditionError, OutOfRangeError, UnimplementedError

from .batching import BatchDataset
from .dataset import INFINITE, UNKNOWN
from .parallel import PrefetchDataset
from .sources import ConcatenateDataset, RangeDataset, TensorDataset, TensorSliceDataset, ZipDataset, as_int
from .structure import ElementError, pack
from .transforms import (
    CacheDataset,
    MapDataset,
    OptionsDataset,
    RepeatDataset,
    ShardDataset,
    SkipDataset,
    TakeDataset,
)

_RANDOM_ACCESS = (TensorDataset, TensorSliceDataset, RangeDataset, ZipDataset, ConcatenateDataset, SkipDataset,
                  TakeDataset, RepeatDataset, ShardDataset, MapDataset, BatchDataset, PrefetchDataset, OptionsDataset)


def _check(dataset) -> None:
    if isinstance(dataset, CacheDataset) and not dataset._filename:
        return  # an in-memory cache gives random access to whatever it caches
    if not isinstance(dataset, _RANDOM_ACCESS):
        raise UnimplementedError(f"Random access is not implemented for dataset "
                                 f"{type(dataset).__name__}Op::Dataset")
    if dataset._cardinality() == INFINITE:
        raise FailedPreconditionError(f"Dataset of type {type(dataset).__name__}Op::Dataset has infinite "
                                      f"cardinality, which does not support random access.")
    for d in dataset._inputs:
        _check(d)


def at(dataset, index):
    """The element at `index` (an int): OutOfRangeError outside [0, cardinality)."""
    _check(dataset)
    index = as_int(index, "index")
    n = dataset._cardinality()
    if index < 0 or (n != UNKNOWN and index >= n):
        raise OutOfRangeError(f"Index out of range [0, {n}):{index}")
    items = dataset._flat_iter()
    try:
        for i, item in enumerate(items):
            if i == index:
                if type(item) is ElementError:
                    raise item.error
                return pack(dataset._spec_inside, item)
    finally:
        items.close()
    raise OutOfRangeError(f"Index out of range [0, {index}):{index}")
