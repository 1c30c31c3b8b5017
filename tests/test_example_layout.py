"""The same-layout shortcut (runtime/ops/example_layout.py) against the protobuf runtime: batches of Examples
that differ only inside their values go through the learned layout and decode as protobuf decodes them; a
byte changed anywhere (a value, a length, a key, a tag) either leaves the layout (to the general decoder) or
decodes as the general decoder decodes it; records of other lengths or with multi-byte varints go to the
general decoder."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinytf.runtime.ops import example_layout
from tinytf.runtime.ops import example_wire as wire
from tinytf.runtime.ops.example_decode import columns_of_maps, decode_examples
from tinytf.runtime.ops.example_proto import BytesList, Example, Feature, Features, FloatList, Int64List

KINDS = [wire.STRING, wire.FLOAT, wire.INT64]


@st.composite
def same_layout_batches(draw):
    """Records sharing one layout: per key a kind and a number of values (strings of fixed lengths)."""
    keys = draw(st.lists(st.sampled_from(["a", "b", "img", "lab", "z"]), unique=True, min_size=1, max_size=4))
    shape = {k: (draw(st.sampled_from(KINDS)), draw(st.integers(0, 3)), draw(st.integers(0, 5))) for k in keys}
    records = []
    for _ in range(draw(st.integers(2, 6))):
        feature = {}
        for key, (kind, count, width) in shape.items():
            if kind == wire.STRING:
                values = [draw(st.binary(min_size=width, max_size=width)) for _ in range(count)]
                feature[key] = Feature(bytes_list=BytesList(value=values))
            elif kind == wire.FLOAT:
                values = draw(st.lists(st.floats(width=32), min_size=count, max_size=count))
                feature[key] = Feature(float_list=FloatList(value=values))
            else:
                values = draw(st.lists(st.integers(0, 127), min_size=count, max_size=count))
                feature[key] = Feature(int64_list=Int64List(value=values))
        records.append(Example(features=Features(feature=feature)).SerializeToString(deterministic=True))
    wanted = [(k.encode(), draw(st.sampled_from(KINDS))) for k in draw(st.lists(
        st.sampled_from(["a", "b", "img", "lab", "q"]), unique=True, min_size=1, max_size=3))]
    return records, wanted


def same(a, b):
    np.testing.assert_array_equal(a.present, b.present)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert (a.values is None) == (b.values is None)
    if a.values is None:
        assert ((a.kind != 0) & (a.kind != b.kind)).any() == ((b.kind != 0) & (b.kind != a.kind)).any()
        return
    np.testing.assert_array_equal((a.kind != 0), (b.kind != 0))
    if a.values.dtype == object:
        assert list(a.values) == list(b.values)
    else:
        assert a.values.dtype == b.values.dtype and a.values.tobytes() == b.values.tobytes()


def protobuf_columns(records, wanted):
    return columns_of_maps([Example.FromString(r).features.feature for r in records], wanted)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(same_layout_batches())
def test_same_layout_batches_decode_as_protobuf(batch):
    records, wanted = batch
    example_layout._LAYOUTS.clear()
    shortcut = example_layout.decode(records, wanted)
    if shortcut is None:  # only when a wanted key holds another kind: its values then count as layout bytes
        assert any(c.values is None for c in protobuf_columns(records, wanted))
        for got, want in zip(decode_examples(records, wanted), protobuf_columns(records, wanted)):
            same(got, want)
        return
    for got, want in zip(shortcut, protobuf_columns(records, wanted)):
        same(got, want)
    again = example_layout.decode(records[::-1], wanted)  # the learned layout serves the next batch
    for got, want in zip(again, protobuf_columns(records[::-1], wanted)):
        same(got, want)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(same_layout_batches(), st.data())
def test_a_changed_byte_decodes_as_protobuf_or_raises(batch, data):
    records, wanted = batch
    example_layout._LAYOUTS.clear()
    example_layout.decode(records, wanted)  # learn the layout from the clean batch
    which = data.draw(st.integers(0, len(records) - 1))
    record = bytearray(records[which])
    if not record:
        return
    at = data.draw(st.integers(0, len(record) - 1))
    record[at] = data.draw(st.integers(0, 255))
    changed = records[:which] + [bytes(record)] + records[which + 1:]
    got = example_layout.decode(changed, wanted)  # through the layout learned from the clean batch
    if got is None:
        return  # the changed byte was a layout byte: the general decoder's case (test_example_wire.py)
    # the layout accepts only what the general decoder decodes, and decodes it the same (values of features
    # not asked for are not looked into, by either decoder nor by TF's: a change there is no error)
    for g, w in zip(got, wire.decode(changed, wanted)):
        same(g, w)


def test_other_lengths_and_long_varints_take_the_general_path():
    def record(label, image=b"x" * 4):
        return Example(features=Features(feature={
            "label": Feature(int64_list=Int64List(value=[label])),
            "image": Feature(bytes_list=BytesList(value=[image]))})).SerializeToString(deterministic=True)
    wanted = [(b"label", wire.INT64), (b"image", wire.STRING)]
    example_layout._LAYOUTS.clear()
    assert example_layout.decode([record(1), record(2, b"y" * 5)], wanted) is None  # lengths differ
    assert example_layout.decode([record(1), record(2)], wanted) is not None
    assert example_layout.decode([record(1), record(300)[:0] + record(3)], wanted) is not None
    long = [record(200, b"x" * 3), record(300, b"x" * 3)]  # two-byte varints, same length
    assert example_layout.decode(long, wanted) is None
    (label, image) = decode_examples(long, wanted)
    assert label.values.tolist() == [200, 300] and list(image.values) == [b"xxx", b"xxx"]
