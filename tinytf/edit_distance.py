"""tf.edit_distance: Levenshtein distances between the sequences of two SparseTensors (runtime/ops/edit_distance.py)."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops.edit_distance import edit_distance_op


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Computes the Levenshtein distance between sequences: float32, of the shape of the inputs' leading
    dimensions; `normalize` divides by the truth's length."""
    from .sparse import SparseTensor

    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    inputs = (hypothesis.indices, hypothesis.values, hypothesis.dense_shape, truth.indices, truth.values,
              truth.dense_shape)
    return apply(edit_distance_op, inputs, {"normalize": bool(normalize)}, name=name)

