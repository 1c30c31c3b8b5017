"""tf.io's byte-level functions (tinytf/io/serialize.py): eager and in tf.function (passes on and off), against
independent readers (the protobuf runtime's TensorProto, numpy's frombuffer, Python's base64/zlib/gzip/glob),
round trips on random inputs, and errors. TF 2.21's own bytes are in tests/conformance/io_serialize.py."""

from __future__ import annotations

import base64
import gzip
import os
import zlib

import numpy as np
import pytest
from tensorboard.compat.proto import tensor_pb2
from ways import run_all_ways

import tinytf as tf
from tinytf.runtime.ops import example_proto

DTYPES = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16,
          tf.uint32, tf.uint64, tf.bool, tf.complex64, tf.complex128]


def _values(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype is tf.bool:
        return rng.random(shape) < 0.5
    if dtype.is_complex:
        return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype.as_numpy_dtype)
    if dtype.is_integer:
        info = np.iinfo(dtype.as_numpy_dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype.as_numpy_dtype)
    return rng.normal(size=shape).astype(dtype.as_numpy_dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_serialize_parse_round_trip_every_dtype(dtype):
    for shape in [(), (3,), (2, 0), (2, 3, 2)]:
        value = tf.constant(_values(dtype, shape, seed=len(shape)), dtype=dtype)
        data = run_all_ways(tf.io.serialize_tensor, value)
        assert data.shape == () and data.dtype is tf.string
        proto = tensor_pb2.TensorProto.FromString(data.numpy())  # an independent reader
        assert proto.dtype == dtype.as_datatype_enum and [d.size for d in proto.tensor_shape.dim] == list(shape)
        back = run_all_ways(lambda s, d=dtype: tf.io.parse_tensor(s, d), data)
        assert back.dtype is dtype and back.shape == shape
        np.testing.assert_array_equal(np.asarray(back.numpy()), np.asarray(value.numpy()))


def test_serialize_strings_and_parse_of_typed_fields():
    value = tf.constant([[b"a", b""], [b"\xff\x00", "\u00e9".encode()]])
    back = run_all_ways(lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.string), value)
    assert back.numpy().tolist() == value.numpy().tolist()
    # TF's writers use the typed *_val fields for small constants; a short list repeats its last value
    proto = tensor_pb2.TensorProto(dtype=tf.float32.as_datatype_enum, float_val=[2.5])
    proto.tensor_shape.dim.add(size=3)
    assert tf.io.parse_tensor(proto.SerializeToString(), tf.float32).numpy().tolist() == [2.5, 2.5, 2.5]


def test_parse_tensor_errors_and_static_shape():
    data = tf.io.serialize_tensor(tf.constant([1.5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Type mismatch between parsed tensor \(float\)"):
        tf.io.parse_tensor(data, tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse"):
        tf.io.parse_tensor(b"\xff\xff", tf.float32)
    concrete = tf.function(lambda s: tf.io.parse_tensor(s, tf.float32)).get_concrete_function(
        tf.TensorSpec([], tf.string))
    assert concrete.outputs[0].shape.rank is None  # the shape is known only when it runs, as in TF


def test_base64_matches_python_web_safe_alphabet():
    rng = np.random.default_rng(5)
    blobs = [bytes(rng.integers(0, 256, size=n, dtype=np.uint8)) for n in range(12)]
    for pad in (False, True):
        got = run_all_ways(lambda x, p=pad: tf.io.encode_base64(x, pad=p), tf.constant(blobs))
        want = [base64.urlsafe_b64encode(b) if pad else base64.urlsafe_b64encode(b).rstrip(b"=") for b in blobs]
        assert got.numpy().tolist() == want
        assert run_all_ways(tf.io.decode_base64, got).numpy().tolist() == blobs
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid character"):
        tf.io.decode_base64("ab+/")  # the standard alphabet's characters are not web-safe


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d not in (tf.uint32, tf.uint64)], ids=lambda d: d.name)
def test_decode_raw_matches_numpy_frombuffer(dtype):
    rows = _values(dtype, (3, 4), seed=9)
    raw = tf.constant([row.tobytes() for row in rows])
    got = run_all_ways(lambda x, d=dtype: tf.io.decode_raw(x, d), raw)
    np.testing.assert_array_equal(np.asarray(got.numpy()), rows)
    swapped = tf.io.decode_raw(tf.constant([row.byteswap().tobytes() for row in rows]), dtype, little_endian=False)
    if not dtype.is_complex:  # TF reverses a complex element's bytes whole (see the conformance module)
        np.testing.assert_array_equal(np.asarray(swapped.numpy()), rows)


def test_decode_raw_fixed_length_pads_and_cuts():
    raw = tf.constant([[b"\x01\x00\x02\x00\x03\x00"], [b"\x04"]])
    got = run_all_ways(lambda x: tf.io.decode_raw(x, tf.int16, fixed_length=4), raw)
    assert got.shape == (2, 1, 2) and got.numpy().tolist() == [[[1, 2]], [[0, 0]]]
    concrete = tf.function(lambda x: tf.io.decode_raw(x, tf.int16, fixed_length=8)).get_concrete_function(
        tf.TensorSpec([None], tf.string))
    assert concrete.outputs[0].shape.as_list() == [None, 4]
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
        tf.io.decode_raw([b"\x00\x00", b"\x00\x00\x00\x00"], tf.int16)


def test_decode_compressed_matches_zlib_and_gzip():
    texts = [b"", b"hello " * 50, bytes(range(256))]
    assert run_all_ways(lambda x: tf.io.decode_compressed(x, "ZLIB"),
                        tf.constant([zlib.compress(t) for t in texts])).numpy().tolist() == texts
    assert run_all_ways(lambda x: tf.io.decode_compressed(x, "gzip"),
                        tf.constant([gzip.compress(t) for t in texts])).numpy().tolist() == texts
    with pytest.raises(tf.errors.DataLossError):
        tf.io.decode_compressed(b"not compressed", "GZIP")


def test_sparse_serialization_round_trips():
    rng = np.random.default_rng(2)
    dense = np.where(rng.random((4, 3, 5)) < 0.3, rng.normal(size=(4, 3, 5)), 0).astype(np.float32)
    dense[1] = 0  # a row with no values
    sp = tf.sparse.from_dense(dense)
    rows = tf.io.serialize_many_sparse(sp)
    assert rows.shape == (4, 3)
    back = tf.io.deserialize_many_sparse(rows, tf.float32)
    np.testing.assert_array_equal(tf.sparse.to_dense(back).numpy(), dense)
    one = tf.io.serialize_sparse(sp)
    parts = [tf.io.parse_tensor(one[i], d).numpy() for i, d in enumerate((tf.int64, tf.float32, tf.int64))]
    np.testing.assert_array_equal(parts[0], sp.indices.numpy())
    np.testing.assert_array_equal(parts[2], [4, 3, 5])

    @tf.function
    def in_graph(indices, values):
        sp = tf.SparseTensor(indices, values, [2, 3])
        return tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(sp), tf.float32, rank=2).indices
    got = in_graph(tf.constant([[0, 2], [1, 0]], tf.int64), tf.constant([1.0, 2.0]))
    assert got.numpy().tolist() == [[0, 2], [1, 0]]
    with pytest.raises(TypeError, match="out_type"):
        tf.io.serialize_sparse(sp, out_type=tf.int32)


def test_decode_json_example_parses_as_the_proto():
    text = ('{"features": {"feature": {"n": {"int64List": {"value": ["-5", 7]}}, '
            '"s": {"bytesList": {"value": ["aGk="]}}}}}')
    binary = run_all_ways(tf.io.decode_json_example, tf.constant([text]))
    example = example_proto.Example.FromString(binary.numpy()[0])
    assert list(example.features.feature["n"].int64_list.value) == [-5, 7]
    assert list(example.features.feature["s"].bytes_list.value) == [b"hi"]
    parsed = tf.io.parse_single_example(binary[0], {"n": tf.io.FixedLenFeature([2], tf.int64)})
    assert parsed["n"].numpy().tolist() == [-5, 7]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Error while parsing JSON"):
        tf.io.decode_json_example('{"features": {"feature": {"n": {"int64List": {"value": ["x"]}}}}}')


def test_matching_files_reads_the_folder_when_it_runs(tmp_path):
    pattern = str(tmp_path / "*.txt")
    find = tf.function(lambda p: tf.io.matching_files(p))
    assert find(tf.constant(pattern)).numpy().tolist() == []
    for name in ("b.txt", "a.txt", "c.csv"):
        (tmp_path / name).write_text("x")
    expected = sorted(os.path.join(str(tmp_path), n).encode() for n in ("a.txt", "b.txt"))
    assert find(tf.constant(pattern)).numpy().tolist() == expected  # not folded at trace time
    once = tf.io.match_filenames_once(pattern)
    (tmp_path / "d.txt").write_text("x")
    assert once.numpy().tolist() == expected and not once.trainable


def test_compat_v1_signatures():
    v1 = tf.compat.v1
    assert v1.io.decode_raw is v1.decode_raw
    assert v1.decode_raw(bytes=[b"\x02\x00"], out_type=tf.int16).numpy().tolist() == [[2]]
    with pytest.raises(ValueError, match="both"):
        v1.decode_raw(input_bytes=[b"\x00"], out_type=tf.uint8, bytes=[b"\x00"])
    sp = tf.SparseTensor([[1, 0]], [3], [2, 2])
    assert v1.serialize_sparse(sp, "name").shape == (3,) and v1.io.serialize_many_sparse(sp).shape == (2, 3)
    for name in ("serialize_tensor", "parse_tensor", "encode_base64", "decode_base64", "decode_compressed",
                 "decode_json_example", "matching_files", "deserialize_many_sparse"):
        assert getattr(v1, name) is getattr(tf.io, name), name
