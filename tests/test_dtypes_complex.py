"""tf.dtypes and the wider numeric types: DType attributes and lookups, complex64/128 (ops, printing,
Variables, gradients, three ways against numpy), bfloat16 through ml_dtypes, float16 printing, unsigned types."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest
from gradcheck import check_gradients
from ways import run_all_ways

import tinytf as tf

Z = np.array([1 + 2j, -3 - 0.5j, 0.25 + 0j], np.complex64)
W = np.array([0.5 - 1j, 2 + 3j, -1 + 1j], np.complex64)


# --- DType ----------------------------------------------------------------------------------------------------------
def test_dtype_families_and_sizes():
    assert tf.bfloat16.is_floating and not tf.bfloat16.is_complex and tf.bfloat16.size == 2
    assert tf.complex64.is_complex and not tf.complex64.is_floating and tf.complex64.size == 8
    assert tf.complex64.real_dtype is tf.float32 and tf.complex128.real_dtype is tf.float64
    assert tf.float32.real_dtype is tf.float32
    assert tf.uint32.is_unsigned and tf.uint32.is_integer and tf.uint64.max == 2**64 - 1
    assert tf.string.size == 0 and tf.string.as_numpy_dtype is object
    assert tf.bool.is_bool and tf.float32.as_datatype_enum == 1 and tf.string.as_datatype_enum == 7
    assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    assert tf.float16.max == 65504.0 and tf.bfloat16.max == float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)


@pytest.mark.parametrize("dtype", ["complex64", "bool", "string"])
def test_min_and_max_of_unordered_types_raise(dtype):
    with pytest.raises(TypeError, match="Cannot find minimum value"):
        tf.as_dtype(dtype).min  # noqa: B018 - the attribute access itself must raise


def test_as_dtype_lookups():
    assert tf.as_dtype("string") is tf.string and tf.as_dtype(np.complex128) is tf.complex128
    assert tf.as_dtype(np.str_) is tf.string and tf.as_dtype(np.object_) is tf.string
    assert tf.as_dtype(ml_dtypes.bfloat16) is tf.bfloat16 and tf.as_dtype(2) is tf.float64
    assert tf.as_dtype(float) is tf.float32 and tf.as_dtype(bool) is tf.bool
    for bad in (int, str, complex, "complex", 100):
        with pytest.raises(TypeError, match="Cannot convert the argument"):
            tf.as_dtype(bad)


def test_dtypes_module():
    assert tf.dtypes.float32 is tf.float32 and tf.dtypes.DType is tf.DType
    assert tf.dtypes.cast(tf.constant([1.7]), tf.int32).numpy().tolist() == [1]
    assert tf.dtypes.as_dtype("bfloat16") is tf.bfloat16
    assert tf.dtypes.complex(1.0, 2.0).numpy() == 1 + 2j


# --- complex --------------------------------------------------------------------------------------------------------
def test_complex_constants_default_to_complex128():
    assert tf.constant(1 + 2j).dtype is tf.complex128
    assert tf.constant(np.complex64(1j)).dtype is tf.complex64
    assert tf.constant([1.0, 2.0], tf.complex64).numpy().tolist() == [1 + 0j, 2 + 0j]
    with pytest.raises(TypeError):
        tf.constant(1j, tf.float32)


def test_complex_printing():
    assert str(tf.constant(1 + 2j)) == "tf.Tensor((1+2j), shape=(), dtype=complex128)"
    assert repr(tf.constant([1 + 2j], tf.complex64)) == \
        "<tf.Tensor: shape=(1,), dtype=complex64, numpy=array([1.+2.j], dtype=complex64)>"
    out = io.StringIO()
    tf.print(tf.constant([1j, 2j]), output_stream=out)
    assert out.getvalue() == "[? ?]\n"  # TF's PrintV2 has no complex format


@pytest.mark.parametrize("fn, reference", [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract), (lambda a, b: a * b, np.multiply),
    (lambda a, b: a / b, np.divide), (lambda a, b: tf.pow(a, b), np.power),
    (lambda a, b: a == b, np.equal),
])
def test_complex_binary_ops_match_numpy(fn, reference):
    run_all_ways(fn, tf.constant(Z), tf.constant(W), expected=reference(Z, W), rtol=1e-5)


@pytest.mark.parametrize("fn, reference", [
    (tf.math.real, np.real), (tf.math.imag, np.imag), (tf.math.conj, np.conj), (tf.math.angle, np.angle),
    (tf.abs, np.abs), (tf.negative, np.negative), (tf.square, np.square), (tf.exp, np.exp), (tf.sqrt, np.sqrt),
    (tf.reduce_sum, np.sum), (lambda z: tf.reduce_mean(z), np.mean), (tf.reduce_prod, np.prod),
])
def test_complex_unary_ops_and_reductions_match_numpy(fn, reference):
    result = run_all_ways(fn, tf.constant(Z), expected=reference(Z), rtol=1e-5)
    assert result.dtype is tf.as_dtype(np.asarray(reference(Z)).dtype)


def test_complex_matmul_and_tf_complex():
    m = np.arange(6.0).reshape(2, 3) + 1j * np.arange(6.0, 0.0, -1.0).reshape(2, 3)
    run_all_ways(lambda a: tf.matmul(a, a, transpose_b=True), tf.constant(m), expected=m @ m.T)
    made = run_all_ways(tf.complex, tf.constant([1.0, 2.0]), tf.constant([3.0, -4.0]),
                        expected=np.array([1 + 3j, 2 - 4j]))
    assert made.dtype is tf.complex64
    with pytest.raises(TypeError, match="incorrect types"):
        tf.complex(tf.constant(1.0), tf.constant(1.0, tf.float64))


def test_complex_numbers_are_unordered():
    z = tf.constant(Z)
    with pytest.raises(tf.errors.InvalidArgumentError):
        z < z  # noqa: B015 - the comparison itself must raise
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.maximum(z, z)


def test_complex_cast_keeps_the_real_part():
    assert tf.cast(tf.constant(Z), tf.float32).numpy().tolist() == np.real(Z).tolist()
    assert tf.cast(tf.constant([1.5]), tf.complex128).numpy().tolist() == [1.5 + 0j]


def test_complex_variables():
    v = tf.Variable([1 + 1j, 2 - 1j])
    v.assign_add([1j, 1j])
    assert v.dtype is tf.complex128 and v.numpy().tolist() == [1 + 2j, 2 + 0j]


def test_gradients_of_a_real_loss_of_complex_values():
    """TF's convention: the gradient with respect to z = x + iy is dL/dx + i dL/dy."""
    z0 = np.array([1.0 + 2.0j, -0.5 + 1.5j])
    z = tf.Variable(z0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(z * z))  # |z|^2 = x^2 + y^2: gradient 2x + 2iy = 2z
    np.testing.assert_allclose(tape.gradient(loss, z).numpy(), 2 * z0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.math.imag(z * (2.0 + 1.0j)))  # x + 2y: gradient 1 + 2i
    np.testing.assert_allclose(tape.gradient(loss, z).numpy(), [1 + 2j, 1 + 2j])


def test_complex_gradients_against_finite_differences_in_a_graph():
    def f(x, y):
        z = tf.complex(x, y)
        return tf.reduce_sum(tf.abs(z * tf.math.conj(z) + z) + tf.math.angle(z / tf.complex(y, x)))

    rng = np.random.default_rng(3)
    x, y = rng.uniform(0.5, 2.0, (2, 3)), rng.uniform(0.5, 2.0, (2, 3))
    check_gradients(f, [x, y])
    check_gradients(tf.function(f), [x, y])


# --- bfloat16 and float16 -------------------------------------------------------------------------------------------
def test_bfloat16_arithmetic_three_ways():
    a = np.array([[1.5, 2.0], [0.5, 1.0]], ml_dtypes.bfloat16)
    b = np.array([[0.1, 0.2], [0.3, 0.4]], ml_dtypes.bfloat16)
    sums = run_all_ways(lambda x, y: x + y * 2, tf.constant(a), tf.constant(b), expected=a + b * 2, rtol=1e-2)
    assert sums.dtype is tf.bfloat16 and sums.numpy().dtype == ml_dtypes.bfloat16
    product = run_all_ways(tf.matmul, tf.constant(a), tf.constant(b),
                           expected=(a.astype(np.float32) @ b.astype(np.float32)).astype(ml_dtypes.bfloat16))
    assert product.numpy().dtype == ml_dtypes.bfloat16
    assert tf.cast(tf.constant([0.1]), tf.bfloat16).numpy().tolist() == [ml_dtypes.bfloat16(0.1)]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(a) + tf.constant([1.0])


def test_half_precision_printing():
    assert str(tf.constant(0.1, tf.bfloat16)) == "tf.Tensor(0.100098, shape=(), dtype=bfloat16)"
    assert repr(tf.constant(0.1, tf.bfloat16)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=0.10009765625>"
    assert str(tf.constant([0.1, 1 / 3], tf.float16)) == "tf.Tensor([0.1    0.3333], shape=(2,), dtype=float16)"
    out = io.StringIO()
    tf.print(tf.constant([0.1, 3.0], tf.bfloat16), tf.constant(0.1, tf.float16), output_stream=out)
    assert out.getvalue() == "[0.100097656 3] 0.0999755859\n"


# --- unsigned -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_unsigned_types(dtype):
    x = tf.constant([1, 2, 3], dtype)
    result = run_all_ways(lambda t: t * 2 + 1, x, expected=np.array([3, 5, 7]))
    assert result.dtype is tf.as_dtype(dtype) and result.numpy().dtype == np.dtype(dtype)
    # TF converts Python integers as int64 and casts: -1 wraps around (TF 2.21: uint16 65535, ...)
    assert tf.constant(-1, dtype).numpy() == np.iinfo(dtype).max


@pytest.mark.parametrize("name, fn", [
    ("exp", tf.exp), ("log", tf.math.log), ("sqrt", tf.sqrt), ("square", tf.square), ("sin", tf.sin),
    ("tanh", tf.tanh), ("reciprocal", tf.math.reciprocal), ("rsqrt", tf.math.rsqrt),
    ("pow", lambda z: tf.pow(z, 3.0 + 0j)), ("pow_both", lambda z: tf.pow(z, z)),
    ("prod", lambda z: tf.reduce_prod(z, axis=0)),
    ("matmul", lambda z: tf.matmul(z, z, transpose_b=True)),
])
def test_analytic_op_gradients_on_complex_values(name, fn):
    """Rules written for real numbers give TF's complex gradients (see runtime/autodiff/holomorphic.py):
    checked through real inputs, complex values in between, and |.| and angle as real outputs."""
    def f(x, y):
        w = fn(tf.complex(x, y))
        return tf.abs(w) + tf.math.angle(w)

    rng = np.random.default_rng(5)
    x, y = rng.uniform(0.4, 1.2, (2, 2)), rng.uniform(0.4, 1.2, (2, 2))
    check_gradients(f, [x, y], rtol=1e-5, atol=1e-6)


def test_saturate_cast_clamps_three_ways():
    x = tf.constant([1e10, -1e10, 3.7, -0.5])
    got = run_all_ways(lambda t: tf.dtypes.saturate_cast(t, tf.int32), x,
                       expected=np.array([2147483520, -2147483648, 3, 0]))
    assert got.dtype is tf.int32
    assert tf.saturate_cast([300, -5], tf.uint8).numpy().tolist() == [255, 0]
