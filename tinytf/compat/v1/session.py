"""TF1 sessions: `Session.run(fetches, feed_dict)` compiles, once per distinct (fetches, feeds), the part of
the graph the fetches need (pruned, optimized and turned into Python by the same passes and code generator as
tf.function), then calls it with the fed values. Results are numpy values, in the fetches' structure."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import nest, numpy_errors, shapes
from tinytf.runtime.check import check_graph
from tinytf.runtime.codegen import compile_graph
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.graph import Capture, Node, SymbolicTensor, subgraphs
from tinytf.runtime.graph import Graph as _IRGraph
from tinytf.runtime.optimize import optimize
from tinytf.runtime.resource import Resource

from ...config import check_graphs, optimizer_options
from . import default_session
from .graph import Graph, get_default_graph


class Session:
    """`tf.compat.v1.Session(graph=None)`: runs a TF1 graph; usable in a `with` block."""

    def __init__(self, target="", graph=None, config=None):
        self.graph = graph if graph is not None else get_default_graph()
        if not isinstance(self.graph, Graph):
            raise TypeError(f"Session: graph must be a tf.compat.v1.Graph, got {type(self.graph).__name__}")
        self._plans: dict = {}
        self._resolved: dict = {}  # id(fetch or feed key) -> (it, what it resolved to)
        self._fast: dict = {}  # _fast_key -> _FastRun, for calls repeating the same fetch and feed objects
        self._closed = False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate `fetches` (a tensor, an op, a name like "y:0", or nested lists/tuples/dicts of them);
        `feed_dict` maps placeholders (or their names) to values."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        feeds = feed_dict or _NO_FEEDS
        kind = type(fetches)  # the fast key, written out here because this is the hot path
        head = (kind, *map(id, fetches)) if kind is list or kind is tuple else id(fetches)
        fast = self._fast.get((head, *map(id, feeds)) if feeds else head)
        if fast is not None and fast.version == self.graph.version:
            return fast.call(feeds)
        return self._run_slow(fetches, feeds)

    def _run_slow(self, fetches, feeds):
        """The general path: resolve names and objects, compile the (fetches, feeds) pair once, and remember
        a fast entry for the next call with the same objects."""
        nested = nest.is_nested(fetches)
        requested = nest.flatten(fetches) if nested else [fetches]
        flat = [self._resolve(f) for f in requested]
        fed, values = [], []
        for key, value in feeds.items():
            tensor = self._resolve(key)
            if isinstance(tensor, Node):
                raise TypeError(f"Cannot feed the operation {tensor.name!r}: feed tensors, such as placeholders")
            fed.append(tensor)
            values.append(_feed_value(tensor, value))
        key = (self.graph.version, *map(id, flat), None, *map(id, fed))  # graph objects live as long as it does
        plan = self._plans.get(key)
        if plan is None:
            if len({id(t) for t in fed}) != len(fed):
                raise ValueError("feed_dict feeds the same tensor twice (by the tensor and by its name)")
            plan = self._plans[key] = _RunPlan(self.graph, flat, fed)
        results = iter(plan.run(values))
        out = []
        for asked, fetch in zip(requested, flat):
            assigned = getattr(asked, "_v1_variable", None)
            if isinstance(fetch, Node):
                out.append(None if assigned is None else _value_of(assigned))
            else:
                out.append(_value_of(fetch) if isinstance(fetch, Resource) else next(results))
        if _fast_eligible(fetches, flat):
            self._fast[_fast_key(fetches, feeds)] = _FastRun(plan, fetches, feeds, fed, self.graph.version)
        return nest.pack_sequence_as(fetches, out) if nested else out[0]

    def _resolve(self, fetch):
        """The graph object a fetch or feed key stands for (a tensor, a node, or a variable)."""
        hit = self._resolved.get(id(fetch))
        if hit is not None and hit[0] is fetch:  # the object itself is kept, so its id cannot be reused
            return hit[1]
        resolved = self._lookup(fetch)
        self._resolved[id(fetch)] = (fetch, resolved)
        return resolved

    def _lookup(self, fetch):
        if isinstance(fetch, str):
            if ":" in fetch:
                return self.graph.get_tensor_by_name(fetch)
            for node in self.graph.nodes:
                if node.name == fetch:
                    return node
            raise KeyError(f"The name '{fetch}' refers to an Operation not in the graph.")
        if hasattr(fetch, "_v1_node"):  # an op returned by a TF1 API (an initializer, a train op)
            fetch = fetch._v1_node
        if isinstance(fetch, Node) or isinstance(fetch, SymbolicTensor):
            if fetch.graph is not self.graph:
                raise ValueError(f"Fetch argument {fetch.name!r} cannot be interpreted as a Tensor. (Tensor "
                                 f"{fetch.name} is not an element of this graph.)")
            return fetch
        if isinstance(fetch, Resource):  # a variable: its value once the run's ops have run
            return fetch
        raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch).__name__}, must be a string or "
                        f"Tensor. (Can not convert a {type(fetch).__name__} into a Tensor or Operation.)")

    def close(self):
        self._closed = True
        self._plans.clear()
        self._fast.clear()

    def __enter__(self):
        # TF1: inside `with Session() as sess:` the session is the default (tensor.eval() uses it) and so is
        # its graph (global_variables_initializer() there builds into it).
        self._graph_scope = self.graph.as_default()
        self._graph_scope.__enter__()
        default_session.push(self)
        return self

    def __exit__(self, *exc):
        default_session.remove(self)
        self._graph_scope.__exit__(None, None, None)
        self.close()
        return False

    def as_default(self):
        return _SessionDefault(self)


class _SessionDefault:
    def __init__(self, session):
        self._session = session

    def __enter__(self):
        default_session.push(self._session)
        return self._session

    def __exit__(self, *exc):
        default_session.remove(self._session)
        return False


class InteractiveSession(Session):
    """A Session that makes itself the default, so `tensor.eval()` works in a notebook."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        default_session.push(self)

    def close(self):
        super().close()
        default_session.remove(self)


get_default_session = default_session.get_default_session
_NO_FEEDS: dict = {}


def _fast_eligible(fetches, flat) -> bool:
    """Fast entries serve the common calls: one tensor, or a flat list or tuple of tensors (no ops,
    variables or nested structures, whose results need the general packing)."""
    if type(fetches) in (list, tuple):
        if any(type(f) in (list, tuple, dict) for f in fetches):
            return False
    elif type(fetches) is dict:
        return False
    return all(isinstance(f, SymbolicTensor) for f in flat)


def _fast_key(fetches, feeds):
    """Identities of the fetch objects and feed keys, in order (Session.run computes the same key inline). A
    _FastRun holds those objects, so while its entry exists no other object can take one of their ids: equal
    keys mean the same objects."""
    kind = type(fetches)
    head = (kind, *map(id, fetches)) if kind is list or kind is tuple else id(fetches)
    return (head, *map(id, feeds)) if feeds else head


class _FastRun:
    """A repeated `Session.run` with the same fetch and feed objects. Its call is a small generated function
    that checks each fed array's class, dtype and shape against its placeholder (converting anything else, as
    the general path does), calls the compiled plan and shapes the results as the fetches. It serves while
    the graph is at `version` (a grown graph may resolve names differently)."""

    def __init__(self, plan, fetches, feeds, fed, version):
        self.version = version
        self._keep = (fetches, tuple(feeds))  # holds the objects whose ids key this entry
        direct = not plan._bound  # nothing to bind: call the compiled code itself
        scope = {"ndarray": np.ndarray, "convert": _feed_value,
                 "run": plan._fn if direct else plan.run}
        names = [f"v{i}" for i in range(len(fed))]
        lines = ["def fast(feeds):"]
        if fed:
            lines.append(f"    {', '.join(names)}, = feeds.values()")
        for i, tensor in enumerate(fed):
            scope[f"t{i}"], scope[f"dt{i}"], scope[f"shape{i}"] = tensor, np.dtype(tensor.dtype.np), tensor._shape
            test = _shape_test(f"v{i}", tensor._shape, f"shape{i}")
            lines.append(f"    if not (v{i}.__class__ is ndarray and v{i}.dtype is dt{i} and {test}):")
            lines.append(f"        v{i} = convert(t{i}, v{i})")
        args = ", ".join(names) if direct else f"[{', '.join(names)}]"
        kind = type(fetches)
        result = {list: "list(out)", tuple: "tuple(out)"}.get(kind, "out[0]")
        if direct:  # the compiled code itself, under tinytf's numpy error state (plan.run sets it otherwise)
            scope.update(np_enter=numpy_errors.enter, np_leave=numpy_errors.leave, np_quiet=numpy_errors.QUIET)
            lines += ["    state = np_enter(np_quiet)", "    try:", f"        out = run({args})", "    finally:",
                      "        np_leave(state)"]
        else:
            lines.append(f"    out = run({args})")
        lines.append(f"    return {result}")
        exec(compile("\n".join(lines), "<tinytf session fast run>", "exec"), scope)  # noqa: S102 - our own text
        self.call = scope["fast"]


def _shape_test(name: str, shape, shape_name: str) -> str:
    """A Python expression true when array `name` has a shape the placeholder accepts without conversion.
    Scalars always go through conversion (which unwraps 0-d arrays, as the general path does)."""
    if shape is None:
        return "True"
    if len(shape) == 0:
        return "False"
    if None not in shape:
        return f"{name}.shape == {tuple(shape)!r}"
    tests = [f"{name}.ndim == {len(shape)}"]
    tests += [f"{name}.shape[{axis}] == {size}" for axis, size in enumerate(shape) if size is not None]
    return " and ".join(tests)


def _value_of(variable):
    value = variable._array
    return value.copy() if isinstance(value, np.ndarray) else value


def _feed_value(tensor, value):
    if tensor.dtype.is_string:
        array = np.asarray(value, dtype=object)
    elif type(value) is np.ndarray and value.dtype == tensor.dtype.np:
        array = value
    else:
        array = np.asarray(value.numpy() if hasattr(value, "numpy") else value).astype(tensor.dtype.np, copy=False)
    if not shapes.is_subshape(array.shape, tensor._shape):
        raise ValueError(f"Cannot feed value of shape {tuple(array.shape)} for Tensor {tensor.name}, which has "
                         f"shape {_tf_shape(tensor._shape)}")
    return array[()] if array.ndim == 0 else array


def _tf_shape(shape) -> str:
    if shape is None:
        return "<unknown>"
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _dims(shape) -> str:
    return "<unknown>" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


class _RunPlan:
    """The compiled subgraph for one (fetches, feeds) pair: fed values in, fetched values out."""

    def __init__(self, graph: Graph, fetches, fed):
        fed_ids = {id(t) for t in fed}
        needed = _needed_nodes(graph, fetches, fed_ids)
        run = _IRGraph("session_run")
        run._names = dict(graph._names)
        run.nodes = [n for n in graph.nodes if id(n) in needed]
        self._bound = []  # what each non-fed input of the run graph is bound to at call time
        bound_inputs = []
        for placeholder in graph.inputs:
            if id(placeholder.node) not in needed or id(placeholder) in fed_ids:
                continue
            capture = next((c for c in graph.captures.values() if c.placeholder is placeholder), None)
            if capture is not None:
                run.captures[id(capture.outer)] = capture
                self._bound.append(capture)
            elif id(placeholder) in graph.defaults:
                self._bound.append(graph.defaults[id(placeholder)])
            else:
                raise _unfed(placeholder)
            bound_inputs.append(placeholder)
        run.inputs = list(fed) + bound_inputs
        run.outputs = [f for f in fetches if isinstance(f, SymbolicTensor)]
        optimized = optimize(run, optimizer_options(), check_graph if check_graphs() else None)
        self._fn = compile_graph(optimized, "session_run", [None] * len(run.inputs)).fn

    def run(self, values):
        bound = []
        for item in self._bound:
            if isinstance(item, Capture):
                outer = item.outer
                if outer is None:
                    raise InvalidArgumentError("a variable this graph uses was deleted")
                bound.append(outer if item.kind == "resource" else outer._value)
            else:
                bound.append(item._value)  # a placeholder_with_default's default
        return numpy_errors.call(self._fn, (*values, *bound), {})  # no numpy warnings (numpy_errors.py)


def _unfed(placeholder):
    return InvalidArgumentError(
        f"You must feed a value for placeholder tensor '{placeholder.node.name}' with dtype "
        f"{_dtype_text(placeholder.dtype)} and shape {_dims(placeholder._shape)}")


def _dtype_text(dtype) -> str:
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _needed_nodes(graph, fetches, fed_ids) -> set:
    """ids of the nodes (placeholders included) that computing `fetches` needs, stopping at fed tensors."""
    producer = {}
    for node in graph.nodes:
        for t in node.outputs:
            producer[id(t)] = node
    for t in graph.inputs:
        producer[id(t)] = t.node
    needed, stack = set(), []
    for fetch in fetches:
        if not isinstance(fetch, Resource):
            stack.append(fetch if isinstance(fetch, Node) else fetch.node)
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        inputs = list(node.inputs) + [t for sub in subgraphs(node) for t in _outer_uses(sub, graph)]
        for t in inputs:
            if id(t) not in fed_ids and id(t) in producer:
                stack.append(producer[id(t)])
            elif id(t) in fed_ids:
                needed.add(id(t.node))
        stack.extend(node.control_inputs)
    return needed


def _outer_uses(sub, graph):
    """Tensors of `graph` that a nested graph captured (a cond/while body reading outer values)."""
    return [c.outer for c in sub.captures.values() if isinstance(c.outer, SymbolicTensor) and c.outer.graph is graph]
