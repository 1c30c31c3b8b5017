"""TF1's whole-graph checks: `add_check_numerics_ops` (a check_numerics on every floating output of the graph
built so far, grouped into one op) and `assert_variables_initialized` (the variables' ranks: TF 2.21's op, which
with resource variables never reads them, so it does not fail on an uninitialized one; use
report_uninitialized_variables for that)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.context import state
from tinytf.runtime.ops.array import rank, stack
from tinytf.runtime.ops.check_numerics import check_numerics, check_numerics_op

from ...constant import constant
from ...control_dependencies import control_dependencies
from .graph import get_default_graph
from .ops import group
from .variables import get_collection, global_variables

_FLOATING = ("float16", "bfloat16", "float32", "float64")


def add_check_numerics_ops():
    """`tf.compat.v1.add_check_numerics_ops`: one op that checks every float output built so far for NaN and Inf
    (InvalidArgumentError naming the op's output when run)."""
    if state.graph is None:
        raise RuntimeError("add_check_numerics_ops() is not compatible with eager execution. To check for Inf's "
                           "and NaN's under eager execution, call tf.debugging.enable_check_numerics() once before "
                           "executing the checked operations.")
    graph = get_default_graph()
    checks = []
    for op in graph.get_operations():
        node = op._v1_node
        if node.subgraph_items():
            raise ValueError(f"add_check_numerics_ops() is not compatible with TensorFlow control flow operations "
                             f"such as `tf.cond()` or `tf.while_loop()` (found {op.name})")
        if node.op is check_numerics_op:  # a check already: TF's loop adds none on its output either
            continue
        for index, output in enumerate(op.outputs):
            if output.dtype.name in _FLOATING:
                message = f"{op.name}:{index}"
                if checks:
                    with control_dependencies([checks[-1]]):
                        checks.append(check_numerics(output, message))
                else:
                    checks.append(check_numerics(output, message))
    return group(*checks)


def assert_variables_initialized(var_list=None):
    """`tf.compat.v1.assert_variables_initialized`: the ranks of the variables (global and local by default), as
    TF 2.21 computes them for resource variables (from their shapes, without reading them); None when there are
    none."""
    if var_list is None:
        var_list = global_variables() + get_collection("local_variables")
    if not var_list:
        return None
    ranks = [rank(variable) if variable.shape.rank is None else constant(np.int32(variable.shape.rank))
             for variable in var_list]
    return ranks[0] if len(ranks) == 1 else stack(ranks)


__all__ = ["add_check_numerics_ops", "assert_variables_initialized"]
