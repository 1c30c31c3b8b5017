"""tf.sets: intersection, union, difference and size of the sets held in the last dimension of a dense tensor or
of a SparseTensor (its rows). A set operation's result is a SparseTensor's parts (indices, values, dense_shape),
each row's values sorted, the last dimension as wide as the largest result set, as TF's DenseToDenseSetOperation
family returns them. No gradient (TF registers none)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

OPERATIONS = ("intersection", "union", "a-b", "b-a")


def _dense_rows(values):
    values = np.asarray(values)
    if values.ndim < 2:
        raise InvalidArgumentError(f"set operations need inputs of rank 2 or more, got shape {list(values.shape)}")
    lead = values.shape[:-1]
    return lead, {index: values[index].tolist() for index in np.ndindex(*lead)}


def _sparse_rows(indices, values, shape):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if shape.size < 2:
        raise InvalidArgumentError(f"set operations need inputs of rank 2 or more, got dense_shape {shape.tolist()}")
    lead = tuple(int(d) for d in shape[:-1])
    rows: dict = {}
    for position, value in zip(indices.tolist(), values.tolist()):
        rows.setdefault(tuple(position[:-1]), []).append(value)
    return lead, rows


def _split(inputs, sparse_flags):
    parts, at = [], 0
    for sparse in sparse_flags:
        if sparse:
            parts.append(_sparse_rows(*inputs[at:at + 3]))
            at += 3
        else:
            parts.append(_dense_rows(inputs[at]))
            at += 1
    return parts


def _combine(a, b, operation):
    if operation == "intersection":
        return a & b
    if operation == "union":
        return a | b
    return a - b if operation == "a-b" else b - a


def _set_operation_kernel(*inputs, operation, sparse):
    (lead_a, rows_a), (lead_b, rows_b) = _split(inputs, sparse)
    if lead_a != lead_b:
        raise InvalidArgumentError(f"set operation: the inputs' leading dimensions differ: {list(lead_a)} vs "
                                   f"{list(lead_b)}")
    dtype = np.asarray(inputs[1 if sparse[0] else 0]).dtype
    results = {}
    for index in np.ndindex(*lead_a):
        result = _combine(set(rows_a.get(index, ())), set(rows_b.get(index, ())), operation)
        if result:
            results[index] = sorted(result)
    width = max((len(r) for r in results.values()), default=0)
    positions = [index + (j,) for index, row in results.items() for j in range(len(row))]
    values = [v for row in results.values() for v in row]
    out_values = np.empty(len(values), dtype=dtype)
    for i, value in enumerate(values):  # element by element: a list of bytes would become a numpy bytes array
        out_values[i] = value
    out_indices = np.array(positions, np.int64).reshape(len(positions), len(lead_a) + 1)
    return out_indices, out_values, np.array(lead_a + (width,), np.int64)


def _value_dtype(inputs, sparse):
    return inputs[1].dtype if sparse[0] else inputs[0].dtype


def _set_operation_infer(*inputs, operation, sparse):
    if operation not in OPERATIONS:
        raise ValueError(f"unknown set operation {operation!r}")
    at, value_types, ranks = 0, [], []
    for flag in sparse:
        if flag:
            value_types.append(inputs[at + 1].dtype)
            shape = inputs[at + 2]._shape
            ranks.append(None if shape is None else shape[0])
            at += 3
        else:
            value_types.append(inputs[at].dtype)
            ranks.append(None if inputs[at]._shape is None else len(inputs[at]._shape))
            at += 1
    if value_types[0] is not value_types[1]:
        raise TypeError(f"set operation: the inputs must have one dtype, got {value_types[0].name} and "
                        f"{value_types[1].name}")
    if value_types[0].name not in ("int8", "int16", "int32", "int64", "uint8", "uint16", "string"):
        raise TypeError(f"set operations take integer or string values, got {value_types[0].name}")
    rank = next((r for r in ranks if r is not None), None)
    if rank is not None and rank < 2:
        raise ValueError(f"set operations need inputs of rank 2 or more, got rank {rank}")
    return [(dtypes.int64, (None, rank)), (value_types[0], (None,)), (dtypes.int64, (rank,))]


set_operation_op = register(OpDef("set_operation", _set_operation_kernel, _set_operation_infer,
                                  differentiable=False,
                                  doc="intersection / union / difference of the sets in the last dimension, as a "
                                      "SparseTensor's parts"))


def _set_size_kernel(indices, values, shape):
    lead, rows = _sparse_rows(indices, values, shape)
    out = np.zeros(lead, np.int32)
    for index, row in rows.items():
        out[index] = len(set(row))
    return out


def _set_size_infer(indices, values, shape):
    rank = shape._shape[0] if shape._shape is not None else None
    return dtypes.int32, None if rank is None else (None,) * (rank - 1)


set_size_op = register(OpDef("set_size", _set_size_kernel, _set_size_infer, differentiable=False,
                             doc="the number of distinct values in each row of a SparseTensor"))
