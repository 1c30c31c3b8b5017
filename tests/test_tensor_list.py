"""TF 2's TensorList ops (runtime/ops/tensor_list.py): values against numpy, eagerly and in graphs with passes
on and off, value semantics (a list never changes after it was made), TF's errors, and gradients against
finite differences (first and second order)."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, check_second_order

import tinytf as tf
from tinytf.errors import InvalidArgumentError
from tinytf.runtime.ops import tensor_list as tl


def _program(x):
    """Every op once: a list from rows, items set and read, pushes and a pop, a reserved list, stacks."""
    rows = tl.tensor_list_from_tensor(x, [2])
    rows = tl.tensor_list_set_item(rows, 1, x[1] * 3.0)
    pushed = tl.empty_tensor_list([2], x.dtype)
    pushed = tl.tensor_list_push_back(pushed, x[0] * x[0])
    pushed = tl.tensor_list_push_back(pushed, tf.sin(x[2]))
    popped, last = tl.tensor_list_pop_back(pushed, [2], x.dtype)
    reserved = tl.tensor_list_set_item(tl.tensor_list_reserve([2], 3, x.dtype), 2, last * 2.0)
    reserved = tl.tensor_list_resize(tl.tensor_list_resize(reserved, 5), 3)  # grown, then cut back
    first = tl.tensor_list_get_item(popped, 0, [2], x.dtype)
    total = tl.tensor_list_add(reserved, tl.tensor_list_from_tensor(x * x, [2]))
    return (tl.tensor_list_stack(rows, [2], x.dtype) ** 2, first * x[2],
            tl.tensor_list_stack(reserved, [2], x.dtype, num_elements=3), tl.tensor_list_stack(total, [-1], x.dtype))


def _numpy(x):
    rows = x.copy()
    rows[1] = x[1] * 3.0
    reserved = np.zeros_like(x)
    reserved[2] = np.sin(x[2]) * 2.0
    return rows ** 2, x[0] * x[0] * x[2], reserved, reserved + x * x


X = np.array([[1.0, 2.0], [3.0, -4.0], [0.5, 6.0]], np.float32)


def test_values_eagerly_and_in_a_function(passes):
    want = _numpy(X.astype(np.float64))
    for got in (_program(tf.constant(X)), tf.function(_program)(tf.constant(X))):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-6)
            assert g.dtype is tf.float32


def test_length_and_element_shape(passes):
    @tf.function
    def f(x):
        lst = tl.tensor_list_from_tensor(x, [-1, 2])
        return tl.tensor_list_length(lst), tl.tensor_list_element_shape(lst), tl.tensor_list_element_shape(
            tl.empty_tensor_list(None, tf.float32))

    length, shape, unknown = f(tf.zeros([4, 3, 2]))
    assert int(length) == 4 and shape.numpy().tolist() == [3, 2] and int(unknown) == -1


def test_value_semantics():
    base = tl.tensor_list_from_tensor(tf.constant([1.0, 2.0]), [])
    pushed = tl.tensor_list_push_back(base, tf.constant(3.0))
    changed = tl.tensor_list_set_item(base, 0, tf.constant(9.0))
    popped, item = tl.tensor_list_pop_back(pushed, [], tf.float32)
    assert tl.tensor_list_stack(base, [], tf.float32).numpy().tolist() == [1.0, 2.0]
    assert tl.tensor_list_stack(pushed, [], tf.float32).numpy().tolist() == [1.0, 2.0, 3.0]
    assert tl.tensor_list_stack(changed, [], tf.float32).numpy().tolist() == [9.0, 2.0]
    assert tl.tensor_list_stack(popped, [], tf.float32).numpy().tolist() == [1.0, 2.0] and float(item) == 3.0


def test_a_while_loop_carries_a_list(passes):
    @tf.function
    def squares(n):
        def body(i, lst):
            return i + 1, tl.tensor_list_push_back(lst, tf.cast(i * i, tf.float32))

        _, lst = tf.while_loop(lambda i, lst: i < n, body, [0, tl.empty_tensor_list([], tf.float32)])
        return tl.tensor_list_stack(lst, [], tf.float32)

    assert squares(tf.constant(4)).numpy().tolist() == [0.0, 1.0, 4.0, 9.0]
    assert squares(tf.constant(0)).numpy().tolist() == []


def test_unset_elements_read_as_zeros_only_with_a_known_shape():
    reserved = tl.tensor_list_reserve([2], 2, tf.float32)
    assert tl.tensor_list_get_item(reserved, 1, [2], tf.float32).numpy().tolist() == [0.0, 0.0]
    unknown = tl.tensor_list_reserve([-1], 2, tf.float32)
    with pytest.raises(InvalidArgumentError, match="uninitialized tensor at index 0"):
        tl.tensor_list_get_item(unknown, 0, [-1], tf.float32)


def test_errors_are_tfs():
    empty = tl.empty_tensor_list([], tf.float32)
    with pytest.raises(InvalidArgumentError, match="Trying to pop from an empty list"):
        tl.tensor_list_pop_back(empty, [], tf.float32)
    two = tl.tensor_list_reserve([], 2, tf.float32)
    with pytest.raises(InvalidArgumentError, match="Trying to access element 5 in a list with 2 elements"):
        tl.tensor_list_get_item(two, 5, [], tf.float32)
    with pytest.raises(InvalidArgumentError, match="expected a list with 3 elements"):
        tl.tensor_list_stack(two, [], tf.float32, num_elements=3)
    with pytest.raises(InvalidArgumentError, match="op elements int32 but list elements float32"):
        tl.tensor_list_push_back(two, tf.constant(1))
    with pytest.raises(InvalidArgumentError, match="different lengths"):
        tl.tensor_list_add(two, empty)
    grown = tl.tensor_list_set_item(two, 3, tf.constant(1.0), resize_if_index_out_of_bounds=True)
    assert int(tl.tensor_list_length(grown)) == 4


def _loss_program(x):
    return [tf.reduce_sum(t * w) for t, w in zip(_program(x), (0.3, -1.1, 0.7, 0.2))]


def test_gradients_against_finite_differences():
    check_gradients(lambda x: tf.add_n(_loss_program(x)), [X.astype(np.float64)])


def test_second_order_gradients():
    check_second_order(lambda x: tf.add_n(_loss_program(x)), [X.astype(np.float64)])


def test_pop_then_push_sends_each_gradient_to_its_own_value():
    # the element popped and the one pushed in its place share an index: their gradients must not mix
    def f(x):
        lst = tl.tensor_list_from_tensor(x, [])
        lst, last = tl.tensor_list_pop_back(lst, [], x.dtype)
        lst = tl.tensor_list_push_back(lst, last * 5.0)
        return tl.tensor_list_stack(lst, [], x.dtype) * tf.constant([1.0, 2.0, 3.0], tf.float64)

    check_gradients(f, [np.array([0.5, -1.0, 2.0])])


def test_scatter_gather_concat_split(passes):
    from tinytf.runtime.ops import tensor_list as tl2

    @tf.function
    def f(x):
        lst = tl2.tensor_list_scatter_into_existing(tl.tensor_list_reserve([2], 2, x.dtype), x, [3, 0, 2, 1])
        gathered = tl2.tensor_list_gather(lst, tf.constant([1, 2]), [2], x.dtype)
        joined, lengths = tl2.tensor_list_concat(lst, [-1], tf.zeros([0], tf.int64), x.dtype)
        pieces = tl2.tensor_list_split(tf.reshape(x, [-1]), [-1], tf.constant([3, 5], tf.int64))
        return gathered, joined, lengths, tl.tensor_list_get_item(pieces, 1, [-1], x.dtype)

    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    gathered, joined, lengths, piece = f(tf.constant(x))
    assert gathered.numpy().tolist() == [x[3].tolist(), x[2].tolist()]
    assert joined.numpy().tolist() == x[[1, 3, 2, 0]].reshape(-1).tolist() and lengths.numpy().tolist() == [2] * 4
    assert piece.numpy().tolist() == [3.0, 4.0, 5.0, 6.0, 7.0]


def test_scatter_gather_concat_split_gradients():
    def f(x):
        lst = tl.tensor_list_scatter_into_existing(tl.tensor_list_reserve([2], 2, x.dtype), x, [3, 0, 2, 1])
        gathered = tl.tensor_list_gather(lst, tf.constant([1, 2, 1]), [2], x.dtype)
        pieces = tl.tensor_list_split(tf.reshape(x, [-1]) * 2.0, [-1], tf.constant([3, 5], tf.int64))
        joined, _ = tl.tensor_list_concat(pieces, [-1], tf.zeros([0], tf.int64), x.dtype)
        return tf.reduce_sum(gathered * gathered) + tf.reduce_sum(tf.sin(joined))

    check_gradients(f, [np.arange(8, dtype=np.float64).reshape(4, 2) / 7])


def test_optionals_carry_values_and_gradients(passes):
    from tinytf.runtime.ops import tensor_list_optional as opt

    def f(x):
        full, empty = opt.optional_from_value([x * 2.0, tf.sin(x)]), opt.optional_none()
        doubled, sine = opt.optional_get_value(full, [x.dtype, x.dtype], [(2,), (2,)])
        return doubled * sine, opt.optional_has_value(full), opt.optional_has_value(empty)

    x = np.array([0.3, -1.2])
    for product, has, has_not in (f(tf.constant(x)), tf.function(f)(tf.constant(x))):
        np.testing.assert_allclose(product.numpy(), 2 * x * np.sin(x))
        assert bool(has) and not bool(has_not)
    check_gradients(lambda x: f(x)[0], [x])
    with pytest.raises(InvalidArgumentError, match="does not have a value"):
        opt.optional_get_value(opt.optional_none(), [tf.float32], [()])
