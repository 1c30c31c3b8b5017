"""SparseTensor datasets sliced, batched and unbatched (TF's "Working with sparse tensors" guide), including a
batch whose rows hold no entry: its unbatched rows are empty sparse tensors with the batch's inner shape."""

from __future__ import annotations

from . import program


def _sp(e):
    return [e.indices.numpy().tolist(), e.values.numpy().tolist(), e.dense_shape.numpy().tolist()]


@program
def p_sparse_dataset_batch_and_unbatch_with_empty_rows(tf):
    data = tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)], values=[1, 1, 1, 1, 1, 1],
                                  dense_shape=(6, 4))
    ds = tf.data.Dataset.from_tensor_slices(data)
    batched = ds.batch(2)
    return [[_sp(e) for e in ds], [_sp(e) for e in batched], [_sp(e) for e in batched.unbatch()]]
