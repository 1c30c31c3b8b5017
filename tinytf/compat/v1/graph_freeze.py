"""tf.compat.v1.graph_util.convert_variables_to_constants (freezing: the subgraph the outputs need, each variable
a Const of its value in the Session, each read of it an Identity) and must_run_on_cpu (TF's device hint for
int32 / string constants, int32 DynamicStitch and Cast), as TF's framework/graph_util_impl.py and
convert_to_constants.py."""

from __future__ import annotations

import logging

from .graph_util_v1 import _node_name, extract_sub_graph

# the ops TF's graph_util pins as variables: TF1's ref variables and their updates (not resource handles)
_VARIABLE_OPS = ("Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub", "ScatterUpdate",
                 "TruncatedNormal", "Variable", "VariableV2")
_VARIABLE_NODES = ("Variable", "VariableV2", "VarHandleOp")


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether TF would place this op (an Operation or a NodeDef) on the CPU: int32 and string constants, int32
    DynamicStitch and Cast from int32, and variables when `pin_variables_on_cpu`."""
    from tinytf.runtime import dtypes

    node_def = node.node_def if hasattr(node, "node_def") else node
    if pin_variables_on_cpu and node_def.op in _VARIABLE_OPS:
        return True

    def dtype_of(attr):
        return dtypes.as_dtype(node_def.attr[attr].type) if node_def.attr[attr].type else None

    if node_def.op == "Const" and dtype_of("dtype") in (dtypes.string, dtypes.int32):
        return True
    if node_def.op in ("DynamicStitch", "ParallelDynamicStitch") and dtype_of("T") == dtypes.int32:
        return True
    return node_def.op == "Cast" and dtype_of("SrcT") == dtypes.int32


def _variable_values(sess, names):
    """{node name: numpy value} of the Session's variables whose node is in `names`."""
    from .variables import global_variables

    with sess.graph.as_default():
        variables = {v.name.split(":")[0]: v for v in global_variables()}
    missing = [n for n in names if n not in variables]
    if missing:
        raise ValueError(f"convert_variables_to_constants: no variable of the Session's graph has the node "
                         f"{missing[0]!r}")
    return dict(zip(names, sess.run([variables[n] for n in names])))


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """A GraphDef of what `output_node_names` need, every (allowed) variable replaced by a Const holding its
    value in `sess`; the reads of a converted resource variable become Identity ops."""
    import tinytf as tf

    graph_def = extract_sub_graph(input_graph_def, output_node_names)
    allow = set(variable_names_whitelist) if variable_names_whitelist is not None else None
    deny = set(variable_names_blacklist or ())
    convert = [n.name for n in graph_def.node if n.op in _VARIABLE_NODES
               and (allow is None or n.name in allow) and n.name not in deny]
    values = _variable_values(sess, convert) if convert else {}
    out = type(graph_def)()
    for node in graph_def.node:
        new = out.node.add()
        if node.name in values:
            dtype = node.attr["dtype"].type
            new.op, new.name = "Const", node.name
            new.attr["dtype"].type = dtype
            new.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(values[node.name]))
            if node.device:
                new.device = node.device
        elif node.op == "ReadVariableOp" and _node_name(node.input[0]) in values:
            new.op, new.name = "Identity", node.name
            new.input.extend(node.input)
            new.attr["T"].type = node.attr["dtype"].type
            if node.device:
                new.device = node.device
        else:
            new.CopyFrom(node)
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    logging.getLogger("tensorflow").info("Froze %d variables.", len(values))
    return out


NAMES = ("convert_variables_to_constants", "must_run_on_cpu")
