"""KL divergences between distributions: a registry keyed by the pair of classes, looked up through both
classes' MROs (the closest registered ancestors win), as TF 2.21's kullback_leibler.py."""

from __future__ import annotations

import tinytf as tf

_DIVERGENCES: dict = {}


def _registered_kl(type_a, type_b):
    """The KL function registered for the nearest pair of ancestors (sum of MRO distances)."""
    best, best_distance = None, None
    for distance_a, parent_a in enumerate(type_a.__mro__):
        for distance_b, parent_b in enumerate(type_b.__mro__):
            candidate = _DIVERGENCES.get((parent_a, parent_b))
            if candidate is not None and (best is None or distance_a + distance_b < best_distance):
                best, best_distance = candidate, distance_a + distance_b
    return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """KL(distribution_a || distribution_b), batched. With allow_nan_stats=False a NaN result raises
    InvalidArgumentError when evaluated."""
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            f"No KL(distribution_a || distribution_b) registered for distribution_a type "
            f"{type(distribution_a).__name__} and distribution_b type {type(distribution_b).__name__}")
    kl_t = kl_fn(distribution_a, distribution_b, name=name)
    if allow_nan_stats:
        return kl_t
    check = tf.debugging.Assert(
        tf.logical_not(tf.reduce_any(tf.math.is_nan(kl_t))),
        [f"KL calculation between {distribution_a.name} and {distribution_b.name} returned NaN values (and was "
         "called with allow_nan_stats=False). Values:", kl_t])
    with tf.control_dependencies([check] if check is not None else []):
        return tf.identity(kl_t, name="checked_kl")


def cross_entropy(ref, other, allow_nan_stats=True, name=None):
    """H[ref, other] = H[ref] + KL(ref || other)."""
    return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


class RegisterKL:
    """Decorator: `@RegisterKL(Normal, Normal) def _kl(a, b, name=None): ...` registers KL(a || b)."""

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has already been registered "
                             f"to: {_DIVERGENCES[self._key]}")
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
