"""parse_example: serialized tf.train.Example protos -> tensors, one op for a whole batch (TF's
ParseExampleV2). Its attributes describe the features: sparse ones (VarLenFeature: indices, values and dense
shape of a SparseTensor), dense ones (FixedLenFeature: a fixed shape, or FixedLenSequenceFeature: a leading
dimension padded to the longest example) and ragged ones (RaggedFeature: flat values and the row splits of
each ragged dimension). Dense defaults come in as inputs (an empty one marks a required feature). The kernel
decodes the batch with example_decode (vectorized over the wire bytes) and assembles numpy arrays from the
per-feature columns without a Python loop over records."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import example_wire as wire
from .example_decode import decode_examples
from .ragged_partitions import ragged_output_types, ragged_outputs  # noqa: F401 (ragged_output_types: for tinytf.io)

KIND = {"int64": wire.INT64, "float32": wire.FLOAT, "string": wire.STRING}
KIND_NAME = {wire.INT64: "int64", wire.FLOAT: "float", wire.STRING: "string"}


def records_of(serialized, single) -> list:
    if single:
        return [serialized[()] if isinstance(serialized, np.ndarray) else serialized]
    return list(np.asarray(serialized, dtype=object).reshape(-1))


def wanted_of(sparse, dense, ragged) -> list:
    """The (key bytes, kind) columns the kernel needs, in output order: a ragged feature's values then its
    partition features (int64)."""
    wanted = [(key.encode(), KIND[dtype.name]) for key, dtype in sparse]
    wanted += [(key.encode(), KIND[dtype.name]) for key, dtype, _shape, _sequence in dense]
    for key, dtype, partitions, _validate in ragged:
        wanted.append((key.encode(), KIND[dtype.name]))
        wanted += [(str(ref).encode(), wire.INT64) for kind, ref in partitions if kind != "uniform_row_length"]
    return wanted


def _parse_kernel(serialized, *defaults, sparse, dense, ragged=(), single, vectorized=True):
    records = records_of(serialized, single)
    columns = decode_examples(records, wanted_of(sparse, dense, ragged), vectorized)
    outputs = feature_outputs(iter(columns), sparse, dense, defaults, ragged, single)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def feature_outputs(columns, sparse, dense, defaults, ragged, single) -> list:
    """The outputs of the features of one Features map per record, from their columns (in wanted_of order)."""
    outputs = []
    for key, dtype in sparse:
        outputs.extend(sparse_output(next(columns), key, dtype, single))
    for (key, dtype, shape, sequence), default in zip(dense, defaults):
        column = next(columns)
        if sequence:
            outputs.append(sequence_output(column, key, dtype, shape, default, single))
        else:
            outputs.append(fixed_output(column, key, dtype, shape, default, single))
    for key, dtype, partitions, validate in ragged:
        values, parts = ragged_columns(columns, key, dtype, partitions, single)
        outputs.extend(ragged_outputs(values, [k for k, _ in partitions], parts, validate, single))
    return outputs


def ragged_columns(columns, key, dtype, partitions, single):
    """A ragged feature's value column and, per partition, its int64 column (or its uniform length)."""
    values = checked(next(columns), key, dtype, single)
    parts = [ref if kind == "uniform_row_length" else checked(next(columns), ref, dtypes.int64, single)
             for kind, ref in partitions]
    return values, parts


def checked(column, key, dtype, single=True):
    """The column, after TF's check that every record holding the feature holds the expected list kind
    (worded as TF words it for one Example or for a batch)."""
    wrong = np.flatnonzero((column.kind != 0) & (column.kind != KIND[dtype.name]))
    if wrong.size:
        actual, expected = KIND_NAME[int(column.kind[wrong[0]])], KIND_NAME[KIND[dtype.name]]
        if single:
            raise InvalidArgumentError(f"Key: {key}.  Data types don't match. Data type: {actual} but expected "
                                       f"type: {expected}")
        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {int(wrong[0])}.  Data types don't match. "
                                   f"Expected type: {expected}, Actual type: {actual}")
    return column


def sparse_output(column, key, dtype, single):
    column = checked(column, key, dtype, single)
    counts, n = column.counts, column.counts.size
    total = int(counts.sum())
    width = int(counts.max(initial=0))
    starts = np.cumsum(counts) - counts
    columns_ = np.arange(total, dtype=np.int64) - np.repeat(starts, counts)
    values = column.values
    if single:
        return columns_.reshape(-1, 1), values, np.array([width], np.int64)
    batch = np.repeat(np.arange(n, dtype=np.int64), counts)
    return np.stack([batch, columns_], axis=1), values, np.array([n, width], np.int64)


def fixed_output(column, key, dtype, shape, default, single):
    size = int(np.prod(shape, dtype=np.int64))
    required = np.size(default) == 0 and size != 0
    wrong_kind = (column.kind != 0) & (column.kind != KIND[dtype.name])
    missing = ~column.present & required
    wrong_count = column.present & ~wrong_kind & (column.counts != size)
    bad = np.flatnonzero(wrong_kind | missing | wrong_count)
    if bad.size:  # the first bad record in order, worded as TF words it
        i = int(bad[0])
        if wrong_kind[i]:
            checked(column, key, dtype, single)
        if missing[i]:
            raise InvalidArgumentError(f"Feature: {key} (data type: {KIND_NAME[KIND[dtype.name]]}) is "
                                       "required but could not be found.")
        if single:
            raise InvalidArgumentError(
                f"Key: {key}, Index: {i}.  Can't parse serialized Example: Number of values "
                f"({int(column.counts[i])}) != expected ({size}) for the shape {list(shape)}.")
        raise InvalidArgumentError(
            f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {KIND_NAME[KIND[dtype.name]]} values != "
            f"expected.  Values size: {int(column.counts[i])} but output shape: {list(shape)}")
    n = column.present.size
    values = column.values
    if column.present.all():
        out = values
    else:
        out = np.empty((n, size), dtype=object if dtype.is_string else dtype.np)
        if size:
            out[~column.present] = np.reshape(default, -1)
        out[column.present] = values.reshape(-1, size)
    out = out.reshape((n,) + tuple(shape))
    return out[0] if single else out


def sequence_output(column, key, dtype, shape, default, single):
    """A FixedLenSequenceFeature: [batch, longest, *shape], shorter examples padded with the default."""
    column = checked(column, key, dtype, single)
    size = max(int(np.prod(shape, dtype=np.int64)), 1)
    bad = np.flatnonzero(column.counts % size)
    if bad.size:
        i = int(bad[0])
        raise InvalidArgumentError(
            f"Key: {key}, Index: {i}.  Number of values ({int(column.counts[i])}) is not a multiple of the "
            f"element size ({size}) of the shape {list(shape)}.")
    return padded(column.values, column.counts // size, dtype, shape, default, single)


def padded(values, rows, dtype, shape, default, single):
    """Rows of `shape`-sized elements, `rows[i]` of them for record i, padded to the longest with default."""
    n = rows.size
    longest = int(rows.max(initial=0))
    pad = np.asarray(default).reshape(-1)[0] if np.size(default) else (b"" if dtype.is_string else 0)
    out = np.empty((n, longest) + tuple(shape), dtype=object if dtype.is_string else dtype.np)
    out[...] = pad
    mask = np.arange(longest) < rows[:, None]
    out[mask] = values.reshape((-1,) + tuple(shape))
    return out[0] if single else out


def _parse_infer(serialized, *defaults, sparse, dense, ragged=(), single, vectorized=True):
    if not serialized.dtype.is_string:
        raise TypeError(f"parse_example: `serialized` must be a tf.string tensor, got {serialized.dtype.name}")
    rank = None if serialized._shape is None else len(serialized._shape)
    if rank is not None and rank != (0 if single else 1):
        raise ValueError(f"parse_example: `serialized` must be a {'scalar' if single else 'vector'}, got shape "
                         f"{list(serialized._shape)}")
    batch = () if single else ((None,) if serialized._shape is None else tuple(serialized._shape))
    out = []
    for _key, dtype in sparse:
        out += [(dtypes.int64, (None, len(batch) + 1)), (dtype, (None,)), (dtypes.int64, (len(batch) + 1,))]
    for _key, dtype, shape, sequence in dense:
        out.append((dtype, batch + ((None,) if sequence else ()) + tuple(shape)))
    for _key, dtype, partitions, _validate in ragged:
        out += ragged_output_types(dtype, partitions, single)
    return out[0] if len(out) == 1 else out


parse_example_op = register(OpDef(
    "parse_example", _parse_kernel, _parse_infer, differentiable=False,
    doc="serialized tf.train.Example protos -> sparse (indices, values, dense_shape), dense and ragged "
        "(values, row splits) feature tensors"))


def output_count(sparse, dense, ragged, single) -> int:
    return len(sparse) * 3 + len(dense) + sum(len(ragged_output_types(d, p, single)) for _k, d, p, _v in ragged)


def parse_example(serialized, defaults, sparse, dense, single, ragged=()):
    """The op's outputs as a list: three per sparse feature, one per dense feature, then per ragged feature
    its flat values and row splits (outermost first)."""
    attrs = {"sparse": tuple(sparse), "dense": tuple(dense), "single": bool(single)}
    if ragged:
        attrs["ragged"] = tuple(ragged)
    out = apply(parse_example_op, [serialized, *defaults], attrs)
    return [out] if output_count(sparse, dense, ragged, single) == 1 else list(out)
