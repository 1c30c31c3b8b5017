"""tf.io.decode_proto / encode_proto against the protobuf runtime itself: random messages of every field
type decode to what the parsed messages hold, eagerly and in tf.function (TINYTF_PASSES=none too), and
encode back to protobuf's own bytes; descriptor sources and errors. TF's outputs are compared in
tests/conformance/proto_codec.py (whose descriptor set this reuses)."""

import os
import sys

import numpy as np
import pytest

import tinytf as tf

sys.path.insert(0, os.path.dirname(__file__))
from conformance import proto_codec as pc  # noqa: E402

REC, INNER = pc._classes()
NAMES = pc.NAMES


@pytest.fixture(scope="module")
def descriptor_path():
    path = pc._descriptor_file()
    yield path
    os.remove(path)


def _random_messages(count, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        m = REC()
        if rng.random() < 0.7:
            m.i32 = int(rng.integers(-2**31, 2**31))
        if rng.random() < 0.7:
            m.u64 = int(rng.integers(0, 2**63)) * 2 + 1
        if rng.random() < 0.7:
            m.f = float(np.float32(rng.normal()))
        if rng.random() < 0.5:
            m.s = "".join(rng.choice(list("abcé"), int(rng.integers(0, 5))))
        if rng.random() < 0.5:
            m.m.a = int(rng.integers(-5, 5))
        if rng.random() < 0.5:
            m.si64 = int(rng.integers(-2**40, 2**40))
        m.ri.extend(int(v) for v in rng.integers(-100, 100, int(rng.integers(0, 4))))
        m.rf.extend(float(np.float32(v)) for v in rng.normal(size=int(rng.integers(0, 3))))
        m.rs.extend(["x" * int(n) for n in rng.integers(0, 3, int(rng.integers(0, 3)))])
        m.rsi.extend(int(v) for v in rng.integers(-2**50, 2**50, int(rng.integers(0, 3))))
        out.append(m)
    return out


def _expected(messages, name):
    field = REC.DESCRIPTOR.fields_by_name[name]
    rows = []
    for m in messages:
        value = getattr(m, name)
        if field.is_repeated:
            rows.append(list(value))
        else:
            rows.append([value] if m.HasField(name) else [])
    return rows


def test_decode_matches_protobuf_eager_and_traced(descriptor_path):
    messages = _random_messages(12)
    data = tf.constant([m.SerializeToString() for m in messages])
    names = ["i32", "u64", "f", "s", "si64", "ri", "rf", "rs", "rsi"]
    types = [tf.int32, tf.uint64, tf.float32, tf.string, tf.int64, tf.int32, tf.float32, tf.string, tf.int64]
    eager = tf.io.decode_proto(data, "tinytfconf.Rec", names, types, descriptor_source=descriptor_path)
    traced_fn = tf.function(lambda d: tf.io.decode_proto(d, "tinytfconf.Rec", names, types,
                                                         descriptor_source=descriptor_path))
    traced = traced_fn(data)
    for j, name in enumerate(names):
        rows = _expected(messages, name)
        np.testing.assert_array_equal(eager.sizes.numpy()[:, j], [len(r) for r in rows])
        np.testing.assert_array_equal(traced.sizes.numpy()[:, j], [len(r) for r in rows])
        got = eager.values[j].numpy()
        assert got.shape == (len(messages), max(1, max(len(r) for r in rows)))
        for i, row in enumerate(rows):
            want = [v.encode() if isinstance(v, str) else v for v in row]
            assert list(got[i, :len(row)]) == pytest.approx(want) if name in ("f", "rf") else \
                list(got[i, :len(row)]) == want
        np.testing.assert_array_equal(traced.values[j].numpy(), got)


def test_encode_reproduces_protobuf_bytes(descriptor_path):
    messages = _random_messages(10, seed=3)
    data = tf.constant([m.SerializeToString() for m in messages])
    sizes, values = tf.io.decode_proto(data, "tinytfconf.Rec", NAMES, pc._types(tf), descriptor_source=descriptor_path)
    encoded = tf.io.encode_proto(sizes, values, NAMES, "tinytfconf.Rec", descriptor_source=descriptor_path)
    assert encoded.numpy().tolist() == [m.SerializeToString() for m in messages]
    traced = tf.function(lambda s, *v: tf.io.encode_proto(s, list(v), NAMES, "tinytfconf.Rec",
                                                           descriptor_source=descriptor_path))(sizes, *values)
    assert traced.numpy().tolist() == encoded.numpy().tolist()


def test_text_format_and_bytes_source():
    source = b"bytes://" + pc._file_set().SerializeToString()
    sizes, (ri, c) = tf.io.decode_proto(tf.constant([[b"ri: 4 ri: 5 c: GREEN"]]), "tinytfconf.Rec", ["ri", "c"],
                                        [tf.int64, tf.int32], descriptor_source=source, message_format="text")
    assert sizes.shape == (1, 1, 2) and sizes.numpy().tolist() == [[[2, 1]]]
    assert ri.numpy().tolist() == [[[4, 5]]] and c.numpy().tolist() == [[[1]]]


def test_local_source_finds_tensorflow_protos():
    example = tf.train.Example(features=tf.train.Features(feature={
        "k": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5]))}))
    sizes, (features,) = tf.io.decode_proto([example.SerializeToString()], "tensorflow.Example", ["features"],
                                            [tf.string])
    assert sizes.numpy().tolist() == [[1]]
    assert tf.train.Features.FromString(features.numpy()[0, 0]) == example.features


def test_errors(descriptor_path):
    data = tf.constant([REC(i32=1).SerializeToString()])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unexpected output type"):
        tf.io.decode_proto(data, "tinytfconf.Rec", ["u32"], [tf.int64], descriptor_source=descriptor_path)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No descriptor found"):
        tf.io.decode_proto(data, "nope.Nope", ["a"], [tf.int32], descriptor_source=descriptor_path)
    with pytest.raises(tf.errors.DataLossError):
        tf.io.decode_proto(tf.constant([b"\xff"]), "tinytfconf.Rec", ["i32"], [tf.int32],
                           descriptor_source=descriptor_path)
    with pytest.raises(tf.errors.NotFoundError):
        tf.io.decode_proto(data, "tinytfconf.Rec", ["i32"], [tf.int32], descriptor_source="/nonexistent/x.pb")
    with pytest.raises(tf.errors.InvalidArgumentError, match="string tensor"):  # eagerly, as TF
        tf.io.decode_proto(tf.constant([1]), "tinytfconf.Rec", ["i32"], [tf.int32], descriptor_source=descriptor_path)
    with pytest.raises(tf.errors.InvalidArgumentError, match="larger than value tensor"):
        tf.io.encode_proto(tf.constant([[2]]), [tf.constant([[1]])], ["ri"], "tinytfconf.Rec",
                           descriptor_source=descriptor_path)
