"""The logical expressions converter: `a and b`, `a or b` become lazy calls (the right side is a lambda,
run only when needed, as a cond on tensors), `not a` a call that is logical_not on tensors, and chained
comparisons (`a < b < c`) a call that evaluates each operand once and joins the comparisons with the lazy
`and`, as TF converts them."""

from __future__ import annotations

import gast

from . import templates


class LogicalConverter(gast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        helper = "and_" if isinstance(node.op, gast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_expr(f"ag__.{helper}(lambda: a, lambda: b)", origin=node, a=value, b=result)
        return result

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        operators = templates.tuple_of([templates.constant(type(op).__name__) for op in node.ops])
        operands = templates.tuple_of([gast.Lambda(args=_no_arguments(), body=value)
                                       for value in [node.left, *node.comparators]])
        return templates.replace_expr("ag__.compare_chain(operators, operands)", origin=node, operators=operators,
                                      operands=operands)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return templates.replace_expr("ag__.not_(a)", origin=node, a=node.operand)


def _no_arguments():
    return gast.arguments(args=[], posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                          defaults=[])
