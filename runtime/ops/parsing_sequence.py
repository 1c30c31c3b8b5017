"""parse_sequence_example: serialized tf.train.SequenceExample protos -> the context features (as
parse_example parses an Example's features) and the feature lists (TF's ParseSequenceExampleV2), one op for
a batch. A feature list is a list of steps, each a Feature: FixedLenSequenceFeature gives [batch, longest,
*shape] padded with zeros plus each record's number of steps (the lengths output), VarLenFeature a
SparseTensor [batch, step, index], RaggedFeature a RaggedTensor [batch, (steps), (values)] whose partitions
apply within each step. Records are decoded with the protobuf runtime (the vectorized decoder covers plain
Examples, the input-pipeline case)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .example_decode import columns_of_features, columns_of_maps, parse_sequence_examples
from .parsing import (
    KIND,
    KIND_NAME,
    _parse_infer,
    feature_outputs,
    output_count,
    padded,
    records_of,
    wanted_of,
)
from .ragged_partitions import ragged_output_types, ragged_outputs


class _Steps:
    """One feature list across the batch: whether each record has it, its steps per record, and the column
    of all steps (records' steps one after another)."""

    def __init__(self, examples, key, kind):
        lists = [e.feature_lists.feature_list for e in examples]
        self.present = np.array([key in fl for fl in lists], bool)
        steps = [list(fl[key].feature) if key in fl else [] for fl in lists]
        self.steps = np.array([len(s) for s in steps], np.int64)
        self.column = columns_of_features([f for s in steps for f in s], kind)
        self.step_record = np.repeat(np.arange(len(lists), dtype=np.int64), self.steps)
        self.step_index = np.arange(self.steps.sum(), dtype=np.int64) - np.repeat(np.cumsum(self.steps) - self.steps,
                                                                                  self.steps)

    def check(self, key, dtype):
        wrong = np.flatnonzero((self.column.kind != 0) & (self.column.kind != KIND[dtype.name]))
        if wrong.size:
            raise InvalidArgumentError(f"Name: <unknown>, Feature list: {key}, Index: "
                                       f"{int(self.step_index[wrong[0]])}.  Data types don't match. Expected "
                                       f"type: {KIND_NAME[KIND[dtype.name]]}")
        return self


def _steps_columns(examples, keys_kinds):
    return iter(_Steps(examples, key.decode(), kind) for key, kind in keys_kinds)


def _sparse(steps: _Steps, single):
    counts = steps.column.counts
    n = steps.steps.size
    step_in_record = steps.step_index
    index = np.arange(counts.sum(), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    columns = [np.repeat(step_in_record, counts), index]
    shape = [int(steps.steps.max(initial=0)), int(counts.max(initial=0))]
    if not single:
        columns.insert(0, np.repeat(steps.step_record, counts))
        shape.insert(0, n)
    return np.stack(columns, axis=1), steps.column.values, np.array(shape, np.int64)


def _dense(steps: _Steps, key, dtype, shape, allow_missing, single):
    missing = np.flatnonzero(~steps.present)
    if missing.size and not allow_missing:
        raise InvalidArgumentError(f"Name: <unknown>, Feature list '{key}' is required but could not be found.  "
                                   "Did you mean to include it in feature_list_dense_missing_assumed_empty or "
                                   "feature_list_dense_defaults?")
    size = int(np.prod(shape, dtype=np.int64))
    wrong = np.flatnonzero(steps.column.counts != size)
    if wrong.size:
        step = int(wrong[0])
        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {int(steps.step_index[step])}.  Number "
                                   f"of values != expected.  values size: {int(steps.column.counts[step])} but "
                                   f"output shape: {list(shape)}")
    empty = np.zeros(0, dtype=object if dtype.is_string else dtype.np)
    return padded(steps.column.values, steps.steps, dtype, shape, empty, single)


def _ragged(steps: _Steps, parts, kinds, validate, single):
    for part in parts:
        if not isinstance(part, int) and (part.steps != steps.steps).any():
            raise InvalidArgumentError("Arguments to _from_row_partition do not form a valid RaggedTensor: the "
                                       "values and partitions of a ragged feature list are not aligned")
    columns = [p if isinstance(p, int) else p.column for p in parts]
    flat, step_splits, *inner = ragged_outputs(steps.column, kinds, columns, validate, single=False)
    record_splits = np.concatenate([[0], np.cumsum(steps.steps)]).astype(np.int64)
    return [flat, step_splits, *inner] if single else [flat, record_splits, step_splits, *inner]


def _kernel(serialized, *defaults, context, sequence, single):
    records = records_of(serialized, single)
    examples = parse_sequence_examples(records)
    c_sparse, c_dense, c_ragged = context
    maps = [e.context.feature for e in examples]
    outputs = feature_outputs(iter(columns_of_maps(maps, wanted_of(c_sparse, c_dense, c_ragged))), c_sparse,
                              c_dense, defaults, c_ragged, single)
    s_sparse, s_dense, s_ragged = sequence
    lists = _steps_columns(examples, wanted_of(s_sparse, [(k, d, s, False) for k, d, s, _a in s_dense], s_ragged))
    for key, dtype in s_sparse:
        outputs.extend(_sparse(next(lists).check(key, dtype), single))
    lengths = []
    for key, dtype, shape, allow_missing in s_dense:
        steps = next(lists).check(key, dtype)
        outputs.append(_dense(steps, key, dtype, shape, allow_missing, single))
        lengths.append(steps.steps[0] if single else steps.steps)
    for key, dtype, partitions, validate in s_ragged:
        steps = next(lists).check(key, dtype)
        parts = [ref if kind == "uniform_row_length" else next(lists).check(ref, dtypes.int64)
                 for kind, ref in partitions]
        outputs.extend(_ragged(steps, parts, [k for k, _ in partitions], validate, single))
    outputs.extend(lengths)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _infer(serialized, *defaults, context, sequence, single):
    c_sparse, c_dense, c_ragged = context
    out = []
    if c_sparse or c_dense or c_ragged:
        out = _parse_infer(serialized, *defaults, sparse=c_sparse, dense=c_dense, ragged=c_ragged, single=single)
        out = [out] if output_total(context, (), single) == 1 else list(out)
    batch = () if single else ((None,) if serialized._shape is None else tuple(serialized._shape))
    s_sparse, s_dense, s_ragged = sequence
    rank = 2 if single else 3
    for _key, dtype in s_sparse:
        out += [(dtypes.int64, (None, rank)), (dtype, (None,)), (dtypes.int64, (rank,))]
    for _key, dtype, shape, _allow in s_dense:
        out.append((dtype, batch + (None,) + tuple(shape)))
    for _key, dtype, partitions, _validate in s_ragged:
        values, *splits = ragged_output_types(dtype, partitions, single=True)
        out += [values] + [(dtypes.int64, (None,))] * (len(splits) + (1 if single else 2))
    out += [(dtypes.int64, batch)] * len(s_dense)
    return out[0] if len(out) == 1 else out


def output_total(context, sequence, single) -> int:
    count = output_count(*context, single) if context else 0
    if sequence:
        s_sparse, s_dense, s_ragged = sequence
        count += 3 * len(s_sparse) + 2 * len(s_dense)
        count += sum(len(ragged_output_types(d, p, True)) + (1 if single else 2) for _k, d, p, _v in s_ragged)
    return count


parse_sequence_example_op = register(OpDef(
    "parse_sequence_example", _kernel, _infer, differentiable=False,
    doc="serialized tf.train.SequenceExample protos -> context features, feature lists and their lengths"))


def parse_sequence_example(serialized, defaults, context, sequence, single) -> list:
    """The op's outputs as a list: the context's (as parse_example), then the feature lists' (three per
    sparse, one per dense, values and splits per ragged), then one lengths tensor per dense feature list."""
    context = tuple(tuple(part) for part in context)
    sequence = tuple(tuple(part) for part in sequence)
    out = apply(parse_sequence_example_op, [serialized, *defaults],
                {"context": context, "sequence": sequence, "single": bool(single)})
    return [out] if output_total(context, sequence, single) == 1 else list(out)
