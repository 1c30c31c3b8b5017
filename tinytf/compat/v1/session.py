"""TF1 sessions: `Session.run(fetches, feed_dict)` compiles, once per distinct (fetches, feeds), the part of
the graph the fetches need (pruned, optimized and turned into Python by the same passes and code generator as
tf.function), then calls it with the fed values. Results are numpy values, in the fetches' structure."""

from __future__ import annotations

import copy as _copy
import threading

import numpy as np

from tinytf.runtime import nest, numpy_errors, shapes
from tinytf.runtime.check import check_graph
from tinytf.runtime.codegen import build_entry, compile_graph
from tinytf.runtime.dispatch import to_numpy
from tinytf.runtime.errors import FailedPreconditionError, InvalidArgumentError
from tinytf.runtime.graph import Capture, Node, SymbolicTensor, subgraphs
from tinytf.runtime.graph import Graph as _IRGraph
from tinytf.runtime.ops.core import placeholder_op
from tinytf.runtime.ops.session_tensors import get_session_handle_op
from tinytf.runtime.ops.state import UNSET, assign_variable_op, var_is_initialized_op
from tinytf.runtime.optimize import optimize
from tinytf.runtime.resource import Resource

from ...config import check_graphs, optimizer_options
from ...queue.session_state import running as _running
from . import default_session
from .graph import Graph, get_default_graph
from .ragged_placeholder import expand_ragged_feeds
from .session_tensors import TensorHandle, kept_handle
from .sparse_feeds import SparseTensor, expand_sparse_feeds


class Session:
    """`tf.compat.v1.Session(graph=None)`: runs a TF1 graph; usable in a `with` block."""

    def __init__(self, target="", graph=None, config=None):
        self.graph = graph if graph is not None else get_default_graph()
        if not isinstance(self.graph, Graph):
            raise TypeError(f"Session: graph must be a tf.compat.v1.Graph, got {type(self.graph).__name__}")
        self._plans: dict = {}
        self._resolved: dict = {}  # id(fetch or feed key) -> (it, what it resolved to)
        # Fast entries for repeated calls, keyed by the fetch object itself (a tensor, a name, a tuple of them;
        # a list's by its tuple): GraphTensor hashes by identity in C, so the lookup costs one dict probe. The
        # entry checks the feed keys itself; the graph clears these dicts whenever it grows.
        self._fast: dict = {}
        self._fast_lists: dict = {}
        self._values: dict = {}  # id(variable) -> this session's value of it: TF1 variables live per session
        self._closed = False
        self.graph.sessions.add(self)

    # A Session keeps its own value of each variable (TF1); a WrappedFunction's runner sets this, so that the
    # variables it runs keep their values themselves, as the eager variables TF's wrap_function lifts them to.
    _live_variables = False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate `fetches` (a tensor, an op, a name like "y:0", or nested lists/tuples/dicts of them);
        `feed_dict` maps placeholders (or their names) to values."""
        if feed_dict and any(key.__class__ is SparseTensor for key in feed_dict):
            feed_dict = expand_sparse_feeds(feed_dict)  # a sparse_placeholder fed whole: its three parts
        if feed_dict and any(key.__class__.__name__ == "RaggedTensor" for key in feed_dict):
            feed_dict = expand_ragged_feeds(feed_dict)  # a ragged.placeholder fed whole: its placeholders
        previous = _running.session
        _running.session = self  # the queues its ops touch use this Session's contents (queue/session_state.py)
        try:
            try:
                fast = self._fast_lists.get(tuple(fetches)) if fetches.__class__ is list else self._fast.get(fetches)
            except TypeError:  # a dict or nested fetch structure: unhashable, served by the general path
                fast = None
            if fast is not None:
                out = fast(feed_dict)
                if out is not _MISS:
                    return out
            return self._run_slow(fetches, feed_dict or _NO_FEEDS)
        finally:
            _running.session = previous

    def _run_slow(self, fetches, feeds, remember=True):
        """The general path: resolve names and objects, compile the (fetches, feeds) pair once, and remember
        a fast entry for the next call with the same objects."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        converted = _sparse_fetches(fetches)
        if converted is not fetches:  # SparseTensors come back as SparseTensorValues of their three parts
            return self._run_slow(converted, feeds, remember=False)  # converted anew each call: no fast entry
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
            store = None if self._live_variables else self._values
            plan = self._plans[key] = _RunPlan(self.graph, flat, fed, store)
        results = iter([_string_scalar(v) if i in plan.string_outputs else v
                        for i, v in enumerate(plan.run(values))])
        out = []
        for asked, fetch in zip(requested, flat):
            assigned = getattr(asked, "_v1_variable", None)
            if isinstance(fetch, Node):
                out.append(None if assigned is None else self._value_of(assigned))
            elif isinstance(fetch, Resource):
                out.append(self._value_of(fetch))
            else:
                out.append(kept_handle(fetch, next(results), self))  # a TensorHandle for a get_session_handle
        if remember and _fast_eligible(fetches, flat):
            entry = _fast_entry(plan, fetches, feeds, fed)
            if type(fetches) is list:
                self._fast_lists[tuple(fetches)] = entry
            else:
                self._fast[fetches] = entry
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
            return self.graph.get_operation_by_name(fetch)._v1_node
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

    def _value_of(self, variable):
        """This session's value of `variable` (a copy), or TF's error when the session never initialized it."""
        value = self._values.get(id(variable), _UNSET)
        if value is _UNSET:
            raise _uninitialized(variable)
        return value.copy() if isinstance(value, np.ndarray) else value

    def close(self):
        self._closed = True
        self._plans.clear()
        self._values.clear()
        self.clear_fast()

    def clear_fast(self):
        """Forget the fast entries (the graph calls this when it grows: a name may now resolve differently)."""
        self._fast.clear()
        self._fast_lists.clear()

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
    return all(isinstance(f, SymbolicTensor) and f.node.op is not get_session_handle_op for f in flat)


_SWAP_LOCK = threading.RLock()


class _SwappedRun:
    """One run's variables with this session's values swapped in, and the values outside to give back."""

    __slots__ = ("variables", "store", "outside")

    def __init__(self, variables, store):
        self.variables, self.store, self.outside = variables, store, []

    def swap_in(self):
        self.outside = [variable._array for variable in self.variables]  # the values outside any session
        store = self.store
        for variable in self.variables:
            # _UNSET while this session has no value: an assignment replaces it, even by the very array the
            # variable holds outside (a constant initial value is one object, in the graph and outside)
            variable._array = store.get(id(variable), _UNSET)

    def swap_out(self):
        store = self.store
        for variable, outside in zip(self.variables, self.outside):
            if variable._array is not _UNSET:  # assigned by this run, or this session's value
                store[id(variable)] = variable._array
            variable._array = outside


class _ActiveRuns(threading.local):
    def __init__(self):
        self.runs: list = []  # this thread's runs holding _SWAP_LOCK, innermost last


_active = _ActiveRuns()


def release_swap_lock():
    """Let another thread's run swap its variables in while this one waits (a queue op blocked on a queue that
    a QueueRunner thread fills): this thread's runs give their values back to their sessions first. Returns
    what reacquire_swap_lock needs, or None when this thread holds no swapped run."""
    if not _SWAP_LOCK._is_owned():
        return None
    for run in reversed(_active.runs):
        run.swap_out()
    return _SWAP_LOCK._release_save()


def reacquire_swap_lock(saved) -> None:
    """Take the lock back and swap this thread's runs in again, with their sessions' values as they are now."""
    if saved is None:
        return
    _SWAP_LOCK._acquire_restore(saved)
    for run in _active.runs:
        run.swap_in()
_MISS = object()  # a fast entry's answer when the call's feeds are not the ones it was made for
_UNSET = UNSET  # (runtime/ops/state.py: var_is_initialized reads it)


def _string_scalar(value):
    """A fetched string tensor's value: bytes for a scalar (a 0-d object array inside), the array otherwise."""
    return value[()] if value.__class__ is np.ndarray and value.ndim == 0 else value


def _fast_entry(plan, fetches, feeds, fed):
    """A generated function for a repeated `Session.run` of the same fetches: it returns `_MISS` unless the
    feed_dict has exactly the keys it was made for, checks each fed array's class, dtype and shape against its
    placeholder (converting anything else, as the general path does), and shapes the results as the fetches.
    When the plan binds nothing but the feeds, the compiled graph's body is inlined into it (one frame per
    call, as a tf.function's generated __call__); otherwise it calls the plan, which binds variables."""
    keys = list(feeds)
    names = [f"v{i}" for i in range(len(fed))]
    scope = {"ndarray": np.ndarray, "convert": _feed_value, "_MISS": _MISS, "_run": plan.run}
    lines = []
    if keys:
        lines += ["try:", f"    if len(feeds) != {len(keys)}:", "        return _MISS"]
        for i, key in enumerate(keys):
            scope[f"k{i}"] = key
            lines.append(f"    v{i} = feeds[k{i}]")
        lines += ["except (KeyError, TypeError):", "    return _MISS"]
    else:
        lines += ["if feeds:", "    return _MISS"]
    for i, tensor in enumerate(fed):
        scope[f"t{i}"], scope[f"dt{i}"] = tensor, np.dtype(tensor.dtype.np)
        test = _shape_test(f"v{i}", tensor._shape)
        lines.append(f"if not (v{i}.__class__ is ndarray and v{i}.dtype is dt{i} and {test}):")
        lines.append(f"    v{i} = convert(t{i}, v{i})")
    compiled = plan.compiled
    if plan.direct:
        lines += [f"{param} = {name}" for param, name in zip(compiled.params, names)]
        outputs = compiled.outputs
    else:  # the plan is called, not inlined: it binds the variables and this session's values
        lines.append(f"_out = _run([{', '.join(names)}])")
        outputs = [f"_out[{i}]" for i in range(len(compiled.outputs))]
        compiled = _NO_BODY
    outputs = [f"_bytes({o})" if i in plan.string_outputs else o for i, o in enumerate(outputs)]
    scope["_bytes"] = _string_scalar
    kind = type(fetches)
    result = {list: f"[{', '.join(outputs)}]", tuple: f"({', '.join(outputs)}{',' if len(outputs) == 1 else ''})"}
    epilogue = [f"return {result.get(kind, outputs[0] if outputs else 'None')}"]
    return build_entry(compiled, "session_fast_run", ["feeds"], lines, epilogue, scope, "tinytf session run")


class _NoBody:
    body: list = []
    body_nodes: dict = {}
    namespace: dict = {}


_NO_BODY = _NoBody()


def _shape_test(name: str, shape) -> str:
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


def _sparse_fetches(fetches):
    """`fetches` with each SparseTensor replaced by a SparseTensorValue of its indices, values and dense shape
    (a Session gives a SparseTensorValue of three arrays for it, as TF's); `fetches` itself when it has none."""
    from ...indexed_slices import IndexedSlices
    from ...sparse import SparseTensor
    from ...test.values import IndexedSlicesValue
    from .tf1_misc import SparseTensorValue

    if isinstance(fetches, SparseTensor):
        return SparseTensorValue(fetches.indices, fetches.values, fetches.dense_shape)
    if isinstance(fetches, IndexedSlices):  # an IndexedSlicesValue of its three parts, as TF's Session gives it
        return IndexedSlicesValue(fetches.values, fetches.indices, fetches.dense_shape)
    if isinstance(fetches, (list, tuple)) and not isinstance(fetches, (SparseTensorValue, IndexedSlicesValue)):
        parts = [_sparse_fetches(f) for f in fetches]
        if all(p is f for p, f in zip(parts, fetches)):
            return fetches
        return type(fetches)(*parts) if hasattr(fetches, "_fields") else type(fetches)(parts)
    if isinstance(fetches, dict):
        parts = {k: _sparse_fetches(f) for k, f in fetches.items()}
        if all(parts[k] is f for k, f in fetches.items()):
            return fetches
        return type(fetches)(parts)
    return fetches


def _value_of(variable):
    value = variable._array
    return value.copy() if isinstance(value, np.ndarray) else value


def _feed_value(tensor, value):
    if isinstance(value, TensorHandle):  # a kept value fed by its handle: the value itself, as TF feeds it
        value = value.eval()
    if tensor.dtype.is_string:  # text fed as str becomes bytes, as TF stores every string
        array = np.asarray(to_numpy(value.numpy() if hasattr(value, "numpy") else value, tensor.dtype)[0],
                           dtype=object)
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
    """The compiled subgraph for one (fetches, feeds) pair: fed values in, fetched values out. The variables
    it uses take this session's values (`store`) while it runs, and give them back after."""

    def __init__(self, graph: Graph, fetches, fed, store):
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
        fed, stand_ins = _stand_ins(graph, run, fed)
        run.inputs = fed + bound_inputs
        run.outputs = [stand_ins.get(id(f), f) for f in fetches if isinstance(f, SymbolicTensor)]
        if stand_ins:
            run.nodes = [_rewired(node, stand_ins) for node in run.nodes]
        # a string scalar comes back as bytes, as TF's Session gives it (the graph holds a 0-d object array)
        self.string_outputs = {i for i, t in enumerate(run.outputs) if t.dtype.is_string}
        self._store = store
        self._variables, self._reads = _variables_used(run)
        optimized = optimize(run, optimizer_options(), check_graph if check_graphs() else None)
        self.compiled = compile_graph(optimized, "session_run", [None] * len(run.inputs))
        self._fn = self.compiled.fn
        self.direct = not self._bound  # nothing to bind but the feeds: fast entries inline the compiled body

    def run(self, values):
        variables = self._variables
        if not variables:  # under tinytf's numpy error state: no numpy warnings (numpy_errors.py)
            return numpy_errors.call(self._fn, (*values, *self._bound_values()), {})
        store = self._store
        if store is None:  # live variables (a WrappedFunction's): they hold their own values, nothing to swap
            for variable in self._reads:
                if variable._array is UNSET:
                    raise _uninitialized(variable)
            return numpy_errors.call(self._fn, (*values, *self._bound_values()), {})
        for variable in self._reads:
            if id(variable) not in store:
                raise _uninitialized(variable)
        with _SWAP_LOCK:  # a variable holds one value at a time: runs that swap values in take turns
            run = _SwappedRun(variables, store)
            run.swap_in()
            _active.runs.append(run)
            try:
                return numpy_errors.call(self._fn, (*values, *self._bound_values()), {})
            finally:
                _active.runs.pop()
                run.swap_out()

    def _bound_values(self):
        bound = []
        for item in self._bound:
            if isinstance(item, Capture):
                outer = item.outer
                if outer is None:
                    raise InvalidArgumentError("a variable this graph uses was deleted")
                bound.append(outer if item.kind == "resource" else outer._value)
            else:
                bound.append(item._value)  # a placeholder_with_default's default
        return bound


def _stand_ins(graph, run, fed) -> tuple:
    """The run graph's fed inputs: a fed placeholder itself, and for a fed tensor that a node computes (TF1
    feeds any tensor) a placeholder of the run graph standing for it. Returns (inputs, {id(tensor): stand-in})."""
    placeholders = {id(t) for t in graph.inputs}
    inputs, stand_ins = [], {}
    for tensor in fed:
        if id(tensor) in placeholders:
            inputs.append(tensor)
            continue
        node = Node(run, run.unique_name(f"{tensor.node.name}_fed"), placeholder_op, (),
                    {"dtype": tensor.dtype, "shape": tensor._shape}, None)
        node.outputs = [SymbolicTensor(node, 0, tensor.dtype, tensor._shape)]
        stand_ins[id(tensor)] = node.outputs[0]
        inputs.append(node.outputs[0])
    return inputs, stand_ins


def _rewired(node, stand_ins):
    """`node` reading the stand-ins of fed tensors: a shallow copy (the graph's own node stays as it is)."""
    if not any(id(t) in stand_ins for t in node.inputs):
        return node
    copy = _copy.copy(node)
    copy.inputs = [stand_ins.get(id(t), t) for t in node.inputs]
    return copy


def _variables_used(run) -> tuple:
    """The variables a run graph captures, and those of them that a node other than an assignment reads
    (those must hold a value in the session before the run: TF1's FailedPreconditionError otherwise)."""
    by_placeholder = {id(c.placeholder): c.outer for c in run.captures.values()
                      if c.kind == "resource" and hasattr(c.outer, "_array")}  # not a queue or a table
    variables = [v for v in by_placeholder.values() if v is not None]
    reads = {}
    for node in run.nodes:
        if node.op is var_is_initialized_op:  # asks whether the variable has a value: not a read of it
            continue
        inputs = node.inputs[1:] if node.op is assign_variable_op else node.inputs
        for t in inputs:
            variable = by_placeholder.get(id(t))
            if variable is not None:
                reads[id(variable)] = variable
    return variables, list(reads.values())


def _uninitialized(variable):
    name = variable.name.rsplit(":", 1)[0]
    return FailedPreconditionError(
        f"Could not find variable {name}. This could mean that the variable has been deleted. In TF1, it can also "
        "mean the variable is uninitialized. Debug info: container=localhost, status error message=Container "
        f"localhost does not exist. (Could not find resource: localhost/{name})")


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
        if not isinstance(fetch, Resource) and id(fetch) not in fed_ids:  # a fed fetch gives the fed value
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
        stack.extend(node.control_inputs)
    return needed


def _outer_uses(sub, graph):
    """Tensors of `graph` that a nested graph captured (a cond/while body reading outer values)."""
    return [c.outer for c in sub.captures.values() if isinstance(c.outer, SymbolicTensor) and c.outer.graph is graph]
