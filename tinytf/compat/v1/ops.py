"""TF1 operations as values: `tf.group` returns an Operation that a Session can run."""

from __future__ import annotations

from tinytf.runtime.context import state
from tinytf.runtime.graph import Node
from tinytf.runtime.ops.group import no_op

from .default_session import run_in_default


class Operation:
    """An op of a TF1 graph as TF shows it: TF's name and type (`Sum`, `add_1`), its inputs and outputs;
    fetching it runs it for its effects (`sess.run(train_op)` returns None)."""

    def __init__(self, node: Node, variable=None):
        self._v1_node = node
        self._v1_variable = variable  # an assignment's variable: fetching the op gives its new value

    @property
    def name(self) -> str:
        node = self._v1_node
        return getattr(node.graph, "tf_names", {}).get(id(node)) or node.tf_name or node.name

    @property
    def graph(self):
        return self._v1_node.graph

    @property
    def type(self) -> str:
        from .tf_names import tf_type

        node = self._v1_node
        if node.outputs and node.outputs[0].dtype.name == "resource" and hasattr(node.graph, "collections"):
            return "VarHandleOp"  # a TF1 graph's variable (a function's captured variable is a Placeholder)
        return tf_type(node.op)

    @property
    def outputs(self) -> list:
        return list(self._v1_node.outputs)

    @property
    def inputs(self) -> list:
        return [t for t in self._v1_node.inputs if hasattr(t, "node")]

    @property
    def control_inputs(self) -> list:
        return [Operation(n) for n in self._v1_node.control_inputs]

    def __eq__(self, other):
        return isinstance(other, Operation) and other._v1_node is self._v1_node

    def __hash__(self):
        return id(self._v1_node)

    def run(self, feed_dict=None, session=None):
        return run_in_default(self, feed_dict, session, "execute operation")

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def last_op(graph) -> Node:
    """The node the latest op call added (assign and friends return their variable, not the op)."""
    return graph.nodes[-1]


def group(*inputs, name=None) -> Operation:
    """One op that runs all of `inputs` (Operations, nodes or tensors) when fetched; it goes into their
    graph (or the graph being built when there are none)."""
    targets = [getattr(item, "_v1_node", None) or (item if isinstance(item, Node) else item.node) for item in inputs]
    graph = targets[0].graph if targets else state.graph
    if graph is None:
        raise RuntimeError("tf.group of nothing needs a graph: build it inside `graph.as_default()`")
    node = graph.add_node(no_op, (), {}, [], name=name or "group_deps")
    node.control_inputs.extend(targets)
    return Operation(node)
