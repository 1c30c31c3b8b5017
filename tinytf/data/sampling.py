"""choose_from_datasets and sample_from_datasets: one output stream drawn from several datasets."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import philox
from tinytf.runtime.ops.random import get_seed
from tinytf.runtime.ops.random_categorical import multinomial_samples
from tinytf.runtime.ops.stateless_random import generator_from_seed

from ..tensor_spec import TensorSpec
from .dataset import INFINITE, UNKNOWN, DatasetV2, dataset_methods
from .iteration_seeds import begin_pass
from .structure import ElementError, common_spec


def _common(datasets, what):
    if not datasets:
        raise ValueError(f"Invalid `datasets`. `datasets` should not be empty ({what}).")
    spec = datasets[0]._spec_inside
    for d in datasets[1:]:
        spec = common_spec(spec, d._spec_inside, what)
    return spec


class ChooseFromDatasets(DatasetV2):
    """The element of datasets[c] for each c of choice_dataset."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, choice_dataset, stop_on_empty_dataset=True):
        datasets = list(datasets)
        spec = choice_dataset._spec_inside
        if nest.is_nested(spec) or spec.dtype is not dtypes.int64 or (spec._shape is not None and len(spec._shape)):
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar of `tf.int64` "
                            f"dtype, but got {spec}.")
        super().__init__(_common(datasets, "choose_from_datasets"), (*datasets, choice_dataset))
        self._datasets = datasets
        self._choices = choice_dataset
        self._stop = stop_on_empty_dataset

    def _cardinality(self):
        # TF 2.21: infinite as soon as one data input is (whatever the choices), else unknown
        return INFINITE if any(d._cardinality() == INFINITE for d in self._datasets) else UNKNOWN

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


class RandomDataset(DatasetV2):
    """tf.data.Dataset.random: int64 values in [0, 2**32), the 32-bit words of a Philox stream seeded as TF's
    RandomDataset kernel (get_seed's two seeds), so TF's numbers. Every iteration starts the stream over, unless
    rerandomize_each_iteration: then each iteration seeds a new stream (tinytf's own derivation of the seeds,
    not TF's seed generator)."""

    _tf_name = "_RandomDataset"

    def __init__(self, seed=None, rerandomize_each_iteration=None):
        super().__init__(TensorSpec((), dtypes.int64))
        self._seeds = get_seed(seed) or (0, 0)  # (0, 0): random seeds, drawn per generator
        self._rerandomize = bool(rerandomize_each_iteration)
        self._epoch = 0  # iterations begun (named as the other random stages': iterator checkpoints restore it)

    def _cardinality(self):
        return INFINITE

    def _flat_iter(self):
        seed, seed2 = self._seeds
        if self._rerandomize:
            seed2 = (seed2 + begin_pass(self) * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        generator = philox.PhiloxGenerator(seed, seed2)
        words = philox.WordStream(generator.key, generator.counter)
        while True:
            yield (np.int64(words.word()),)


def _log_weights(weights, count):
    """TF's selector logits: log of the weights as a float32 (or float64) row; None means all 1."""
    if weights is None:
        return np.ones((1, count), np.float32)
    array = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights)
    if array.dtype not in (np.float32, np.float64):
        array = array.astype(np.float32)
    with np.errstate(divide="ignore"):
        return np.log(array).reshape(1, -1)


class SampleFromDatasets(DatasetV2):
    """TF's sample_from_datasets: a selector of stateless multinomial draws, seeded by pairs of a
    RandomDataset(seed), picks the member for each element; a draw of an exhausted member is skipped (the next
    draw decides), so a seeded pipeline gives TF's order, the same at every iteration."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, weights, seed, stop_on_empty_dataset, rerandomize_each_iteration=None):
        datasets = list(datasets)
        seeds = RandomDataset(seed, rerandomize_each_iteration)
        # the seed source is an input too, so an iterator checkpoint finds its iteration count
        super().__init__(_common(datasets, "sample_from_datasets"), (*datasets, seeds))
        self._seeds = seeds
        self._weights_dataset = None
        if isinstance(weights, DatasetV2):
            # one weight vector per draw (rejection_resample's mixing probability comes as such a dataset): each
            # element's components together are the weights, whose log is the draw's logits row
            spec = weights._spec_inside
            if not all(getattr(getattr(c, "dtype", None), "is_floating", False) for c in nest.flatten(spec)):
                raise TypeError(f"Invalid `weights`. `weights` type must be either a `tf.data.Dataset` of float "
                                f"weights, or a list of floats, got element_spec {spec}.")
            self._weights_dataset = weights
        elif weights is not None:
            given = np.asarray(weights.numpy() if hasattr(weights, "numpy") else weights)
            if given.shape != (len(datasets),):
                raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with "
                                 f"`[len(datasets)]` but is {list(given.shape)}.")
            if not hasattr(weights, "numpy"):  # TF drops the members of a Python list's zero weights
                kept = [i for i, w in enumerate(given) if w > 0]
                datasets = [datasets[i] for i in kept] or [datasets[0].take(0)]
                weights = [given[i] for i in kept] or [1.0]
        self._datasets = datasets
        self._logits = None if self._weights_dataset is not None else _log_weights(weights, len(datasets))
        self._stop = stop_on_empty_dataset

    def _cardinality(self):
        # TF 2.21 (DirectedInterleave): infinite as soon as one member is, else unknown
        return INFINITE if any(d._cardinality() == INFINITE for d in self._datasets) else UNKNOWN

    def _selections(self):
        seeds = self._seeds._flat_iter()
        weight_stream = None if self._weights_dataset is None else self._weights_dataset._flat_iter()
        while True:
            logits = self._logits
            if weight_stream is not None:
                drawn = next(weight_stream, None)
                if drawn is None:
                    return
                if type(drawn) is ElementError:
                    yield drawn
                    continue
                weights = np.concatenate([np.asarray(c).reshape(-1) for c in drawn])
                if weights.size != len(self._datasets):
                    raise InvalidArgumentError(f"sample_from_datasets: a weights element holds {weights.size} "
                                               f"weights for {len(self._datasets)} datasets")
                with np.errstate(divide="ignore"):
                    logits = np.log(weights).reshape(1, -1)
            pair = (int(next(seeds)[0]), int(next(seeds)[0]))
            yield int(multinomial_samples(generator_from_seed(pair), logits, 1, np.int64)[0, 0])

    def _flat_iter(self):
        if len(self._datasets) == 1 and self._weights_dataset is None:
            yield from self._datasets[0]._flat_iter()
            return
        iterators = [d._flat_iter() for d in self._datasets]
        live = len(iterators)
        for choice in self._selections():
            if type(choice) is ElementError:
                yield choice
                continue
            if not 0 <= choice < len(iterators):
                raise InvalidArgumentError(f"Selector index out of range: {choice} >= {len(iterators)} "
                                           "(sample_from_datasets)")
            if iterators[choice] is None:  # an exhausted member: the next draw decides
                continue
            item = next(iterators[choice], None)
            if item is not None:
                yield item
                continue
            if self._stop:
                return
            iterators[choice] = None
            live -= 1
            if live == 0:
                return


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    return SampleFromDatasets(datasets, weights, seed, stop_on_empty_dataset, rerandomize_each_iteration)


@dataset_methods
class _SamplingMethods:
    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset, rerandomize_each_iteration)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        return RandomDataset(seed, rerandomize_each_iteration)
