"""Run-time helpers of converted `if` statements, conditional expressions and `and`/`or`/`not`: plain Python
when the condition is a Python value or an eager tensor, one cond node when it is a symbolic tensor."""

from __future__ import annotations

import operator

from tinytf.runtime import nest
from tinytf.runtime.errors import Location, at_user_line, user_location
from tinytf.runtime.ops.control import build_cond
from tinytf.runtime.ops.math import logical_not

from .staging import as_condition, is_symbolic, leaf_names, to_tensors
from .undefined import Undefined, UndefinedReturnValue


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts=None, uses=None):
    """`if cond: body() else: orelse()`. A staged cond traces each branch from the state before the `if`;
    the first `nouts` names of the state (all when None) are its outputs, the others only inputs. `uses`:
    the line where each output is read next (messages point there)."""
    cond = as_condition(cond)
    if is_symbolic(cond):
        _staged_if(cond, body, orelse, get_state, set_state, symbol_names, len(symbol_names) if nouts is None
                   else nouts, uses or {})
    elif cond:
        body()
    else:
        orelse()


def _staged_if(cond, body, orelse, get_state, set_state, all_names, nouts, uses):
    initial = get_state()
    names = all_names[:nouts]
    traced = {}
    flat_names = []  # filled once the main branch shows the structure of each value (read after tracing)

    def branch(block, label):
        def run():
            set_state(initial)
            block()
            values = get_state()[:nouts]
            _check_branch(values, names, label, uses)
            if label == "else":
                _check_same_structure(traced["main"], values, names)
            traced[label] = values
            if label == "main":
                flat_names[:] = [leaf for n, v in zip(names, values) for leaf in leaf_names(n, v)]
            return tuple(to_tensors(v, n, f"at the end of the {label} branch") for v, n in zip(values, names))

        return run

    results = build_cond(cond, branch(body, "main"), branch(orelse, "else"), "if statement", names=flat_names)
    set_state(tuple(results) + tuple(initial[nouts:]))


def _check_branch(values, names, label, uses):
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            raise ValueError(at_user_line(f"'{name}' must also be initialized in the {label} branch"
                                          + _read_at(name, label, uses)))
        if isinstance(value, UndefinedReturnValue):
            raise ValueError(at_user_line(f"the {label} branch must also have a return statement."))
        if any(leaf is None for leaf in nest.flatten(value)):
            raise ValueError(at_user_line(f"'{name}' is None at the end of the {label} branch."))


def _read_at(name, label, uses) -> str:
    """Where the name is read after the `if` (TensorFlow names only the `if`, below)."""
    here = user_location(3)
    if name not in uses or here is None:
        return ""
    used = Location(here.filename, uses[name], here.function)
    return f": it is read after the `if`, at\n  {used}\nwhile the {label} branch of this `if` does not assign it:"


def _check_same_structure(main, other, names):
    for name, a, b in zip(names, main, other):
        try:
            nest.assert_same_structure(a, b, check_types=False)
        except ValueError as e:
            raise TypeError(at_user_line(
                f"'{name}' must have the same nested structure in the main and else branches:\n\n{e}")) from None


def if_exp(cond, if_true, if_false, expr_repr):
    """`if_true() if cond else if_false()`."""
    cond = as_condition(cond)
    if is_symbolic(cond):
        return build_cond(cond, if_true, if_false, f"the conditional expression on `{expr_repr}`")
    return if_true() if cond else if_false()


def and_(a_fn, b_fn):
    """`a and b`: b is evaluated only if a is true (a cond on symbolic tensors)."""
    a = as_condition(a_fn())
    if is_symbolic(a):
        return build_cond(a, b_fn, lambda: a, "an `and` expression")
    return b_fn() if a else a


def or_(a_fn, b_fn):
    """`a or b`: b is evaluated only if a is false."""
    a = as_condition(a_fn())
    if is_symbolic(a):
        return build_cond(a, lambda: a, b_fn, "an `or` expression")
    return a if a else b_fn()


_COMPARISONS = {
    "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt,
    "GtE": operator.ge, "Is": operator.is_, "IsNot": operator.is_not, "In": lambda a, b: a in b,
    "NotIn": lambda a, b: a not in b,
}


def compare_chain(operators, operands):
    """`a op1 b op2 c ...`: the comparisons joined with the lazy `and_` (a cond on tensors), as TensorFlow
    converts a chain (`0 < x < 5` on a tensor works); each operand evaluated once, left to right, and only
    while the chain holds, as in Python (TF's rewrite evaluates a middle operand in both its comparisons)."""
    def rest(i, left):
        right = operands[i]()
        result = _COMPARISONS[operators[i - 1]](left, right)
        if i == len(operands) - 1:
            return result
        return and_(lambda: result, lambda: rest(i + 1, right))

    return rest(1, operands[0]())


def not_(a):
    """`not a`: logical_not on symbolic tensors."""
    a = as_condition(a)
    if is_symbolic(a):
        return logical_not(a)
    return not a
