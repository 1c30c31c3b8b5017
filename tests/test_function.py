"""@tf.function: tracing, the signature cache, concrete functions, side effects, variables, methods."""

import collections
import gc
import io
import logging
import sys
import weakref

import numpy as np
import pytest

import tinytf as tf


def test_issue_example_step():
    v = tf.Variable(tf.zeros([3]))
    out = io.StringIO()

    @tf.function
    def step(x, scale=2.0):
        v.assign_add(x * scale)
        tf.print("v is", v, output_stream=out)
        return tf.reduce_sum(v)

    assert float(step(tf.ones([3]))) == 6.0
    assert float(step(tf.ones([3]))) == 12.0
    assert step.experimental_get_tracing_count() == 1
    assert out.getvalue() == "v is [2 2 2]\nv is [4 4 4]\n"
    cf = step.get_concrete_function(tf.TensorSpec([None], tf.float32))
    text = str(cf.graph)
    assert "assign_variable" in text and "read_variable" in text and "float32[?]" in text
    assert "def step(" in cf.code and "np.add.reduce" in cf.code
    assert step.experimental_get_tracing_count() == 2
    assert "TensorSpec(shape=(None,), dtype=tf.float32, name=None)" in step.pretty_printed_concrete_signatures()


def test_same_signature_does_not_retrace_and_new_shapes_do():
    @tf.function
    def f(x):
        return x * 2

    f(tf.constant([1.0, 2.0]))
    f(tf.constant([3.0, 4.0]))
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([1.0, 2.0, 3.0]))
    f(tf.constant([1, 2]))
    assert f.experimental_get_tracing_count() == 3


def test_python_scalars_are_keyed_by_value():
    @tf.function
    def f(x, n):
        return x * n

    assert float(f(tf.constant(2.0), 3)) == 6.0
    assert float(f(tf.constant(2.0), 3)) == 6.0
    assert float(f(tf.constant(2.0), 4)) == 8.0
    f(tf.constant(2.0), True)
    assert f.experimental_get_tracing_count() == 3


def test_concrete_function_for_partial_shape_serves_specific_calls():
    @tf.function
    def f(x):
        return tf.reduce_sum(x, axis=1)

    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    np.testing.assert_allclose(f(tf.ones([1, 3])).numpy(), [3.0])
    np.testing.assert_allclose(f(tf.ones([4, 3])).numpy(), [3.0] * 4)
    assert f.experimental_get_tracing_count() == 1
    np.testing.assert_allclose(cf(tf.ones([2, 3])).numpy(), [3.0, 3.0])


def test_concrete_function_rejects_wrong_signature():
    @tf.function
    def f(x):
        return x + 1

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    # another dtype: TF's function call op raises InvalidArgumentError; tinytf says which spec too
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #0\\(zero-based\\) was expected to be a float "
                                                             "tensor but is a int32 tensor.*was constructed with"):
        cf(tf.constant([1, 2]))
    # another rank: TF would run the graph on it; tinytf's graph is specialized, so it refuses
    with pytest.raises(TypeError, match="was constructed with TensorSpec"):
        cf(tf.ones([2, 2]))


def test_input_signature():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2

    np.testing.assert_allclose(f(tf.constant([1.0])).numpy(), [2.0])
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0, 3.0])).numpy(), [2, 4, 6])
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tf.constant([1, 2]))
    with pytest.raises(TypeError):
        f(tf.ones([2, 2]))


def test_reduce_retracing_generalizes_shapes():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x + 1

    f(tf.ones([2]))
    f(tf.ones([3]))
    f(tf.ones([4]))
    f(tf.ones([5]))
    assert f.experimental_get_tracing_count() == 2
    shapes = [c.graph.inputs[0].shape for c in f.experimental_get_concrete_functions()]
    assert shapes[-1].as_list() == [None]


def test_retrace_warning(caplog):
    @tf.function
    def noisy(x):
        return x

    with caplog.at_level(logging.WARNING, logger="tinytf"):
        for n in range(1, 8):
            noisy(tf.ones([n]))
    messages = [r.getMessage() for r in caplog.records if "triggered tf.function retracing" in r.getMessage()]
    assert messages and messages[0].startswith("5 out of the last 5 calls to")
    assert len(messages) <= 2


def test_structured_inputs_and_outputs():
    Point = collections.namedtuple("Point", "x y")

    @tf.function
    def f(d, pair, p):
        return {"sum": d["a"] + d["b"], "pair": [pair[0] * 2, pair[1]], "p": Point(p.y, p.x), "n": 3}

    out = f({"b": tf.constant(2.0), "a": tf.constant(1.0)}, (tf.constant(1), tf.constant(5)),
            Point(tf.constant(1.0), tf.constant(2.0)))
    assert float(out["sum"]) == 3.0
    assert int(out["pair"][0]) == 2 and int(out["pair"][1]) == 5
    assert isinstance(out["p"], Point) and float(out["p"].x) == 2.0
    assert out["n"] == 3


def test_numpy_arrays_are_tensor_arguments():
    @tf.function
    def f(x):
        return x * 2

    f(np.array([1.0, 2.0], np.float32))
    f(np.array([3.0, 4.0], np.float32))
    assert f.experimental_get_tracing_count() == 1


def test_python_side_effects_only_while_tracing():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert len(calls) == 1


def test_stateful_ops_run_in_program_order_even_if_unused():
    v = tf.Variable(1.0)
    out = io.StringIO()

    @tf.function
    def f():
        tf.print("before", v, output_stream=out)
        v.assign(5.0)
        tf.print("after", v, output_stream=out)
        v.assign_add(1.0)  # result unused: still runs
        return tf.constant(0)

    f()
    assert out.getvalue() == "before 1\nafter 5\n"
    assert float(v.numpy()) == 6.0
    f()
    assert out.getvalue().endswith("before 6\nafter 5\n")


def test_executing_eagerly_and_run_functions_eagerly():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1))
    assert seen == [False] and tf.executing_eagerly()
    tf.config.run_functions_eagerly(True)
    f(tf.constant(1))
    f(tf.constant(1))
    assert seen == [False, True, True]
    tf.config.run_functions_eagerly(False)


def test_variables_only_on_first_trace():
    holder = {}

    @tf.function
    def good(x):
        if "v" not in holder:
            holder["v"] = tf.Variable(1.0)
        return holder["v"] * x

    assert float(good(tf.constant(2.0))) == 2.0
    assert good.experimental_get_tracing_count() == 2  # as TF: a first call that creates variables traces twice
    assert float(good(tf.constant([2.0]))[0]) == 2.0
    assert good.experimental_get_tracing_count() == 3

    @tf.function
    def bad(x):
        return tf.Variable(1.0) * x

    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
        bad(tf.constant(1.0))  # the second trace of the first call creates a variable again


def test_variable_captured_by_reference():
    v = tf.Variable(2.0)

    @tf.function
    def f():
        return v * 3.0

    assert float(f()) == 6.0
    v.assign(5.0)
    assert float(f()) == 15.0
    assert f.experimental_get_tracing_count() == 1


def test_variable_as_argument():
    @tf.function
    def bump(var, x):
        var.assign_add(x)
        return var.read_value()

    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([10.0, 20.0])
    bump(a, tf.constant([1.0, 1.0]))
    bump(b, tf.constant([1.0, 1.0]))
    np.testing.assert_allclose(a.numpy(), [2, 3])
    np.testing.assert_allclose(b.numpy(), [11, 21])
    assert bump.experimental_get_tracing_count() == 1


def test_variable_is_garbage_collected_after_use_in_function():
    v = tf.Variable([1.0])

    @tf.function
    def f():
        return v + 1.0  # noqa: F821 - v is deleted below, on purpose

    f()
    ref = weakref.ref(v)
    del v
    gc.collect()
    assert ref() is None


def test_nested_functions_are_traced_per_outer_trace():
    @tf.function
    def inner(x):
        return x * 2

    @tf.function
    def outer(x):
        return inner(x) + 1

    assert float(outer(tf.constant(1.0))) == 3.0
    assert float(outer(tf.constant(2.0))) == 5.0
    assert outer.experimental_get_tracing_count() == 1
    assert inner.experimental_get_tracing_count() == 1
    outer(tf.constant([1.0]))
    assert inner.experimental_get_tracing_count() == 2


def test_concrete_function_called_inside_another_function():
    @tf.function
    def inner(x):
        return x * 2

    cf = inner.get_concrete_function(tf.TensorSpec([], tf.float32))

    @tf.function
    def outer(x):
        return cf(x) + 1

    assert float(outer(tf.constant(2.0))) == 5.0


def test_methods_get_one_function_per_instance_and_do_not_leak():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Scaler(2.0), Scaler(3.0)
    assert float(a(tf.constant(1.0))) == 2.0
    assert float(b(tf.constant(1.0))) == 3.0
    assert a.__call__ is a.__call__
    assert a.__call__.experimental_get_tracing_count() == 1
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None


def test_symbolic_tensor_as_python_bool_explains_the_fix():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="tf.cond"):
        f(tf.constant(1))


def test_exception_while_tracing_leaves_no_half_built_cache():
    state = {"fail": True}

    @tf.function
    def f(x):
        y = x + 1
        if state["fail"]:
            raise RuntimeError("boom")
        return y

    with pytest.raises(RuntimeError, match="boom"):
        f(tf.constant(1))
    assert f.experimental_get_concrete_functions() == []
    assert tf.executing_eagerly()
    state["fail"] = False
    assert int(f(tf.constant(1))) == 2


def test_op_error_while_tracing_names_op_shapes_and_user_line():
    @tf.function
    def f(x, y):
        return x + y  # the line the error must point at

    with pytest.raises(ValueError) as info:  # TF: shape inference fails while tracing with a ValueError
        f(tf.ones([2, 3]), tf.ones([4]))
    assert type(info.value) is ValueError
    message = str(info.value)
    assert "add" in message and "(2, 3)" in message and "(4,)" in message
    assert "test_function.py" in message and "the line the error must point at" in message
    assert tf.executing_eagerly()


def test_eager_op_error_names_op_shapes_and_user_line():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.add(tf.ones([2, 3]), tf.ones([4]))  # eager mismatch
    message = str(info.value)
    assert "add" in message and "float32[2,3]" in message and "float32[4]" in message
    assert "eager mismatch" in message


def test_runtime_error_in_graph_names_node_and_user_line():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x):
        v.assign(x)  # shape only known at run time
        return tf.constant(0)

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cf(tf.ones([3]))
    assert "assign" in str(info.value) and "shape only known at run time" in str(info.value)
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


def test_generated_code_is_registered_for_tracebacks():
    import linecache

    @tf.function
    def f(x):
        return x * 2 + 1

    cf = f.get_concrete_function(tf.constant(1.0))
    filename = cf._fn.__code__.co_filename
    assert "x * " in "".join(linecache.getlines(filename))


def test_print_goes_to_stderr_by_default(capsys):
    @tf.function
    def f(x):
        tf.print(x)
        tf.print(x, output_stream=sys.stdout)
        return x

    f(tf.constant([4, 5]))
    captured = capsys.readouterr()
    assert captured.err == "[4 5]\n" and captured.out == "[4 5]\n"


def test_concrete_function_accepts_numpy_arrays():
    @tf.function
    def f(x):
        return x * 2.0

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    np.testing.assert_allclose(cf(np.array([1.0, 2.0], np.float32)).numpy(), [2.0, 4.0])


def test_runtime_error_on_the_specialized_call_path_names_node_and_line():
    @tf.function
    def pick(x, i):
        return tf.gather(x, i)  # picks one element

    pick(tf.constant([1.0, 2.0]), tf.constant(0))  # traces, then calls go through the generated __call__
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        pick(tf.constant([1.0, 2.0]), tf.constant(5))
    assert "gather" in str(info.value) and "picks one element" in str(info.value)


def test_debugging_assert_fails_at_run_time_in_graphs():
    @tf.function
    def positive_sqrt(x):
        tf.debugging.Assert(tf.reduce_all(x >= 0), ["x must be non-negative:", x])
        return tf.sqrt(x)

    np.testing.assert_allclose(positive_sqrt(tf.constant([4.0])).numpy(), [2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be non-negative"):
        positive_sqrt(tf.constant([-4.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.debugging.assert_equal(tf.constant(1), 2)
    assert tf.autograph.to_code is not None


def test_function_called_under_an_eager_tape_is_differentiable():
    w = tf.Variable([1.0, 2.0])

    @tf.function
    def loss(x):
        return tf.reduce_sum(tf.square(w * x))

    x = tf.constant([3.0, 4.0])
    loss(x)
    loss(x)  # specialized now
    with tf.GradientTape() as tape:
        value = loss(x)
    grad = tape.gradient(value, w)
    np.testing.assert_allclose(grad.numpy(), 2 * np.array([1.0, 2.0]) * np.array([9.0, 16.0]))
    assert float(value) == float(loss(x))


def test_nested_function_keeps_its_own_cache_and_handles_closures_over_outer_tensors():
    @tf.function
    def inner(x):
        return x * 3.0

    @tf.function
    def outer(x):
        return inner(x) + inner(x + 1.0)  # one trace of inner serves both calls

    assert float(outer(tf.constant(1.0))) == 9.0
    assert inner.experimental_get_tracing_count() == 1
    assert float(inner(tf.constant(5.0))) == 15.0  # the eager call reuses that trace
    assert inner.experimental_get_tracing_count() == 1

    @tf.function
    def closes_over(x):
        y = x * 2.0

        @tf.function
        def add_y(z):
            return z + y  # y is a tensor of the outer graph: traced into it instead

        return add_y(x)

    assert float(closes_over(tf.constant(2.0))) == 6.0


def test_specialized_call_binds_keywords_and_reports_bad_arguments():
    @tf.function
    def scale(x, factor):
        return x * factor

    x, k = tf.constant(2.0), tf.constant(3.0)
    assert float(scale(x, k)) == 6.0
    assert float(scale(x, k)) == 6.0  # the generated __call__
    assert float(scale(factor=k, x=x)) == 6.0
    assert float(scale(x, factor=tf.constant(4.0))) == 8.0
    with pytest.raises(TypeError, match="unexpected keyword argument 'bad'"):
        scale(x, k, bad=1)
    with pytest.raises(TypeError, match="scale"):
        scale(x)
    assert scale.experimental_get_tracing_count() == 1
