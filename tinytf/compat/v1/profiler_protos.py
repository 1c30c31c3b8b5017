"""tf.compat.v1.profiler's protocol buffers: GraphNodeProto, MultiGraphNodeProto, AdviceProto (tfprof's results)
and OpLogProto (the op log tfprof reads), with the field names and numbers of TF's tfprof_output.proto and
tfprof_log.proto, so their serialized bytes are TF's. They are made at first use from descriptors written here
(TensorShapeProto and DataType come from tensorboard's copies of TF's framework protos), in a descriptor pool of
their own."""

from __future__ import annotations

import functools

_PACKAGE = "tensorflow.tfprof"
_T = {"double": 1, "int64": 3, "int32": 5, "bool": 8, "string": 9, "message": 11, "enum": 14}
_OPTIONAL, _REPEATED = 1, 3

# (message name, [(number, name, type, repeated, type name)], nested messages, is a map entry)
_GRAPH_NODE_INT64 = [(21, "run_count"), (2, "exec_micros"), (17, "accelerator_exec_micros"), (18, "cpu_exec_micros"),
                     (3, "requested_bytes"), (24, "peak_bytes"), (25, "residual_bytes"), (26, "output_bytes"),
                     (4, "parameters"), (13, "float_ops"), (23, "total_definition_count"), (22, "total_run_count"),
                     (6, "total_exec_micros"), (19, "total_accelerator_exec_micros"), (20, "total_cpu_exec_micros"),
                     (7, "total_requested_bytes"), (27, "total_peak_bytes"), (28, "total_residual_bytes"),
                     (29, "total_output_bytes"), (8, "total_parameters"), (14, "total_float_ops")]
_MULTI_NODE_INT64 = [(2, "exec_micros"), (12, "accelerator_exec_micros"), (13, "cpu_exec_micros"),
                     (3, "requested_bytes"), (16, "peak_bytes"), (17, "residual_bytes"), (18, "output_bytes"),
                     (4, "parameters"), (5, "float_ops"), (6, "total_exec_micros"),
                     (14, "total_accelerator_exec_micros"), (15, "total_cpu_exec_micros"),
                     (7, "total_requested_bytes"), (19, "total_peak_bytes"), (20, "total_residual_bytes"),
                     (21, "total_output_bytes"), (8, "total_parameters"), (9, "total_float_ops")]


def _int64s(fields):
    return [(number, name, "int64", False, None) for number, name in fields]


_OUTPUT = [
    ("TFProfTensorProto", [(1, "dtype", "enum", False, ".tensorboard.DataType"),
                           (2, "value_double", "double", True, None), (3, "value_int64", "int64", True, None),
                           (4, "value_str", "string", True, None)], [], False),
    ("GraphNodeProto", [(1, "name", "string", False, None),
                        (15, "tensor_value", "message", False, f".{_PACKAGE}.TFProfTensorProto"),
                        *_int64s(_GRAPH_NODE_INT64[:10]), (10, "devices", "string", True, None),
                        *_int64s(_GRAPH_NODE_INT64[10:]),
                        (11, "shapes", "message", True, ".tensorboard.TensorShapeProto"),
                        (16, "input_shapes", "message", True, f".{_PACKAGE}.GraphNodeProto.InputShapesEntry"),
                        (12, "children", "message", True, f".{_PACKAGE}.GraphNodeProto")],
     [("InputShapesEntry", [(1, "key", "int32", False, None),
                            (2, "value", "message", False, ".tensorboard.TensorShapeProto")], [], True)], False),
    ("MultiGraphNodeProto", [(1, "name", "string", False, None), *_int64s(_MULTI_NODE_INT64),
                             (10, "graph_nodes", "message", True, f".{_PACKAGE}.GraphNodeProto"),
                             (11, "children", "message", True, f".{_PACKAGE}.MultiGraphNodeProto")], [], False),
    ("AdviceProto", [(1, "checkers", "message", True, f".{_PACKAGE}.AdviceProto.CheckersEntry")],
     [("CheckersEntry", [(1, "key", "string", False, None),
                         (2, "value", "message", False, f".{_PACKAGE}.AdviceProto.Checker")], [], True),
      ("Checker", [(2, "reports", "string", True, None)], [], False)], False),
]
_LOG = [
    ("CodeDef", [(1, "traces", "message", True, f".{_PACKAGE}.CodeDef.Trace")],
     [("Trace", [(6, "file_id", "int64", False, None), (2, "lineno", "int32", False, None),
                 (7, "function_id", "int64", False, None), (8, "line_id", "int64", False, None),
                 (5, "func_start_line", "int32", False, None)], [], False)], False),
    ("OpLogEntry", [(1, "name", "string", False, None), (2, "float_ops", "int64", False, None),
                    (3, "types", "string", True, None), (4, "code_def", "message", False, f".{_PACKAGE}.CodeDef")],
     [], False),
    ("OpLogProto", [(1, "log_entries", "message", True, f".{_PACKAGE}.OpLogEntry"),
                    (2, "id_to_string", "message", True, f".{_PACKAGE}.OpLogProto.IdToStringEntry")],
     [("IdToStringEntry", [(1, "key", "int64", False, None), (2, "value", "string", False, None)], [], True)], False),
]


def _message(proto, spec):
    name, fields, nested, map_entry = spec
    proto.name = name
    for number, field_name, kind, repeated, type_name in fields:
        field = proto.field.add(name=field_name, number=number, type=_T[kind],
                                label=_REPEATED if repeated else _OPTIONAL)
        if type_name:
            field.type_name = type_name
        if kind in ("int64", "int32", "double", "bool", "enum") and repeated:
            field.options.packed = True
    for child in nested:
        _message(proto.nested_type.add(), child)
    if map_entry:
        proto.options.map_entry = True


@functools.lru_cache(maxsize=None)
def _classes() -> dict:
    """The message classes, from a descriptor pool of their own: TF's protos use the same full names, and a
    process that imports TensorFlow too must not see a clash in the default pool."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    from tensorboard.compat.proto import tensor_shape_pb2, types_pb2

    pool = descriptor_pool.DescriptorPool()
    for dependency in (tensor_shape_pb2, types_pb2):
        pool.AddSerializedFile(dependency.DESCRIPTOR.serialized_pb)
    for file_name, deps, messages in (("tinytf/tfprof_output.proto", [tensor_shape_pb2, types_pb2], _OUTPUT),
                                      ("tinytf/tfprof_log.proto", [], _LOG)):
        file_proto = descriptor_pb2.FileDescriptorProto(name=file_name, package=_PACKAGE, syntax="proto3")
        file_proto.dependency.extend(d.DESCRIPTOR.name for d in deps)
        for spec in messages:
            _message(file_proto.message_type.add(), spec)
        pool.Add(file_proto)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
            for name in ("GraphNodeProto", "MultiGraphNodeProto", "AdviceProto", "OpLogProto")}


NAMES = ("GraphNodeProto", "MultiGraphNodeProto", "AdviceProto", "OpLogProto")


def get(name: str):
    """The message class `name` (made once)."""
    return _classes()[name]
