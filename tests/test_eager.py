"""Eager tensors: printing, numpy interop, operators and TensorFlow's dtype rules."""

import numpy as np
import pytest

import tinytf as tf


def test_print_format_matches_tensorflow():
    a = tf.constant([[1, 2], [3, 4]])
    assert str(a + 1) == "tf.Tensor(\n[[2 3]\n [4 5]], shape=(2, 2), dtype=int32)"
    assert str(tf.constant(5)) == "tf.Tensor(5, shape=(), dtype=int32)"
    assert str(tf.constant([1.5, 2.0])) == "tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)"
    assert repr(tf.constant(5)) == "<tf.Tensor: shape=(), dtype=int32, numpy=5>"


def test_numpy_interop_both_ways():
    a = tf.constant([[1, 2], [3, 4]])
    product = np.multiply(a, a)
    assert isinstance(product, np.ndarray)
    np.testing.assert_array_equal(product, [[1, 4], [9, 16]])
    assert isinstance(a.numpy(), np.ndarray) and a.numpy().dtype == np.int32
    mixed = np.array([[1, 1], [1, 1]], dtype=np.int32) + a  # ndarray + Tensor gives a Tensor, as in TF
    assert isinstance(mixed, tf.Tensor)
    np.testing.assert_array_equal(np.asarray(mixed), [[2, 3], [4, 5]])


def test_default_dtypes():
    assert tf.constant(1.5).dtype is tf.float32
    assert tf.constant(3).dtype is tf.int32
    assert tf.constant(2**40).dtype is tf.int64
    assert tf.constant([1, 2.5]).dtype is tf.float32
    assert tf.constant(True).dtype is tf.bool
    assert tf.constant(np.array([1.0])).dtype is tf.float64
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.constant(2.5, dtype=tf.int32)


def test_python_scalar_takes_the_tensor_dtype():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    assert (x * 2).dtype is tf.float64
    assert (2 * x).dtype is tf.float64
    assert (tf.constant([1, 2], dtype=tf.int64) + 1).dtype is tf.int64
    assert (tf.constant([1.0], tf.float16) + 0.5).dtype is tf.float16


@pytest.mark.parametrize("left,right", [
    (tf.constant(1), tf.constant(1.0)),
    (tf.constant(1, tf.int64), tf.constant(1)),
    (tf.constant(1.0, tf.float64), tf.constant(1.0)),
])
def test_no_implicit_promotion(left, right):
    with pytest.raises(tf.errors.InvalidArgumentError, match="add"):
        left + right


def test_int_plus_python_float_raises():
    # TF: `+` lets 0.5 keep float32 and the add kernel reports the mismatch; `*` converts 0.5 to int32 and fails
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant([1, 2]) + 0.5
    with pytest.raises(TypeError, match="Cannot convert 0.5"):
        tf.constant([1, 2]) * 0.5


def test_float32_tensor_plus_numpy_float64_gives_float32():
    x = tf.constant([1.0, 2.0])
    y = np.array([0.5, 0.5])
    assert (x + y).dtype is tf.float32
    assert tf.multiply(y, x).dtype is tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError):  # tf.add converts its first operand as it is (TF)
        tf.add(y, x)


def test_division_and_modulo_semantics():
    assert (tf.constant(7) / tf.constant(2)).dtype is tf.float64
    assert float(tf.constant(7) / tf.constant(2)) == 3.5
    assert int(tf.constant(-7) // tf.constant(2)) == -4
    assert int(tf.constant(5) % tf.constant(-3)) == -1
    assert (tf.constant([1, 2], tf.int8) / tf.constant([2, 2], tf.int8)).dtype is tf.float32


def test_all_python_operators():
    x = tf.constant([1.0, 4.0])
    y = tf.constant([2.0, 2.0])
    cases = {
        "+": (x + y, [3, 6]), "-": (x - y, [-1, 2]), "*": (x * y, [2, 8]), "/": (x / y, [0.5, 2]),
        "//": (x // y, [0, 2]), "%": (x % y, [1, 0]), "**": (x ** y, [1, 16]), "neg": (-x, [-1, -4]),
        "abs": (abs(-x), [1, 4]), "<": (x < y, [True, False]), "<=": (x <= y, [True, False]),
        ">": (x > y, [False, True]), ">=": (x >= y, [False, True]), "==": (x == y, [False, False]),
        "!=": (x != y, [True, True]), "r-": (1.0 - x, [0, -3]), "r/": (4.0 / x, [4, 1]),
        "r**": (2.0 ** x, [2, 16]),
    }
    for name, (got, want) in cases.items():
        np.testing.assert_allclose(got.numpy(), want, err_msg=name)
    b = tf.constant([True, False])
    c = tf.constant([True, True])
    np.testing.assert_array_equal((b & c).numpy(), [True, False])
    np.testing.assert_array_equal((b | c).numpy(), [True, True])
    np.testing.assert_array_equal((b ^ c).numpy(), [False, True])
    np.testing.assert_array_equal((~b).numpy(), [False, True])


def test_equality_with_none_and_hashing():
    x = tf.constant(1)
    assert (x == None) is False  # noqa: E711 - TF semantics under test
    assert (x != None) is True  # noqa: E711
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    assert {x.ref(): 1}[x.ref()] == 1


def test_shape_len_and_iteration():
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert x.shape == (2, 3)
    assert x.shape.as_list() == [2, 3]
    assert x.shape[0] == 2 and x.ndim == 2
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2 and isinstance(rows[0], tf.Tensor)
    np.testing.assert_array_equal(rows[1].numpy(), [4, 5, 6])
    assert float(tf.constant(2.5)) == 2.5 and int(tf.constant(3)) == 3


def test_scalar_fast_path_keeps_numpy_scalars():
    x = tf.constant(1.5)
    y = x + 1.0
    assert isinstance(y._value, np.float32) and y.dtype is tf.float32


def test_cast():
    x = tf.cast(tf.constant([1.7, -1.7]), tf.int32)
    assert x.dtype is tf.int32
    np.testing.assert_array_equal(x.numpy(), [1, -1])


def test_unknown_dtype_is_a_clear_error():
    with pytest.raises(TypeError, match="Cannot convert the argument .type_value.: 'float8'"):
        tf.zeros([2], dtype="float8")


def test_integer_division_by_zero_raises_eagerly_and_in_graphs():
    x = tf.constant([7, 8])
    for divide in (lambda a, b: a // b, lambda a, b: a % b):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            divide(x, tf.constant([1, 0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            divide(x, 0)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            tf.function(divide)(x, tf.constant([0, 1]))
    assert (tf.constant([1.0]) // tf.constant([0.0])).numpy()[0] == np.inf  # floats follow IEEE, as in TF
    assert tf.function(lambda a: a // 2)(x).numpy().tolist() == [3, 4]  # a non-zero constant divisor: no check
