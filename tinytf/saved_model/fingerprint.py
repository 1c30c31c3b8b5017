"""fingerprint.pb, as TensorFlow 2.21 writes it next to saved_model.pb, and
`tf.saved_model.experimental.read_fingerprint`.

The five hashes are FarmHash Fingerprint64s (runtime/ops/fingerprint.py) of what TF's fingerprinting.cc hashes:
  saved_model_checksum     the SavedModel message, serialized deterministically as C++ does (cpp_bytes);
  graph_def_program_hash   the MetaGraphDef's graph_def without its function library and versions, function
                           calls' `f` stripped of their numeric suffix, string constants emptied;
  signature_def_hash       each signature's key and SignatureDef in key order, chained (FingerprintCat64);
  saved_object_graph_hash  each concrete function in the order of its name's numeric suffix: its name without
                           the suffix, then its SavedConcreteFunction, chained;
  checkpoint_hash          the bytes of variables/variables.index.
The `uuid` is a random 128-bit number written in decimal, and version.producer is 4, as in TF 2.21."""

from __future__ import annotations

import os
import re
import uuid

from tensorboard.compat.proto import graph_pb2, meta_graph_pb2, types_pb2

from tinytf.runtime.ops.fingerprint import fingerprint64, fingerprint_cat64
from tinytf.runtime.wire import encode_varint

from .proto import FingerprintDef

FINGERPRINT_FILE = "fingerprint.pb"
PRODUCER = 4

_SUFFIX_UID = re.compile(r"_(\d+)$")


def _deterministic(message) -> bytes:
    return message.SerializeToString(deterministic=True)


def _graph_def_program_hash(graph_def: graph_pb2.GraphDef) -> int:
    graph = graph_pb2.GraphDef()
    graph.CopyFrom(graph_def)
    for node in graph.node:
        if node.op in ("PartitionedCall", "StatefulPartitionedCall"):
            name = node.attr["f"].func.name
            found = _SUFFIX_UID.search(name)
            if found:
                node.attr["f"].func.name = name[:len(name) - len(found.group(1))]
            if "config_proto" in node.attr:
                node.attr["config_proto"].s = b""
        if node.op == "Const" and node.attr["dtype"].type == types_pb2.DT_STRING:
            node.attr["value"].Clear()
    graph.library.Clear()  # emptied but present, as C++'s mutable_library()->Clear() leaves them
    graph.library.SetInParent()
    graph.versions.Clear()
    graph.versions.SetInParent()
    return fingerprint64(cpp_bytes(graph))


def _signature_def_hash(meta: meta_graph_pb2.MetaGraphDef) -> int:
    result = 0
    for key in sorted(meta.signature_def):
        result = fingerprint_cat64(result, fingerprint64(key.encode()))
        result = fingerprint_cat64(result, fingerprint64(cpp_bytes(meta.signature_def[key])))
    return result


def _object_graph_hash(meta: meta_graph_pb2.MetaGraphDef) -> int:
    functions = meta.object_graph_def.concrete_functions
    by_uid = {}
    for name in functions:
        found = _SUFFIX_UID.search(name)
        if found is None:
            raise ValueError(f"the concrete function {name!r} has no numeric suffix; TF's fingerprint needs one")
        by_uid[int(found.group(1))] = name
    result = 0
    for uid in sorted(by_uid):
        name = by_uid[uid]
        result = fingerprint_cat64(result, fingerprint64(name[:len(name) - len(str(uid))].encode()))
        result = fingerprint_cat64(result, fingerprint64(cpp_bytes(functions[name])))
    return result


def _varint(data: bytes, i: int) -> tuple:
    value = shift = 0
    while True:
        byte = data[i]
        value |= (byte & 0x7F) << shift
        i += 1
        if byte < 0x80:
            return value, i
        shift += 7


def _map_entry(entry: bytes, entry_type) -> tuple:
    """(sort key, entry bytes with its key and value fields always present), as C++ writes a map entry."""
    key_field, value_field = entry_type.fields_by_number[1], entry_type.fields_by_number[2]
    fields = {}
    i = 0
    while i < len(entry):
        start = i
        tag, i = _varint(entry, i)
        if tag & 7 == 0:
            _, i = _varint(entry, i)
        elif tag & 7 == 2:
            length, i = _varint(entry, i)
            i += length
        elif tag & 7 == 1:
            i += 8
        else:
            i += 4
        fields[tag >> 3] = entry[start:i]
    if value_field.message_type is not None and 2 in fields:
        tag_end = _varint(fields[2], 0)[1]
        length, body = _varint(fields[2], tag_end)
        inner = _cpp_message(fields[2][body:body + length], value_field.message_type)
        fields[2] = fields[2][:tag_end] + encode_varint(len(inner)) + inner
    is_text = key_field.type in (key_field.TYPE_STRING, key_field.TYPE_BYTES)
    defaults = {1: b"\x0a\x00" if is_text else b"\x08\x00",
                2: b"\x10\x00" if value_field.type not in (value_field.TYPE_STRING, value_field.TYPE_BYTES,
                                                           value_field.TYPE_MESSAGE) else b"\x12\x00"}
    key_bytes = fields.get(1, defaults[1])
    if is_text:
        sort_key = key_bytes[_varint(key_bytes, 1)[1]:]
    else:
        sort_key = _varint(key_bytes, 1)[0]
    return sort_key, key_bytes + fields.get(2, defaults[2])


def _cpp_message(data: bytes, descriptor) -> bytes:
    """A message Python serialized deterministically, as C++'s deterministic serialization writes it: map
    entries in ascending key order (Python orders string keys otherwise), each with its key and value."""
    chunks: list = []  # bytes, or the list of (sort key, encoded entry) of one map field, in field order
    maps: dict = {}
    i = 0
    while i < len(data):
        start = i
        tag, i = _varint(data, i)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            _, i = _varint(data, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            length, body = _varint(data, i)
            i = body + length
            field = descriptor.fields_by_number.get(number)
            if field is not None and field.message_type is not None:
                inner = data[body:i]
                if field.message_type.GetOptions().map_entry:
                    sort_key, entry = _map_entry(inner, field.message_type)
                    if number not in maps:
                        maps[number] = []
                        chunks.append(maps[number])
                    maps[number].append((sort_key, encode_varint(tag) + encode_varint(len(entry)) + entry))
                    continue
                inner = _cpp_message(inner, field.message_type)
                chunks.append(encode_varint(tag) + encode_varint(len(inner)) + inner)
                continue
        else:
            raise ValueError(f"unexpected protobuf wire type {wire}")
        chunks.append(data[start:i])
    return b"".join(chunk if isinstance(chunk, bytes) else b"".join(e for _, e in sorted(chunk, key=lambda e: e[0]))
                    for chunk in chunks)


def cpp_bytes(message) -> bytes:
    """`message` as TF's C++ serializes it deterministically (what TF's checksum hashes)."""
    return _cpp_message(_deterministic(message), message.DESCRIPTOR)


def fingerprint_def(saved_model, meta: meta_graph_pb2.MetaGraphDef, index_bytes: bytes | None) -> FingerprintDef:
    """The FingerprintDef of a SavedModel message (`meta` is its first MetaGraphDef, parsed)."""
    out = FingerprintDef(saved_model_checksum=fingerprint64(cpp_bytes(saved_model)),
                         graph_def_program_hash=_graph_def_program_hash(meta.graph_def),
                         signature_def_hash=_signature_def_hash(meta),
                         saved_object_graph_hash=_object_graph_hash(meta),
                         checkpoint_hash=fingerprint64(index_bytes) if index_bytes is not None else 0,
                         uuid=str(uuid.uuid4().int))
    out.version.producer = PRODUCER
    return out


class Fingerprint:
    """`tf.saved_model.experimental.Fingerprint`: the five hashes of a SavedModel."""

    def __init__(self, saved_model_checksum=None, graph_def_program_hash=None, signature_def_hash=None,
                 saved_object_graph_hash=None, checkpoint_hash=None, version=None):
        self.saved_model_checksum = saved_model_checksum
        self.graph_def_program_hash = graph_def_program_hash
        self.signature_def_hash = signature_def_hash
        self.saved_object_graph_hash = saved_object_graph_hash
        self.checkpoint_hash = checkpoint_hash
        self.version = version

    @classmethod
    def from_proto(cls, proto) -> Fingerprint:
        return cls(proto.saved_model_checksum, proto.graph_def_program_hash, proto.signature_def_hash,
                   proto.saved_object_graph_hash, proto.checkpoint_hash, proto.version)

    def singleprint(self) -> str:
        """The four regularized hashes joined by '/' (the checksum changes with immaterial details)."""
        return (f"{self.graph_def_program_hash}/{self.signature_def_hash}/{self.saved_object_graph_hash}/"
                f"{self.checkpoint_hash}")

    def __eq__(self, other):
        return isinstance(other, Fingerprint) and self._fields() == other._fields()

    def _fields(self) -> tuple:
        return (self.saved_model_checksum, self.graph_def_program_hash, self.signature_def_hash,
                self.saved_object_graph_hash, self.checkpoint_hash)

    def __str__(self):
        return ("SavedModel Fingerprint\n"
                f"  saved_model_checksum: {self.saved_model_checksum}\n"
                f"  graph_def_program_hash: {self.graph_def_program_hash}\n"
                f"  signature_def_hash: {self.signature_def_hash}\n"
                f"  saved_object_graph_hash: {self.saved_object_graph_hash}\n"
                f"  checkpoint_hash: {self.checkpoint_hash}")

    def __repr__(self):
        return f"Fingerprint({', '.join(str(v) for v in self._fields())})"


def read_fingerprint(export_dir) -> Fingerprint:
    """`tf.saved_model.experimental.read_fingerprint(export_dir)`: TF's FileNotFoundError when there is no
    fingerprint.pb, its RuntimeError when the file does not parse."""
    from google.protobuf.message import DecodeError

    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, FINGERPRINT_FILE)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"SavedModel Fingerprint Error: Could not find fingerprint in directory: "
                                f"{export_dir}\nNOT_FOUND: {path} not found")
    with open(path, "rb") as f:
        data = f.read()
    proto = FingerprintDef()
    try:
        proto.ParseFromString(data)
    except DecodeError as e:
        raise RuntimeError(f"SavedModel Fingerprint Error: Could not read fingerprint from fingerprint.pb file in "
                           f"directory: {export_dir}\nDATA_LOSS: {e}") from None
    return Fingerprint.from_proto(proto)


__all__ = ["Fingerprint", "read_fingerprint", "fingerprint_def", "FINGERPRINT_FILE"]
