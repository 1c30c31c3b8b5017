"""tf.TensorArray: eager and graph agree, it is a loop variable of while_loop and an output of cond, and its
mistakes raise TF's errors naming the op."""

import numpy as np
import pytest
from ways import graph_ops, run_all_ways

import tinytf as tf
from tinytf.runtime.errors import InvalidArgumentError


def graph_output_shapes(fn, *args):
    return [None if t.shape.rank is None else tuple(t.shape.as_list())
            for t in tf.function(fn).get_concrete_function(*args).graph.outputs]


# --- eager and graph give the same results ------------------------------------------------------------------
def write_read_stack(x):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, x).write(1, x * 2.0).write(2, x + 1.0)
    return ta.stack(), ta.read(1), ta.size()


def test_write_read_stack_all_ways():
    x = tf.constant([1.0, 2.0])
    stacked, second, size = run_all_ways(write_read_stack, x,
                                         expected=(np.array([[1, 2], [2, 4], [2, 3]]), np.array([2, 4]), 3))
    assert stacked.dtype is tf.float32 and stacked.shape == (3, 2)
    assert size.dtype is tf.int32
    assert graph_output_shapes(write_read_stack, x) == [(3, 2), (2,), ()]


def test_python_scalars_take_the_array_dtype_and_reads_repeat():
    ta = tf.TensorArray(tf.float64, size=2, clear_after_read=True).write(0, 1).write(1, 2.5)
    assert ta.read(0).dtype is tf.float64
    assert float(ta.read(0)) == 1.0 and float(ta.read(0)) == 1.0  # clear_after_read is accepted, not enforced
    np.testing.assert_array_equal(ta.stack().numpy(), [1.0, 2.5])


def test_writes_are_functional():
    empty = tf.TensorArray(tf.int32, size=2, element_shape=())
    written = empty.write(0, 7)
    np.testing.assert_array_equal(written.stack().numpy(), [7, 0])
    np.testing.assert_array_equal(empty.stack().numpy(), [0, 0])  # the old array is unchanged


def test_properties():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    assert ta.dtype is tf.float32 and ta.dynamic_size and ta.element_shape.rank is None
    ta = ta.write(2, tf.ones([2, 3]))
    assert ta.element_shape == (2, 3)
    assert int(ta.size()) == 3
    assert ta.identity().stack().shape == (3, 2, 3)
    assert ta.flow.dtype.name == "variant"
    assert "TensorArray" in repr(ta)


def test_unwritten_elements_read_as_zeros_when_the_shape_is_known():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3, element_shape=[2])
        return ta.write(1, x).stack()

    run_all_ways(f, tf.constant([5.0, 6.0]), expected=np.array([[0, 0], [5, 6], [0, 0]]))


def test_unstack_then_read_and_size():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        return ta.read(0), ta.read(2), ta.size()

    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    run_all_ways(f, x, expected=(np.array([1, 2]), np.array([5, 6]), 3))


def test_unstack_a_vector_gives_scalar_elements():
    def f(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True).unstack(x)
        return ta.read(1), ta.size(), ta.stack()

    run_all_ways(f, tf.constant([4, 5, 6]), expected=(5, 3, np.array([4, 5, 6])))


def test_gather_scatter_concat():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4).scatter([3, 0, 1, 2], x)
        return ta.gather([0, 3]), ta.concat(), ta.stack()

    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    xv = x.numpy()
    order = xv[[1, 2, 3, 0]]
    gathered, concat, stacked = run_all_ways(f, x, expected=(order[[0, 3]], order.reshape(-1), order))
    assert concat.shape == (8,)
    assert graph_output_shapes(f, x) == [(2, 2), (8,), (4, 2)]


def test_concat_of_different_lengths():
    def f(a, b):
        return tf.TensorArray(tf.int32, size=2, infer_shape=False).write(0, a).write(1, b).concat()

    run_all_ways(f, tf.constant([1, 2, 3]), tf.constant([4]), expected=np.array([1, 2, 3, 4]))


def test_empty_stack_and_gather_with_known_element_shape():
    def f():
        ta = tf.TensorArray(tf.float32, size=0, element_shape=[3])
        return ta.stack(), ta.gather(tf.zeros([0], tf.int32)), ta.concat()

    stacked, gathered, concat = run_all_ways(f)
    assert stacked.shape == (0, 3) and gathered.shape == (0, 3) and concat.shape == (0,)


def test_captured_eager_array_is_read_inside_a_function():
    ta = tf.TensorArray(tf.float32, size=2).unstack(tf.constant([1.5, 2.5]))

    @tf.function
    def f(i):
        return ta.read(i) * 2.0

    assert float(f(tf.constant(1))) == 5.0


# --- as a loop variable and a branch output -------------------------------------------------------------------
def squares(n):
    ta = tf.TensorArray(tf.float32, size=n)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, tf.cast(i * i, tf.float32))),
                          [0, ta])
    return ta.stack()


@pytest.mark.parametrize("n", [0, 1, 5])
def test_writes_inside_while_loop_with_a_symbolic_counter(n):
    n_t = tf.constant(n)
    result = run_all_ways(squares, n_t, expected=np.arange(n) ** 2)
    assert result.shape == (n,)
    ops = graph_ops(squares, n_t)
    assert "while_loop" in ops and "tensor_array_write" in ops and ops.count("tensor_array_write") == 1


def test_element_shape_written_in_the_loop_reaches_the_stack_after_it():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)
        _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x * tf.cast(i, tf.float32))),
                              (tf.constant(0), ta))
        return ta.stack()

    x = tf.constant([1.0, 2.0])
    run_all_ways(f, x, expected=np.array([[0, 0], [1, 2], [2, 4]]))
    assert graph_output_shapes(f, x) == [(3, 2)]


def grow(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)

    def body(i, ta):
        return i + 1, ta.write(ta.size(), i * 10)

    _, ta = tf.while_loop(lambda i, ta: i < n, body, (tf.constant(0), ta))
    return ta.stack(), ta.size()


@pytest.mark.parametrize("n", [0, 4])
def test_dynamic_size_array_grows_in_a_loop_with_a_tensor_trip_count(n):
    stacked, size = run_all_ways(grow, tf.constant(n), expected=(np.arange(n) * 10, n))
    assert graph_output_shapes(grow, tf.constant(n)) == [(None,), ()]


def test_unstack_then_read_in_a_loop():
    def running_sum(x):
        inputs = tf.TensorArray(tf.float32, size=tf.shape(x)[0]).unstack(x)
        out = tf.TensorArray(tf.float32, size=tf.shape(x)[0])

        def body(i, total, out):
            total = total + inputs.read(i)
            return i + 1, total, out.write(i, total)

        _, _, out = tf.while_loop(lambda i, total, out: i < tf.shape(x)[0], body,
                                  (tf.constant(0), tf.zeros([2]), out))
        return out.stack()

    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    run_all_ways(running_sum, x, expected=np.cumsum(x.numpy(), axis=0))


def test_array_alone_and_inside_a_dict_as_loop_variables():
    def alone(x):
        ta = tf.TensorArray(tf.float32, size=1).write(0, x)
        ta = tf.while_loop(lambda ta: ta.read(0) < 100.0, lambda ta: ta.write(0, ta.read(0) * 3.0), ta)
        return ta.read(0)

    def in_dict(x):
        state = {"ta": tf.TensorArray(tf.float32, size=2), "i": tf.constant(0)}
        state = tf.while_loop(lambda s: s["i"] < 2,
                              lambda s: [{"ta": s["ta"].write(s["i"], x), "i": s["i"] + 1}], [state])[0]
        return state["ta"].stack()

    run_all_ways(alone, tf.constant(2.0), expected=162.0)
    run_all_ways(in_dict, tf.constant(4.0), expected=np.array([4.0, 4.0]))


def test_loop_with_maximum_iterations():
    def f(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i)), (0, ta),
                              maximum_iterations=3)
        return ta.stack()

    run_all_ways(f, tf.constant(10), expected=np.array([0, 1, 2]))


def cond_write(x):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=())
    return tf.cond(x > 0, lambda: ta.write(0, x), lambda: ta.write(1, -x)).stack()


@pytest.mark.parametrize("value, expected", [(3.0, np.array([3.0, 0.0])), (-2.0, np.array([0.0, 2.0]))])
def test_cond_returns_arrays(value, expected):
    run_all_ways(cond_write, tf.constant(value), expected=expected)
    assert "cond" in graph_ops(cond_write, tf.constant(value))


def test_cond_inside_a_loop_writes_on_one_branch_only():
    def evens(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)

        def body(i, ta):
            ta = tf.cond(i % 2 == 0, lambda: ta.write(ta.size(), i), lambda: ta)
            return i + 1, ta

        _, ta = tf.while_loop(lambda i, ta: i < n, body, (0, ta))
        return ta.stack()

    run_all_ways(evens, tf.constant(7), expected=np.array([0, 2, 4, 6]))


def test_element_shape_from_one_branch_survives_the_cond():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=1)
        ta = tf.cond(x[0] > 0, lambda: ta.write(0, x), lambda: ta)
        return ta.stack()

    assert graph_output_shapes(f, tf.constant([1.0, 2.0])) == [(1, 2)]


def test_body_returning_an_array_of_another_static_size_is_traced_again():
    traces = []

    def f(n):
        ta = tf.TensorArray(tf.float32, size=1).write(0, 1.0)

        def body(i, ta):
            traces.append(i)
            fresh = tf.TensorArray(tf.float32, size=i + 2)  # its static size is unknown in a graph
            return i + 1, fresh.write(i + 1, tf.cast(i + 1, tf.float32))

        _, ta = tf.while_loop(lambda i, ta: i < n, body, (0, ta))
        return ta.stack()

    run_all_ways(f, tf.constant(0), expected=np.array([1.0]))
    run_all_ways(f, tf.constant(2), expected=np.array([0.0, 0.0, 2.0]))
    traces.clear()
    assert graph_output_shapes(f, tf.constant(2)) == [(None,)]
    assert len(traces) == 2  # first trace assumed the static size 1; the second assumes none


def test_stacked_result_is_returned_from_a_function_several_calls():
    fn = tf.function(squares)
    np.testing.assert_array_equal(fn(tf.constant(3)).numpy(), [0, 1, 4])
    np.testing.assert_array_equal(fn(tf.constant(4)).numpy(), [0, 1, 4, 9])
    assert fn.experimental_get_tracing_count() == 1


# --- errors -------------------------------------------------------------------------------------------------
def both_ways(fn, *args):
    """Run `fn` eagerly and as a graph; both must raise."""
    return [lambda: fn(*args), lambda: tf.function(fn)(*args)]


def test_write_of_the_wrong_dtype_names_both_dtypes():
    def f(x):
        return tf.TensorArray(tf.float32, size=2).write(0, x).stack()

    for run in both_ways(f, tf.constant(1)):
        with pytest.raises(InvalidArgumentError, match="tensor_array_write: TensorArray dtype is float32 but Op is "
                                                       "trying to write dtype int32"):
            run()


def test_write_of_an_inconsistent_shape():
    def f(x, y):
        return tf.TensorArray(tf.float32, size=2).write(0, x).write(1, y).stack()

    for run in both_ways(f, tf.zeros([2]), tf.zeros([3])):
        with pytest.raises(ValueError, match=r"tensor_array_write: Incompatible shape for value \(\(3,\)\), "
                                                       r"expected \(\(2,\)\)"):
            run()


def test_stack_of_elements_of_different_shapes_without_shape_inference():
    def f(x, y):
        return tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, x).write(1, y).stack()

    for run in both_ways(f, tf.zeros([2]), tf.zeros([3])):
        with pytest.raises(InvalidArgumentError, match="tensor_array_stack.*different shapes"):
            run()


def test_write_past_the_size_of_a_fixed_array():
    def f(i):
        return tf.TensorArray(tf.float32, size=2).write(i, 1.0).stack()

    for run in both_ways(f, tf.constant(2)):
        with pytest.raises(InvalidArgumentError, match="tensor_array_write.*Tried to write to index 2 but array is "
                                                       "not resizeable and size is: 2"):
            run()


def test_write_in_a_loop_past_the_size_reports_the_user_line():
    def f(n):
        ta = tf.TensorArray(tf.float32, size=2)
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, 1.0)), (0, ta))
        return ta.stack()

    with pytest.raises(InvalidArgumentError, match="(?s)Tried to write to index 2.*test_tensor_array.py"):
        tf.function(f)(tf.constant(3))


def test_negative_indices():
    ta = tf.TensorArray(tf.float32, size=2, element_shape=())
    with pytest.raises(InvalidArgumentError, match=r"Writing to negative indices \(index -1\) is not allowed"):
        ta.write(-1, 1.0)
    with pytest.raises(InvalidArgumentError, match=r"Reading from negative indices \(index -1\) is not allowed"):
        ta.read(-1)


def test_read_out_of_range():
    def f(i):
        return tf.TensorArray(tf.float32, size=2, element_shape=()).read(i)

    for run in both_ways(f, tf.constant(5)):
        with pytest.raises(InvalidArgumentError, match="tensor_array_read.*Tried to read from index 5 but array "
                                                       "size is: 2"):
            run()


def test_read_of_an_unwritten_element_of_unknown_shape():
    def f(i):
        return tf.TensorArray(tf.float32, size=3).read(i)

    for run in both_ways(f, tf.constant(1)):
        with pytest.raises(InvalidArgumentError, match="tensor_array_read.*Trying to read an uninitialized tensor "
                                                       "at index 1 but element_shape is not fully defined"):
            run()


def test_stack_of_an_empty_array_of_unknown_shape_is_an_empty_vector():
    def f():
        ta = tf.TensorArray(tf.float32, size=0)
        return ta.stack(), ta.concat(), ta.gather(tf.zeros([0], tf.int32))

    for result in run_all_ways(f):
        assert result.shape == (0,) and result.dtype is tf.float32


def test_concat_of_scalars():
    ta = tf.TensorArray(tf.float32, size=1).write(0, 1.0)
    with pytest.raises(InvalidArgumentError, match="tensor_array_concat: Concat saw a scalar shape"):
        ta.concat()
    untyped = tf.TensorArray(tf.float32, size=1, infer_shape=False).write(0, 1.0)
    with pytest.raises(InvalidArgumentError, match="Concat saw a scalar shape at index 0 but requires at least"):
        untyped.concat()


def test_unstack_errors():
    with pytest.raises(InvalidArgumentError, match="tensor_array_unstack: Cannot unstack 3 tensors into a "
                                                   "TensorArray of static size 2"):
        tf.TensorArray(tf.float32, size=2).unstack(tf.zeros([3]))
    with pytest.raises(InvalidArgumentError, match="tensor_array_unstack.*rank at least 1"):
        tf.TensorArray(tf.float32, size=2).unstack(tf.constant(1.0))
    with pytest.raises(InvalidArgumentError, match="tensor_array_scatter.*2 indices for 3 rows"):
        tf.TensorArray(tf.float32, size=4).scatter([0, 1], tf.zeros([3]))


def test_size_is_required_and_indices_must_be_integers():
    with pytest.raises(ValueError, match="Argument `size` must be provided"):
        tf.TensorArray(tf.float32)
    with pytest.raises(InvalidArgumentError, match="tensor_array_read: the index must be an integer"):
        tf.TensorArray(tf.float32, size=1).read(0.5)
    with pytest.raises(InvalidArgumentError, match="a TensorArray cannot have a negative size"):
        tf.TensorArray(tf.float32, size=-1)


def test_loop_body_changing_the_array_dtype():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=1)
        return tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, tf.TensorArray(tf.int32, size=1)),
                             (0, ta), names=["i", "ta"])

    with pytest.raises(TypeError, match="tf.while_loop: 'ta' is <tf.TensorArray dtype=float32.*before the loop "
                                        "but <tf.TensorArray dtype=int32.*after one iteration: the element dtype "
                                        "changes from float32 to int32"):
        f(tf.constant(2))


def test_cond_branches_with_arrays_of_different_dtypes_or_a_tensor():
    @tf.function
    def dtypes_differ(x):
        return tf.cond(x > 0, lambda: tf.TensorArray(tf.float32, size=1), lambda: tf.TensorArray(tf.int32, size=1))

    @tf.function
    def kinds_differ(x):
        return tf.cond(x > 0, lambda: tf.TensorArray(tf.float32, size=1), lambda: x)

    with pytest.raises(TypeError, match="tf.cond: output 0 is .*in the true branch but .*in the false branch"):
        dtypes_differ(tf.constant(1.0))
    with pytest.raises(ValueError, match="(?s)same structure.*TensorArray"):
        kinds_differ(tf.constant(1.0))


def test_loop_body_returning_a_tensor_for_an_array():
    def f(n):
        ta = tf.TensorArray(tf.float32, size=1)
        return tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, tf.constant(1.0)), (0, ta))

    for run in both_ways(f, tf.constant(2)):
        # graphs: ValueError; eagerly TensorFlow fails in the next condition call, so TypeError
        with pytest.raises((ValueError, TypeError), match="the body must return the same structure as loop_vars"):
            run()


def test_nested_loops_each_with_an_array():
    def table(n, m):
        rows = tf.TensorArray(tf.int32, size=n)

        def outer(i, rows):
            cols = tf.TensorArray(tf.int32, size=m)
            _, cols = tf.while_loop(lambda j, cols: j < m, lambda j, cols: (j + 1, cols.write(j, i * 10 + j)),
                                    (0, cols))
            return i + 1, rows.write(i, cols.stack())

        _, rows = tf.while_loop(lambda i, rows: i < n, outer, (0, rows))
        return rows.stack()

    result = run_all_ways(table, tf.constant(3), tf.constant(2), expected=np.array([[0, 1], [10, 11], [20, 21]]))
    assert result.shape == (3, 2)


def test_dynamic_rnn_unroll():
    def rnn(inputs, w, u):
        steps = tf.shape(inputs)[0]
        xs = tf.TensorArray(tf.float32, size=steps).unstack(inputs)
        hs = tf.TensorArray(tf.float32, size=steps)

        def body(t, h, hs):
            h = tf.tanh(tf.matmul(xs.read(t), w) + tf.matmul(h, u))
            return t + 1, h, hs.write(t, h)

        _, h, hs = tf.while_loop(lambda t, h, hs: t < steps, body, (0, tf.zeros([2, 4]), hs))
        return hs.stack(), h

    rng = np.random.default_rng(0)
    x, w, u = (rng.standard_normal(s).astype(np.float32) for s in ((5, 2, 3), (3, 4), (4, 4)))
    h, expected = np.zeros((2, 4), np.float32), []
    for t in range(5):
        h = np.tanh(x[t] @ w + h @ u)
        expected.append(h)
    run_all_ways(rnn, tf.constant(x), tf.constant(w), tf.constant(u), expected=(np.stack(expected), h),
                 rtol=1e-5, atol=1e-5)
