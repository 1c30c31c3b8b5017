"""A tf.SparseTensor given to fit/evaluate/predict (a `keras.Input(sparse=True)` model's data), cut into batches
of rows like a numpy array: `rows[a:b]` or `rows[index_array]` is the SparseTensor of those rows, renumbered
from 0, in the order asked (so shuffled batches work too)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf


class SparseRows:
    """The rows of a 2-D or higher SparseTensor, indexable by a slice or an array of row numbers."""

    def __init__(self, sparse):
        self.indices = np.asarray(sparse.indices.numpy(), np.int64)
        self.values = sparse.values.numpy()
        self.shape = tuple(int(d) for d in sparse.dense_shape.numpy())
        self.dtype = np.dtype(self.values.dtype)
        self.ndim = len(self.shape)
        self._tf_dtype = sparse.dtype

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, rows):
        wanted = np.arange(len(self))[rows] if isinstance(rows, slice) else np.asarray(rows, np.int64)
        position = np.full(len(self), -1, np.int64)
        position[wanted] = np.arange(len(wanted))
        new_row = position[self.indices[:, 0]]
        kept = np.nonzero(new_row >= 0)[0]
        kept = kept[np.argsort(new_row[kept], kind="stable")]  # row-major order in the batch's numbering
        indices = self.indices[kept].copy()
        indices[:, 0] = new_row[kept]
        return _tf.sparse.SparseTensor(indices, _tf.constant(self.values[kept], self._tf_dtype),
                                       (len(wanted),) + self.shape[1:])
