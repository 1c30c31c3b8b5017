"""The directives converter: `tf.autograph.experimental.set_loop_options(...)` at the top level of a loop
body is removed from the body and becomes the options of that loop (shape invariants, iteration limit)."""

from __future__ import annotations

import gast

from . import templates
from .errors import conversion_error

_LOOP_OPTIONS = ("parallel_iterations", "swap_memory", "maximum_iterations", "shape_invariants")


def _bound_names(function) -> set:
    """Names the function binds itself (parameters, assignments, defs, imports): TF cannot resolve these while
    converting, so a call through them is no directive."""
    names = set()
    for node in gast.walk(function):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param, gast.Del)):
            names.add(node.id)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)) and node is not function:
            names.add(node.name)
        elif isinstance(node, gast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _static_value(expr, namespace, bound):
    """The object a dotted name (`tf.autograph.experimental.set_loop_options`) refers to while converting, or
    None when it cannot be known then (a local name, a call, a missing attribute)."""
    if isinstance(expr, gast.Name):
        if expr.id in bound or expr.id not in namespace:
            return None
        return namespace[expr.id]
    if isinstance(expr, gast.Attribute):
        base = _static_value(expr.value, namespace, bound)
        return None if base is None else getattr(base, expr.attr, None)
    return None


class DirectivesConverter(gast.NodeTransformer):
    """As TF's directives converter, a call is a directive only when its target resolves, while converting,
    through the function's globals and closure to set_loop_options itself: one reached through a parameter or
    a local name (or a user's own function of that name) is an ordinary call (the no-op, or the user's)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._bound = None

    def visit_FunctionDef(self, node):
        if self._bound is None:  # the converted function; nested defs share its (conservative) bound names
            self._bound = _bound_names(node)
        self.generic_visit(node)
        return node

    def _is_directive(self, stmt) -> bool:
        if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
            return False
        from .api import set_loop_options  # api imports the transpiler, which imports this module

        target = _static_value(stmt.value.func, self.ctx.namespace, self._bound or set())
        return target is not None and target is set_loop_options

    def _loop(self, node):
        self.generic_visit(node)
        directives = [s for s in node.body if self._is_directive(s)]
        if not directives:
            return node
        if len(directives) > 1:
            raise conversion_error(self.ctx, directives[1], "set_loop_options may be used only once per loop")
        call = directives[0].value
        if call.args:
            raise conversion_error(self.ctx, call, "set_loop_options takes keyword arguments only, e.g. "
                                   "set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])")
        for keyword in call.keywords:
            if keyword.arg not in _LOOP_OPTIONS:
                raise conversion_error(self.ctx, call, f"set_loop_options got an unknown option {keyword.arg!r}; "
                                       f"the options are {', '.join(_LOOP_OPTIONS)}")
        node.body = [s for s in node.body if s is not directives[0]] or [gast.Pass()]
        node.ag_loop_options = gast.Dict(keys=[templates.constant(k.arg) for k in call.keywords],
                                         values=[k.value for k in call.keywords])
        return node

    visit_While = _loop
    visit_For = _loop
