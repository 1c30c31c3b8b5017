"""tf.io's byte-level functions: the `>>>` examples of TensorFlow's docstrings (serialize_tensor, decode_raw,
decode_json_example) and the exact bytes TF writes for TensorProtos of every dtype, serialized SparseTensors and
JSON Examples, with base64, decompression, file matching, their errors, and the same calls inside tf.function."""

from __future__ import annotations

import gzip
import os
import tempfile
import zlib

import numpy as np

from . import outcome, program


def sv(x):
    """A tensor or SparseTensor as [dtype, shape, values] with bytes written as their repr (JSON has no bytes)."""
    if isinstance(x, (list, tuple)):
        return [sv(v) for v in x]
    if hasattr(x, "indices") and hasattr(x, "dense_shape"):
        return {"indices": sv(x.indices), "values": sv(x.values), "dense_shape": sv(x.dense_shape)}
    if hasattr(x, "numpy"):
        return [x.dtype.name, x.shape.as_list(), _plain(x.numpy())]
    return _plain(x)


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value] if value.ndim else _plain(value[()])
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, (complex, np.complexfloating)):
        return [float(value.real), float(value.imag)]
    if isinstance(value, np.generic):
        return value.item()
    return value


# --- docstring examples --------------------------------------------------------------------------------------
@program
def p_io_doc_serialize_tensor(tf):
    t1, t2 = [[1, 2]], [[7, 8]]
    nonscalar = tf.concat([t1, t2], 0)
    return [sv(tf.io.serialize_tensor(tf.constant(1))), sv(tf.io.serialize_tensor(nonscalar))]


@program
def p_io_doc_decode_raw(tf):
    out = [sv(tf.io.decode_raw(tf.constant("1"), tf.uint8)), sv(tf.io.decode_raw(tf.constant("1,2"), tf.uint8)),
           tf.io.decode_raw(tf.constant(["1", "2"]), tf.uint8).shape.as_list(),
           tf.io.decode_raw(tf.constant([["1"], ["2"]]), tf.uint8).shape.as_list(),
           sv(tf.io.decode_raw(tf.constant("123"), tf.uint8)), sv(tf.io.decode_raw(tf.constant("1234"), tf.uint8)),
           sv(tf.io.decode_raw(tf.constant("12"), tf.uint16)), sv(tf.io.decode_raw(tf.constant("1234"), tf.uint16)),
           sv(tf.io.decode_raw(tf.constant("12345678"), tf.int64)),
           sv(tf.io.decode_raw(tf.constant("1234567887654321"), tf.int64)),
           sv(tf.io.decode_raw(tf.constant("\x0a\x0b"), tf.int16)),
           sv(tf.io.decode_raw(tf.constant("\x0a\x0b"), tf.int16, little_endian=False)),
           sv(tf.io.decode_raw(tf.constant([["1"], ["23"]]), tf.uint8, fixed_length=4)),
           sv(tf.io.decode_raw(tf.constant(["1212"]), tf.uint16, fixed_length=4))]
    x = "".join([chr(1), chr(2), chr(3), chr(4)])
    out += [sv(tf.io.decode_raw(x, tf.uint16, fixed_length=2)),
            sv(tf.io.decode_raw(x, tf.uint16, fixed_length=2, little_endian=False))]
    words = ["12345678", "87654321"]
    out += [sv(tf.io.decode_raw(words, tf.int16)), sv(tf.io.decode_raw(words, tf.int16, fixed_length=len(words[0])))]
    return out


EXAMPLE_JSON = '{\n  "features": {\n    "feature": {\n      "a": {\n        "int64List": {\n          "value": [\n' \
               '            "1",\n            "1",\n            "3"\n          ]\n        }\n      }\n    }\n  }\n}'


@program
def p_io_doc_decode_json_example(tf):
    binary = tf.io.decode_json_example(EXAMPLE_JSON)
    parsed = tf.io.parse_example(serialized=[binary.numpy()],
                                 features={"a": tf.io.FixedLenFeature(shape=[3], dtype=tf.int64)})
    return [sv(binary), tf.io.decode_json_example([[EXAMPLE_JSON, EXAMPLE_JSON],
                                                   [EXAMPLE_JSON, EXAMPLE_JSON]]).shape.as_list(), sv(parsed["a"])]


# --- TensorProto bytes ----------------------------------------------------------------------------------------
@program
def p_io_serialize_every_dtype(tf):
    values = [tf.constant([1.5, 2.0]), tf.constant(3), tf.constant([[1, 2]], tf.int64), tf.constant(["ab", "c"]),
              tf.constant([True, False]), tf.constant([1.0, -2.5], tf.float16), tf.constant([1 + 2j], tf.complex64),
              tf.zeros([0, 3]), tf.constant(b"x"), tf.constant([1, 255], tf.uint8), tf.constant([1.5], tf.bfloat16),
              tf.constant([-1.25], tf.float64), tf.constant([-3], tf.int8), tf.constant([7], tf.uint16)]
    return [sv(tf.io.serialize_tensor(v)) for v in values]


@program
def p_io_parse_round_trips(tf):
    values = [tf.constant([[1.5, 2.0]]), tf.constant(["a", "bb", ""]), tf.constant(7, tf.int64),
              tf.constant([2 - 1j], tf.complex128), tf.constant([[True]]), tf.zeros([2, 0], tf.int32)]
    return [sv(tf.io.parse_tensor(tf.io.serialize_tensor(v), v.dtype)) for v in values]


@program
def p_io_parse_errors(tf):
    data = tf.io.serialize_tensor(tf.constant([1.5, 2.0]))
    return [outcome(lambda: tf.io.parse_tensor(data, tf.int32), "Type mismatch"),
            outcome(lambda: tf.io.parse_tensor(b"garbage\xff", tf.int32), "Could not parse"),
            outcome(lambda: tf.io.parse_tensor([data], tf.float32), "to be a scalar")]


# --- base64, raw, compressed ------------------------------------------------------------------------------------
@program
def p_io_base64(tf):
    return [sv(tf.io.encode_base64([b"hello?>", b"\xff\xfe\xfd", b""])), sv(tf.io.encode_base64(b"ab", pad=True)),
            sv(tf.io.encode_base64([[b"a"]])),
            sv(tf.io.decode_base64([b"aGVsbG8_Pg", b"__79", b"YWI=", b""])),
            outcome(lambda: tf.io.decode_base64(b"a"), "1 modulo 4"),
            outcome(lambda: tf.io.decode_base64(b"aGV+"), "Invalid character")]


@program
def p_io_decode_raw_types_and_errors(tf):
    four = tf.constant([b"\x00\x00\x80\x3f", b"\x00\x00\x00\xc0"])
    out = [sv(tf.io.decode_raw(four, dtype)) for dtype in (tf.float32, tf.int32, tf.uint8, tf.int8, tf.float16,
                                                           tf.bfloat16, tf.bool, tf.uint16)]
    out += [sv(tf.io.decode_raw(four, tf.float32, little_endian=False)),
            sv(tf.io.decode_raw(tf.constant([b"\x00" * 8 + b"\x00\x00\xf0\x3f"]), tf.float64, fixed_length=16)),
            sv(tf.io.decode_raw(b"", tf.float32)), sv(tf.io.decode_raw([[b"\x00\x00\x80\x3f"]], tf.float32)),
            outcome(lambda: tf.io.decode_raw([b"\x01\x00\x02\x00", b"\x03\x00"], tf.int16), "same size"),
            outcome(lambda: tf.io.decode_raw([b"\x01\x00\x02"], tf.int16), "not a multiple"),
            outcome(lambda: tf.io.decode_raw([b"\x01\x00"], tf.int16, fixed_length=3), "must be a multiple"),
            outcome(lambda: tf.io.decode_raw([b"a"], tf.string), "not in the list")]
    return out


@program
def p_io_decode_compressed(tf):
    return [sv(tf.io.decode_compressed([zlib.compress(b"hello"), zlib.compress(b"")], "ZLIB")),
            sv(tf.io.decode_compressed(gzip.compress(b"hi"), "GZIP")),
            sv(tf.io.decode_compressed([[b"raw"]], "")),
            outcome(lambda: tf.io.decode_compressed(b"raw", "ZLIB"), "inflate() failed"),
            outcome(lambda: tf.io.decode_compressed(b"raw", "BZ2"), "supported compressions")]


# --- sparse tensors -----------------------------------------------------------------------------------------------
@program
def p_io_serialize_sparse(tf):
    sp = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 4])
    batch = tf.sparse.SparseTensor([[0, 0, 1], [1, 2, 0]], [1, 2], [2, 3, 4])
    return [sv(tf.io.serialize_sparse(sp)), sv(tf.io.serialize_many_sparse(batch)),
            sv(tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(batch), tf.int32)),
            outcome(lambda: tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0]], [1], [3])), "Rank")]


@program
def p_io_deserialize_many_sparse(tf):
    rows = tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0, 0], [2, 1]], ["x", "y"], [3, 2]))
    mixed = tf.stack([tf.io.serialize_sparse(tf.sparse.SparseTensor([[1]], [1.0], [4])),
                      tf.io.serialize_sparse(tf.sparse.SparseTensor([[5], [0]], [2.0, 3.0], [6]))])
    return [sv(tf.io.deserialize_many_sparse(rows, tf.string)), sv(tf.io.deserialize_many_sparse(mixed, tf.float32)),
            outcome(lambda: tf.io.deserialize_many_sparse(rows, tf.int32), "Requested SparseTensor of type")]


# --- JSON Examples -------------------------------------------------------------------------------------------------
@program
def p_io_decode_json_example_bytes(tf):
    text = ('{"features": {"feature": {"b": {"int64List": {"value": ["1", -2]}}, "a": {"floatList": '
            '{"value": [1.5, -0.25]}}, "c": {"bytesList": {"value": ["aGk=", ""]}}, "d": {}}}}')
    return [sv(tf.io.decode_json_example([text, "{}", '{"features": {}}'])),
            outcome(lambda: tf.io.decode_json_example(["{bad"]), "Error while parsing JSON")]


# --- files ----------------------------------------------------------------------------------------------------------
@program
def p_io_matching_files(tf):
    folder = tempfile.mkdtemp()
    os.makedirs(os.path.join(folder, "sub"))
    for name in ("b.txt", "a.txt", ".hidden.txt", "c.csv", os.path.join("sub", "d.txt")):
        open(os.path.join(folder, name), "w").close()

    def rel(t):
        return sorted(os.path.relpath(p.decode(), folder) for p in t.numpy().tolist())
    variable = tf.io.match_filenames_once(os.path.join(folder, "*.txt"))
    return [rel(tf.io.matching_files(os.path.join(folder, "*.txt"))),
            rel(tf.io.matching_files([os.path.join(folder, "c*"), os.path.join(folder, "*/*.txt")])),
            rel(tf.io.matching_files(os.path.join(folder, "[ab].txt"))),
            rel(tf.io.matching_files(os.path.join(folder, "nothing", "*"))),
            [rel(variable), variable.trainable, variable.dtype.name]]


# --- compat.v1 ------------------------------------------------------------------------------------------------------
@program
def p_io_compat_v1_names(tf):
    v1 = tf.compat.v1
    sp = tf.sparse.SparseTensor([[0, 1]], [4], [2, 2])
    return [sv(v1.decode_raw(bytes=[b"\x01\x00"], out_type=tf.int16)), sv(v1.io.decode_raw([b"\x01\x02"], tf.uint8)),
            sv(v1.serialize_sparse(sp)), sv(v1.serialize_many_sparse(sp)),
            sv(v1.parse_tensor(v1.serialize_tensor([1.0]), tf.float32)), sv(v1.encode_base64([b"?"])),
            sv(v1.decode_base64([b"Pw"])), sv(v1.decode_compressed([zlib.compress(b"z")], "ZLIB")),
            sv(v1.deserialize_many_sparse(v1.serialize_many_sparse(sp), tf.int32))]


# --- inside tf.function ----------------------------------------------------------------------------------------
@program
def p_io_in_tf_function(tf):
    @tf.function
    def pipeline(x, raw):
        data = tf.io.serialize_tensor(x)
        back = tf.io.parse_tensor(data, tf.float32)
        text = tf.io.encode_base64(tf.reshape(data, [1]))
        return (back * 2.0, tf.io.decode_base64(text), tf.io.decode_raw(raw, tf.int16),
                tf.io.decode_raw(raw, tf.uint8, fixed_length=3))
    return sv(pipeline(tf.constant([[1.0, 2.0]]), tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"])))
