"""The debug stripper (Grappler's `debug_stripper`, off by default as in TF): a graph without its checks.
check_numerics passes its input through, and Assert and tf.print nodes go, with the control dependencies on
them (set_nodes drops those), so a program switched to it runs its arithmetic only."""

from __future__ import annotations

from ..graph import Graph
from ..ops.check_numerics import check_numerics_op
from ..ops.debugging import assert_op
from ..ops.io import print_op
from .driver import rewrite_graph

_DROPPED = (assert_op, print_op)


def strip_debug_ops(graph: Graph) -> Graph:
    def rule_for(graph):
        def strip(node, nodes):
            if node.op is check_numerics_op:
                return [node.inputs[0]]
            if node.op in _DROPPED and not node.outputs:
                return []
            return None

        return strip

    return rewrite_graph(graph, rule_for)
