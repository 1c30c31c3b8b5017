"""tf.compat.v1.saved_model.utils: TensorInfo protos for graph tensors (a dense tensor by name, a SparseTensor by
its three component names) and back from a TensorInfo to the tensor of a graph, as TF 2.21's utils_impl."""

from __future__ import annotations

from tensorboard.compat.proto import meta_graph_pb2


def build_tensor_info(tensor) -> meta_graph_pb2.TensorInfo:
    """The TensorInfo proto of a graph tensor or SparseTensor: name(s), dtype and (possibly partial) shape."""
    from ...runtime.context import state

    if state.graph is None:  # eager: there is no graph tensor to name
        raise RuntimeError("`build_tensor_info` is not supported in eager execution.")
    from ...graph_def.protos import shape_proto
    from ...sparse.sparse_tensor import SparseTensor

    shape = tensor.shape
    info = meta_graph_pb2.TensorInfo(dtype=tensor.dtype.as_datatype_enum,
                                     tensor_shape=shape_proto(None if shape.rank is None else shape.as_list()))
    if isinstance(tensor, SparseTensor):
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    else:
        info.name = tensor.name
    return info


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor (or SparseTensor) of `graph` (default: the default graph) a TensorInfo names; `import_scope`
    prefixes the names, as for a MetaGraphDef imported under a scope."""
    from ...sparse.sparse_tensor import SparseTensor
    from .graph import get_default_graph

    graph = graph or get_default_graph()

    def tensor(name):
        return graph.get_tensor_by_name(f"{import_scope}/{name}" if import_scope else name)

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return tensor(tensor_info.name)
    if encoding == "coo_sparse":
        sparse = tensor_info.coo_sparse
        return SparseTensor(tensor(sparse.indices_tensor_name), tensor(sparse.values_tensor_name),
                            tensor(sparse.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}. Expected `coo_sparse`, `composite_tensor`, or "
                     "`name` for a dense tensor.")


__all__ = ["build_tensor_info", "get_tensor_from_tensor_info"]
