"""tf.compat.v1.ragged's numpy-side value (helper v1alias): RaggedTensorValue (numpy values and row_splits, what
a TF1 Session returns for a ragged tensor) and constant_value, which builds one from a nested Python list as
tf.ragged.constant builds a RaggedTensor, but with numpy's dtype inference (int64, float64) as TF's."""

from __future__ import annotations

import numpy as np


class RaggedTensorValue:
    """The value of a RaggedTensor: `values` (a numpy array or a RaggedTensorValue) split into rows by
    `row_splits` (1-D int32 or int64)."""

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and row_splits.dtype in (np.int64, np.int32)
                and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values, self._row_splits = values, row_splits

    values = property(lambda self: self._values, doc="The concatenated values of all rows.")
    row_splits = property(lambda self: self._row_splits, doc="The split indices of the rows.")
    dtype = property(lambda self: self._values.dtype, doc="The numpy dtype of the values.")

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensorValue):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        splits, values = [self._row_splits], self._values
        while isinstance(values, RaggedTensorValue):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    @property
    def ragged_rank(self) -> int:
        return self._values.ragged_rank + 1 if isinstance(self._values, RaggedTensorValue) else 1

    @property
    def shape(self):
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def to_list(self):
        inner = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        return [inner[self._row_splits[i]:self._row_splits[i + 1]] for i in range(len(self._row_splits) - 1)]

    def __str__(self):
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"


def _leaves(pylist):
    if isinstance(pylist, (list, tuple, np.ndarray)):
        for item in pylist:
            yield from _leaves(item)
    else:
        yield pylist


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None, row_splits_dtype="int64"):
    """A RaggedTensorValue of the nested list (a numpy array when it has no ragged dimension); the dtype is
    numpy's for the leaves unless given (float64 for floats, int64 for ints, float64 when empty)."""
    import tinytf as tf

    if dtype is None:
        leaves = list(_leaves(pylist))
        inferred = np.array(leaves).dtype if leaves else np.dtype(np.float64)
        dtype = tf.string if inferred.kind in "USO" else tf.as_dtype(inferred)
    ragged = tf.ragged.constant(pylist, dtype=dtype, ragged_rank=ragged_rank, inner_shape=inner_shape,
                                row_splits_dtype=row_splits_dtype)
    if not isinstance(ragged, tf.RaggedTensor):
        return ragged.numpy()
    value = ragged.flat_values.numpy()
    for splits in reversed(ragged.nested_row_splits):
        value = RaggedTensorValue(value, splits.numpy())
    return value


__all__ = ["RaggedTensorValue", "constant_value"]
