"""tf.edit_distance's kernel: the Levenshtein distance between the sequences of two sparse tensors, one
distance per position of their leading dimensions (the last dimension indexes a sequence's elements), as TF's
EditDistance op: the output's shape is the larger of the two leading shapes, and `normalize` divides by the
truth's length (inf when the truth is empty and the hypothesis is not, 0 when both are)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register


def _levenshtein(a, b) -> int:
    if not len(a):
        return len(b)
    row = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return int(row[-1])


def _sequences(indices, values, what):
    """{leading index tuple: values in the order of their last index}."""
    groups = {}
    for index, value in sorted(zip(map(tuple, indices.tolist()), values.tolist()), key=lambda pair: pair[0]):
        groups.setdefault(index[:-1], []).append(value)
    if len(indices) and indices.shape[1] < 1:
        raise InvalidArgumentError(f"edit_distance: {what} indices must have rank >= 1")
    return groups


def _edit_distance_kernel(h_indices, h_values, h_shape, t_indices, t_values, t_shape, *, normalize):
    if h_shape.shape != t_shape.shape or h_shape.size < 2:
        raise InvalidArgumentError(f"edit_distance: hypothesis and truth must have the same rank (at least 2), "
                                   f"got shapes {h_shape.tolist()} and {t_shape.tolist()}")
    out_shape = tuple(np.maximum(h_shape[:-1], t_shape[:-1]).tolist())
    out = np.zeros(out_shape, np.float32)
    hypothesis, truth = _sequences(h_indices, h_values, "hypothesis"), _sequences(t_indices, t_values, "truth")
    for index in set(hypothesis) | set(truth):
        h, t = hypothesis.get(index, []), truth.get(index, [])
        distance = float(_levenshtein(h, t))
        if normalize:
            distance = distance / len(t) if t else (np.inf if h else 0.0)
        out[index] = distance
    return out


def _infer_edit_distance(h_indices, h_values, h_shape, t_indices, t_values, t_shape, *, normalize):
    if h_values.dtype is not t_values.dtype:
        raise TypeError(f"edit_distance: hypothesis and truth values must have one dtype, got "
                        f"{h_values.dtype.name} and {t_values.dtype.name}")
    rank = None if h_shape._shape is None or h_shape._shape[0] is None else h_shape._shape[0] - 1
    return dtypes.float32, None if rank is None else (None,) * rank


edit_distance_op = register(OpDef("edit_distance", _edit_distance_kernel, _infer_edit_distance, differentiable=False,
                                  doc="Levenshtein distances between two sparse tensors' sequences"))
