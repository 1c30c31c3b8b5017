"""tf.sparse functions that combine or regroup entries: maximum, minimum, softmax (over each row's entries),
split, to_indicator, mask (of tf.IndexedSlices), bincount, cross and cross_hashed, as TF 2.21 defines them."""

from __future__ import annotations

import numpy as np

from tinytf.indexed_slices import IndexedSlices
from tinytf.ragged.ragged_tensor import RaggedTensor
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops import segment as _seg
from tinytf.runtime.ops import sparse_more as _k
from tinytf.runtime.ops.linalg import matmul as _matmul
from tinytf.runtime.ops.set_ops import unique
from tinytf.runtime.ops.sparse import sparse_to_dense
from tinytf.runtime.ops.static_value import constant_value

from .ops import _require_sparse
from .sparse_tensor import SparseTensor


def _static_same_shape(a: SparseTensor, b: SparseTensor, what: str) -> None:
    if a._shape is not None and b._shape is not None and len(a._shape) != len(b._shape):
        raise ValueError(f"{what}: SparseTensors of ranks {len(a._shape)} and {len(b._shape)}")


def maximum(sp_a, sp_b, name=None) -> SparseTensor:
    """`tf.sparse.maximum`: the element-wise maximum over the union of the entries (a missing one counts as 0);
    both operands must be in row-major order, as TF requires."""
    a, b = _require_sparse(sp_a, "tf.sparse.maximum"), _require_sparse(sp_b, "tf.sparse.maximum")
    _static_same_shape(a, b, "tf.sparse.maximum")
    indices, values = _k.sparse_sparse_minmax(a, b, True)
    return SparseTensor._make(indices, values, a.dense_shape, a._shape)


def minimum(sp_a, sp_b, name=None) -> SparseTensor:
    """`tf.sparse.minimum`: the element-wise minimum over the union of the entries (a missing one counts as 0)."""
    a, b = _require_sparse(sp_a, "tf.sparse.minimum"), _require_sparse(sp_b, "tf.sparse.minimum")
    _static_same_shape(a, b, "tf.sparse.minimum")
    indices, values = _k.sparse_sparse_minmax(a, b, False)
    return SparseTensor._make(indices, values, a.dense_shape, a._shape)


def softmax(sp_input, name=None) -> SparseTensor:
    """`tf.sparse.softmax`: the softmax of each innermost row over its entries only (missing entries are not
    -inf logits but absent), the indices unchanged."""
    sp = _require_sparse(sp_input, "tf.sparse.softmax")
    if not sp.values.dtype.is_floating:
        raise TypeError(f"tf.sparse.softmax: values must be floating point, got {sp.values.dtype.name}")
    outer = sp.indices[:, :-1]
    strides = _r.cumprod(sp.dense_shape[:-1], exclusive=True, reverse=True)
    row_key = _r.reduce_sum(outer * strides, axis=1)
    _, rows = unique(row_key)
    count = _a.size(rows)  # an upper bound of the number of rows with entries
    shifted = sp.values - _i.gather(_seg.unsorted_segment_max(sp.values, rows, count), rows)
    exp = _m.exp(shifted)
    values = exp / _i.gather(_seg.unsorted_segment_sum(exp, rows, count), rows)
    return SparseTensor._make(sp.indices, values, sp.dense_shape, sp._shape)


def split(sp_input=None, num_split=None, axis=None, name=None, keyword_required=None) -> list:
    """`tf.sparse.split`: num_split SparseTensors along `axis`, the first size % num_split of them one larger."""
    sp = _require_sparse(sp_input, "tf.sparse.split")
    if num_split is None or axis is None:
        raise ValueError("tf.sparse.split needs num_split and axis")
    num_split, axis = int(num_split), int(axis)
    if sp._shape is None:
        raise ValueError("tf.sparse.split needs a SparseTensor of known rank")
    rank = len(sp._shape)
    if not -rank <= axis < rank:
        raise ValueError(f"tf.sparse.split: axis {axis} is out of range for rank {rank}")
    axis = axis + rank if axis < 0 else axis
    unit = convert_to_tensor(np.eye(rank, dtype=np.int64)[axis])
    if not 1 <= num_split <= (sp._shape[axis] if sp._shape[axis] is not None else num_split):
        raise InvalidArgumentError(f"tf.sparse.split: Input num_split should be between 1 and the splitting "
                                   f"dimension size ({sp._shape[axis]}), got {num_split}")
    size = sp.dense_shape[axis]
    base, extra = _m.floordiv(size, np.int64(num_split)), _m.floormod(size, np.int64(num_split))
    column = sp.indices[:, axis]
    pieces = []
    for k in range(num_split):
        kk = np.int64(k)
        start = kk * base + _m.minimum(kk, extra)
        length = base + _m.cast(_m.less(kk, extra), dtypes.int64)
        keep = _m.logical_and(_m.greater_equal(column, start), _m.less(column, start + length))
        where = _a.reshape(_i.where(keep), [-1])
        indices = _i.gather(sp.indices, where) - _a.reshape(unit * start, [1, -1])
        shape = sp.dense_shape + unit * (length - size)
        static = None
        if sp._shape is not None and sp._shape[axis] is not None:
            n = sp._shape[axis]
            static = sp._shape[:axis] + (n // num_split + (1 if k < n % num_split else 0),) + sp._shape[axis + 1:]
        pieces.append(SparseTensor._make(indices, _i.gather(sp.values, where), shape, static))
    return pieces


def to_indicator(sp_input, vocab_size, name=None):
    """`tf.sparse.to_indicator`: a dense bool tensor of shape dense_shape[:-1] + [vocab_size], True at
    [index[:-1], value] for each entry (the values are ids)."""
    sp = _require_sparse(sp_input, "tf.sparse.to_indicator")
    if not sp.values.dtype.is_integer:
        raise TypeError(f"tf.sparse.to_indicator: values must be integer ids, got {sp.values.dtype.name}")
    ids = _m.cast(sp.values, dtypes.int64)
    positions = _a.concat([sp.indices[:, :-1], _a.expand_dims(ids, 1)], 1)
    shape = _a.concat([sp.dense_shape[:-1], _a.reshape(_m.cast(convert_to_tensor(vocab_size), dtypes.int64), [1])],
                      0)
    trues = _m.greater_equal(ids, np.int64(0))
    return sparse_to_dense(positions, trues, shape, False)


def mask(a, mask_indices, name=None):
    """`tf.sparse.mask`: the tf.IndexedSlices `a` without its slices whose index is in `mask_indices`."""
    if not isinstance(a, IndexedSlices):
        raise TypeError(f"tf.sparse.mask: expected tf.IndexedSlices, got {type(a).__name__}")
    mask_indices = _m.cast(convert_to_tensor(mask_indices), a.indices.dtype)
    masked = _r.reduce_any(_m.equal(_a.expand_dims(a.indices, 1), _a.expand_dims(mask_indices, 0)), axis=1)
    keep = _a.reshape(_i.where(_m.logical_not(masked)), [-1])
    return IndexedSlices(_i.gather(a.values, keep), _i.gather(a.indices, keep), a.dense_shape)


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """`tf.sparse.bincount`: a SparseTensor of how often each value occurs (in each row, with axis=-1), or with
    which total weight; its size N is maxlength if given, else max(max(values) + 1, minlength)."""
    axis = 0 if axis is None else int(axis)
    if axis not in (0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    if isinstance(values, SparseTensor):
        flat, rows = values.values, values.indices[:, 0]
        num_rows = values.dense_shape[0]
        weights = None if weights is None else weights.values
    elif isinstance(values, RaggedTensor):
        flat, rows, num_rows = values.values, values.value_rowids(), values.nrows()
        weights = None if weights is None else weights.values
    else:
        values = convert_to_tensor(values)
        if axis == -1 and values._shape is not None and len(values._shape) != 2:
            raise ValueError(f"tf.sparse.bincount with axis=-1 needs a rank-2 input, got rank {len(values._shape)}")
        flat = _a.reshape(values, [-1])
        num_rows = _a.shape(values)[0] if axis == -1 else 1
        width = _a.shape(values)[-1] if axis == -1 else _a.size(values)
        rows = _m.floordiv(_a.range(0, _a.size(values)), width) if axis == -1 else _a.zeros_like(flat)
        weights = None if weights is None else _a.reshape(convert_to_tensor(weights), [-1])
    if axis == 0:
        rows = _a.zeros_like(_m.cast(flat, dtypes.int64))
    indices, counts, dense_shape = _k.sparse_bincount(_m.cast(rows, dtypes.int64), flat, weights,
                                                      None if axis == 0 else num_rows,
                                                      -1 if minlength is None else minlength,
                                                      -1 if maxlength is None else maxlength, binary_output)
    return SparseTensor(indices, counts, dense_shape)


def _features(inputs, what):
    """(indices, values, dense_shape) of each input, the SparseTensors first, then the dense ones (TF's order)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"{what}: inputs must be a list")
    sparse = [x for x in inputs if isinstance(x, SparseTensor)]
    dense = [convert_to_tensor(x) for x in inputs if not isinstance(x, SparseTensor)]
    out = [(s.indices, s.values, s.dense_shape) for s in sparse]
    for d in dense:
        if d._shape is not None and len(d._shape) != 2:
            raise ValueError(f"{what}: dense inputs must be matrices, got shape {list(d._shape)}")
        every = _i.where(_a.ones_like(d, dtype=dtypes.bool_))
        out.append((every, _a.reshape(d, [-1]), _m.cast(_a.shape(d), dtypes.int64)))
    return out


def cross(inputs, name=None, separator=None) -> SparseTensor:
    """`tf.sparse.cross`: for each row, every combination of one value per input, as the strings joined by
    `separator` ("_X_"); sparse inputs come first, then dense ones, the last input varying fastest."""
    indices, values, shape = _k.sparse_cross(_features(inputs, "tf.sparse.cross"),
                                             separator="_X_" if separator is None else separator)
    return SparseTensor(indices, values, shape)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None) -> SparseTensor:
    """`tf.sparse.cross_hashed`: tf.sparse.cross with each combination's FingerprintCat64 hash modulo num_buckets
    (TF's hashes, bit for bit)."""
    indices, values, shape = _k.sparse_cross(_features(inputs, "tf.sparse.cross_hashed"), hashed=True,
                                             num_buckets=num_buckets, hash_key=hash_key)
    return SparseTensor(indices, values, shape)


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type=dtypes.float32):
    """`tf.sparse.sampled_addmm`: (indices, alpha * (mat1 @ mat2)[indices] + beta * values, dense_shape): the
    product only where the sparse pattern has entries (batched over leading dimensions)."""
    output_type = dtypes.as_dtype(output_type)
    indices = convert_to_tensor(indices)
    values = _m.cast(convert_to_tensor(values), output_type)
    dense_shape = _m.cast(convert_to_tensor(dense_shape), dtypes.int32)
    mat1, mat2 = _m.cast(convert_to_tensor(mat1), output_type), _m.cast(convert_to_tensor(mat2), output_type)
    out_shape = None
    if mat1._shape is not None and mat2._shape is not None:
        out_shape = [mat1._shape[-2], mat2._shape[-1]]
    known = constant_value(dense_shape)
    if known is not None and out_shape is not None and None not in out_shape \
            and np.asarray(known).tolist() != out_shape:
        raise ValueError(f"Dense shape: {np.asarray(known).tolist()}, does not match output shape: {out_shape}")
    dense = _matmul(mat1, mat2)
    batch_dims = 0 if indices._shape is None else len(indices._shape) - 2
    picked = _i.gather_nd(dense, indices, batch_dims=batch_dims)
    return indices, alpha * picked + beta * values, dense_shape
