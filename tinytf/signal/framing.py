"""tf.signal.frame (overlapping windows of a signal along an axis) and tf.signal.overlap_and_add (its adjoint:
frames summed back into a signal), written with gather and unsorted_segment_sum so both run eagerly and in
graphs, with signal lengths known only at run time too, and have gradients (each is the other's transpose).
frame_length and frame_step must be known when a function is traced."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import segment as _segment
from tinytf.runtime.ops.array import known_ints


def _scalar_int(value, what):
    result = known_ints(value, what)
    if not isinstance(result, int):
        raise ValueError(f"{what} must be a scalar, got {list(result)}")
    return result


def _frame_count(length, frame_length, frame_step, pad_end):
    if pad_end:
        return -(-length // frame_step)
    return max(0, 1 + (length - frame_length) // frame_step)


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Split `signal`'s `axis` into frames of frame_length samples, frame_step apart: that axis becomes
    (frames, frame_length). With pad_end, the end is padded with pad_value so every sample is in a frame."""
    x = convert_to_tensor(signal)
    if x.shape.rank is None:
        raise ValueError("frame: the signal must have a known rank")
    if x.shape.rank < 1:
        raise ValueError(f"Shape {x.shape} must have rank at least 1")
    frame_length = _scalar_int(frame_length, "frame: frame_length")
    frame_step = _scalar_int(frame_step, "frame: frame_step")
    axis = _scalar_int(axis, "frame: axis")
    rank = x.shape.rank
    if not -rank <= axis < rank:
        raise ValueError(f"frame: axis {axis} is out of range for a signal of rank {rank}")
    axis %= rank
    length = x.shape[axis]
    if length is not None:
        count = _frame_count(length, frame_length, frame_step, pad_end)
        if pad_end:
            needed = max(0, frame_length + frame_step * (count - 1) - length)
            if needed:
                paddings = [[0, 0]] * rank
                paddings[axis] = [0, needed]
                x = _array.pad(x, paddings, constant_values=convert_to_tensor(pad_value, dtype=x.dtype))
        indices = (frame_step * np.arange(count)[:, None] + np.arange(frame_length)[None, :]).astype(np.int32)
        return _indexing.gather(x, indices.reshape(count, frame_length), axis=axis)
    # the length is known only at run time: the same indices, computed by ops
    length = _array.shape(x)[axis]
    if pad_end:
        count = -((-length) // frame_step)
        needed = _math.maximum(frame_length + frame_step * (count - 1) - length, 0)
        paddings = _array.stack([_array.stack([0, needed if a == axis else 0]) for a in range(rank)])
        x = _array.pad(x, paddings, constant_values=convert_to_tensor(pad_value, dtype=x.dtype))
    else:
        count = _math.maximum(1 + (length - frame_length) // frame_step, 0)
    starts = _array.expand_dims(_array.range(count) * frame_step, 1)
    indices = starts + _array.expand_dims(_array.range(frame_length), 0)
    return _indexing.gather(x, indices, axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """Frames (..., frames, frame_length) added back together frame_step apart: a signal of
    (frames - 1) * frame_step + frame_length samples (TF's reconstruction of framed signals)."""
    x = convert_to_tensor(signal)
    rank = x.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"Shape {x.shape} must have rank at least 2")
    frame_step = _scalar_int(frame_step, "overlap_and_add: frame_step")
    count, frame_length = x.shape[-2], x.shape[-1]
    if frame_length is None:
        raise ValueError("overlap_and_add: the frame length (last dimension) must be known")
    if frame_step > frame_length:
        raise ValueError(f"frame_step ({frame_step}) must be less than or equal to frame_length ({frame_length})")
    # frames and samples first, so one unsorted_segment_sum adds every sample into its output position
    perm = [rank - 2, rank - 1] + list(range(rank - 2))
    moved = _array.transpose(x, perm)
    if count is not None:
        positions = (frame_step * np.arange(count)[:, None] + np.arange(frame_length)[None, :]).astype(np.int32)
        total = max(0, (count - 1) * frame_step + frame_length)
    else:
        dynamic = _array.shape(x)[-2]
        positions = _array.expand_dims(_array.range(dynamic) * frame_step, 1) + \
            _array.expand_dims(_array.range(frame_length), 0)
        total = _math.maximum((dynamic - 1) * frame_step + frame_length, 0)
    summed = _segment.unsorted_segment_sum(moved, positions, total)
    return _array.transpose(summed, list(range(1, rank - 1)) + [0])
