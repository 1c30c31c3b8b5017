"""Dataset.rejection_resample: elements resampled towards a target class distribution, composed from other
datasets exactly as TF 2.21 composes it. With the initial distribution p (given, or estimated from the classes
seen so far, 32 at a time, starting from 10 of each class) and the target t, an element of class i is drawn
from the input unchanged with probability m = min(t/p), and otherwise from the input filtered by accepting
class i with probability a_i = (t_i/p_i - m) / (max(t/p) - m). Each output is (class, element)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import expand_dims, fill, tile
from tinytf.runtime.ops.indexing import gather, one_hot
from tinytf.runtime.ops.math import add, cast, less, truediv
from tinytf.runtime.ops.random import uniform as random_uniform
from tinytf.runtime.ops.reduce import reduce_max, reduce_min, reduce_sum
from tinytf.runtime.tensor import EagerTensor

from .dataset import DatasetV2, dataset_methods

_TINY = np.finfo(np.float32).tiny  # keeps t/p finite for a class never seen
_ESTIMATION_BATCH = 32  # TF's dist_estimation_batch_size
_SMOOTHING = 10  # TF's smoothing_constant: every class starts as seen this many times


def acceptance_and_mixing(initial, target):
    """(a, m): per-class acceptance probabilities of the filtered stream and the probability of drawing from
    the original stream (TF's _calculate_acceptance_probs_with_mixing)."""
    ratio = target / (initial + convert_to_tensor(np.float32(_TINY)))
    high, low = reduce_max(ratio), reduce_min(ratio)
    return (ratio - low) / (high - low), low


def _estimated_distribution(target, classes: DatasetV2) -> DatasetV2:
    """The class distribution as it is seen: running counts over batches of 32 classes, one estimate per
    element (TF's _estimate_initial_dist_ds)."""
    n = target._shape[0] if target._shape is not None and target._shape[0] is not None else None
    if n is None:
        raise ValueError("rejection_resample: target_dist must have a static length")

    def update(seen, c):
        seen = add(seen, reduce_sum(one_hot(c, n, dtype=dtypes.int64), 0))
        dist = cast(truediv(seen, reduce_sum(seen)), dtypes.float32)
        return seen, tile(expand_dims(dist, 0), [_ESTIMATION_BATCH, 1])

    start = fill([n], convert_to_tensor(np.int64(_SMOOTHING)))
    return classes.batch(_ESTIMATION_BATCH).scan(start, update).unbatch()


def _filtered(dataset, acceptance_ds, initial_ds, class_func, seed) -> DatasetV2:
    """(class, element) of the elements accepted with their class's probability (TF's _filter_ds; TF also
    prints a warning when most elements would be rejected)."""
    def gather_and_copy(accept, data):
        class_val = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return class_val, gather(accept, class_val), data

    def keep(unused_class, p, unused_data):
        return less(random_uniform([], seed=seed, dtype=p.dtype), p)

    del initial_ds  # only TF's warning reads it
    return DatasetV2.zip((acceptance_ds, dataset)).map(gather_and_copy).filter(keep).map(
        lambda class_value, _, data: (class_value, data))


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None) -> DatasetV2:
    target = cast(convert_to_tensor(target_dist), dtypes.float32)
    static_mixing = None
    if initial_dist is not None:
        initial = cast(convert_to_tensor(initial_dist), dtypes.float32)
        accept, mixing = acceptance_and_mixing(initial, target)
        initial_ds = DatasetV2.from_tensors(initial).repeat()
        acceptance_ds = DatasetV2.from_tensors(accept).repeat()
        mixing_ds = DatasetV2.from_tensors(mixing).repeat()
        if isinstance(initial, EagerTensor) and isinstance(target, EagerTensor):
            static_mixing = float(np.min(target._value / initial._value))
    else:
        initial_ds = _estimated_distribution(target, dataset.map(class_func))
        both = initial_ds.map(lambda p: acceptance_and_mixing(p, target))
        acceptance_ds = both.map(lambda a, _: a)
        mixing_ds = both.map(lambda _, m: m)
    filtered = _filtered(dataset, acceptance_ds, initial_ds, class_func, seed).prefetch(3)

    def add_class_value(*x):
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    if static_mixing == 1:
        return dataset.map(add_class_value)
    if static_mixing == 0:
        return filtered
    from .sampling import sample_from_datasets

    return sample_from_datasets([dataset.map(add_class_value), filtered],
                                weights=mixing_ds.map(lambda m: [(m, 1.0 - m)]), seed=seed,
                                stop_on_empty_dataset=True)


@dataset_methods
class _ResamplingMethods:
    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        return rejection_resample(self, class_func, target_dist, initial_dist, seed)
