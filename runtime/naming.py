"""TF's node names, given while a graph is built: what `graph.as_graph_def()`, a TF1 graph's tensor names and
`get_operations()` show (`add`, `MatMul`, `sc/mul/y`, the user's `name="out"`). tinytf's IR keeps its own
names (identifiers the generated code uses); each node also carries `tf_name`, TF's name for it.

TF's rules, as its Python wrappers follow them:
- a node takes the user's `name=`, else its wrapper's default (`add` for `x + y`, `Add` for `tf.add`, `Sum`),
  under the current name scopes, made unique in its graph ignoring case (`Add` after `add` is `Add_1`);
- a Python value an op converts for one of its inputs is a constant named after that op and input
  (`add/y`, `sub/x`, `MatMul/b`, `a/y` for `tf.add(x, 1.0, name="a")`): such a constant is created unnamed and
  takes its name when its op is added; so does the read of a variable an op converts
  (`dense/MatMul/ReadVariableOp`), as TF reads it inside the op's name scope.

The engine knows no TF op names: the face installs the tables (`install`), keyed by the engine's op objects.
Nothing here runs on an eager op: names are given only while a graph is built."""

from __future__ import annotations

import contextlib
import functools
import inspect

from .context import state

# The stack of `tf.name_scope` names, innermost last (tinytf.scopes pushes and pops it).
scope_stack: list = []

# `name=` value of a public op function called without a name: TF names the node by its op type (`tf.add`
# gives `Add` where `x + y` gives `add`).
FUNCTION = "<the function's default>"
# `name=` of a constant made from a Python value converted for an op's input: the op names it (`add/y`).
CONVERTED = "<converted>"


class _Tables:
    """The face's naming rules, functions of an op: TF's default node name for it (as an operator or inside
    another wrapper), the default of its public function (`Add` for tf.add), the names of its inputs (for
    converted constants), and the constants TF makes for it before the op itself (a reduction's `Const`)."""

    default = staticmethod(lambda op: op.name)
    function = staticmethod(lambda op: None)
    inputs = staticmethod(lambda op: None)
    helpers = staticmethod(lambda graph, op, attrs: None)
    converted = staticmethod(lambda op: None)


tables = _Tables()


def install(default, function, inputs, helpers, converted=None) -> None:
    """`converted(op)`: the name a node of `op` made to convert an op's input takes under that op, when it is
    not the input's role (a variable's read is `MatMul/ReadVariableOp`, not `MatMul/b`); None: the role."""
    tables.default, tables.function = staticmethod(default), staticmethod(function)
    tables.inputs, tables.helpers = staticmethod(inputs), staticmethod(helpers)
    if converted is not None:
        tables.converted = staticmethod(converted)


def current_scope() -> str:
    """`outer/inner/`: the prefix of the names of the nodes built now."""
    return "".join(f"{name}/" for name in scope_stack)


def enter_scope(graph, name: str) -> list:
    """TF's `graph.name_scope(name)`: push `name` onto the scopes and return the stack to restore on exit. In a
    graph, the scope is made unique like a node name (a second `sc` is `sc_1`, whose nodes are `sc_1/...`); a
    name ending in "/" is the whole scope, as in TF (`w/Initializer/`); "" leaves the scopes as they are."""
    saved = list(scope_stack)
    if name.endswith("/"):
        scope_stack[:] = [name[:-1]] if name[:-1] else []
    elif name:
        prefix = current_scope()
        tf_scope = getattr(graph, "tf_scope", None)
        scope_stack.append(name if tf_scope is None else tf_scope(prefix + name)[len(prefix):])
    return saved


def exit_scope(saved: list) -> None:
    scope_stack[:] = saved


@contextlib.contextmanager
def op_scope(graph, name, default: str):
    """TF's `with ops.name_scope(name, default_name)` inside an op wrapper that builds several nodes, while
    `graph` is built: the nodes go under the (unique) scope, whose name, with a trailing "/", the wrapper gives
    its final node (`random_normal` is the AddV2, `random_normal/mul` the Mul before it)."""
    saved = enter_scope(graph, name if name else default)
    try:
        yield current_scope()
    finally:
        exit_scope(saved)


def composite(default: str, result_named: bool = False):
    """Decorate the public function of a wrapper that builds several nodes (gelu, moments, l2_normalize, ...):
    in a graph its nodes go under TF's name scope, its `name=` or `default` made unique (`Gelu/mul`,
    `l2_normalize_1/Sum`); with `result_named`, its result is named as the scope itself, as TF's
    `l2_normalize:0` or `clip_by_norm:0`. The decorated function is called with name=None (its nodes take
    the scope's names). Eagerly nothing changes: one check of the graph being built."""
    def decorate(fn):
        position = list(inspect.signature(fn).parameters).index("name")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            graph = state.graph
            if graph is None:
                return fn(*args, **kwargs)
            if len(args) > position:
                name, args = args[position], (*args[:position], None, *args[position + 1:])
            else:
                name = kwargs.pop("name", None)
            with op_scope(graph, name, default) as scope:
                result = fn(*args, **kwargs)
                if result_named:
                    _name_result(graph, result, scope)
            return result

        return wrapper

    return decorate


def _name_result(graph, result, scope: str) -> None:
    """Give the node computing `result`, if built in `scope`, the scope's own name."""
    node = getattr(result, "node", None)
    if node is not None and node.graph is graph and (node.tf_name or "").startswith(scope):
        graph.rename_node(node, graph.tf_claim(scope[:-1]))


def node_name(graph, op, name):
    """TF's unique name for a node of `op` added to `graph` with `name=` `name` (None: the default)."""
    if name is None:
        base = tables.default(op)
    elif name is FUNCTION:
        base = tables.function(op) or tables.default(op)
    elif name.endswith("/"):  # TF's convention: a name ending in "/" is whole, not under the current scope,
        return graph.tf_claim(name[:-1])  # nor made unique (it names the op after the scope it built)
    else:
        base = name
    return graph.tf_unique(current_scope() + base)


def input_role(node, index: int) -> str:
    """TF's name of input `index` of `node` (`x`, `y`; `a`, `b` for MatMul), which names a constant converted
    for it."""
    names = tables.inputs(node.op)
    if callable(names):
        names = names(node)
    if names is not None and index < len(names) and names[index] is not None:
        return names[index]
    return ("x", "y")[index] if index < 2 else f"input_{index}"


def claim_converted(node) -> None:
    """Name the unnamed constants among `node`'s inputs (Python values converted for it) `<node>/<input>`; a
    variable read converted before it that it does not take (`tf.convert_to_tensor(v)`) takes its own name."""
    graph = node.graph
    for earlier in reversed(graph.nodes):  # the nodes converted since the last named one
        if earlier.tf_name is not None:
            break
        if id(earlier) not in map(id, (getattr(t, "node", None) for t in node.inputs)):
            _name_unclaimed(graph, earlier)
    for i, tensor in enumerate(node.inputs):
        source = getattr(tensor, "node", None)
        if source is not None and source.tf_name is None and source.graph is graph:
            role = tables.converted(source.op) or input_role(node, i)
            graph.name_node(source, graph.tf_unique(f"{node.tf_name}/{role}"))


def helper_names(graph, op, attrs):
    """Names TF gives the constants it makes for an op before the op itself (a reduction's `Const` axis)."""
    return tables.helpers(graph, op, attrs)


def _name_unclaimed(graph, node) -> None:
    own = tables.converted(node.op)
    if own is not None and node.tf_name is None:
        graph.name_node(node, graph.tf_unique(current_scope() + own))


def name_unclaimed(graph) -> None:
    """Give the variable reads no op took their own name (`ReadVariableOp`): a function's output `return v`,
    converted after its last op (called by the views that show TF's names)."""
    for node in graph.nodes:
        _name_unclaimed(graph, node)
