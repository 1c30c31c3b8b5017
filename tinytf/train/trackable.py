"""The object graph a checkpoint saves: which objects own which variables, by name. An object's children are
what `_checkpoint_children()` returns when it defines it, and otherwise its trackable attributes in the
order they were assigned; lists and tuples name their elements "0", "1", ...; dicts by key. Variables are the
leaves. Keys follow TensorFlow: the first breadth-first path of local names, with "." written ".." and "/"
written ".S", then "/.ATTRIBUTES/VARIABLE_VALUE"."""

from __future__ import annotations

from tensorboard.compat.proto import trackable_object_graph_pb2

from ..module import Module
from ..trackable_structures import DictWrapper, ListWrapper
from ..variables import Variable

VALUE_ATTRIBUTE = "VARIABLE_VALUE"
# An object that is not a variable but has state to save (a tf.data iterator) provides
# `_checkpoint_state() -> {attribute: numpy value}` and `_restore_checkpoint_state({attribute: value})`; its
# values are saved under "<path>/.ATTRIBUTES/<attribute>" (TF names an iterator's "ITERATOR_STATE"). A value that
# is a dict {suffix: numpy value} is saved as one tensor per suffix, "<path>/.ATTRIBUTES/<attribute><suffix>" (TF's
# lookup tables: "table-keys" and "table-values"); the object lists the suffixes of such attributes in
# `_checkpoint_tensor_suffixes = {attribute: (suffix, ...)}` so a restore knows which tensors to read.
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def is_trackable(value) -> bool:
    if isinstance(value, (Variable, Module, ListWrapper, DictWrapper)) or hasattr(value, "_checkpoint_children"):
        return True
    if isinstance(value, dict):
        return any(is_trackable(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(is_trackable(v) for v in value)
    return False


def children(obj) -> list:
    """(local name, child) pairs of a trackable object, in TF's order."""
    custom = getattr(obj, "_checkpoint_children", None)
    if custom is not None:
        items = list(custom())
    elif isinstance(obj, Variable):
        return []
    elif isinstance(obj, dict):
        items = [(str(k), v) for k, v in obj.items()]
    elif isinstance(obj, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(obj)]
    else:
        items = list(vars(obj).items())
    return [(name, value) for name, value in items if is_trackable(value)]


def escape(name: str) -> str:
    return name.replace(".", "..").replace("/", ".S")


def variable_key(path: list, attribute: str = VALUE_ATTRIBUTE) -> str:
    return "/".join(escape(name) for name in path) + f"/.ATTRIBUTES/{attribute}"


def walk(root):
    """Breadth first from `root`: a list of (object, path) with each object once (its first path), and the
    graph's edges as {index of object: [(local name, index of child)]}."""
    order, index_of, edges = [(root, [])], {id(root): 0}, {}
    position = 0
    while position < len(order):
        obj, path = order[position]
        edges[position] = []
        for name, child in children(obj):
            if id(child) not in index_of:
                index_of[id(child)] = len(order)
                order.append((child, path + [name]))
            edges[position].append((name, index_of[id(child)]))
        position += 1
    return order, edges


def _eager_value(variable):
    from ..scopes import init_scope

    with init_scope():  # an eager variable (a save counter) read while a TF1 graph is the default
        return variable.numpy()


def serialize(root) -> tuple[bytes, dict]:
    """The TrackableObjectGraph proto of `root` and the tensors to save (checkpoint key -> numpy value)."""
    order, edges = walk(root)
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    tensors = {}
    for position, (obj, path) in enumerate(order):
        node = graph.nodes.add()
        for name, child in edges[position]:
            node.children.add(node_id=child, local_name=name)
        if isinstance(obj, Variable):
            key = variable_key(path)
            node.attributes.add(name=VALUE_ATTRIBUTE, full_name=obj.name.removesuffix(":0"), checkpoint_key=key)
            # a TF1 graph variable's value is the default Session's (graph_variable.py)
            tensors[key] = obj._checkpoint_read() if hasattr(obj, "_checkpoint_read") else _eager_value(obj)
        elif hasattr(obj, "_checkpoint_state"):
            for attribute, value in obj._checkpoint_state().items():
                key = variable_key(path, attribute)
                node.attributes.add(name=attribute, full_name=attribute, checkpoint_key=key)
                if isinstance(value, dict):  # one attribute saved as several tensors (a table's "-keys", "-values")
                    tensors.update({key + suffix: part for suffix, part in value.items()})
                else:
                    tensors[key] = value
    # A node has values if any node below it does. Objects reachable by several paths (a Keras model's
    # weights are also the optimizer's `_trainable_variables`) may sit before their parent in breadth-first
    # order, so propagate until nothing changes rather than in one backwards pass.
    changed = True
    while changed:
        changed = False
        for node in reversed(graph.nodes):
            if not node.has_checkpoint_values.value and (bool(node.attributes) or any(
                    graph.nodes[c.node_id].has_checkpoint_values.value for c in node.children)):
                node.has_checkpoint_values.value = True
                changed = True
    return graph.SerializeToString(), tensors
