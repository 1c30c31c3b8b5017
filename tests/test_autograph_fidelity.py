"""AutoGraph fidelity (issue 8): each case run several ways (eagerly, under tf.function with the graph passes on
and off, against numpy or plain Python, gradients against finite differences), and the messages checked for
the user's line. TensorFlow's own results for these programs are in tests/conformance/autograph_fidelity.py."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf


def line_of(fn, marker: str) -> int:
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if f"# {marker}" in line)


# --- a tensor `if` traces each branch from the state before it -----------------------------------------------
def else_reads_value_from_before(x):
    c = 1.0
    if x > 0:
        c = 2.0
    else:
        x = x * c
    return x


def dead_name_restored(c):
    i = c * 0
    if c > 0:
        i += 1
        s = i
    else:
        s = i + 100
    return s


def other_branch_reads_tensor(x):
    t = x * 3.0
    if x > 0:
        t = x + 1.0
        r = t * t
    else:
        r = t * 2.0
    return r


@pytest.mark.parametrize("x", [-5.0, 5.0])
def test_each_branch_starts_from_the_state_before_the_if(x):
    run_all_ways(else_reads_value_from_before, tf.constant(x), expected=np.float32(x))
    run_all_ways(other_branch_reads_tensor, tf.constant(x),
                 expected=np.float32((x + 1) ** 2 if x > 0 else x * 6.0))


@pytest.mark.parametrize("c, want", [(-1, 100), (3, 1)])
def test_names_dead_after_the_if_are_restored(c, want):
    assert dead_name_restored(c) == want  # plain Python numbers
    run_all_ways(dead_name_restored, tf.constant(c), expected=np.int32(want))


def test_input_only_names_are_not_cond_outputs():
    graph = tf.function(else_reads_value_from_before).get_concrete_function(tf.TensorSpec([])).graph
    cond = next(node for node in graph.walk() if node.op.name == "cond")
    assert len(cond.outputs) == 1  # x only: c is restored for the else branch, not carried out


@pytest.mark.parametrize("x", [-2.0, 3.0])
def test_gradient_through_restored_branch_state(x):
    def loss(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = other_branch_reads_tensor(x)
        return tape.gradient(y, x)

    eps = 1e-3
    numeric = (float(other_branch_reads_tensor(tf.constant(x + eps, tf.float64)))
               - float(other_branch_reads_tensor(tf.constant(x - eps, tf.float64)))) / (2 * eps)
    for way in (loss, tf.function(loss)):
        np.testing.assert_allclose(way(tf.constant(x, tf.float64)).numpy(), numeric, rtol=1e-6)


# --- returns and exceptions ------------------------------------------------------------------------------------
def raising_helper():
    raise ValueError("no value")


def return_of_raising_helper(x):
    try:
        return raising_helper()
    except ValueError:
        pass
    return x + 1


def finally_returns(x):
    try:
        if x > 0:
            return x * 0
    finally:
        return x * 0 + 1  # noqa: B012 - the point of the test


@pytest.mark.parametrize("x", [-1, 2])
def test_return_flag_is_set_once_the_value_exists(x):
    assert return_of_raising_helper(x) == x + 1
    run_all_ways(return_of_raising_helper, tf.constant(x), expected=np.int32(x + 1))
    run_all_ways(finally_returns, tf.constant(x), expected=np.int32(1))


# --- names a Python `if` or loop leaves unassigned -------------------------------------------------------------
def python_if_leaves_name_unbound(x):
    n = 0
    if n > 0:
        y = x
    return y  # noqa: F821  # here


def deleted_then_read(x):
    y = x
    del y
    return y  # noqa: F821  # here


@pytest.mark.parametrize("fn", [python_if_leaves_name_unbound, deleted_then_read])
def test_unassigned_name_raises_unbound_local_error(fn):
    with pytest.raises(UnboundLocalError):
        fn(1.0)  # plain Python
    with pytest.raises(UnboundLocalError, match="'y' is used before assignment") as info:
        tf.function(fn)(tf.constant(1.0))
    assert f'line {line_of(fn, "here")}' in str(info.value)
    assert "ag__.ld(y)" in tf.autograph.to_code(fn)


def deletes_in_both_branches(x):
    y = x * 2
    if x > 0:
        del y
    else:
        del y
    return x


def deletes_in_one_branch(x):
    y = x * 2
    if x > 0:  # here
        del y
        y = 1.0
    else:
        del y
    return y


def test_del_in_tensor_branches():
    run_all_ways(deletes_in_both_branches, tf.constant(3.0), expected=np.float32(3.0))
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch") as info:
        tf.function(deletes_in_one_branch)(tf.constant(1.0))
    assert f'line {line_of(deletes_in_one_branch, "here")}' in str(info.value)


# --- returns and undefined names in graph loops ------------------------------------------------------------------
def return_in_tensor_for(t):
    s = tf.constant(0.0)
    for c in t:
        s += c
        return s
    return s


def return_in_tensor_while(n):
    i = n * 0
    while i < n:
        i += 1
        return i
    return i


def dict_created_in_loop(n):
    i = n * 0
    while i < n:
        d = {"a": i * 2, "b": [i, i + 1]}
        i += 1
    return d["a"], d["b"][1]  # noqa: F821


def test_unconditional_return_in_graph_loops():
    run_all_ways(return_in_tensor_for, tf.constant([3.0, 4.0, 5.0]), expected=np.float32(3.0))
    run_all_ways(return_in_tensor_while, tf.constant(5), expected=np.int32(1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once"):
        tf.function(return_in_tensor_while)(tf.constant(0))


def test_structure_created_inside_a_graph_loop():
    run_all_ways(dict_created_in_loop, tf.constant(3), expected=(np.int32(4), np.int32(3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once to initialize 'd'"):
        tf.function(dict_created_in_loop)(tf.constant(0))


def return_under_tensor_if_in_nested_loop(x):
    while x > 0:
        while x > 2:  # loop
            if x > 5:
                return x  # here
            x -= 1
        x -= 1
    return x


def test_return_a_graph_loop_cannot_hold_names_the_return():
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside this TensorFlow loop") \
            as info:
        tf.function(return_under_tensor_if_in_nested_loop)(tf.constant(3))
    text = str(info.value)
    here = line_of(return_under_tensor_if_in_nested_loop, "here")
    loop = line_of(return_under_tensor_if_in_nested_loop, "loop")
    assert text.index(f"line {here}") < text.rindex(f"line {loop}")


def read_before_defined_in_loop(n):
    i = 0
    while i < n:
        t = t + 1  # noqa: F821, F841
        i += 1
    return i


def test_name_only_defined_in_the_loop_body():
    with pytest.raises(ValueError, match="'t' must be defined before the loop") as info:
        tf.function(read_before_defined_in_loop)(tf.constant(3))
    assert "AutoGraph tried to define it automatically, but ran into a UnboundLocalError" in str(info.value)


def range_target_first_assigned_by_the_loop(n):
    for i in tf.range(n):  # noqa: B007
        pass
    return i  # noqa: F821


@pytest.mark.parametrize("n, want", [(0, 0), (4, 3)])
def test_range_target_starts_at_zero(n, want):
    assert tf.function(range_target_first_assigned_by_the_loop)(tf.constant(n)).numpy() == want


# --- loops with else are not converted ---------------------------------------------------------------------------
def for_else(n):
    s = 0
    for i in range(n):
        s += i
    else:
        s += 100
    return s


def test_for_else_runs_unconverted_with_a_warning():
    with pytest.raises(NotImplementedError, match="for/else statement not yet supported"):
        tf.autograph.to_code(for_else)
    with pytest.warns(tf.autograph.AutoGraphWarning, match="could not transform"):
        assert int(tf.function(for_else)(3)) == 103


# --- Feature and experimental_autograph_options ------------------------------------------------------------------
def prints_its_input(x):
    print("x is", x, "and", x * 2)
    return x + 1


@pytest.mark.parametrize("options", ["BUILTIN_FUNCTIONS", "ALL", ("BUILTIN_FUNCTIONS", "LISTS")])
def test_print_is_staged_under_builtin_functions(options):
    feature = tf.autograph.experimental.Feature
    chosen = tuple(feature[o] for o in options) if isinstance(options, tuple) else feature[options]
    for passes in (True, False):
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            traced = tf.function(prints_its_input, experimental_autograph_options=chosen)
            for v in (1, 2):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    assert int(traced(tf.constant(v))) == v + 1
                assert out.getvalue() == f"x is {v} and {2 * v}\n"
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": False})


def test_print_runs_at_trace_time_by_default():
    traced = tf.function(prints_its_input)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        traced(tf.constant(1))
        traced(tf.constant(2))
    assert out.getvalue().count("x is") == 1  # the trace only


def test_autograph_options_must_be_features():
    with pytest.raises(TypeError, match="Feature"):
        tf.function(prints_its_input, experimental_autograph_options="ALL")(tf.constant(1))


# --- messages ------------------------------------------------------------------------------------------------------
def no_autograph_if(x):
    if x > 0:  # here
        return x
    return -x


def test_python_if_on_tensor_without_autograph_names_the_line():
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        tf.function(no_autograph_if, autograph=False)(tf.constant(1.0))
    text = str(info.value)
    assert text.startswith("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed")
    assert f'{__file__}", line {line_of(no_autograph_if, "here")}' in text


def one_branch(x):
    if x > 0:  # if
        y = x
    z = x + 1.0
    return y + z  # noqa: F821  # use


def test_one_branch_name_points_at_its_use():
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch") as info:
        tf.function(one_branch)(tf.constant(1.0))
    text = str(info.value)
    assert f'line {line_of(one_branch, "use")}' in text and f'line {line_of(one_branch, "if")}' in text


def fact(n):
    if n <= 1:
        return tf.constant(1)
    return n * fact(n - 1)  # here


def test_recursion_on_a_tensor_condition_is_a_staging_error():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(tf.autograph.StagingError, match="maximum recursion depth") as info:
            tf.function(fact)(tf.constant(3))
    text = str(info.value)
    assert "recursed without end" in text and "repeat" in text and len(text) < 3000
    assert f'line {line_of(fact, "here")}' in text
    assert int(tf.function(fact)(4)) == 24  # a Python argument ends the recursion while tracing
    assert float(tf.constant(2.0) * 3.0) == 6.0  # nothing of the failed traces is left behind


def test_tensor_break_in_python_for_uses_tensorflow_wording():
    def f(x):
        s = 0
        for i in range(5):
            if x > i:
                break
            s += i
        return s

    with pytest.raises(NotImplementedError, match="break and return statements which depend on a TF condition"):
        tf.function(f)(tf.constant(2))


# --- chained comparisons -----------------------------------------------------------------------------------------
def chained(x, y, z, seen):
    return x < seen(y) <= z


@pytest.mark.parametrize("args", [(1, 2, 3), (3, 2, 1), (1, 3, 2)])
def test_chained_comparison_evaluates_each_operand_once(args):
    def run(fn, *values):
        calls = []

        def seen(v):
            calls.append(1)
            return v

        return bool(fn(*values, seen)), len(calls)

    want = (args[0] < args[1] <= args[2], 1)
    assert run(chained, *args) == want  # plain Python
    assert run(tf.function(chained), *args) == want  # Python values under tf.function
    feature = tf.autograph.experimental.Feature.EQUALITY_OPERATORS
    traced = tf.function(chained, experimental_autograph_options=feature)
    calls = []

    def seen(v):
        calls.append(1)
        return v

    result = traced(*[tf.constant(a) for a in args], seen)
    assert bool(result) == want[0] and len(calls) == 1  # traced once: the operand is read once
    calls.clear()  # TF converts a chain without the feature too (a lazy and_ of the comparisons)
    assert bool(tf.function(chained)(*[tf.constant(a) for a in args], seen)) == want[0] and len(calls) == 1
