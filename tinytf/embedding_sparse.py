"""tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse: one embedding per example from a bag of ids
given as a SparseTensor (row = example), combined by sum, mean or sqrtn, optionally weighted. TF's algorithm
(embedding_ops.py): look up the unique ids once, then reduce by segment (the SparseTensor's rows), so the
gradient of the table is a tf.IndexedSlices of the looked-up rows. The safe variant drops ids < 0 (and, unless
summing, weights <= 0), fills empty rows (with default_id's embedding, or zeros) and takes ids of any rank."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops import segment as _seg
from tinytf.runtime.ops.set_ops import unique

from .clip_ops import clip_by_norm
from .nn_sampled_losses import sharded_lookup
from .sparse import entries as _entries
from .sparse.sparse_tensor import SparseTensor

_COMBINERS = ("mean", "sqrtn", "sum")


def _lookup(params, ids, max_norm):
    rows = sharded_lookup(params, ids, "div")
    if max_norm is None:
        return rows
    return clip_by_norm(rows, max_norm, axes=list(range(1, len(rows._shape))) if rows._shape else [1])


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """`tf.nn.embedding_lookup_sparse`: for each row of `sp_ids` (a [batch, n] SparseTensor of ids), the
    combination of the embeddings of its ids (weighted by `sp_weights`' values, if given): "sum", "mean" (the
    default) or "sqrtn" (sum over the root of the sum of squared weights). The result has one row per segment up
    to the last non-empty row of sp_ids (an empty row in between gives zeros), as in TF."""
    combiner = "mean" if combiner is None else combiner
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Missing embedding params: an empty list")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor, got {type(sp_weights)}")
    if sp_weights is not None:
        a, b = sp_ids.values._shape, sp_weights.values._shape
        if a is not None and b is not None and a[0] is not None and b[0] is not None and a[0] != b[0]:
            raise ValueError(f"Shapes {list(a)} and {list(b)} are incompatible")
    segment_ids = _m.cast(sp_ids.indices[:, 0], dtypes.int32)
    ids, idx = unique(sp_ids.values)
    embeddings = _lookup(params, ids, max_norm)
    if sp_weights is None:
        reduce = {"sum": _entries.segment_sum, "mean": _entries.segment_mean,
                  "sqrtn": _entries.segment_sqrt_n}[combiner]
        return reduce(embeddings, idx, segment_ids)
    embeddings = _i.gather(embeddings, idx)
    original = embeddings.dtype
    if original in (dtypes.float16, dtypes.bfloat16):  # low precision: combine in float32, as TF
        embeddings = _m.cast(embeddings, dtypes.float32)
    weights = sp_weights.values
    if weights.dtype is not embeddings.dtype:
        weights = _m.cast(weights, embeddings.dtype)
    ones = _a.ones(_a.expand_dims(_a.rank(embeddings) - 1, 0), dtypes.int32)
    weights = _a.reshape(weights, _a.concat([_a.shape(weights), ones], 0))
    embeddings = embeddings * weights
    summed = _seg.segment_sum(embeddings, segment_ids)
    if combiner == "sum":
        result = summed
    elif combiner == "mean":
        result = _m.divide_no_nan(summed, _seg.segment_sum(weights, segment_ids))
    else:
        result = _m.divide_no_nan(summed, _m.sqrt(_seg.segment_sum(_m.pow(weights, 2), segment_ids)))
    return result if result.dtype is original else _m.cast(result, original)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, max_norm=None, name=None, allow_fast_lookup=False):
    """`tf.nn.safe_embedding_lookup_sparse`: embedding_lookup_sparse that drops invalid ids (< 0) and, unless
    the combiner is "sum", entries of weight <= 0; a row left empty gets the embedding of `default_id`, or zeros.
    `sparse_ids` may have any rank >= 2: the result has its shape without the last dimension, plus the
    embedding's."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if not isinstance(embedding_weights, (list, tuple)):
        embedding_weights = [embedding_weights]
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if not isinstance(sparse_ids, SparseTensor):
        raise TypeError(f"sparse_ids must be SparseTensor, got {type(sparse_ids)}")
    dtype = None if sparse_weights is None else sparse_weights.dtype
    embedding_weights = [w if dtype is None or getattr(w, "dtype", None) is dtype else convert_to_tensor(w, dtype)
                         for w in embedding_weights]
    original_shape = sparse_ids.dense_shape
    rank = None if sparse_ids._shape is None else len(sparse_ids._shape)
    if rank is None:
        rank = original_shape._shape[0] if original_shape._shape is not None else None
    if rank is None:
        raise ValueError("safe_embedding_lookup_sparse needs sparse_ids of known rank")
    sparse_ids = _entries.reshape(sparse_ids, _a.stack([_r.reduce_prod(original_shape[:rank - 1]),
                                                        original_shape[rank - 1]]))
    if sparse_weights is not None:
        sparse_weights = SparseTensor._make(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape,
                                            sparse_ids._shape)
    valid = _m.greater_equal(sparse_ids.values, _m.cast(convert_to_tensor(0), sparse_ids.values.dtype))
    sparse_ids = _entries.retain(sparse_ids, valid)
    if sparse_weights is not None:
        sparse_weights = _entries.retain(sparse_weights, valid)
        if combiner != "sum":
            positive = _m.greater(sparse_weights.values, _m.cast(convert_to_tensor(0), sparse_weights.dtype))
            sparse_ids = _entries.retain(sparse_ids, positive)
            sparse_weights = _entries.retain(sparse_weights, positive)
    sparse_ids, is_row_empty = _entries.fill_empty_rows(sparse_ids, default_id or 0)
    if sparse_weights is not None:
        sparse_weights, _ = _entries.fill_empty_rows(sparse_weights, 1.0)
    result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                     max_norm=max_norm)
    if default_id is None:
        empty = _a.reshape(is_row_empty, _a.concat([[-1], _a.ones(_a.expand_dims(_a.rank(result) - 1, 0),
                                                                   dtypes.int32)], 0))
        result = _i.where(_a.broadcast_to(empty, _a.shape(result)), _a.zeros_like(result), result)
    leading = _m.cast(original_shape[:rank - 1], dtypes.int32)
    return _a.reshape(result, _a.concat([leading, _a.shape(result)[1:]], 0))
