"""TF's names for the ops of a TF1 graph: `op.type` (the NodeDef op, `Sum`, `MatMul`, `AddV2`) and the default
node name TF's Python wrappers give (`add` for `x + y`, `Sum` for reduce_sum, `truediv` for `x / y`), which
TF1 programs print and look up (`graph.get_tensor_by_name("add_1:0")`). tinytf's own op names stay inside the
IR; this table is only the face a compat.v1 graph shows. Types come from the shared GraphDef table
(graph_def/op_names.py, its first TF op per tinytf op); the wrappers' lowercase names are TF's Python API's."""

from __future__ import annotations

from tinytf.graph_def.op_names import TABLE

_TYPES: dict = {}
for _entry in TABLE:
    if _entry.tinytf:
        _TYPES.setdefault(_entry.tinytf, _entry.tf)

# Node names TF's Python wrappers choose that differ from the op type (math_ops' operator overloads, and the
# array ops whose wrapper passes its own name).
_WRAPPER_NAMES = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv", "floordiv": "floordiv",
    "floormod": "mod", "pow": "pow", "transpose": "transpose", "concat": "concat", "stack": "stack",
    "unstack": "unstack", "strided_slice": "strided_slice", "cond": "cond", "while_loop": "while",
    "no_op": "NoOp", "select": "SelectV2", "clip_by_value": "clip_by_value", "one_hot": "one_hot",
}


def tf_type(op) -> str:
    """The NodeDef op TF writes for tinytf op `op` (tinytf's own name when TF has no counterpart)."""
    return _TYPES.get(op.name, op.name)


def default_node_name(op) -> str:
    """The node name TF gives an op built without `name=` (before TF makes it unique in the graph)."""
    return _WRAPPER_NAMES.get(op.name) or _TYPES.get(op.name, op.name)


def ir_name(tf_name: str) -> str:
    """A TF node name as an identifier for tinytf's IR (the generated code names values after nodes)."""
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in tf_name)
    return name if name and not name[0].isdigit() else "_" + name
