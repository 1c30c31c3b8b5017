"""NumPy's indexing on tensors, installed as Tensor.__getitem__ by experimental_enable_numpy_behavior: integer
arrays (lists, tuples, tensors) and boolean masks along with ints, slices, Ellipsis and newaxis. Keys of only
ints, slices, Ellipsis and newaxis keep tinytf's strided slice; the rest become one gather_nd over the indexed
axes, with NumPy's placement of the broadcast index shape (in place when the indexed axes are adjacent, else
first), so gradients flow as through any gather."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .np_arrays import is_tensor


def _is_advanced(item) -> bool:
    if isinstance(item, (list, tuple, np.ndarray)):
        return True
    if is_tensor(item):
        return item.dtype == tf.bool or len(item.shape) > 0
    return False


def _expand(key, rank):
    """key as a list: Ellipsis replaced by full slices for the input axes no item consumes (newaxis kept)."""
    key = list(key) if isinstance(key, tuple) else [key]
    consumed = 0
    for item in key:
        if item is None or item is Ellipsis:
            continue
        if _is_advanced(item) and _as_array_dtype(item) == tf.bool:
            consumed += len(_as_tensor(item).shape)
        else:
            consumed += 1
    if any(k is Ellipsis for k in key):
        at = next(i for i, k in enumerate(key) if k is Ellipsis)
        key = key[:at] + [slice(None)] * (rank - consumed) + key[at + 1:]
    else:
        key = key + [slice(None)] * (rank - consumed)
    return key


def _as_tensor(item):
    if is_tensor(item):
        return tf.convert_to_tensor(item)
    return tf.constant(np.asarray(item))


def _as_array_dtype(item):
    return _as_tensor(item).dtype


def getitem(tensor, key, basic_getitem):
    """tensor[key] with NumPy's rules (basic_getitem: the strided slice used for keys without arrays)."""
    items = list(key) if isinstance(key, tuple) else [key]
    if not any(_is_advanced(k) for k in items):
        return basic_getitem(tensor, key)
    x = tf.convert_to_tensor(tensor)
    # newaxis first: insert length-1 axes, each then indexed by a full slice
    expanded = []
    position = 0
    for item in _expand(key, len(x.shape)):
        if item is None:
            x = tf.expand_dims(x, position)
            expanded.append(slice(None))
        else:
            expanded.append(item)
        position += 1 if not (_is_advanced(item) and _as_array_dtype(item) == tf.bool) else len(
            _as_tensor(item).shape)
    # masks become their nonzero positions, one integer array per axis they cover
    per_axis = []
    for item in expanded:
        if _is_advanced(item) and _as_array_dtype(item) == tf.bool:
            mask = _as_tensor(item)
            found = tf.where(mask)
            per_axis += [found[:, i] for i in range(len(mask.shape))]
        else:
            per_axis.append(item)
    # slices first (they keep their axes), then the ints and arrays as one gather
    slices = tuple(item if isinstance(item, slice) else slice(None) for item in per_axis)
    x = basic_getitem(x, slices)
    advanced = [axis for axis, item in enumerate(per_axis) if not isinstance(item, slice)]
    shape = tf.shape(x)
    indices = []
    for axis in advanced:
        index = tf.cast(_as_tensor(per_axis[axis]), tf.int64)
        size = tf.cast(shape[axis], tf.int64)
        indices.append(tf.where(index < 0, index + size, index))
    broadcast = tf.shape(indices[0])
    for index in indices[1:]:
        broadcast = tf.broadcast_dynamic_shape(broadcast, tf.shape(index))
    indices = [tf.broadcast_to(index, broadcast) for index in indices]
    rest = [axis for axis in range(len(per_axis)) if axis not in advanced]
    moved = tf.transpose(x, advanced + rest)
    result = tf.gather_nd(moved, tf.stack(indices, axis=-1))
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    if adjacent and advanced[0] > 0:  # NumPy keeps the index dimensions where the indexed axes were
        n_index = len(indices[0].shape)
        before = advanced[0]
        order = (list(range(n_index, n_index + before)) + list(range(n_index))
                 + list(range(n_index + before, n_index + len(rest))))
        result = tf.transpose(result, order)
    return result
