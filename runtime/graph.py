"""The graph IR: an ordered SSA list of nodes, typed placeholders in, explicit outputs out.

Nested graphs (branches of `cond`, body of `while_loop`) are closed: any value from an enclosing graph
that they use is captured as one of their own placeholders, and the node that holds them takes the outer
value as an explicit input. So every graph can be checked, optimized and printed on its own.
"""

from __future__ import annotations

import weakref
from typing import Optional

from . import dtypes, effects, naming
from .dot import graph_to_dot, render
from .errors import InaccessibleTensorError, Location
from .ops.core import placeholder_op
from .printer import graph_to_text
from .shapes import fmt
from .tensor import EagerTensor, Tensor

CONVERTED, FUNCTION = naming.CONVERTED, naming.FUNCTION

RESOURCE = dtypes.resource  # the dtype of variable handles captured by a graph (tf.resource)


def ir_identifier(text: str) -> str:
    """A TF node name as an identifier for tinytf's IR (the generated code names values after nodes)."""
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in text)
    return name if name and not name[0].isdigit() else "_" + name


class SymbolicTensor(Tensor):
    """An output of a graph node: known dtype and (partial) shape, no value."""

    __slots__ = ("node", "index", "dtype", "_shape", "__weakref__")

    def __init__(self, node: Node, index: int, dtype, shape):
        self.node = node
        self.index = index
        self.dtype = dtype
        self._shape = shape

    @property
    def graph(self) -> Graph:
        return self.node.graph

    @property
    def name(self) -> str:
        """TF's name of the tensor (`sc/mul:0`, the user's `name=`), as TF shows it while tracing; a node
        without one (made by a pass) shows tinytf's IR name."""
        node = self.node
        return f"{node.tf_name or node.name}:{self.index}"

    @property
    def op(self):
        return self.node

    def numpy(self):
        # AttributeError, as TF's graph tensors have no numpy method (its guides catch exactly that)
        raise AttributeError(
            f"'SymbolicTensor' object has no attribute 'numpy': tensor {self.name} is symbolic, it has no value "
            "while the function is being traced. Use tf.print to print it at run time, or return it from the "
            "function.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            f"Cannot convert the symbolic tensor {self.name} to a numpy array: it has no value while "
            "tracing. Use tinytf ops instead of numpy functions inside @tf.function.")

    def __len__(self):
        shape = self._shape
        if shape is None or not shape or shape[0] is None:
            raise TypeError(
                f"len() is not defined for the symbolic tensor {self.name} of shape {fmt(shape)}: "
                "use tf.shape(x)[0] instead.")
        return shape[0]

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={fmt(self._shape)} dtype={self.dtype.name}>"

    def __str__(self):  # what print() shows while tracing, as TF
        return f'Tensor("{self.name}", shape={fmt(self._shape)}, dtype={self.dtype.name})'


class Node:
    """One operation in a graph: op, inputs, attrs, typed outputs, control inputs, user location."""

    # __weakref__: the builder's side-effect chain (effects.py) refers to a graph's latest stateful node weakly
    # tf_name: TF's name of the node (runtime/naming.py), None until given; tf_helpers: the names TF gives the
    # constants it makes for the node outside it (a reduction's `Const` axis), or None
    __slots__ = ("graph", "name", "op", "inputs", "attrs", "outputs", "control_inputs", "location", "tf_name",
                 "tf_helpers", "__weakref__")

    def __init__(self, graph, name, op, inputs, attrs, location: Optional[Location]):
        self.graph = graph
        self.name = name
        self.op = op
        self.inputs = list(inputs)
        self.attrs = attrs
        self.outputs = []
        self.control_inputs = []
        self.location = location
        self.tf_name = None
        self.tf_helpers = None

    @property
    def type(self) -> str:
        return self.op.name

    def subgraph_items(self) -> list:
        """(attribute name, graph) for each graph this node holds: cond's branches, a loop's body."""
        return [(k, v) for k, v in self.attrs.items() if isinstance(v, Graph)]

    def __repr__(self):
        return f"<Node {self.name} = {self.op.name}>"


def subgraphs(node: Node) -> list:
    """The graphs held by a node's attributes: the one helper every pass and printer recurses through."""
    return [v for v in node.attrs.values() if isinstance(v, Graph)]  # (Node.subgraph_items, without keys)


def is_stateful(node: Node) -> bool:
    """A node has side effects if its op does or if any node of its subgraphs does."""
    if node.op.stateful:
        return True
    return any(is_stateful(n) for g in subgraphs(node) for n in g.nodes)


class Capture:
    """An outside value a graph uses, bound to one of its placeholders. Resources (variables) are held
    weakly: a graph must not keep a variable alive after the user dropped it."""

    __slots__ = ("_outer", "placeholder", "kind")

    def __init__(self, outer, placeholder, kind: str):
        self.kind = kind  # "tensor" | "constant" | "resource" | "argument"
        self._outer = weakref.ref(outer) if kind in ("resource", "argument") else outer
        self.placeholder = placeholder

    def rebound(self, placeholder) -> Capture:
        """The same capture for another placeholder (used when graphs are copied)."""
        copy = Capture.__new__(Capture)
        copy.kind, copy._outer, copy.placeholder = self.kind, self._outer, placeholder
        return copy

    @property
    def outer(self):
        """The outer SymbolicTensor, EagerTensor, or variable (None if that variable was deleted)."""
        return self._outer() if self.kind in ("resource", "argument") else self._outer


class Graph:
    """An ordered SSA list of nodes with typed placeholders (`inputs`) and explicit `outputs`."""

    def __init__(self, name: str = "graph", parent: Optional[Graph] = None):
        self.name = name
        self.parent = parent
        self.nodes: list = []
        self.inputs: list = []  # placeholders: the function's arguments first, then captures
        self.outputs: list = []
        self.captures: dict = {}  # id(outer) -> Capture
        self._names = parent._names if parent is not None else {}
        self._tf_used: dict = {}  # lowercased TF names in use -> next suffix (each graph, as each TF FuncGraph)
        self._tf_scopes: set = set()  # lowercased name scopes opened and not yet the name of a node

    # --- naming -------------------------------------------------------------------------------
    def unique_name(self, base: str) -> str:
        count = self._names.get(base)
        if count is None:
            self._names[base] = 1
            return base
        while True:
            name = f"{base}_{count}"
            count += 1
            if name not in self._names:
                self._names[base] = count
                self._names[name] = 1
                return name

    def tf_unique(self, name: str) -> str:
        """TF's unique_name: `name`, else `name_1`, `name_2`, ..., compared without case (so `Add` after `add`
        and `add_1` is `Add_2`, as TF names it)."""
        key = name.lower()
        count = self._tf_used.get(key)
        if count is None:
            self._tf_used[key] = 1
            return name
        while f"{key}_{count}" in self._tf_used:
            count += 1
        self._tf_used[key] = count + 1
        self._tf_used[f"{key}_{count}"] = 1
        return f"{name}_{count}"

    def tf_scope(self, name: str) -> str:
        """TF's name scope `name` in this graph: made unique like a node name, and kept for the op that its
        wrapper names after it (`tf_claim`)."""
        unique = self.tf_unique(name)
        self._tf_scopes.add(unique.lower())
        return unique

    def tf_claim(self, name: str) -> str:
        """The node name for TF's `name=".../"` (whole, not under the current scope): the scope's own name once,
        as TF names a wrapper's final op after the scope it opened (`random_normal`), else made unique."""
        key = name.lower()
        if key in self._tf_scopes:
            self._tf_scopes.discard(key)
            return name
        return self.tf_unique(name)

    def rename_node(self, node: Node, tf_name: str) -> None:
        """Give `node` another TF name (a composite wrapper's result takes its scope's name)."""
        node.tf_name = tf_name

    def name_node(self, node: Node, tf_name: str) -> None:
        """Give `node` TF's name `tf_name` (already unique); a TF1 graph also indexes it by that name."""
        node.tf_name = tf_name

    def _ir_base(self, name, op, tf_name: Optional[str]) -> str:
        """The IR name a node starts from: the user's name as an identifier, else the op's own name."""
        if isinstance(name, str) and name is not FUNCTION and name is not CONVERTED:
            return ir_identifier(name.rstrip("/").rpartition("/")[2])
        return op.name

    # --- building -----------------------------------------------------------------------------
    def add_node(self, op, inputs, attrs, specs, location=None, name: Optional[str] = None) -> Node:
        """Append a node of `op`. `name` is TF's `name=` (None: TF's default name for the op; naming.FUNCTION:
        the default of a public function such as tf.add); a constant built with name=naming.CONVERTED is named
        by the op that takes it (`add/y`)."""
        helpers = naming.helper_names(self, op, attrs)
        tf_name = None if name is CONVERTED else naming.node_name(self, op, name)
        node = Node(self, self.unique_name(self._ir_base(name, op, tf_name)), op, inputs, attrs, location)
        node.outputs = [SymbolicTensor(node, i, dtype, shape) for i, (dtype, shape) in enumerate(specs)]
        node.tf_helpers = helpers
        if tf_name is not None:
            self.name_node(node, tf_name)
            naming.claim_converted(node)
        if is_stateful(node):
            effects.chain(self, node)  # side effects run in program order
        self.nodes.append(node)
        return node

    def placeholder(self, dtype, shape, name: str = "arg") -> SymbolicTensor:
        node = Node(self, self.unique_name(name), placeholder_op, (), {"dtype": dtype, "shape": shape}, None)
        tensor = SymbolicTensor(node, 0, dtype, shape)
        node.outputs = [tensor]
        self.name_node(node, self.tf_unique(naming.current_scope() + name))
        self.inputs.append(tensor)
        return tensor

    def capture(self, value, name: Optional[str] = None) -> SymbolicTensor:
        """The placeholder standing for an outside value (tensor of an enclosing graph, eager tensor, or
        resource) in this graph; the same outside value always maps to the same placeholder."""
        if isinstance(value, SymbolicTensor):
            owner = value.graph
            if owner is self:
                return value
            if not self._is_descendant_of(owner):
                raise InaccessibleTensorError(
                    f"The tensor {value.name} cannot be accessed here: it was defined in another function "
                    "or code block (for example a tf.function that has already been traced, or a branch "
                    "of tf.cond). Return it from that function or block to use it here.")
            if owner is not self.parent:
                value = self.parent.capture(value)
        found = self.captures.get(id(value))
        if found is not None:
            return found.placeholder
        if isinstance(value, SymbolicTensor):
            kind, dtype, shape, default = "tensor", value.dtype, value._shape, value.node.name
        elif isinstance(value, EagerTensor):
            kind, dtype, shape, default = "constant", value.dtype, value._shape, "captured"
        else:
            kind, dtype, shape, default = "resource", RESOURCE, (), getattr(value, "_graph_name", "resource")
        placeholder = self.placeholder(dtype, shape, name or default)
        self.captures[id(value)] = Capture(value, placeholder, kind)
        return placeholder

    def _is_descendant_of(self, other: Graph) -> bool:
        graph = self.parent
        while graph is not None:
            if graph is other:
                return True
            graph = graph.parent
        return False

    def walk(self):
        """Every node of this graph and of the graphs nested in it, in order."""
        for node in self.nodes:
            yield node
            for sub in subgraphs(node):
                yield from sub.walk()

    def op_types(self) -> list:
        return [node.op.name for node in self.walk()]

    def __str__(self):
        return graph_to_text(self)

    # --- pictures (runtime/dot.py) -------------------------------------------------------------
    def to_dot(self) -> str:
        """Graphviz DOT text: nodes, typed edges, cond/while bodies as clusters, user lines as tooltips."""
        return graph_to_dot(self)

    def to_svg(self, path):
        """Write an SVG picture through Graphviz's `dot` (hover a node for the line that created it)."""
        return render(self, path, "svg")

    def to_png(self, path):
        return render(self, path, "png")

    def __repr__(self):
        return f"<Graph {self.name}: {len(self.nodes)} nodes>"
