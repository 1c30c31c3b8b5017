"""TF1 graphs: `tf.compat.v1.Graph` collects ops built while it is the default (`as_default()`), with
placeholders as its inputs; nothing runs until a Session runs it. Unlike a tf.function's graph, a TF1 graph
adds no automatic control dependencies between stateful ops: TF1 runs only what a fetch needs."""

from __future__ import annotations

import contextlib
import re
import threading
import weakref

from tinytf.runtime import dtypes, effects, naming, shapes
from tinytf.runtime.context import building, state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.graph import Graph as _IRGraph
from tinytf.runtime.graph import Node, SymbolicTensor
from tinytf.runtime.ops.core import const_op, placeholder_op
from tinytf.runtime.ops.random import seed_of

from ...scopes import init_scope
from . import tf_names
from .default_session import run_in_default
from .graph_variable import collect_variable, finish_variable, start_variable
from .ops import Operation


class GraphTensor(SymbolicTensor):
    """A tensor of a TF1 graph: hashable and compared by identity, as TF1 code needs (`feed_dict={x: ...}`),
    where tf.function's symbolic tensors, like eager ones, are unhashable."""

    __slots__ = ()

    __hash__ = object.__hash__  # identity, computed in C: Session.run's fast entries are keyed by tensors

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    @property
    def name(self) -> str:
        """TF's name of this tensor (`add_1:0`, `layer/MatMul:0`), as TF1 programs print and look it up."""
        node = self.node
        return f"{node.graph.tf_names.get(id(node), node.name)}:{self.index}"

    @property
    def op(self):
        """The operation computing this tensor, with TF's name and type (`Sum`, not tinytf's reduce_sum)."""
        return Operation(self.node)

    def eval(self, feed_dict=None, session=None):
        """`tensor.eval()`: run this tensor in `session`, or in the default session (`with sess.as_default()`,
        an InteractiveSession, or the session of an enclosing `with Session(...)` block)."""
        return run_in_default(self, feed_dict, session, "evaluate tensor")


class Graph(_IRGraph):
    """A TF1 graph (the same IR a tf.function traces into)."""

    identity_outputs = True  # cond and while_loop results pass Identity ops, as TF names them (`cond/Identity`)
    inherits_global_seed = False  # its random ops are unseeded until set_random_seed inside it, as in TF

    def __init__(self):
        super().__init__("graph")
        self.version = 0  # bumped per node, so sessions know when their compiled runs are stale
        self._by_name: dict = {}  # "name:0" -> tensor
        self.defaults: dict = {}  # id(placeholder) -> the eager tensor it takes when not fed
        self.collections: dict = {}  # TF1 collections: "variables" -> the variables created in this graph
        self.tf_names: dict = {}  # id(node) -> TF's node name ("add_1", "scope/MatMul"); the IR keeps its own
        self._ops_by_name: dict = {}  # TF node name -> node
        self._created: list = []  # every node in creation order (placeholders too), as get_operations lists them
        self.unimported: dict = {}  # TF node name -> why import_graph_def could not give it a value
        self.sessions = weakref.WeakSet()  # open sessions, whose fast entries go stale when the graph grows
        # tf.control_dependencies scopes open on this graph, innermost last: each a list of nodes, or None for
        # control_dependencies(None), which hides the scopes outside it (tinytf/control_dependencies.py)
        self.control_scopes: list = []

    @property
    def seed(self):
        """TF's `graph.seed`: None until `tf.compat.v1.set_random_seed` inside the graph sets it."""
        return seed_of(self)

    def add_node(self, op, inputs, attrs, specs, location=None, name=None):
        self._check_not_finalized()
        effects.restart(self)  # no automatic ordering of side effects: each op runs when fetched
        node = super().add_node(op, inputs, attrs, specs, location, name)
        for tensor in node.outputs:  # also a converted constant's, before its op names it
            tensor.__class__ = GraphTensor
        for control in self.active_control_inputs():  # a session runs these first when it runs `node`
            if control is not node and control not in node.control_inputs:
                node.control_inputs.append(control)
        self._created.append(node)
        return node

    def active_control_inputs(self) -> list:
        """The nodes of the open control_dependencies scopes, up to the innermost control_dependencies(None)."""
        found = []
        for scope in reversed(self.control_scopes):
            if scope is None:
                break
            found.extend(scope)
        return found

    def _ir_base(self, name, op, tf_name):
        """A TF1 graph's IR names follow TF's names (its generated code reads like the graph TF shows)."""
        return tf_names.ir_name(tf_name) if tf_name is not None else super()._ir_base(name, op, tf_name)

    def placeholder(self, dtype, shape, name="Placeholder"):
        """A graph input named `name` under the current name scope; `name` may hold scopes itself
        (`scope/w`, a get_variable's handle), which the IR name leaves out."""
        self._check_not_finalized()
        node = Node(self, self.unique_name(tf_names.ir_name(name.rpartition("/")[2])), placeholder_op, (),
                    {"dtype": dtype, "shape": shape}, None)
        tensor = SymbolicTensor(node, 0, dtype, shape)
        node.outputs = [tensor]
        self.name_node(node, self.tf_unique(naming.current_scope() + name))
        self.inputs.append(tensor)
        self._created.append(node)
        return tensor

    def move_to_end(self, node) -> None:
        """List `node` as the latest op created (a variable's handle goes after its initial value, as in TF)."""
        self._created.remove(node)
        self._created.append(node)

    # Variables created while this graph is the default call these (tinytf/variables.py): their initial value
    # is a tensor of this graph, assigned by their initializer when a session runs it (graph_variable.py).
    def start_variable(self, variable, initial_value, dtype, name):
        return start_variable(self, variable, initial_value, dtype, name)

    def finish_variable(self, variable, initial_value) -> None:
        finish_variable(self, variable, initial_value)

    def name_node(self, node, tf_name):
        super().name_node(node, tf_name)
        self.version += 1
        for session in self.sessions:
            session.clear_fast()
        self.tf_names[id(node)] = tf_name
        self._ops_by_name[tf_name] = node
        for tensor in node.outputs:
            tensor.__class__ = GraphTensor
            self._by_name[f"{tf_name}:{tensor.index}"] = tensor

    def rename_node(self, node, tf_name):
        old = self.tf_names.get(id(node))
        self._ops_by_name.pop(old, None)
        for tensor in node.outputs:
            self._by_name.pop(f"{old}:{tensor.index}", None)
        self.name_node(node, tf_name)

    @contextlib.contextmanager
    def as_default(self):
        """Build ops into this graph inside the block (variables created there join its collection)."""
        added = collect_variable not in state.variable_hooks  # nested blocks: one hook, or variables join twice
        if added:
            state.variable_hooks.append(collect_variable)
        try:
            with building(self):
                yield self
        finally:
            if added:
                state.variable_hooks.remove(collect_variable)

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        try:
            return self._by_name[name]
        except KeyError:
            self._check_imported(name.rpartition(":")[0])
            hint = "" if ":" in name else " (tensor names end in ':<output index>', e.g. 'x:0')"
            raise KeyError(f"The name '{name}' refers to a Tensor which does not exist{hint}.") from None

    def get_operation_by_name(self, name: str):
        node = self._ops_by_name.get(name)
        if node is None:
            self._check_imported(name)
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")
        return Operation(node)

    def _check_imported(self, name: str) -> None:
        if name in self.unimported:
            raise ValueError(f"{name!r} was imported without a value: {self.unimported[name]}")

    # TF1's collections, as methods of the graph (tf.compat.v1.get_collection reads the default graph's)
    def get_collection(self, name, scope=None) -> list:
        """The collection `name` (a copy), filtered to names that `scope` (a regex) matches at their start."""
        if name == "trainable_variables":
            items = [v for v in self.collections.get("variables", []) if v.trainable]
        else:
            items = list(self.collections.get(name, []))
        if scope is None:
            return items
        pattern = re.compile(scope)
        return [i for i in items if hasattr(i, "name") and pattern.match(i.name)]

    def get_collection_ref(self, name) -> list:
        return self.collections.setdefault(name, [])

    def add_to_collection(self, name, value) -> None:
        self.collections.setdefault(name, []).append(value)

    def get_all_collection_keys(self) -> list:
        return [key for key, items in self.collections.items() if items]

    def get_operations(self) -> list:
        """The graph's operations in creation order (placeholders included), with TF's names and types."""
        return [Operation(node) for node in self._created]

    finalized = False

    def finalize(self):
        """No more ops from now on (as MonitoredSession makes sure a training loop adds none by mistake):
        adding one raises RuntimeError."""
        self.finalized = True

    def _unsafe_unfinalize(self):
        self.finalized = False

    def _check_not_finalized(self):
        if self.finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")


class _Defaults(threading.local):
    def __init__(self):
        self.graph = None  # the process's default TF1 graph, created on first use


_defaults = _Defaults()


def get_default_graph() -> Graph:
    """The graph ops go to: the graph being built if it is a TF1 graph, else the default TF1 graph."""
    if isinstance(state.graph, Graph):
        return state.graph
    if _defaults.graph is None:
        _defaults.graph = Graph()
    return _defaults.graph


def reset_default_graph() -> None:
    if isinstance(state.graph, Graph):
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    _defaults.graph = None


def placeholder(dtype, shape=None, name=None) -> SymbolicTensor:
    """`tf.compat.v1.placeholder`: a value fed at `Session.run`; only while building a TF1 graph."""
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    if not isinstance(graph, Graph):
        raise RuntimeError("tf.placeholder() is not compatible with tf.function: make it an argument instead.")
    return graph.placeholder(dtypes.as_dtype(dtype), shapes.as_shape(shape), name or "Placeholder")


def placeholder_with_default(input, shape, name=None) -> SymbolicTensor:  # noqa: A002 - TF's name
    """A placeholder that takes `input`'s value when it is not fed (`input`: a value or a constant)."""
    if isinstance(input, SymbolicTensor):
        if input.node.op is not const_op:
            raise NotImplementedError("placeholder_with_default: the default must be a constant value; "
                                      f"{input.name} is computed by the graph")
        input = input.node.attrs["value"]
    with init_scope():
        default = convert_to_tensor(input)
    tensor = placeholder(default.dtype, shape, name or "PlaceholderWithDefault")
    tensor.graph.defaults[id(tensor)] = default
    return tensor
