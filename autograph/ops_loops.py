"""Run-time helpers of converted `while` and `for` loops.

A loop whose condition (or iterated object) is a Python value or an eager tensor runs as a Python loop
(`for i in range(3)` is unrolled into the graph). A symbolic condition, `tf.range`, a symbolic tensor to
iterate, or a dataset (iterables.py) makes one while_loop node whose loop variables are the loop's state
(get_state/set_state) plus hidden counters."""

from __future__ import annotations

import warnings

import numpy as np

from tinytf.runtime import nest, shapes
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import Location, at_user_line, user_location
from tinytf.runtime.ops.array import fill
from tinytf.runtime.ops.control import while_loop
from tinytf.runtime.ops.debugging import Assert
from tinytf.runtime.ops.math import greater, logical_and
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor
from tinytf.runtime.trace import trace_subgraph

from .iterables import Range, custom_source, going_on, source_of
from .staging import as_condition, check_iteration, check_loop_entry, is_symbolic, leaf_names, to_tensors
from .undefined import Undefined, UndefinedReturnValue

# TensorFlow's wording first (programs match on it), then what to change.
_PYTHON_COND_BECAME_TENSOR = (
    "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either because "
    "variables changed type, or when a break or return statement inside the loop depends on a Tensor condition. "
    "In both cases, changing to a TF loop should remove the error. Make the condition a tensor from the start "
    "(e.g. tf.constant(0) rather than 0) so that the whole loop becomes a graph loop.")
_TENSOR_BREAK_IN_PYTHON_LOOP = (
    "break and return statements which depend on a TF condition are not supported in Python for loops. Did you "
    "intend to make it a TF loop? The loop iterates over a Python value ({iterated}), so it is unrolled while "
    "tracing and cannot stop at run time. Iterate over a tensor (for example tf.range(n) instead of range(n)) "
    "to make it a graph loop.")


# --- while ------------------------------------------------------------------------------------------------
def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """`while test(): body()`."""
    first = as_condition(test())
    if is_symbolic(first):
        _staged_loop(lambda hidden: as_condition(test()), lambda hidden: body() or (), (), (), get_state, set_state,
                     symbol_names, opts)
        return
    cond = first
    while True:
        if is_symbolic(cond):
            raise NotImplementedError(at_user_line(_PYTHON_COND_BECAME_TENSOR))
        if not cond:
            break
        body()
        cond = as_condition(test())


# --- for --------------------------------------------------------------------------------------------------
def for_stmt(iterated, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for x in iterated: body(x)`, stopping early once `extra_test()` is false (break or return)."""
    iterated = as_condition(iterated)
    custom = custom_source(iterated, opts.get("iterate_names", "") or "iterate")
    if custom is not None:
        custom.check_loop(symbol_names)
        _source_loop(custom, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    if is_symbolic(iterated):
        iterate = opts.get("iterate_names", "")
        source = source_of(iterated, iterate if iterate.isidentifier() else "iterate")
        _source_loop(source, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    _python_for(iterated, extra_test, body)


def _python_for(iterated, extra_test, body):
    def go_on():
        if extra_test is None:
            return True
        ok = as_condition(extra_test())
        if is_symbolic(ok):
            raise NotImplementedError(at_user_line(_TENSOR_BREAK_IN_PYTHON_LOOP.format(
                iterated=type(iterated).__name__)))
        return ok

    if not go_on():
        return
    watch = _UnrollWatch()
    for item in iterated:
        body(item)
        watch.iteration()
        if not go_on():
            return


# TensorFlow's thresholds for "Large unrolled loop detected"
_UNROLL_WARN_ITERATIONS = 3000
_UNROLL_WARN_OPS_PER_ITERATION = 10


class _UnrollWatch:
    """Warns once when a Python loop, unrolled into the graph being traced, runs many iterations that each
    add several ops: the user probably meant a graph loop (tf.range)."""

    def __init__(self):
        self.graph = state.graph
        self.start = len(self.graph.nodes) if self.graph is not None else 0
        self.count = 0

    def iteration(self):
        self.count += 1
        if self.graph is None or self.count != _UNROLL_WARN_ITERATIONS:
            return
        per_iteration = (len(self.graph.nodes) - self.start) / self.count
        if per_iteration >= _UNROLL_WARN_OPS_PER_ITERATION:
            warnings.warn(at_user_line(
                f"Large unrolled loop detected: a Python loop has run {self.count} iterations while tracing, "
                f"adding about {per_iteration:.0f} ops each to the graph. Did you mean to use a TF loop? Iterate "
                "over a tensor (tf.range(n) instead of range(n)) to build one graph loop."), stacklevel=3)


def _with_extra_test(cond, extra_test):
    if extra_test is None:
        return cond
    extra = as_condition(extra_test())
    if is_symbolic(extra):
        return logical_and(cond, extra)
    return cond if extra else False


def _source_loop(source, extra_test, body, get_state, set_state, names, opts):
    """One while loop over a source (iterables.py): the int32 index (when the source needs one: tensors,
    enumerate) and the source's own counters (ranges) are hidden loop variables."""
    if isinstance(source, Range):
        # As TensorFlow: a range's target first assigned by the loop starts as zero, with no check that the
        # loop ran (`for i in tf.range(0)` then `return i` gives 0).
        opts = dict(opts, unchecked=(opts.get("iterate_names", ""),))
    index = (convert_to_tensor(0),) if source.uses_index else ()
    hidden_init = index + tuple(source.hidden)
    hidden_names = ("index",) * len(index) + tuple(source.names)

    def split(hidden):
        return (hidden[0], hidden[1:]) if index else (None, hidden)

    def cond(hidden):
        i, own = split(hidden)
        return _with_extra_test(going_on(source, own, i), extra_test)

    def step_body(hidden):
        i, own = split(hidden)
        body(source.item(own, i))
        return ((i + 1,) if index else ()) + tuple(source.advance(own))

    _staged_loop(cond, step_body, hidden_init, hidden_names, get_state, set_state, names, opts)


# --- the staged loop --------------------------------------------------------------------------------------
def _staged_loop(cond_fn, body_fn, hidden_init, hidden_names, get_state, set_state, names, opts, on_exit=None):
    """One while_loop over (hidden values, the user's state). cond_fn(hidden) -> condition; body_fn(hidden)
    runs the user's block and returns the next hidden values."""
    original = get_state()
    undefined = [i for i, value in enumerate(original) if isinstance(value, (Undefined, UndefinedReturnValue))]
    if undefined:
        _staged_loop_with_undefined(cond_fn, body_fn, hidden_init, hidden_names, get_state, set_state, names, opts,
                                    original, undefined)
        return
    check_loop_entry(original, names)
    initial = tuple(to_tensors(v, n, "before the loop") for v, n in zip(original, names))
    structure = (tuple(hidden_init), initial)
    flat = nest.flatten(structure)
    flat_names = list(hidden_names) + [leaf for n, v in zip(names, initial) for leaf in leaf_names(n, v)]

    def unpack(leaves):
        hidden, user = nest.pack_sequence_as(structure, list(leaves))
        set_state(user)
        return hidden

    def loop_cond(*leaves):
        return cond_fn(unpack(leaves))

    def loop_body(*leaves):
        hidden = unpack(leaves)
        before = get_state()
        new_hidden = body_fn(hidden)
        after = get_state()
        check_iteration(before, after, names)
        new_user = tuple(to_tensors(v, n, "after one iteration") for v, n in zip(after, names))
        return nest.flatten((tuple(new_hidden), new_user))

    result = while_loop(loop_cond, loop_body, flat, shape_invariants=_invariants(opts, original, flat),
                        maximum_iterations=opts.get("maximum_iterations"), names=flat_names)
    hidden, user = nest.pack_sequence_as(structure, list(result))
    set_state(user)
    if on_exit is not None:
        on_exit(hidden)


_LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"


def _staged_loop_with_undefined(cond_fn, body_fn, hidden_init, hidden_names, get_state, set_state, names, opts,
                                original, undefined):
    """A loop that defines variables it carries (or leaves for after it) that had no value before it, or
    returns from inside its body, as TensorFlow handles them: one dry run of the body (traced, then thrown
    away) finds their structures, dtypes and shapes; they enter the loop as zeros like them, with shapes that
    may vary, and an iteration counter; after the loop an assertion checks that it ran at least once. When the
    dry run fails, or leaves a variable without a value, TensorFlow's errors say so."""
    specs, after, failure = _dry_run(body_fn, hidden_init, get_state, set_state, original, undefined, names)
    _check_defined_by_body(original, undefined, names, specs, after, failure, opts.get("return_lines", ()))
    starting = list(original)
    extra = []
    for i in undefined:
        structure, leaf_specs = specs[i]
        zeros = []
        for dtype, shape in leaf_specs:
            zero = fill([0 if d is None else d for d in (shape or ())],
                        convert_to_tensor(np.zeros((), dtype.np)[()]))
            zeros.append(zero)
            # the dry run's shape (None dims included) is the invariant: zeros of a made-up size must not fix it
            extra.append((zero, TensorShape(shape)))
        starting[i] = nest.pack_sequence_as(structure, zeros)
    set_state(tuple(starting))
    counter_name = "iterations"
    opts = dict(opts, shape_invariants=list(opts.get("shape_invariants") or ()) + extra)

    def counted_cond(hidden):
        return cond_fn(hidden[:-1])

    def counted_body(hidden):
        return tuple(body_fn(hidden[:-1])) + (hidden[-1] + 1,)

    counter = []

    def keep_counter(hidden):
        counter.append(hidden[-1])

    _staged_loop(counted_cond, counted_body, tuple(hidden_init) + (convert_to_tensor(0),),
                 tuple(hidden_names) + (counter_name,), get_state, set_state, names, opts,
                 on_exit=keep_counter)
    for i in undefined:
        if names[i] not in opts.get("unchecked", ()):
            Assert(greater(counter[0], 0), [f"loop must iterate at least once to initialize '{names[i]}'"])


def _check_defined_by_body(original, undefined, names, specs, after, failure, return_lines):
    """TensorFlow's errors for loop variables the dry run could not give a value."""
    for i in undefined:
        if i in specs:
            continue
        if isinstance(original[i], UndefinedReturnValue):
            if after is not None:
                raise ValueError(at_user_line(
                    f"the return value from a TensorFlow loop may only be a {_LEGAL_LOOP_TYPES}; got "
                    f"{type(after[i])}"))
            raise NotImplementedError(at_user_line(
                "a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                "statement depends on a static Python condition such as a hyperparameter" + _returns_at(return_lines)))
        message = f"'{names[i]}' must be defined before the loop"
        if failure is not None:
            message += f"\nNote: AutoGraph tried to define it automatically, but ran into a {failure}"
        raise ValueError(at_user_line(message))


def _returns_at(lines) -> str:
    """Where the loop's return statements are (the error's location below is the loop's)."""
    here = user_location(3)
    if not lines or here is None:
        return ""
    where = "\n  ".join(str(Location(here.filename, line, here.function)) for line in lines)
    return (f"; a return inside a graph loop must run on every iteration (not under a tensor `if`). The return:\n"
            f"  {where}\nin this loop:")


def _leaf_spec(value):
    """(dtype, shape) of a leaf the body gave an undefined variable, or None when it cannot enter a loop."""
    if isinstance(value, (Undefined, UndefinedReturnValue)) or value is None:
        return None
    if not isinstance(value, (Tensor, bool, int, float, np.generic, np.ndarray)) and not hasattr(value, "dtype"):
        return None
    value = convert_to_tensor(value)
    return value.dtype, value._shape


def _dry_run(body_fn, hidden_init, get_state, set_state, original, undefined, names):
    """Trace the body once in a throwaway graph: (the structure and leaf (dtype, shape)s of each undefined
    variable the body defines, the state after the body or None, the error that stopped the dry run or None).
    Like TensorFlow, errors a body may raise only because a variable is not defined yet end the dry run."""
    hidden_specs = [(t.dtype, t._shape, "hidden") for t in (convert_to_tensor(h) for h in hidden_init)]
    defined = [(i, to_tensors(v, names[i], "before the loop")) for i, v in enumerate(original) if i not in undefined]
    flat_defined = [leaf for _, v in defined for leaf in nest.flatten(v)]
    specs = hidden_specs + [(t.dtype, t._shape, "state") for t in flat_defined]
    found, seen = {}, []

    def run(*placeholders):
        hidden = placeholders[:len(hidden_specs)]
        leaves = iter(placeholders[len(hidden_specs):])
        state = list(original)
        for i, value in defined:
            state[i] = nest.pack_sequence_as(value, [next(leaves) for _ in nest.flatten(value)])
        set_state(tuple(state))
        body_fn(tuple(hidden))
        after = get_state()
        seen.append(after)
        for i in undefined:
            value = after[i]
            if isinstance(value, (Undefined, UndefinedReturnValue)):
                continue
            leaf_specs = [_leaf_spec(leaf) for leaf in nest.flatten(value)]
            if value is None or any(spec is None for spec in leaf_specs):
                continue
            found[i] = (value, leaf_specs)
        return None

    failure = None
    try:
        trace_subgraph(run, specs, "dry_run", "loop body")
    except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
        failure = f"{type(e).__name__}: {_first_line(e)}"
    finally:
        set_state(original)
    return found, (seen[0] if seen and failure is None else None), failure


def _first_line(error) -> str:
    text = str(error)
    if text.startswith("in user code:"):  # a message already wrapped with frames: keep the error's own text
        text = text.rsplit(f"{type(error).__name__}: ", 1)[-1]
    return text.strip().splitlines()[0] if text.strip() else ""


def _identity(value):
    """What names a loop variable in shape_invariants: the object, or for a composite (a SparseTensor, which
    the loop's state handling may rebuild around the same tensors) the identities of its components."""
    if nest.is_composite(value):
        return tuple(id(c) for c in value._to_components())
    return id(value)


def _invariants(opts, original, flat):
    """Per loop-variable leaf shape invariants from set_loop_options(shape_invariants=[(var, shape)])."""
    given = opts.get("shape_invariants")
    if not given:
        return None
    by_id = {_identity(var): shape for var, shape in given}
    original_leaves = [leaf for value in original for leaf in nest.flatten(value)]
    hidden = len(flat) - len(original_leaves)
    out = []
    for i, leaf in enumerate(flat):
        chosen = by_id.get(_identity(original_leaves[i - hidden])) if i >= hidden else None
        if nest.is_composite(leaf):
            # composites carry their own static facts, unless an invariant is given for one (TF relaxes its
            # components then: a SparseTensor whose rank grows in the loop)
            out.append(None if chosen is None else shapes.TensorShape(shapes.as_shape(chosen)))
        else:
            out.append(shapes.TensorShape(leaf._shape if chosen is None else shapes.as_shape(chosen)))
    return out
