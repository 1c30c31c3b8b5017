"""AutoGraph's errors: each names the problem in TensorFlow's words and points at the user's line
("in user code:", then the file and line of the statement at fault)."""

import inspect
import sys

import numpy as np
import pytest

import tinytf as tf
import tinytf.autograph  # noqa: F401  (tf.autograph)
from tinytf.autograph import AutoGraphWarning


def line_of(fn, marker: str) -> int:
    """The line of `fn`'s source file holding the comment `# <marker>`."""
    lines, start = inspect.getsourcelines(fn)
    for offset, text in enumerate(lines):
        if text.rstrip().endswith(f"# {marker}"):
            return start + offset
    raise AssertionError(f"marker {marker} not found")


def raises_at(fn, args, error, message, marker):
    with pytest.raises(error) as info:
        tf.function(fn)(*args)
    text = str(info.value)
    assert message in text, text
    assert text.startswith("in user code:"), text
    assert f'{__file__}", line {line_of(fn, marker)}' in text, text
    return text


def undefined_in_else(x):
    if x > 0:  # here
        y = x + 1
    return y  # noqa: F821


def test_name_set_in_one_branch_only():
    raises_at(undefined_in_else, [tf.constant(1)], ValueError, "'y' must also be initialized in the else branch",
              "here")


def returns_in_one_branch(x):
    if x > 0:  # here
        return x
    else:
        x = x + 1


def test_return_in_one_branch_only():
    raises_at(returns_in_one_branch, [tf.constant(1)], ValueError,
              "the else branch must also have a return statement", "here")


def dtype_changes(n):
    while n < 10:  # here
        n = tf.cast(n, tf.float32) * 2.0
    return n


def test_loop_variable_changing_dtype():
    raises_at(dtype_changes, [tf.constant(1)], TypeError,
              "'n' has dtype int32 before the loop, but dtype float32 after one iteration", "here")


def shape_changes(x):
    i = 0
    while i < tf.constant(3):  # here
        x = tf.concat([x, x], 0)
        i += 1
    return x


def shape_changes_with_invariant(x):
    i = 0
    while i < tf.constant(3):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, x], 0)
        i += 1
    return x


def test_loop_variable_changing_shape_needs_an_invariant():
    raises_at(shape_changes, [tf.constant([1.0])], ValueError,
              "'x' has shape (1,) before the loop, but shape (2,) after one iteration", "here")
    f = tf.function(shape_changes_with_invariant)
    assert f(tf.constant([1.0])).numpy().shape == (8,)
    assert f.get_concrete_function(tf.constant([1.0])).outputs[0].shape.as_list() == [None]


def structure_changes(x):
    i = tf.constant(0)
    while i < 3:  # here
        x = (x, x)
        i += 1
    return x


def test_loop_variable_changing_structure():
    raises_at(structure_changes, [tf.constant(1.0)], TypeError,
              "'x' does not have the same nested structure after one iteration", "here")


def defined_only_in_loop(n):
    i = 0
    while i < n:  # here
        last = i * 2
        i += 1
    return last


def test_variable_used_after_a_loop_that_may_not_run():
    # As TensorFlow: the loop is staged (a dry run finds last's dtype and shape), it runs when it iterates,
    # and a run that does not iterate fails with "loop must iterate at least once", pointing at the loop.
    f = tf.function(defined_only_in_loop)
    assert int(f(tf.constant(3))) == 4
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(0))
    text = str(info.value)
    assert "loop must iterate at least once to initialize 'last'" in text
    assert f'{__file__}", line {line_of(defined_only_in_loop, "here")}' in text
    assert f.experimental_get_tracing_count() == 1


def defined_only_in_loop_then_reassigned(xs):
    for row in xs:
        last = row * 2.0  # its shape comes from the dry run: (2,)
    return last + 1.0


def test_loop_defined_variable_takes_its_shape_from_the_body():
    out = tf.function(defined_only_in_loop_then_reassigned)(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(out.numpy(), [7.0, 9.0])


def while_else(n):
    while n > 0:  # here
        n -= 1
    else:
        n = n + 100
    return n


def for_else(n):
    s = 0
    for i in tf.range(n):  # here
        s += i
    else:
        s = -1
    return s


def test_loop_else_is_not_converted():
    """As TensorFlow: a loop with an else makes the conversion fail (NotImplementedError from to_code), and
    tf.function then runs the function unconverted, with a warning: fine over Python values, while a tensor
    condition or iteration fails at the user's line like any unconverted code."""
    for fn, kind in [(while_else, "while"), (for_else, "for")]:
        with pytest.raises(NotImplementedError, match=f"{kind}/else statement not yet supported"):
            tf.autograph.to_code(fn)
        with pytest.warns(tf.autograph.AutoGraphWarning, match=f"{kind}/else statement not yet supported"):
            with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
                tf.function(fn)(tf.constant(3))
        assert f'{__file__}", line {line_of(fn, "here")}' in str(info.value)
    assert tf.function(while_else)(3) == 100  # a Python loop keeps its else


def tensor_break_in_python_loop(x):
    for i in range(5):  # here
        if x > i:
            break
        x = x + 1
    return x


def test_tensor_dependent_break_inside_python_loop():
    raises_at(tensor_break_in_python_loop, [tf.constant(3)], NotImplementedError,
              "break and return statements which depend on a TF condition are not supported in Python for loops",
              "here")


def condition_becomes_tensor(x):
    i = 0
    while i < 3:  # here
        i = i + x
    return i


def test_python_condition_that_turns_into_a_tensor():
    raises_at(condition_becomes_tensor, [tf.constant(1)], NotImplementedError,
              "The condition of while loop started as non-Tensor, then changed to Tensor", "here")


def generator(x):
    for i in range(3):
        yield x + i  # here


def test_generators_are_not_converted_and_their_output_is_refused():
    """As TF: conversion refuses `yield` (naming its line); tf.function then runs the function as written,
    with a warning, and rejects the generator it returns."""
    with pytest.raises(NotImplementedError) as info:
        tf.autograph.to_code(generator)
    assert "AutoGraph does not support generators" in str(info.value)
    assert f'line {line_of(generator, "here")}' in str(info.value)
    with pytest.warns(AutoGraphWarning, match="could not transform"), \
            pytest.raises(TypeError, match="found return value of type generator"):
        tf.function(generator)(tf.constant(1))


def test_function_without_source_runs_unconverted_with_a_warning():
    namespace = {}
    exec("def no_source(x):\n    return x * 2 + 1\n", namespace)
    with pytest.warns(AutoGraphWarning, match="could not transform .* and will run it as-is"):
        result = tf.function(namespace["no_source"])(tf.constant(3))
    assert result.numpy() == 7


def asserts_positive(x):
    assert x > 0, "x must be positive"  # here
    return x * 2


def test_assert_on_a_tensor_is_python_bool_by_default_as_in_tensorflow():
    # TF converts `assert` only under Feature.ASSERT_STATEMENTS: otherwise the tensor is used as a Python bool
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        tf.function(asserts_positive)(tf.constant(3))
    assert tf.function(asserts_positive)(3).numpy() == 6  # a Python number asserts in Python


def test_assert_on_a_tensor_fails_when_the_graph_runs():
    f = tf.function(asserts_positive,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    assert f(tf.constant(3)).numpy() == 6
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(-3))
    assert "assertion failed: x must be positive" in str(info.value)
    assert f'line {line_of(asserts_positive, "here")}' in str(info.value)
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(AssertionError, match="x must be positive"):
        asserts_positive(tf.constant(-3))


def op_error_in_branch(x):
    if x > 0:
        y = tf.concat([x, x], 0)  # here
    else:
        y = x
    return y


def test_op_errors_point_at_the_user_line_of_converted_code():
    raises_at(op_error_in_branch, [tf.constant(1)], Exception, "concat", "here")


def dtype_differs_between_branches(x):
    if x > 0:  # here
        y = tf.constant(1.0)
    else:
        y = tf.constant(1)
    return y


def test_branch_outputs_must_agree_in_dtype():
    raises_at(dtype_differs_between_branches, [tf.constant(1)], TypeError, "'y' has dtype float32", "here")


def test_errors_of_plain_python_code_keep_their_type():
    def bad(x):
        return {}["missing"]

    with pytest.raises(KeyError):
        tf.function(bad)(tf.constant(1))


def test_print_runs_while_tracing_and_tf_print_when_running(capsys):
    @tf.function
    def f(x):
        print("tracing", x.dtype.name)
        tf.print("running", x, output_stream=sys.stdout)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    out = capsys.readouterr().out
    assert out.count("tracing int32") == 1
    assert "running 1" in out and "running 2" in out


def test_do_not_convert_runs_python_as_written():
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def f(x):
        return helper(x)

    with pytest.raises(tf.OperatorNotAllowedInGraphError):
        f(tf.constant(1))
    assert tf.function(helper)(-2) == 2  # a Python argument: the Python if runs while tracing


def return_in_graph_loop(n):
    i = 0
    while i < n:  # here
        if i == 3:
            return i * 10
        i += 1
    return -1


def test_return_inside_a_graph_loop():
    raises_at(return_in_graph_loop, [tf.constant(5)], NotImplementedError,
              "a return statement cannot be placed inside this TensorFlow loop", "here")
    assert tf.function(return_in_graph_loop)(5) == 30  # a Python loop may return


class _Partial:
    def set_in_one_branch(self, x):
        if x > 0:  # here
            self.value = x
        return x


def test_attribute_set_in_one_branch_only():
    raises_at(_Partial().set_in_one_branch, [tf.constant(1)], ValueError,
              "'self.value' must also be initialized in the else branch", "here")


def long_python_loop(x):
    for _ in range(3000):
        x = tf.tanh(x * 0.5 + 1.0) * 2.0 - 1.0 + x * 0.1 - 0.2 * tf.sin(x) + tf.cos(x)
    return x


def test_large_unrolled_python_loop_warns():
    with pytest.warns(UserWarning, match="Large unrolled loop detected"):
        tf.function(long_python_loop).get_concrete_function(tf.TensorSpec([], tf.float32))
