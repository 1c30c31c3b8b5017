"""choose_from_datasets and sample_from_datasets: one output stream drawn from several datasets."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.random import get_seed

from .dataset import INFINITE, UNKNOWN, DatasetV2, dataset_methods
from .structure import ElementError, common_spec


def _common(datasets, what):
    if not datasets:
        raise ValueError(f"Invalid `datasets`. `datasets` should not be empty ({what}).")
    spec = datasets[0].element_spec
    for d in datasets[1:]:
        spec = common_spec(spec, d.element_spec, what)
    return spec


class ChooseFromDatasets(DatasetV2):
    """The element of datasets[c] for each c of choice_dataset."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, choice_dataset, stop_on_empty_dataset=True):
        datasets = list(datasets)
        spec = choice_dataset.element_spec
        if nest.is_nested(spec) or spec.dtype is not dtypes.int64 or (spec._shape is not None and len(spec._shape)):
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar of `tf.int64` "
                            f"dtype, but got {spec}.")
        super().__init__(_common(datasets, "choose_from_datasets"), (*datasets, choice_dataset))
        self._datasets = datasets
        self._choices = choice_dataset
        self._stop = stop_on_empty_dataset

    def _cardinality(self):
        return UNKNOWN if self._choices._cardinality() != INFINITE else INFINITE

    def _flat_iter(self):
        iterators = [d._flat_iter() for d in self._datasets]
        done = [False] * len(iterators)
        for choice in self._choices._flat_iter():
            if type(choice) is ElementError:
                yield choice
                continue
            c = int(choice[0])
            if not 0 <= c < len(iterators):
                raise InvalidArgumentError(f"Selector index out of range: {c} >= {len(iterators)} "
                                           "(choose_from_datasets)")
            if done[c]:
                continue
            item = next(iterators[c], None)
            if item is None:
                if self._stop:
                    return
                done[c] = True
                if all(done):
                    return
                continue
            yield item


class SampleFromDatasets(DatasetV2):
    """A random member (by weight) for each element; exhausted members drop out (or end it)."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, weights, seed, stop_on_empty_dataset):
        datasets = list(datasets)
        super().__init__(_common(datasets, "sample_from_datasets"), tuple(datasets))
        self._datasets = datasets
        self._weights_dataset = None
        if isinstance(weights, DatasetV2):
            # one weight vector per draw (rejection_resample's mixing probability comes as such a dataset)
            # each element's components together are the weights (TF takes log(element) as one [1, n] logits
            # row: rejection_resample's weights are the pairs ((m, 1 - m),))
            spec = weights.element_spec
            if not all(getattr(getattr(c, "dtype", None), "is_floating", False) for c in nest.flatten(spec)):
                raise TypeError(f"Invalid `weights`. `weights` type must be either a `tf.data.Dataset` of float "
                                f"weights, or a list of floats, got element_spec {spec}.")
            self._weights_dataset = weights
            weights = None
        if weights is None:
            weights = [1.0] * len(datasets)
        weights = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights, np.float64)
        if weights.shape != (len(datasets),):
            raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with `[len(datasets)]` "
                             f"but is {list(weights.shape)}.")
        self._weights = weights
        self._seeds = get_seed(seed)
        self._epoch = 0
        self._stop = stop_on_empty_dataset

    def _cardinality(self):
        counts = [d._cardinality() for d in self._datasets]
        if all(n == INFINITE for n in counts):
            return INFINITE
        return UNKNOWN

    def _flat_iter(self):
        rng = np.random.default_rng(None if self._seeds is None else [*self._seeds, self._epoch])
        self._epoch += 1
        iterators = [d._flat_iter() for d in self._datasets]
        weights = self._weights.copy()
        live = np.ones(len(weights))  # members not yet exhausted
        weight_stream = None if self._weights_dataset is None else self._weights_dataset._flat_iter()
        while (weights * live).sum() > 0:
            if weight_stream is not None:
                drawn = next(weight_stream, None)
                if drawn is None:
                    return
                if type(drawn) is ElementError:
                    yield drawn
                    continue
                weights = np.concatenate([np.asarray(c, np.float64).reshape(-1) for c in drawn])
                if weights.shape != live.shape:
                    raise InvalidArgumentError(f"sample_from_datasets: a weights element holds {weights.size} "
                                               f"weights for {live.size} datasets")
                if (weights * live).sum() <= 0:
                    return
            p = weights * live
            c = int(rng.choice(len(p), p=p / p.sum()))
            item = next(iterators[c], None)
            if item is None:
                if self._stop:
                    return
                live[c] = 0
                continue
            yield item


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return SampleFromDatasets(datasets, weights, seed, stop_on_empty_dataset)


@dataset_methods
class _SamplingMethods:
    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)
