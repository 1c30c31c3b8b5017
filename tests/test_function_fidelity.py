"""tf.function fidelity (issue 8): outputs are tensors, ConcreteFunctions bind traced Python values and
print TF's text, input_signature converts lists and arrays, symbolic tensors print and fail as in TF, the
tracing protocol, custom_gradient with variables, and clear messages for bad input. TF's own outputs for the
same programs are in tests/conformance/function_fidelity.py."""

import numpy as np
import pytest

import tinytf as tf
from tests.gradcheck import check_gradients
from tests.ways import run_all_ways


# --- outputs ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, dtype", [(2, tf.int32), (2.5, tf.float32), (True, tf.bool),
                                          (np.float64(1.5), tf.float64), (np.arange(3), tf.int64)])
def test_python_and_numpy_outputs_become_tensors(value, dtype):
    out = tf.function(lambda: value)()
    assert isinstance(out, tf.Tensor) and out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), value)


def test_structured_outputs_convert_leaves_but_keep_none():
    out = tf.function(lambda x: {"n": 1, "t": x * 2, "none": None, "pair": (0.5, x)})(tf.constant(3))
    assert out["none"] is None
    assert [out["n"].numpy(), out["t"].numpy(), out["pair"][0].numpy()] == [1, 6, 0.5]
    assert out["pair"][0].dtype is tf.float32


def test_returned_variable_and_assign_results_are_values():
    v = tf.Variable([1.0, 2.0])
    read = tf.function(lambda: v)
    bump = tf.function(lambda: v.assign_add([1.0, 1.0]))
    first = read()
    assert type(first) is not tf.Variable and first.numpy().tolist() == [1.0, 2.0]
    assert bump().numpy().tolist() == [2.0, 3.0]
    assert bump().numpy().tolist() == [3.0, 4.0]
    assert first.numpy().tolist() == [1.0, 2.0]  # a value, not a view of the variable
    run_all_ways(lambda x: x * 2.0, tf.constant([1.0, 2.0]), expected=np.array([2.0, 4.0], np.float32))


# --- ConcreteFunction ----------------------------------------------------------------------------------------
def test_concrete_function_binds_python_arguments():
    @tf.function
    def pow_(a, b):
        return a ** b

    cf = pow_.get_concrete_function(tf.TensorSpec([]), b=2)
    assert cf(tf.constant(3.0)).numpy() == 9.0
    assert cf(tf.constant(3.0), 2).numpy() == 9.0
    assert cf(a=tf.constant(4.0)).numpy() == 16.0
    with pytest.raises(TypeError, match="traced with the Python value"):
        cf(tf.constant(3.0), 3)


def test_concrete_function_still_requires_tensor_arguments():
    @tf.function
    def add(a, b):
        return a + b

    cf = add.get_concrete_function(tf.TensorSpec([]), tf.TensorSpec([]))
    with pytest.raises(TypeError, match="missing a required argument: 'b'"):
        cf(tf.constant(1.0))


def test_concrete_function_text():
    v = tf.Variable(2.0)

    @tf.function
    def h(x, n=3):
        return x * v, None

    cf = h.get_concrete_function(tf.TensorSpec([3]))
    text = str(cf)
    assert text.startswith("ConcreteFunction Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): "
                           "TensorSpec(shape=(3,), dtype=tf.float32, name=None)\n  n (POSITIONAL_OR_KEYWORD): "
                           "Literal[3]\nOutput Type:\n  Tuple[TensorSpec(shape=(3,), dtype=tf.float32, name=None), "
                           "Literal[None]]\nCaptures:\n  ")
    assert text.endswith(": TensorSpec(shape=(), dtype=tf.resource, name=None)")
    assert repr(cf).startswith("<ConcreteFunction (x: TensorSpec(shape=(3,), dtype=tf.float32, name=None), "
                               "n: Literal[3]) -> Tuple[")
    assert h.pretty_printed_concrete_signatures() == text.removeprefix("ConcreteFunction ")


def test_get_concrete_function_of_an_input_signature_function_is_its_one_trace():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return x + 1

    assert f.get_concrete_function(tf.constant([1.0])) is f.get_concrete_function(tf.constant([[3.0]]))
    assert f.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("value", [[[5.0, 12.0]], np.array([[5, 12]]), np.array([[5.0, 12.0]], np.float64),
                                   ((5.0, 12.0),)])
def test_input_signature_converts_to_the_spec_dtype(value):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def row_norms(x):
        assert x.dtype is tf.float32
        return tf.norm(x, axis=1)

    out = row_norms(value)
    assert out.dtype is tf.float32 and out.numpy().tolist() == [13.0]
    assert row_norms.experimental_get_tracing_count() == 1


def test_input_signature_nested_specs_convert_too():
    @tf.function(input_signature=[(tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.float32))])
    def f(pair):
        return tf.cast(pair[0], tf.float32) * pair[1]

    assert f(([1, 2], 3)).numpy().tolist() == [3.0, 6.0]


# --- symbolic tensors ----------------------------------------------------------------------------------------
def test_symbolic_tensor_str_repr_and_numpy():
    seen = []

    @tf.function
    def f(x):
        seen.extend([str(x), repr(x)])
        with pytest.raises(AttributeError, match="symbolic"):
            x.numpy()
        return x

    f(tf.constant(1))
    assert seen == ['Tensor("x:0", shape=(), dtype=int32)', "<tf.Tensor 'x:0' shape=() dtype=int32>"]


# --- tracing protocol ----------------------------------------------------------------------------------------
class _KindType(tf.types.experimental.TraceType):
    """Objects of one class share a trace; `Any` (kind None) is the supertype of every kind."""

    def __init__(self, kind, value):
        self.kind, self.value = kind, value

    def is_subtype_of(self, other):
        return isinstance(other, _KindType) and other.kind in (None, self.kind)

    def most_specific_common_supertype(self, others):
        return self if all(o == self for o in others) else _KindType(None, self.value)

    def placeholder_value(self, placeholder_context=None):
        return self.value

    def __eq__(self, other):
        return isinstance(other, _KindType) and other.kind == self.kind

    def __hash__(self):
        return hash(self.kind)


class _Scaled:
    def __init__(self, factor):
        self.factor = factor

    def __tf_tracing_type__(self, context):
        return _KindType(type(self), self)


class _Doubled(_Scaled):
    pass


def test_trace_type_decides_when_traces_are_shared():
    @tf.function
    def f(s, x):
        return x * s.factor

    assert f(_Scaled(2.0), tf.constant(1.0)).numpy() == 2.0
    assert f(_Scaled(5.0), tf.constant(1.0)).numpy() == 2.0  # same type: the trace (and its placeholder) reused
    assert f.experimental_get_tracing_count() == 1
    assert f(_Doubled(3.0), tf.constant(1.0)).numpy() == 3.0
    assert f.experimental_get_tracing_count() == 2
    assert isinstance(_Scaled(1.0), tf.types.experimental.SupportsTracingProtocol)


def test_trace_type_subtypes_run_a_more_general_trace():
    @tf.function
    def f(s):
        return tf.constant(s.factor)

    general = f.get_concrete_function(_AnyScaled())
    assert general(_Scaled(9.0)).numpy() == 7.0  # the placeholder value of the general type was traced
    assert f.get_concrete_function(_Scaled(1.0)) is general  # the general trace serves the subtype
    specific = tf.function(lambda s: tf.constant(s.factor)).get_concrete_function(_Scaled(1.0))
    assert specific(_Scaled(4.0)).numpy() == 1.0
    with pytest.raises(TypeError, match="was traced with"):
        specific(_AnyScaled())


class _AnyScaled:
    factor = 7.0

    def __tf_tracing_type__(self, context):
        return _KindType(None, self)


def test_trace_type_must_define_its_methods():
    with pytest.raises(TypeError):
        type("Incomplete", (tf.types.experimental.TraceType,), {})()


# --- custom_gradient with variables -------------------------------------------------------------------------
def _scaled_square(v):
    @tf.custom_gradient
    def f(x):
        y = v * x * x

        def grad_fn(dy, variables=None):
            assert len(variables) == 1 and variables[0] is v
            return dy * 2.0 * v * x, [tf.reduce_sum(dy * x * x)]

        return y, grad_fn

    return f


@pytest.mark.parametrize("graph", [False, True])
def test_custom_gradient_with_variables_matches_finite_differences(graph):
    v = tf.Variable(1.5, dtype=tf.float64)
    f = _scaled_square(v)
    x0 = np.array([0.5, -1.25, 2.0])

    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(f(x))
        return tape.gradient(y, [x, v])

    run = tf.function(grads) if graph else grads
    gx, gv = run(tf.constant(x0))
    np.testing.assert_allclose(gx.numpy(), 2 * 1.5 * x0)
    np.testing.assert_allclose(gv.numpy(), np.sum(x0 * x0))
    check_gradients(lambda x: f(x), [x0], graph=graph)


def test_custom_gradient_with_variables_needs_the_variables_keyword():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def bad(x):
        def grad_fn(dy):
            return dy

        return v * x, grad_fn

    with tf.GradientTape() as tape:
        x = tf.constant(2.0)
        tape.watch(x)
        with pytest.raises(TypeError, match="grad_fn must accept keyword argument 'variables'"):
            bad(x)


# --- messages ------------------------------------------------------------------------------------------------
def test_out_of_memory_is_resource_exhausted_naming_the_op():
    with pytest.raises(tf.errors.ResourceExhaustedError, match=r"(?s)fill: OOM .*test_function_fidelity.py"):
        tf.zeros([10 ** 12])


def test_assert_less_message_lists_the_failing_values_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.assert_less(tf.constant([3, 1]), tf.constant([2, 2]))
    message = str(info.value)
    assert message.startswith("Condition x < y did not hold.\nIndices of first 1 different values:\n[[0]]\n"
                              "Corresponding x values:\n[3]\nCorresponding y values:\n[2]\n"
                              "First 2 elements of x:\n[3 1]\nFirst 2 elements of y:\n[2 2]")
    assert message.index("[2 2]") < message.index("test_function_fidelity.py")


def test_assert_less_in_a_graph_names_the_node_and_line():
    @tf.function
    def f(x):
        tf.debugging.assert_less(x, 2, message="too big")
        return x

    assert f(tf.constant([1, 0])).numpy().tolist() == [1, 0]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[too big\] \[Condition x < y did not hold element-wise:\] \[x \(x:0\) = \] \[3 1\] "
                       r"\[y \(Less/y:0\) = \] \[2\](?s:.*)test_function_fidelity.py"):
        f(tf.constant([3, 1]))


def test_variable_on_a_later_call_uses_the_singleton_wording():
    @tf.function
    def f(x):
        return tf.Variable(1.0) + x

    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
        f(tf.constant(1.0))
