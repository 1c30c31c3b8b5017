"""What TestCase.evaluate gives for composite tensors, as TF's test_util gives them: a SparseTensorValue, a
RaggedTensorValue (values and row_splits as numpy, `to_list()`), an IndexedSlicesValue."""

from __future__ import annotations

import collections

import numpy as np

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])


class RaggedTensorValue:
    """A ragged tensor's numpy components: `values` (a numpy array or another RaggedTensorValue) split into rows
    by `row_splits`."""

    def __init__(self, values, row_splits):
        self.values, self.row_splits = values, np.asarray(row_splits)

    @property
    def flat_values(self):
        return self.values.flat_values if isinstance(self.values, RaggedTensorValue) else self.values

    @property
    def nested_row_splits(self) -> tuple:
        inner = self.values.nested_row_splits if isinstance(self.values, RaggedTensorValue) else ()
        return (self.row_splits,) + inner

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def shape(self) -> tuple:
        return (len(self.row_splits) - 1, None) + tuple(np.shape(self.flat_values)[1:])

    @property
    def dtype(self):
        return self.flat_values.dtype

    def to_list(self) -> list:
        values = self.values.to_list() if isinstance(self.values, RaggedTensorValue) else self.values.tolist()
        return [values[start:stop] for start, stop in zip(self.row_splits[:-1], self.row_splits[1:])]

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self.values!r}, row_splits={self.row_splits!r})"
