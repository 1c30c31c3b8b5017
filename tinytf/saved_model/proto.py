"""The SavedModel message (saved_model.proto): `saved_model_schema_version` and the MetaGraphDefs, and the
FingerprintDef of fingerprint.pb. The
tensorboard package ships MetaGraphDef and everything under it compiled, but not these two messages, so
they are declared here through protobuf's descriptor machinery (same field numbers as TensorFlow's .proto)."""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from tensorboard.compat.proto import meta_graph_pb2

_F = descriptor_pb2.FieldDescriptorProto


def _dependencies(file_descriptor, seen, out):
    for dep in file_descriptor.dependencies:
        _dependencies(dep, seen, out)
    if file_descriptor.name not in seen:
        seen.add(file_descriptor.name)
        proto = descriptor_pb2.FileDescriptorProto()
        file_descriptor.CopyToProto(proto)
        out.append(proto)


def _build():
    pool = descriptor_pool.DescriptorPool()
    files: list = []
    _dependencies(meta_graph_pb2.DESCRIPTOR, set(), files)
    for proto in files:
        pool.Add(proto)
    file = descriptor_pb2.FileDescriptorProto(name="tinytf/saved_model.proto", package="tensorflow", syntax="proto3",
                                              dependency=[meta_graph_pb2.DESCRIPTOR.name])
    message = file.message_type.add(name="SavedModel")
    message.field.add(name="saved_model_schema_version", number=1, type=_F.TYPE_INT64, label=_F.LABEL_OPTIONAL)
    message.field.add(name="meta_graphs", number=2, type=_F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
                      type_name=".tensorboard.MetaGraphDef")
    fingerprint = file.message_type.add(name="FingerprintDef")  # fingerprint.proto, TF 2.21's field numbers
    for name, number in (("saved_model_checksum", 1), ("graph_def_program_hash", 2), ("signature_def_hash", 3),
                         ("saved_object_graph_hash", 4), ("checkpoint_hash", 5)):
        fingerprint.field.add(name=name, number=number, type=_F.TYPE_UINT64, label=_F.LABEL_OPTIONAL)
    fingerprint.field.add(name="uuid", number=7, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
    fingerprint.field.add(name="version", number=6, type=_F.TYPE_MESSAGE, label=_F.LABEL_OPTIONAL,
                          type_name=".tensorboard.VersionDef")
    pool.Add(file)
    return (message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.SavedModel")),
            message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.FingerprintDef")))


SavedModel, FingerprintDef = _build()


def meta_graph_class():
    """The MetaGraphDef class of this pool (the one SavedModel.meta_graphs holds)."""
    return type(SavedModel().meta_graphs.add())
