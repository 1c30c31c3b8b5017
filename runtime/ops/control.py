"""Functional control flow: cond, while_loop, case, switch_case.

Eagerly they are plain Python control flow. While tracing, each becomes one node that holds its branch
or body graphs; the code generator emits them inline as Python `if` / `while`. Composites (TensorArray)
among loop variables and branch outputs travel as their component tensors (nest's expand_composites) and
are rebuilt on the way out."""

from __future__ import annotations

from .. import dtypes, nest, shapes
from ..codegen import compiled_fn
from ..context import state
from ..dispatch import apply, convert_to_tensor
from ..errors import at_user_line
from ..graph import Graph, SymbolicTensor
from ..registry import OpDef, register
from ..tensor import EagerTensor, Tensor
from ..trace import align_captures, trace_subgraph
from .core import const_op, identity_op


def _run_subgraph(graph: Graph, values):
    return compiled_fn(graph)(*values)


# --- cond ----------------------------------------------------------------------------------------------
def _infer_cond(pred, *inputs, true_graph, false_graph):
    if not pred.dtype.is_bool:
        raise TypeError(f"the predicate must be a bool tensor, got {pred.dtype.name}")
    if pred._shape is not None and pred._shape != ():
        raise ValueError(f"the predicate must be a scalar, got shape {shapes.fmt(pred._shape)}")
    return [(t.dtype, shapes.most_specific_common(t._shape, f._shape))
            for t, f in zip(true_graph.outputs, false_graph.outputs)]


def _cond_kernel(pred, *inputs, true_graph, false_graph):
    result = _run_subgraph(true_graph if pred else false_graph, inputs)
    return result[0] if len(result) == 1 else (None if not result else result)


def _emit_cond(cg, node, indent):
    pred = cg.var(node.inputs[0])
    outer = [cg.var(t) for t in node.inputs[1:]]
    outs = [cg.define(t) for t in node.outputs]
    cg.line(indent, f"if {pred}:", node)
    cg.emit_graph(node.attrs["true_graph"], indent + 1, outer, outs)
    cg.line(indent, "else:", node)
    cg.emit_graph(node.attrs["false_graph"], indent + 1, outer, outs)


cond_op = register(OpDef("cond", _cond_kernel, _infer_cond, emit=_emit_cond, foldable=False,
                         doc="run one of two subgraphs on a scalar bool predicate"))


def cond(pred, true_fn=None, false_fn=None, name=None):
    """`tf.cond`: true_fn() if pred else false_fn(); a Cond node while tracing."""
    if true_fn is None or false_fn is None:
        raise TypeError("tf.cond needs both true_fn and false_fn")
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("true_fn and false_fn must be callable (e.g. lambda: x)")
    if state.graph is None or not isinstance(pred, SymbolicTensor):
        if isinstance(pred, SymbolicTensor):
            raise TypeError(at_user_line(f"tf.cond: the predicate {pred.name} is symbolic but no graph is built"))
        return true_fn() if _python_bool(pred) else false_fn()
    return build_cond(pred, true_fn, false_fn, "tf.cond", name=name)


def _python_bool(pred) -> bool:
    if isinstance(pred, EagerTensor):
        if pred._shape != ():
            raise ValueError(at_user_line(
                f"tf.cond: the predicate must be a scalar, got shape {shapes.fmt(pred._shape)}"))
        return bool(pred._value)
    return bool(pred)


def build_cond(pred, true_fn, false_fn, what: str, names=None, name=None):
    """Trace both branches and add a cond node (TF's node name `name`). `names` optionally names the outputs
    (for messages)."""
    pred = convert_to_tensor(pred)
    if not pred.dtype.is_bool or (pred._shape is not None and pred._shape != ()):
        raise TypeError(at_user_line(
            f"{what}: the predicate must be a scalar bool tensor, got {pred.dtype.name}{shapes.fmt(pred._shape)}"))
    true_graph, true_out = trace_subgraph(_expanding(true_fn), [], "true_branch", "branch of " + what)
    false_graph, false_out = trace_subgraph(_expanding(false_fn), [], "false_branch", "branch of " + what)
    true_out, false_out = true_out.value, false_out.value
    _check_branches(true_out, false_out, true_graph, false_graph, what, names)
    template = _join_composites(true_out, false_out, what, names, "in the true branch", "in the false branch")
    outer = align_captures([true_graph, false_graph])

    result = apply(cond_op, [pred, *outer], {"true_graph": true_graph, "false_graph": false_graph}, name=name)
    flat = [] if result is None else ([result] if isinstance(result, Tensor) else list(result))
    if true_out is None:
        return None
    return nest.pack_sequence_as(template, _tf1_outputs(flat), expand_composites=True)


def _tf1_outputs(flat, skip=0):
    """In a TF1 graph TF passes the results of cond and while_loop through Identity ops named under the op
    (`cond/Identity`, `while/Identity_3` after the loop's counter and limit, `skip`): the tensor names TF1
    programs print and fetch. A function's graph keeps them out (its GraphDef export adds cond's)."""
    graph = state.graph
    if not flat or not getattr(graph, "identity_outputs", False):
        return flat
    base = f"{flat[0].node.tf_name}/Identity"
    for _ in range(skip):
        graph.tf_unique(base)
    return [apply(identity_op, [t], name=base + "/") for t in flat]  # "/": the name is not under the scope


def _component_names(structure, names):
    """Per-leaf names (as callers give them) repeated for each component of a composite leaf."""
    if not names:
        return names
    leaves = nest.flatten(structure)
    if len(leaves) != len(names) or not any(nest.is_composite(leaf) for leaf in leaves):
        return names
    out = []
    for leaf, name in zip(leaves, names):
        out.extend([name] * (len(leaf._to_components()) if nest.is_composite(leaf) else 1))
    return out


def _join_composites(first, second, what, names, first_label, second_label):
    """`first` with each composite replaced by its join with the matching composite of `second`: the
    static metadata (e.g. a TensorArray's element shape) valid on both paths."""
    if not nest.has_composites(first):
        return first
    leaves = nest.flatten(first)
    joined = []
    for i, (a, b) in enumerate(zip(leaves, nest.flatten(second))):
        join = getattr(a, "_join", None) if nest.is_composite(a) else None
        if join is not None:
            try:
                a = join(b)
            except (TypeError, ValueError) as e:
                label = f"'{names[i]}'" if names and i < len(names) and names[i] else f"output {i}"
                raise TypeError(at_user_line(f"{what}: {label} is {a!r} {first_label} but {b!r} {second_label}: "
                                             f"{e}")) from None
        joined.append(a)
    return nest.pack_sequence_as(first, joined)


def _check_branches(true_out, false_out, true_graph, false_graph, what, names):
    try:
        nest.assert_same_structure(true_out, false_out, check_types=False, expand_composites=True)
    except ValueError as e:
        raise ValueError(at_user_line(
            f"{what}: true_fn and false_fn must return the same structure of values.\n{e}")) from None
    names = _component_names(true_out, names)
    for i, (t, f) in enumerate(zip(true_graph.outputs, false_graph.outputs)):
        if t.dtype is not f.dtype:
            label = f"'{names[i]}'" if names and i < len(names) else f"output {i}"
            raise TypeError(at_user_line(
                f"{what}: {label} has dtype {t.dtype.name} in the true branch but {f.dtype.name} in the false "
                "branch; both branches must produce the same dtype (use tf.cast)"))


# --- while_loop ------------------------------------------------------------------------------------------
def _infer_while(*inputs, cond_graph, body_graph, n_vars, has_max, names=None):
    return [(t.dtype, t._shape) for t in body_graph.inputs[:n_vars]]


def _while_kernel(*inputs, cond_graph, body_graph, n_vars, has_max, names=None):
    values = list(inputs[:n_vars])
    extra = list(inputs[n_vars + has_max:])
    limit = inputs[n_vars] if has_max else None
    count = 0
    while _run_subgraph(cond_graph, values + extra)[0]:
        if limit is not None and count >= limit:
            break
        values = list(_run_subgraph(body_graph, values + extra))
        count += 1
    return values[0] if n_vars == 1 else tuple(values)


def _emit_while(cg, node, indent):
    n_vars = node.attrs["n_vars"]
    has_max = node.attrs["has_max"]
    inits = [cg.var(t) for t in node.inputs[:n_vars]]
    extra = [cg.var(t) for t in node.inputs[n_vars + has_max:]]
    hints = node.attrs.get("names") or [None] * n_vars
    loop_vars = [cg.define(t, hint) for t, hint in zip(node.outputs, hints)]
    if loop_vars:
        cg.line(indent, f"{', '.join(loop_vars)} = {', '.join(inits)}", node)
    counter = None
    if has_max:
        counter = cg.fresh("iteration")
        limit = cg.var(node.inputs[n_vars])
        cg.line(indent, f"{counter} = 0", node)
    body = node.attrs["body_graph"]
    if getattr(body, "blas_region", False):  # passes/loop_blas_region.py: one one-thread BLAS region per loop
        from .. import blas_threads

        cg.line(indent, f"with {cg.bind(blas_threads.single, 'blas_single')}():", node)
        indent += 1
    cg.line(indent, "while True:", node)
    (test,) = cg.emit_graph(node.attrs["cond_graph"], indent + 1, loop_vars + extra)
    cg.line(indent + 1, f"if not {test}:", node)
    cg.line(indent + 2, "break")
    if counter is not None:
        cg.line(indent + 1, f"if {counter} >= {limit}:", node)
        cg.line(indent + 2, "break")
        cg.line(indent + 1, f"{counter} += 1", node)
    results = cg.emit_graph(body, indent + 1, loop_vars + extra, loop_vars, owned_inputs=n_vars)
    # The names the body's last iteration bound to its variant results (a TensorArray, a gradient stack) still
    # hold them after the loop: drop them, or the container (every step's arrays) outlives the loop variable
    # it became, which the code after the loop deletes at its last use.
    inner = {id(n) for n in body.nodes if n.op is not const_op}
    stale = [name for t, name in zip(body.outputs, results)
             if t.dtype.name == "variant" and id(t.node) in inner and name.isidentifier() and name not in loop_vars]
    if stale:
        cg.line(indent, f"{' = '.join(stale)} = None")


while_op = register(OpDef("while_loop", _while_kernel, _infer_while, emit=_emit_while, foldable=False,
                          doc="repeat a body subgraph while a cond subgraph is true"))


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None, names=None):
    """`tf.while_loop`: a Python loop eagerly, a while node while tracing. `names` (optional) names the
    loop variables in messages and in the generated code."""
    single = not isinstance(loop_vars, (list, tuple, dict))
    structure = loop_vars
    # Python values become constants as in TF (`Const`, `Const_1`: converted before the loop, not for it)
    flat = [convert_to_tensor(v, name="Const") for v in nest.flatten(loop_vars, expand_composites=True)]
    if state.graph is None and not any(isinstance(v, SymbolicTensor) for v in flat):
        return _eager_while(cond, body, nest.pack_sequence_as(structure, flat, expand_composites=True),
                            maximum_iterations, single)
    return _graph_while(cond, body, structure, flat, shape_invariants, maximum_iterations, names or [], name)


def _call_body(body, values, single):
    return body(values) if single else body(*values)


def _eager_while(cond, body, values, maximum_iterations, single):
    count = 0
    limit = None if maximum_iterations is None else int(maximum_iterations)
    args = values
    while _python_bool(cond(args) if single else cond(*args)):
        if limit is not None and count >= limit:
            break
        new = _call_body(body, args, single)
        # Eagerly the body must return the structure of loop_vars, as in TensorFlow, which raises ValueError
        # when maximum_iterations is set and TypeError otherwise (from the next condition call). Graph loops
        # accept a bare tensor for a one-element list.
        try:
            nest.assert_same_structure(args, new, check_types=False, expand_composites=True)
        except ValueError as e:
            message = f"tf.while_loop: the body must return the same structure as loop_vars.\n{e}"
            if limit is not None:
                raise ValueError(at_user_line(message)) from None
            raise TypeError(at_user_line(
                message + "\n(TensorFlow fails here in the next condition call: 'Cannot iterate over a scalar "
                "tensor.')")) from None
        args = nest.map_structure(convert_to_tensor, new, expand_composites=True)
        count += 1
    return args


def _var_label(names, i):
    return f"'{names[i]}'" if i < len(names) and names[i] else f"loop variable {i}"


_NO_INVARIANT = object()  # a loop variable without a shape invariant keeps its shape


def _graph_while(cond, body, structure, flat, shape_invariants, maximum_iterations, names, node_name=None):
    single = not isinstance(structure, (list, tuple, dict))
    leaf_names = names
    names = _component_names(structure, names)
    # per component: _NO_INVARIANT, or a shape (None for TensorShape(None): any rank)
    invariants = [_NO_INVARIANT] * len(flat)
    if shape_invariants is not None:
        given = [shape_invariants] if single else nest.flatten(shape_invariants)
        invariants = [_NO_INVARIANT if s is None else shapes.as_shape(s) for s in given]
        invariants = _component_invariants(structure, invariants)
    specs = []
    for i, (v, inv) in enumerate(zip(flat, invariants)):
        shape = v._shape if inv is _NO_INVARIANT else inv
        if inv is not _NO_INVARIANT and not shapes.is_subshape(v._shape, inv):
            raise ValueError(at_user_line(
                f"tf.while_loop: {_var_label(names, i)} has shape {shapes.fmt(v._shape)}, which does not fit "
                f"its shape invariant {shapes.fmt(inv)}"))
        name = names[i] if i < len(names) and isinstance(names[i], str) and names[i].isidentifier() else "loop_var"
        specs.append((v.dtype, shape, name))

    # A composite loop variable (TensorArray) enters the body with the static facts it has before the loop.
    # If one iteration leaves it with facts the body's trace did not assume (say, a different static size),
    # the body is traced once more from the facts that hold on both, which one more iteration keeps.
    loop_in = structure
    for _ in range(2):
        cond_graph, body_graph, template = _trace_loop(cond, body, structure, loop_in, specs, single, leaf_names)
        if _refines(template, loop_in):
            break
        loop_in = template
    else:
        raise TypeError(at_user_line("tf.while_loop: the TensorArrays among the loop variables do not settle "
                                     f"on static facts that hold in every iteration: {loop_in} vs {template}"))
    for i, (placeholder, out) in enumerate(zip(body_graph.inputs, body_graph.outputs)):
        if out.dtype is not placeholder.dtype:
            raise TypeError(at_user_line(
                f"{_var_label(names, i)} has dtype {placeholder.dtype.name} before the loop, but dtype "
                f"{out.dtype.name} after one iteration"))
        if not shapes.is_subshape(out._shape, placeholder._shape):
            raise ValueError(at_user_line(
                f"{_var_label(names, i)} has shape {shapes.fmt(placeholder._shape)} before the loop, but shape "
                f"{shapes.fmt(out._shape)} after one iteration. To allow the shape to vary across iterations, "
                "use the `shape_invariants` argument of tf.while_loop (or "
                "tf.autograph.experimental.set_loop_options) to specify a less-specific shape."))
    outer = align_captures([cond_graph, body_graph])
    inputs = list(flat)
    has_max = maximum_iterations is not None
    if has_max:
        inputs.append(convert_to_tensor(maximum_iterations, dtypes.int32))
    attrs = {"cond_graph": cond_graph, "body_graph": body_graph, "n_vars": len(flat), "has_max": int(has_max)}
    if names:
        attrs["names"] = tuple(n if isinstance(n, str) and n.isidentifier() else None for n in names)
    result = apply(while_op, inputs + outer, attrs, name=node_name)
    outs = [] if result is None else ([result] if isinstance(result, Tensor) else list(result))
    return nest.pack_sequence_as(template, _tf1_outputs(outs, skip=2), expand_composites=True)


def _trace_loop(cond, body, structure, loop_in, specs, single, leaf_names):
    """Trace the condition and the body on placeholders packed like `loop_in`. Returns (cond graph, body graph,
    the structure describing the loop variables after the loop)."""

    def pack(placeholders):
        return nest.pack_sequence_as(loop_in, list(placeholders), expand_composites=True)

    cond_graph, _ = trace_subgraph(lambda *ph: _call_cond(cond, pack(ph), single), specs, "loop_cond",
                                   "while_loop condition")
    if len(cond_graph.outputs) != 1 or not cond_graph.outputs[0].dtype.is_bool or \
            cond_graph.outputs[0]._shape not in ((), None):
        got = ", ".join(f"{t.dtype.name}{shapes.fmt(t._shape)}" for t in cond_graph.outputs)
        raise TypeError(at_user_line(f"tf.while_loop: the condition must return one scalar bool, got {got}"))

    def run_body(*ph):
        new = _call_body(body, pack(ph), single)
        if not single and isinstance(structure, (list, tuple)) and len(structure) == 1 and \
                not isinstance(new, (list, tuple)):
            new = type(structure)([new])
        return new

    body_graph, body_out = trace_subgraph(_expanding(run_body), specs, "loop_body", "while_loop body")
    body_out = body_out.value
    try:
        nest.assert_same_structure(structure, body_out, check_types=False, expand_composites=True)
    except ValueError as e:
        raise ValueError(at_user_line(
            f"tf.while_loop: the body must return the same structure as loop_vars.\n{e}")) from None
    template = _join_composites(loop_in, body_out, "tf.while_loop", leaf_names, "before the loop",
                                "after one iteration")
    return cond_graph, body_graph, template


def _refines(specific, general) -> bool:
    """True when every composite of `specific` states at least the static facts of its match in `general`."""
    for a, b in zip(nest.flatten(specific), nest.flatten(general)):
        is_subtype = getattr(a, "_is_subtype_of", None) if nest.is_composite(a) else None
        if is_subtype is not None and not is_subtype(b):
            return False
    return True


class _Traced(list):
    """The component tensors of a traced body's result (what the tracer sees), with `value`: the result."""

    value = None


def _expanding(fn):
    """`fn`, returning its result's component tensors to the tracer; the result itself is kept on them."""

    def run(*args):
        value = fn(*args)
        out = _Traced([] if value is None else nest.flatten(value, expand_composites=True))  # None: no outputs
        out.value = value
        return out

    return run


def _component_invariants(structure, invariants):
    """Shape invariants given per leaf, spread over components (a composite's components have none, unless one
    is given for the composite)."""
    leaves = nest.flatten(structure)
    if len(leaves) != len(invariants) or not any(nest.is_composite(leaf) for leaf in leaves):
        return invariants
    out = []
    for leaf, invariant in zip(leaves, invariants):
        if not nest.is_composite(leaf):
            out.append(invariant)
        elif invariant is _NO_INVARIANT:
            out.extend([_NO_INVARIANT] * len(leaf._to_components()))
        else:
            out.extend(_relaxed_components(leaf, invariant))
    return out


def _relaxed_components(leaf, invariant):
    """The component invariants of a composite given a shape invariant, as TF's type specs relax them: each
    component keeps its rank, a dimension only where the invariant fixes it (a fully known invariant keeps the
    composite's own facts). SparseTensor with TensorShape(None): indices [None, None], values [None],
    dense_shape [None]."""
    components = leaf._to_components()
    if invariant is not None and None not in invariant:
        return [_NO_INVARIANT] * len(components)
    return [None if c._shape is None else (None,) * len(c._shape) for c in components]


def _call_cond(cond, values, single):
    return cond(values) if single else cond(*values)


# --- case and switch_case ----------------------------------------------------------------------------------
def switch_case(branch_index, branch_fns, default=None, name=None):
    """`tf.switch_case`: run branch_fns[branch_index] (or default when out of range)."""
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    else:
        pairs = list(enumerate(branch_fns))
    if not pairs:
        raise ValueError("tf.switch_case needs at least one branch")
    fallback = default if default is not None else pairs[-1][1]
    if state.graph is None or not isinstance(branch_index, SymbolicTensor):
        index = int(branch_index)
        for key, fn in pairs:
            if key == index:
                return fn()
        return fallback()
    index = convert_to_tensor(branch_index)
    if not index.dtype.is_integer:
        raise TypeError(at_user_line(f"tf.switch_case: branch_index must be an integer tensor, got {index.dtype.name}"))

    def chain(i):
        if i == len(pairs):
            return fallback()
        key, fn = pairs[i]
        return build_cond(index == key, fn, lambda: chain(i + 1), "tf.switch_case")

    if default is None:
        pairs, last = pairs[:-1], pairs[-1][1]
        fallback = last
    return chain(0)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name=None):
    """`tf.case`: the fn of the first true predicate (default when none is)."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if not pairs:
        if default is None:
            raise ValueError("tf.case needs at least one (predicate, fn) pair or a default")
        return default()
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]

    def chain(i):
        if i == len(pairs):
            return default()
        pred, fn = pairs[i]
        return cond(pred, fn, lambda: chain(i + 1))

    return chain(0)


__all__ = ["cond", "while_loop", "case", "switch_case"]
