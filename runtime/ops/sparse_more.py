"""Kernels of the tf.sparse leftovers that build a new set of entries: the element-wise maximum / minimum of two
SparseTensors (TF's SparseSparseMaximum / Minimum: the union of their entries, a missing entry counting as 0),
TF's sparse-output bincount (DenseCountSparseOutput and its sparse / ragged twins), and TF's SparseCross /
SparseCrossHashed (every combination of one value per feature in each row, sparse features first)."""

from __future__ import annotations

import itertools

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .feature_cross import DEFAULT_HASH_KEY, _feature_hash
from .fingerprint import fingerprint_cat64


# --- maximum / minimum ---------------------------------------------------------------------------------------
def _minmax_kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, *, take_max):
    if not np.array_equal(a_shape, b_shape):
        raise InvalidArgumentError(f"Operands do not have the same ranks; got shapes: {a_shape.tolist()} and "
                                   f"{b_shape.tolist()}")
    keys = {}
    for i, idx in enumerate(map(tuple, a_indices.tolist())):
        keys.setdefault(idx, [None, None])[0] = a_values[i]
    for i, idx in enumerate(map(tuple, b_indices.tolist())):
        keys.setdefault(idx, [None, None])[1] = b_values[i]
    order = sorted(keys)
    zero = a_values.dtype.type(0)
    pick = np.maximum if take_max else np.minimum
    values = [pick(zero if a is None else a, zero if b is None else b) for a, b in (keys[k] for k in order)]
    indices = np.array(order, np.int64).reshape(len(order), a_indices.shape[1])
    return indices, np.array(values, a_values.dtype).reshape(len(order))


def _infer_minmax(a_indices, a_values, a_shape, b_indices, b_values, b_shape, *, take_max):
    if a_values.dtype is not b_values.dtype:
        raise TypeError(f"sparse maximum/minimum: values of dtypes {a_values.dtype.name} and {b_values.dtype.name}")
    rank = None if a_indices._shape is None else a_indices._shape[1]
    return [(dtypes.int64, (None, rank)), (a_values.dtype, (None,))]


sparse_sparse_minmax_op = register(OpDef(
    "sparse_sparse_minmax", _minmax_kernel, _infer_minmax, differentiable=False,
    doc="TF's SparseSparseMaximum / Minimum: the union of two SparseTensors' entries, max or min (0 if missing)"))


def sparse_sparse_minmax(a, b, take_max: bool):
    """(indices, values) of the element-wise max (or min) of two SparseTensors' parts."""
    return apply(sparse_sparse_minmax_op, (a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape),
                 {"take_max": bool(take_max)})


# --- bincount ------------------------------------------------------------------------------------------------
def _bincount_kernel(rows, values, weights, num_rows, *, flat, minlength, maxlength, binary_output, weighted):
    values = np.asarray(values).reshape(-1)
    value_dtype = values.dtype
    values = values.astype(np.int64)
    if (values < 0).any():
        raise InvalidArgumentError("Input values must all be non-negative")
    rows = np.asarray(rows).reshape(-1)
    weights = np.asarray(weights).reshape(-1)
    max_value = int(values.max()) if values.size else 0
    size = maxlength if maxlength >= 0 else max(max_value + 1, minlength)
    keep = values < size
    counts: dict = {}
    for r, v, w in zip(rows[keep].tolist(), values[keep].tolist(), (weights[keep] if weighted else keep[keep])):
        key = (r, v)
        counts[key] = 1 if binary_output else counts.get(key, 0) + w
    order = sorted(counts)
    out_dtype = weights.dtype if weighted else value_dtype
    indices = np.array(order, np.int64).reshape(len(order), 2)
    out_values = np.array([counts[k] for k in order], out_dtype)
    if flat:  # all axes flattened: a vector of counts
        return indices[:, 1:], out_values, np.array([size], np.int64)
    return indices, out_values, np.array([int(num_rows), size], np.int64)


def _infer_bincount(rows, values, weights, num_rows, *, flat, minlength, maxlength, binary_output, weighted):
    if not values.dtype.is_integer:
        raise TypeError(f"bincount: values must be integers, got {values.dtype.name}")
    rank = 1 if flat else 2
    return [(dtypes.int64, (None, rank)), (weights.dtype if weighted else values.dtype, (None,)),
            (dtypes.int64, (rank,))]


sparse_bincount_op = register(OpDef(
    "sparse_bincount", _bincount_kernel, _infer_bincount, differentiable=False,
    doc="TF's DenseCountSparseOutput: how often (or with which total weight) each value occurs, per row"))


def sparse_bincount(rows, values, weights, num_rows, minlength, maxlength, binary_output):
    """(indices, counts, dense_shape) of the counts of `values` in their rows (num_rows None: one vector)."""
    weighted = weights is not None
    weights = convert_to_tensor(weights) if weighted else convert_to_tensor(np.zeros([0], np.int64))
    attrs = {"flat": num_rows is None, "minlength": int(minlength), "maxlength": int(maxlength),
             "binary_output": bool(binary_output), "weighted": weighted}
    num_rows = convert_to_tensor(np.int64(0) if num_rows is None else num_rows)
    return apply(sparse_bincount_op, (rows, values, weights, num_rows), attrs)


# --- cross ---------------------------------------------------------------------------------------------------
def _row_values(indices, values, batch):
    rows = [[] for _ in range(batch)]
    for r, v in zip(np.asarray(indices)[:, 0].tolist() if len(values) else [], np.asarray(values).tolist()):
        rows[r].append(v)
    return rows


def _as_text(value) -> bytes:
    return value if isinstance(value, bytes) else str(int(value)).encode()


def _cross_kernel(*parts, count, hashed, num_buckets, hash_key, separator):
    features = [parts[3 * i:3 * i + 3] for i in range(count)]
    batch = max(int(np.asarray(shape)[0]) for _, _, shape in features)
    per_feature = [_row_values(indices, values, batch) for indices, values, _ in features]
    modulo = num_buckets if num_buckets > 0 else (1 << 63) - 1
    out_indices, out_values = [], []
    for r in range(batch):
        for j, combo in enumerate(itertools.product(*(f[r] for f in per_feature))):
            if hashed:
                h = hash_key
                for value in combo:
                    h = fingerprint_cat64(h, _feature_hash(value))
                out_values.append(h % modulo)
            else:
                out_values.append(separator.encode().join(_as_text(v) for v in combo))
            out_indices.append((r, j))
    width = max((j + 1 for _, j in out_indices), default=0)
    values = np.array(out_values, np.int64) if hashed else np.array(out_values, object)
    return (np.array(out_indices, np.int64).reshape(len(out_indices), 2), values.reshape(len(out_values)),
            np.array([batch, width], np.int64))


def _infer_cross(*parts, count, hashed, num_buckets, hash_key, separator):
    for i in range(count):
        if parts[3 * i + 1].dtype not in (dtypes.string, dtypes.int64, dtypes.int32):
            raise TypeError(f"sparse cross: features must be strings or integers, got {parts[3 * i + 1].dtype.name}")
    return [(dtypes.int64, (None, 2)), (dtypes.int64 if hashed else dtypes.string, (None,)), (dtypes.int64, (2,))]


sparse_cross_op = register(OpDef(
    "sparse_cross", _cross_kernel, _infer_cross, differentiable=False,
    doc="TF's SparseCross / SparseCrossHashed: each row's combinations of one value per feature"))


def sparse_cross(features, hashed=False, num_buckets=0, hash_key=None, separator="_X_"):
    """(indices, values, dense_shape) of the cross of `features`, each an (indices, values, dense_shape)."""
    parts = [t for feature in features for t in feature]
    attrs = {"count": len(features), "hashed": bool(hashed), "num_buckets": int(num_buckets),
             "hash_key": DEFAULT_HASH_KEY if hash_key is None else int(hash_key), "separator": separator}
    return apply(sparse_cross_op, tuple(parts), attrs)
