"""TF's node names for tinytf's ops, installed into the engine's namer (runtime/naming.py) so that every graph
built, a tf.function's or a TF1 graph, names its nodes as TF's Python API does: the default node name of an
op (`add` for `x + y`, `Sum` for reduce_sum, `truediv` for `x / y`), the default of the public functions
that differ (`Add` for tf.add), the names of the inputs a converted Python value takes (`add/y`, `MatMul/b`),
and the `Const` TF makes before a reduction over all axes. Types come from the shared GraphDef table
(op_names.py, its first TF op per tinytf op); the lowercase names are TF's Python API's."""

from __future__ import annotations

from tinytf.runtime import naming
from tinytf.runtime.ops.state import read_variable_op

from .op_names import TABLE
from .rules_more import _SAME_T

_TYPES: dict = {}
for _entry in TABLE:
    if _entry.tinytf:
        _TYPES.setdefault(_entry.tinytf, _entry.tf)
# Ops the export writes by a rule of their own (rules_more.py) rather than through the table: their TF types.
_TYPES.update({"var_is_initialized": "VarIsInitializedOp",
               "random_uniform": "RandomUniform", "random_standard_normal": "RandomStandardNormal",
               "truncated_normal": "TruncatedNormal", "random_uniform_int": "RandomUniformInt",
               "random_shuffle": "RandomShuffle"})
for _name, _tf_op in _SAME_T.items():  # the unary and binary ops written by one rule (`Erfc` for tf.math.erfc)
    _TYPES.setdefault(_name, _tf_op)

# Node names TF's Python wrappers choose that differ from the op type (math_ops' operator overloads, and the
# array ops whose wrapper passes its own name).
_WRAPPER_NAMES = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv", "floordiv": "floordiv",
    "floormod": "mod", "pow": "pow", "transpose": "transpose", "concat": "concat", "stack": "stack",
    "unstack": "unstack", "strided_slice": "strided_slice", "cond": "cond", "while_loop": "while",
    "no_op": "NoOp", "select": "SelectV2", "clip_by_value": "clip_by_value", "one_hot": "one_hot",
}

# The public functions whose default differs from the operator's: tf.add(x, y) is `Add`, x + y is `add`.
_FUNCTION_NAMES = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "pow": "Pow", "floormod": "FloorMod"}

def _loop_inputs(node):
    """A loop's inputs: its variables (converted before it, named `Const`), then its limit, if any."""
    n_vars = node.attrs["n_vars"]
    return [None] * n_vars + ["maximum_iterations"] if node.attrs["has_max"] else None


# TF's names of op inputs that a converted Python value is named after (default: x, y), or a function of the
# node giving them.
_INPUT_NAMES = {"matmul": ("a", "b"), "batch_matmul": ("a", "b"), "reshape": ("tensor", "shape"),
                "while_loop": _loop_inputs}

# Reductions: over all axes TF computes the axes as a `Const` before the op and outside its name scope.
_REDUCTIONS = {"reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min", "reduce_any", "reduce_all"}


def tf_type(op) -> str:
    """The NodeDef op TF writes for tinytf op `op` (tinytf's own name when TF has no counterpart)."""
    return _TYPES.get(op.name, op.name)


def default_node_name(op) -> str:
    """The node name TF gives an op built without `name=` (before TF makes it unique in the graph)."""
    return _WRAPPER_NAMES.get(op.name) or _TYPES.get(op.name, op.name)


def _function_name(op):
    return _FUNCTION_NAMES.get(op.name)


def _input_names(op):
    return _INPUT_NAMES.get(op.name)


def _helpers(graph, op, attrs):
    if op.name in _REDUCTIONS and attrs.get("axis", 0) is None:
        return {"reduction_indices": graph.tf_unique(naming.current_scope() + "Const")}
    return None


def _converted_name(op):
    """A variable read for an op's input is `<op>/ReadVariableOp`, as TF reads it inside the op's scope."""
    return "ReadVariableOp" if op is read_variable_op else None


naming.install(default_node_name, _function_name, _input_names, _helpers, _converted_name)
