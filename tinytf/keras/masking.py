"""Keras masks: a boolean tensor riding along with a layer's output (Keras 3 calls it `_keras_mask`) that says
which timesteps are real. tinytf's tensors have fixed slots, so the mask lives in a side table keyed by the
tensor's identity and dropped (by a weakref callback) when the tensor dies, so an id is never reused
with a stale mask. Layers read the mask of their first input and attach one to their outputs; losses and
metrics turn the mask of y_pred into sample weights."""

from __future__ import annotations

import weakref

import tinytf as _tf

# id(tensor) -> (weakref to the tensor, mask)
_masks: dict = {}


def _forget(key):
    def callback(_ref):
        _masks.pop(key, None)
    return callback


def get_keras_mask(x):
    """The mask attached to x, or None."""
    entry = _masks.get(id(x))
    if entry is None:
        return None
    if entry[0]() is not x:  # a different object now has this id: the old entry is stale
        return None
    return entry[1]


def set_keras_mask(x, mask) -> None:
    """Attach `mask` to x (None removes it). Objects that cannot be weakly referenced take no mask."""
    key = id(x)
    if mask is None:
        _masks.pop(key, None)
        return
    try:
        ref = weakref.ref(x, _forget(key))
    except TypeError:
        return
    _masks[key] = (ref, mask)


def apply_mask(sample_weight, mask, dtype, reduction):
    """Fold a mask into sample weights as Keras 3 does: masked entries weigh 0; for the averaging reductions
    the kept ones weigh total/valid, so that sum(weighted losses)/total is the mean over the kept entries."""
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):
        total = _tf.cast(_tf.size(mask), dtype)
        valid = _tf.reduce_sum(_tf.cast(mask, dtype))
        weight = _tf.math.divide_no_nan(total, valid)
        float_mask = _tf.where(_tf.cast(mask, _tf.bool), weight, _tf.zeros_like(weight))
    else:
        float_mask = _tf.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    sample_weight = _tf.cast(_tf.convert_to_tensor(sample_weight), dtype)
    float_mask, sample_weight = _same_rank(float_mask, sample_weight)
    return sample_weight * float_mask


def _same_rank(a, b):
    """Keras' squeeze_or_expand_to_same_rank: squeeze a trailing 1 or expand the lower-rank one."""
    rank_a, rank_b = len(a.shape), len(b.shape)
    if rank_a == rank_b:
        return a, b
    if rank_a == rank_b + 1 and a.shape[-1] == 1:
        return _tf.squeeze(a, -1), b
    if rank_b == rank_a + 1 and b.shape[-1] == 1:
        return a, _tf.squeeze(b, -1)
    while len(a.shape) < len(b.shape):
        a = _tf.expand_dims(a, -1)
    while len(b.shape) < len(a.shape):
        b = _tf.expand_dims(b, -1)
    return a, b


def combined_mask(in_mask, out_mask):
    """The mask of a loss: the mask of y_pred and the mask the loss values carry, and-ed."""
    if in_mask is not None and out_mask is not None:
        return _tf.logical_and(in_mask, out_mask)
    return in_mask if in_mask is not None else out_mask


def _install_tensor_attribute() -> None:
    """`tensor._keras_mask`, the attribute Keras 3 (and code written for it) reads and writes, backed by the
    side table: tinytf's Tensor classes have fixed slots, so this is a property on their shared base."""
    from tinytf.runtime.tensor import Tensor

    if not isinstance(getattr(Tensor, "_keras_mask", None), property):
        Tensor._keras_mask = property(get_keras_mask, set_keras_mask, _delete_keras_mask)


def _delete_keras_mask(x) -> None:
    """`del tensor._keras_mask` (TF's Transformer tutorial drops the logits' mask so the loss ignores it);
    AttributeError when there is none, as deleting a missing attribute is."""
    if get_keras_mask(x) is None:
        raise AttributeError("_keras_mask")
    set_keras_mask(x, None)


_install_tensor_attribute()
