"""RaggedTensorSpecs in a SavedModel's function signatures, as TF writes them: a TypeSpecProto of class
RAGGED_TENSOR_SPEC whose type_state is (shape, dtype, ragged_rank, row_splits_dtype, flat_values_spec)."""

from __future__ import annotations

from tensorboard.compat.proto import struct_pb2

from ..ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from .attr_codec import dtype_enum, dtype_of_enum, shape_of_proto, shape_proto


def is_ragged_spec(value) -> bool:
    return isinstance(value, (RaggedTensorSpec, RaggedTensor))


def encode_ragged_spec(value, out: struct_pb2.StructuredValue) -> None:
    spec = value._type_spec if isinstance(value, RaggedTensor) else value
    proto = out.type_spec_value
    proto.type_spec_class = struct_pb2.TypeSpecProto.RAGGED_TENSOR_SPEC
    proto.type_spec_class_name = "RaggedTensorSpec"
    proto.num_flat_components = len(spec._component_specs)
    state = proto.type_state.tuple_value
    state.values.add().tensor_shape_value.CopyFrom(shape_proto(spec._shape))
    state.values.add().tensor_dtype_value = dtype_enum(spec.dtype)
    state.values.add().int64_value = spec.ragged_rank
    state.values.add().tensor_dtype_value = dtype_enum(spec.row_splits_dtype)
    state.values.add().none_value.SetInParent()  # flat_values_spec: TF writes None unless one was given


def decode_ragged_spec(proto) -> RaggedTensorSpec:
    shape, dtype, ragged_rank, splits_dtype = list(proto.type_state.tuple_value.values)[:4]
    return RaggedTensorSpec(shape_of_proto(shape.tensor_shape_value), dtype_of_enum(dtype.tensor_dtype_value),
                            int(ragged_rank.int64_value), dtype_of_enum(splits_dtype.tensor_dtype_value))


def is_ragged_proto(value: struct_pb2.StructuredValue) -> bool:
    return value.type_spec_value.type_spec_class == struct_pb2.TypeSpecProto.RAGGED_TENSOR_SPEC
