"""Decoding a batch of serialized tf.train.Example (or SequenceExample) records into per-feature columns
(`example_wire.Decoded`): a learned byte layout when the batch's records share one (example_layout), else
the vectorized wire decoder, and the protobuf runtime when the batch has a shape
the vectorized decoder leaves to it (a repeated message field, a oneof set twice, malformed bytes). The
protobuf path is also the reference the vectorized one is fuzzed against (tests/test_example_wire.py)."""

from __future__ import annotations

import itertools

import numpy as np
from google.protobuf.message import DecodeError

from ..errors import InvalidArgumentError
from . import example_layout
from . import example_wire as wire
from .example_proto import Example, SequenceExample

KIND_OF = {"bytes_list": wire.STRING, "float_list": wire.FLOAT, "int64_list": wire.INT64}


def decode_examples(records, wanted, vectorized=True) -> list:
    """[Decoded] for `wanted` ([(key bytes, kind)]) over a list of serialized Examples."""
    if vectorized:
        same_layout = example_layout.decode(records, wanted)
        if same_layout is not None:
            return same_layout
        try:
            return wire.decode(records, wanted)
        except wire.Unusual:
            pass
    maps = [_parse(Example, record, i, "example").features.feature for i, record in enumerate(records)]
    return columns_of_maps(maps, wanted)


def parse_sequence_examples(records) -> list:
    return [_parse(SequenceExample, record, i, "sequence_example") for i, record in enumerate(records)]


def _parse(message_class, record, index, what):
    try:
        return message_class.FromString(record)
    except (DecodeError, TypeError, ValueError):
        shown = record[:40] if isinstance(record, bytes) else record
        raise InvalidArgumentError(f"Could not parse {what} input, value: {shown!r} (record {index})") from None


def columns_of_features(features, kind):
    """One Decoded column over a list of Feature messages (all present): a FeatureList's steps."""
    n = len(features)
    kinds = np.zeros(n, np.int8)
    counts = np.zeros(n, np.int64)
    rows = []
    for i, feature in enumerate(features):
        which = feature.WhichOneof("kind")
        if which is None:
            continue
        kinds[i] = KIND_OF[which]
        if kinds[i] == kind:
            values = getattr(feature, which).value
            counts[i] = len(values)
            rows.append(values)
    if ((kinds != 0) & (kinds != kind)).any():  # the caller reports the wrong kind; no values, as in example_wire
        return wire.Decoded(np.ones(n, bool), kinds, np.zeros(n, np.int64), None)
    return wire.Decoded(np.ones(n, bool), kinds, counts, _array(rows, kind, int(counts.sum())))


def columns_of_maps(maps, wanted) -> list:
    """[Decoded] for `wanted` over protobuf feature maps (a Features.feature per record)."""
    out = []
    for key, kind in wanted:
        name = key.decode("utf-8", "surrogateescape")
        present = np.array([name in m for m in maps], bool)
        column = columns_of_features([m[name] for m in maps if name in m], kind)
        kinds = np.zeros(len(maps), np.int8)
        counts = np.zeros(len(maps), np.int64)
        kinds[present], counts[present] = column.kind, column.counts
        out.append(wire.Decoded(present, kinds, counts, column.values))
    return out


def _array(rows, kind, total):
    flat = itertools.chain.from_iterable(rows)
    if kind == wire.STRING:
        out = np.empty(total, dtype=object)
        out[:] = list(flat)
        return out
    return np.fromiter(flat, dtype=np.float32 if kind == wire.FLOAT else np.int64, count=total)
