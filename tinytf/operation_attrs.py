"""tf.Operation's `node_def` and `get_attr`: an operation's NodeDef as tinytf's GraphDef export writes it (TF's
op type, inputs and attributes: `T`, `keep_dims`, `value`, ...), and one attribute of it as TF's get_attr returns
it (a DType for a type, a TensorShapeProto, a TensorProto, a Python int/float/bool/bytes, or a list of them).
Installed on the Operation class of tinytf/compat/v1/ops.py, which tf.Operation exports."""

from __future__ import annotations

from tinytf.runtime import dtypes

from .compat.v1.ops import Operation


def _node_def(self):
    graph_def = self.graph.as_graph_def()
    for node in graph_def.node:
        if node.name == self.name:
            return node
    raise ValueError(f"Operation '{self.name}' is not written into its graph's GraphDef")


def _value(attr, field):
    if field == "type":
        return dtypes.as_dtype(attr.type)
    if field == "list":
        for name in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = list(getattr(attr.list, name))
            if items:
                return [dtypes.as_dtype(t) for t in items] if name == "type" else items
        return []
    return getattr(attr, field)


def _get_attr(self, name: str):
    """The value of attribute `name` of this operation's NodeDef; ValueError when it has none."""
    node = _node_def(self)
    if name not in node.attr:
        raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.")
    attr = node.attr[name]
    field = attr.WhichOneof("value")
    return None if field is None else _value(attr, field)


Operation.node_def = property(_node_def, doc="The NodeDef TF writes for this operation.")
Operation.get_attr = _get_attr
