"""tf.io.decode_proto / tf.io.encode_proto: every scalar field type (int32/64, uint32/64, sint, fixed, sfixed,
float, double, bool, string, bytes, enum, message), proto2 defaults as padding, repeated fields (packed and
not) padded to the batch's largest count, batch shapes, text format, the descriptor sources (a
FileDescriptorSet file, bytes://, local:// with TF's own tensorflow.Example), both ops in tf.function, and
TF's errors. The message types are built here with google.protobuf's descriptor_pb2 (no protoc)."""

import os
import tempfile

from . import outcome, program, val


def _file_set():
    from google.protobuf import descriptor_pb2

    fd = descriptor_pb2.FileDescriptorProto(name="tinytf_conformance.proto", package="tinytfconf", syntax="proto2")
    color = fd.enum_type.add(name="Color")
    for name, number in [("RED", 0), ("GREEN", 1), ("BLUE", 2)]:
        color.value.add(name=name, number=number)
    F = descriptor_pb2.FieldDescriptorProto
    inner = fd.message_type.add(name="Inner")
    inner.field.add(name="a", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    inner.field.add(name="s", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    rec = fd.message_type.add(name="Rec")
    singular = [("i32", F.TYPE_INT32, "7"), ("i64", F.TYPE_INT64, None), ("u32", F.TYPE_UINT32, None),
                ("u64", F.TYPE_UINT64, None), ("f", F.TYPE_FLOAT, "1.5"), ("d", F.TYPE_DOUBLE, None),
                ("b", F.TYPE_BOOL, None), ("s", F.TYPE_STRING, "dflt"), ("by", F.TYPE_BYTES, None),
                ("c", F.TYPE_ENUM, "BLUE"), ("m", F.TYPE_MESSAGE, None), ("si32", F.TYPE_SINT32, None),
                ("si64", F.TYPE_SINT64, None), ("fx32", F.TYPE_FIXED32, None), ("fx64", F.TYPE_FIXED64, None),
                ("sf32", F.TYPE_SFIXED32, None), ("sf64", F.TYPE_SFIXED64, None)]
    for number, (name, kind, default) in enumerate(singular, start=1):
        field = rec.field.add(name=name, number=number, type=kind, label=F.LABEL_OPTIONAL)
        if default is not None:
            field.default_value = default
        if kind == F.TYPE_ENUM:
            field.type_name = ".tinytfconf.Color"
        if kind == F.TYPE_MESSAGE:
            field.type_name = ".tinytfconf.Inner"
    repeated = [("ri", F.TYPE_INT32, False), ("rf", F.TYPE_FLOAT, True), ("rs", F.TYPE_STRING, False),
                ("rm", F.TYPE_MESSAGE, False), ("rd", F.TYPE_DOUBLE, False), ("rb", F.TYPE_BOOL, True),
                ("rsi", F.TYPE_SINT64, True)]
    for number, (name, kind, packed) in enumerate(repeated, start=len(singular) + 1):
        field = rec.field.add(name=name, number=number, type=kind, label=F.LABEL_REPEATED)
        if packed:
            field.options.packed = True
        if kind == F.TYPE_MESSAGE:
            field.type_name = ".tinytfconf.Inner"
    return descriptor_pb2.FileDescriptorSet(file=[fd])


def _classes():
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_set().file[0])
    return [message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tinytfconf.{n}")) for n in ("Rec", "Inner")]


def _descriptor_file():
    fd, path = tempfile.mkstemp(suffix=".pb")
    with os.fdopen(fd, "wb") as f:
        f.write(_file_set().SerializeToString())
    return path


def _messages():
    rec, inner = _classes()
    m1 = rec(i32=3, i64=-5, u64=2**63 + 5, f=2.5, s="hi", c=1, m=inner(a=4, s="x"), ri=[1, 2, 3], rf=[0.5],
             rs=["a", "b"], rm=[inner(a=1), inner(s="q")], si32=-3, fx64=9, rb=[True, False], rsi=[-1, 5])
    m2 = rec(d=1.25, b=True, by=b"\x00\xff", ri=[9], rd=[1.0, 2.0, 3.0], sf64=-7, fx32=4000000000, sf32=-2)
    return [m.SerializeToString() for m in (m1, m2, rec())]


NAMES = ["i32", "i64", "u32", "u64", "f", "d", "b", "s", "by", "c", "m", "si32", "si64", "fx32", "fx64", "sf32",
         "sf64", "ri", "rf", "rs", "rm", "rd", "rb", "rsi"]


def _types(tf):
    return [tf.int32, tf.int64, tf.uint32, tf.uint64, tf.float32, tf.float64, tf.bool, tf.string, tf.string,
            tf.int32, tf.string, tf.int32, tf.int64, tf.uint32, tf.uint64, tf.int32, tf.int64, tf.int32, tf.float32,
            tf.string, tf.string, tf.float64, tf.bool, tf.int64]


def _v(t):
    """A tensor as [dtype, shape, values], bytes shown as hex (JSON has no bytes)."""
    if t.dtype.name != "string":
        out = val(t)
        return [out[0], out[1], _ints(out[2])]
    return [t.dtype.name, t.shape.as_list(), _hex(t.numpy().tolist())]


def _ints(x):
    if isinstance(x, list):
        return [_ints(v) for v in x]
    return str(x) if isinstance(x, int) and abs(x) > 2**53 else x  # uint64 beyond a double, exactly


def _hex(x):
    return [_hex(v) for v in x] if isinstance(x, list) else x.hex()


@program
def p_proto_decode_every_type(tf):
    path = _descriptor_file()
    try:
        data = tf.constant([_messages()])
        sizes, values = tf.io.decode_proto(data, "tinytfconf.Rec", NAMES, _types(tf), descriptor_source=path)
        return [_v(sizes)] + [_v(v) for v in values]
    finally:
        os.remove(path)


@program
def p_proto_encode_round_trip(tf):
    path = _descriptor_file()
    try:
        messages = _messages()
        sizes, values = tf.io.decode_proto(tf.constant(messages), "tinytfconf.Rec", NAMES, _types(tf),
                                           descriptor_source=path)
        encoded = tf.io.encode_proto(sizes, values, NAMES, "tinytfconf.Rec", descriptor_source=path)
        partial = tf.io.encode_proto(tf.constant([[1, 2], [0, 1]]), [tf.constant([[5], [6]]),
                                                                      tf.constant([[1.5, 2.5], [3.5, 0.0]])],
                                     ["i32", "rf"], "tinytfconf.Rec", descriptor_source=path)
        twice = tf.io.encode_proto(tf.constant([[2]]), [tf.constant([[1, 2]])], ["i32"], "tinytfconf.Rec",
                                   descriptor_source=path)
        return [_v(encoded), [e == m for e, m in zip(encoded.numpy().tolist(), messages)], _v(partial), _v(twice)]
    finally:
        os.remove(path)


@program
def p_proto_batch_shapes_and_bytes_source(tf):
    source = b"bytes://" + _file_set().SerializeToString()
    m1, m2, m3 = _messages()
    out = []
    for data in [tf.constant(m1), tf.constant([[m1, m2], [m3, m1]]), tf.constant([m3, m3])]:
        sizes, values = tf.io.decode_proto(data, "tinytfconf.Rec", ["ri", "i32", "rs"],
                                           [tf.int64, tf.int64, tf.string], descriptor_source=source)
        out.append([_v(sizes)] + [_v(v) for v in values])
    sizes, values = tf.io.decode_proto(tf.constant([m1, m2]), "tinytfconf.Rec", ["f", "rf"], [tf.float64, tf.float64],
                                       descriptor_source=source)
    out.append([_v(sizes), _v(values[0]), _v(values[1])])
    out.append(outcome(lambda: tf.io.decode_proto(tf.constant([], tf.string), "tinytfconf.Rec", ["ri"], [tf.int32],
                                                  descriptor_source=source), "at least one value"))
    return out


@program
def p_proto_text_format(tf):
    path = _descriptor_file()
    try:
        text = tf.constant([b'i32: 5 ri: 1 ri: 2 s: "z" c: GREEN m { a: 3 }', b"rf: [0.5, 1.5]"])
        sizes, values = tf.io.decode_proto(text, "tinytfconf.Rec", ["i32", "ri", "s", "c", "m", "rf"],
                                           [tf.int32, tf.int32, tf.string, tf.int32, tf.string, tf.float32],
                                           descriptor_source=path, message_format="text")
        return [_v(sizes)] + [_v(v) for v in values]
    finally:
        os.remove(path)


@program
def p_proto_local_tensorflow_example(tf):
    example = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))}))
    sizes, values = tf.io.decode_proto([example.SerializeToString(), b""], "tensorflow.Example", ["features"],
                                       [tf.string])
    return [_v(sizes), _v(values[0])]


@program
def p_proto_in_tf_function(tf):
    path = _descriptor_file()
    try:
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def first_and_count(data):
            sizes, (ri, s) = tf.io.decode_proto(data, "tinytfconf.Rec", ["ri", "s"], [tf.int32, tf.string],
                                                descriptor_source=path)
            return tf.reduce_sum(sizes, axis=1), ri[:, 0] * 10, s

        @tf.function
        def encode(counts, values):
            return tf.io.encode_proto(counts, [values], ["ri"], "tinytfconf.Rec", descriptor_source=path)

        total, first, s = first_and_count(tf.constant(_messages()))
        encoded = encode(tf.constant([[2], [0]]), tf.constant([[4, 5], [0, 0]]))
        return [_v(total), _v(first), _v(s), _v(encoded)]
    finally:
        os.remove(path)


@program
def p_proto_errors(tf):
    path = _descriptor_file()
    data = tf.constant(_messages())

    def decode(names, types, message_type="tinytfconf.Rec", source=path, batch=data):
        return tf.io.decode_proto(batch, message_type, names, types, descriptor_source=source)

    def encode(sizes, values, names):
        return tf.io.encode_proto(tf.constant(sizes), [tf.constant(v) for v in values], names, "tinytfconf.Rec",
                                  descriptor_source=path)

    try:
        return [outcome(lambda: decode(["u32"], [tf.int64]), "Unexpected output type"),
                outcome(lambda: decode(["c"], [tf.int64]), "enum to DT_INT64"),
                outcome(lambda: decode(["d"], [tf.float32]), "double to DT_FLOAT"),
                outcome(lambda: decode(["m"], [tf.int32]), "message to DT_INT32"),
                outcome(lambda: decode(["i64"], [tf.int32]), "int64 to DT_INT32"),
                outcome(lambda: decode(["i32"], [tf.int32], message_type="tinytfconf.Nope"),
                        "No descriptor found for message type tinytfconf.Nope"),
                outcome(lambda: decode(["zz"], [tf.int32]), "Unknown field: zz in message type tinytfconf.Rec"),
                outcome(lambda: decode(["i32"], [tf.int32], batch=tf.constant([b"\xff\xff"])), ""),
                outcome(lambda: encode([[3]], [[[1, 2]]], ["ri"]), "Size to write must not be larger"),
                outcome(lambda: encode([[1]], [[[1.0]]], ["ri"]), "Incompatible type for field ri"),
                outcome(lambda: encode([[1]], [[[1]]], ["nope"]), "Unknown field: nope")]
    finally:
        os.remove(path)
