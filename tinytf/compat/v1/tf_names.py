"""TF's names for the ops of a TF1 graph: `op.type` (the NodeDef op, `Sum`, `MatMul`, `AddV2`) and the default
node name TF's Python wrappers give, which TF1 programs print and look up (`graph.get_tensor_by_name("add_1:0")`).
The tables live with the GraphDef code (graph_def/node_names.py), which every graph's namer uses."""

from __future__ import annotations

from tinytf.graph_def.node_names import default_node_name, tf_type
from tinytf.runtime.graph import ir_identifier as ir_name

__all__ = ["default_node_name", "ir_name", "tf_type"]
