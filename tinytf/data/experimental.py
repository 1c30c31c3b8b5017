"""tf.data.experimental: the aliases TF 2.21 still has for methods that moved onto Dataset."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.tensor import EagerTensor

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
    stacked = [EagerTensor(np.stack([t._value for t in column]), column[0].dtype) for column in columns]
    return DatasetV2.from_tensor_slices(nest.pack_sequence_as(normalized[0], stacked))


def _transformation(method):
    def make(*args, **kwargs):
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
