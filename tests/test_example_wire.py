"""The vectorized Example wire decoder (runtime/ops/example_wire.py) against the protobuf runtime: random
Examples written in every encoding a proto3 parser must accept (fields in any order, unknown fields of each
wire type at every level, repeated numbers packed, unpacked, or split into several packed runs, overlong
varints), truncated records, and the shapes the decoder hands back to protobuf (a key given twice)."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import example_wire as wire
from tinytf.runtime.ops.example_decode import columns_of_maps, decode_examples
from tinytf.runtime.ops.example_proto import Example, Feature, Features, FloatList, Int64List


# --- a protobuf writer with the freedom the format allows ---------------------------------------------------
def varint(value: int, extra: int = 0) -> bytes:
    """value as a varint; `extra` > 0 writes it overlong (continuation bytes of zero), which parsers accept."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        out.append(value & 0x7F)
        value >>= 7
        if not value:
            break
        out[-1] |= 0x80
    if extra:
        out[-1] |= 0x80
        out += b"\x80" * (extra - 1) + b"\x00"
    return bytes(out)


def length_delimited(number, payload, extra=0):
    return varint(number << 3 | 2) + varint(len(payload), extra) + payload


def unknown_field(draw):
    number = draw(st.integers(4, 40))
    wire_type = draw(st.sampled_from([0, 1, 2, 5]))
    if wire_type == 0:
        return varint(number << 3) + varint(draw(st.integers(0, 2**64 - 1)))
    if wire_type == 1:
        return varint(number << 3 | 1) + draw(st.binary(min_size=8, max_size=8))
    if wire_type == 5:
        return varint(number << 3 | 5) + draw(st.binary(min_size=4, max_size=4))
    return length_delimited(number, draw(st.binary(max_size=6)))


def with_unknown(draw, fields):
    """The fields shuffled, with unknown fields slipped in between."""
    fields = list(fields)
    for _ in range(draw(st.integers(0, 2))):
        fields.insert(draw(st.integers(0, len(fields))), unknown_field(draw))
    return b"".join(fields)


def list_payload(draw, kind, values):
    if kind == wire.STRING:
        return with_unknown(draw, [length_delimited(1, v, draw(st.integers(0, 1))) for v in values])
    encode = (lambda v: struct.pack("<f", v)) if kind == wire.FLOAT else varint
    single = (lambda v: b"\x0d" + struct.pack("<f", v)) if kind == wire.FLOAT else (lambda v: b"\x08" + varint(v))
    fields, at = [], 0
    while at < len(values):  # runs of packed values and single unpacked ones, in order
        run = draw(st.integers(1, len(values) - at))
        if draw(st.booleans()):
            fields.append(length_delimited(1, b"".join(encode(v) for v in values[at:at + run]),
                                           draw(st.integers(0, 1))))
        else:
            fields.extend(single(v) for v in values[at:at + run])
        at += run
    if kind != wire.STRING and draw(st.booleans()):
        fields.append(length_delimited(1, b""))  # an empty packed run adds nothing
    return b"".join(fields)  # (unknown fields between runs would be kept in order: tested at other levels)


VALUES = {
    wire.STRING: st.binary(max_size=5),
    wire.FLOAT: st.floats(width=32, allow_nan=False),
    wire.INT64: st.integers(-2**63, 2**63 - 1),
}


@st.composite
def examples(draw):
    """(serialized bytes, {key: (kind, values) or None for a Feature without a list})."""
    keys = draw(st.lists(st.sampled_from(["a", "b", "image", "lab", "é", ""]), unique=True, max_size=5))
    content, entries = {}, []
    for key in keys:
        if draw(st.integers(0, 9)) == 0:
            content[key] = None
            feature = with_unknown(draw, [])
        else:
            kind = draw(st.sampled_from([wire.STRING, wire.FLOAT, wire.INT64]))
            values = draw(st.lists(VALUES[kind], max_size=6))
            content[key] = (kind, values)
            feature = with_unknown(draw, [length_delimited(kind, list_payload(draw, kind, values))])
        parts = [length_delimited(1, key.encode()), length_delimited(2, feature, draw(st.integers(0, 1)))]
        if draw(st.booleans()):
            parts.reverse()  # the value before the key
        entries.append(length_delimited(1, b"".join(parts)))  # (unknown fields in an entry: see below)
    features = with_unknown(draw, entries)
    record = with_unknown(draw, [length_delimited(1, features)] if keys or draw(st.booleans()) else [])
    return record, content


def same(a: wire.Decoded, b: wire.Decoded):
    np.testing.assert_array_equal(a.present, b.present)
    np.testing.assert_array_equal(a.kind, b.kind)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert (a.values is None) == (b.values is None)
    if a.values is not None:
        assert a.values.dtype == b.values.dtype
        if a.values.dtype == object:
            assert list(a.values) == list(b.values)
        else:
            assert a.values.tobytes() == b.values.tobytes()  # bit for bit (signed zeros, int64 wrap)


WANTED = st.lists(st.tuples(st.sampled_from([b"a", b"b", b"image", b"lab", "é".encode(), b"", b"zz"]),
                            st.sampled_from([wire.STRING, wire.FLOAT, wire.INT64])), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(examples(), min_size=1, max_size=6), WANTED)
def test_vectorized_decoder_matches_protobuf(batch, wanted):
    records = [record for record, _content in batch]
    maps = [Example.FromString(r).features.feature for r in records]
    expected = columns_of_maps(maps, wanted)
    for got, want in zip(wire.decode(records, wanted), expected):
        same(got, want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(examples(), st.data())
def test_truncated_records_are_left_to_protobuf(example, data):
    """A cut record is either still a valid message (cut between fields: both agree) or the vectorized
    decoder refuses it, and the fallback raises TF's InvalidArgumentError."""
    record, _content = example
    cut = record[:data.draw(st.integers(0, max(len(record) - 1, 0)))]
    wanted = [(b"a", wire.INT64), (b"b", wire.FLOAT), (b"image", wire.STRING)]
    try:
        maps = [Example.FromString(cut).features.feature]
    except Exception:  # noqa: BLE001 - protobuf's DecodeError: the record is malformed
        with pytest.raises(wire.Unusual):
            wire.decode([cut], wanted)
        with pytest.raises(InvalidArgumentError, match="Could not parse example input"):
            decode_examples([cut], wanted)
        return
    try:
        got = wire.decode([cut], wanted)
    except wire.Unusual:
        return
    for g, w in zip(got, columns_of_maps(maps, wanted)):
        same(g, w)


def test_decodes_what_protobuf_writes():
    example = Example(features=Features(feature={
        "x": Feature(float_list=FloatList(value=[1.5, -2.0, 3.25])),
        "n": Feature(int64_list=Int64List(value=[0, -1, 2**62, 300])),
    }))
    x, n, absent = wire.decode([example.SerializeToString()] * 3, [(b"x", wire.FLOAT), (b"n", wire.INT64),
                                                                  (b"q", wire.INT64)])
    np.testing.assert_array_equal(x.values, np.tile(np.float32([1.5, -2.0, 3.25]), 3))
    np.testing.assert_array_equal(n.values, np.tile(np.int64([0, -1, 2**62, 300]), 3))
    np.testing.assert_array_equal(x.counts, [3, 3, 3])
    assert not absent.present.any() and absent.values.size == 0


def test_a_key_given_twice_goes_to_protobuf():
    """Protobuf's map keeps the last entry of a repeated key; the vectorized decoder hands such a batch over."""
    entry = lambda value: length_delimited(1, length_delimited(1, b"k") + length_delimited(
        2, length_delimited(3, length_delimited(1, varint(value)))))
    record = length_delimited(1, entry(1) + entry(2))
    with pytest.raises(wire.Unusual):
        wire.decode([record], [(b"k", wire.INT64)])
    (column,) = decode_examples([record], [(b"k", wire.INT64)])
    assert column.values.tolist() == [2]


def test_a_batch_of_empty_records():
    (column,) = wire.decode([b"", b""], [(b"k", wire.FLOAT)])
    assert column.values.size == 0 and not column.present.any()


def test_an_entry_with_an_unknown_field_goes_to_protobuf():
    """upb files a map entry holding an unknown field under the unknown fields (the key is then absent);
    TF's own parser rejects the record. The vectorized decoder hands such a batch to protobuf."""
    record = length_delimited(1, length_delimited(1, b"\x20\x00" + length_delimited(1, b"k") + length_delimited(
        2, length_delimited(3, length_delimited(1, varint(5))))))
    with pytest.raises(wire.Unusual):
        wire.decode([record], [(b"k", wire.INT64)])
    (column,) = decode_examples([record], [(b"k", wire.INT64)])
    assert not column.present.any()
