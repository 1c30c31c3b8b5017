"""tf.experimental.numpy: every function eagerly and in tf.function (passes on and off) against NumPy itself,
gradients against finite differences, and experimental_enable_numpy_behavior switching on and off. TF 2.21's
own results are compared in tests/conformance/tnp_values.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

tnp = tf.experimental.numpy

A = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])
B = np.array([[0.5, 1.0, -1.5], [2.0, -0.25, 4.0]])
P = np.abs(A) + 0.5  # positive entries
IA = np.array([[3, 1, 2], [0, -4, 7]], np.int64)

# (name, args, kwargs): the NumPy function of the same name gives the expected values and dtype
CASES = [
    ("add", (A, B), {}), ("subtract", (IA, 2), {}), ("multiply", (A, IA), {}), ("true_divide", (IA, 4), {}),
    ("floor_divide", (A, 0.75), {}), ("mod", (IA, 3), {}), ("maximum", (A, B), {}), ("minimum", (IA, 1), {}),
    ("power", (P, 1.5), {}), ("arctan2", (A, B), {}), ("hypot", (A, B), {}), ("logaddexp", (A, B), {}),
    ("logaddexp2", (A, B), {}), ("heaviside", (A, 0.5), {}), ("clip", (A, -1.0, 1.0), {}),
    ("gcd", (IA, 6), {}), ("lcm", (IA, 4), {}), ("bitwise_xor", (IA, 5), {}),
    ("sqrt", (P,), {}), ("sqrt", (IA * IA,), {}), ("exp", (A,), {}), ("log", (P,), {}), ("log2", (P,), {}),
    ("log10", (P,), {}), ("log1p", (P,), {}), ("expm1", (A,), {}), ("exp2", (A,), {}), ("sin", (A,), {}),
    ("cos", (IA,), {}), ("tan", (A,), {}), ("sinh", (A,), {}), ("cosh", (A,), {}), ("tanh", (A,), {}),
    ("arcsin", (A / 4,), {}), ("arccos", (A / 4,), {}), ("arctan", (A,), {}), ("arcsinh", (A,), {}),
    ("arccosh", (P + 1,), {}), ("arctanh", (A / 4,), {}), ("cbrt", (A,), {}), ("fix", (A * 3,), {}),
    ("sinc", (A,), {}), ("square", (IA,), {}), ("sign", (A,), {}), ("reciprocal", (P,), {}),
    ("deg2rad", (A,), {}), ("rad2deg", (A,), {}), ("around", (A * 7, 1), {}), ("abs", (IA,), {}),
    ("isclose", (A, A + 1e-9), {}), ("equal", (IA, 2), {}), ("less_equal", (A, B), {}),
    ("logical_xor", (A > 0, B > 0), {}),
    ("sum", (IA,), {"axis": 0}), ("prod", (A,), {"axis": 1}), ("mean", (IA,), {}), ("var", (A,), {"axis": 0}),
    ("var", (A,), {"ddof": 1}), ("std", (A,), {"axis": 1}), ("amax", (A,), {"axis": 0}), ("amin", (IA,), {}),
    ("ptp", (A,), {"axis": 1}), ("cumsum", (IA,), {"axis": 1}), ("cumprod", (A,), {}), ("argmax", (A,), {"axis": 1}),
    ("argmin", (IA,), {}), ("count_nonzero", (IA,), {"axis": 0}), ("all", (IA,), {"axis": 1}), ("any", (A > 2,), {}),
    ("average", (A,), {"axis": 1, "weights": [1.0, 2.0, 3.0]}), ("nansum", (np.array([1.0, np.nan, 2.0]),), {}),
    ("nanmean", (np.array([[1.0, np.nan], [2.0, 4.0]]),), {"axis": 0}), ("trace", (A,), {"offset": 1}),
    ("reshape", (A, (3, 2)), {}), ("reshape", (A, (3, 2)), {"order": "F"}), ("ravel", (A,), {}),
    ("transpose", (A,), {}), ("swapaxes", (A, 0, 1), {}), ("moveaxis", (A[None], 0, -1), {}),
    ("expand_dims", (A, 1), {}), ("squeeze", (A[None],), {}), ("broadcast_to", (A[0], (4, 3)), {}),
    ("atleast_3d", (A,), {}), ("concatenate", ([A, IA],), {}), ("stack", ([A, B],), {"axis": 1}),
    ("hstack", ([A, B],), {}), ("vstack", ([A, IA],), {}), ("dstack", ([A, B],), {}), ("append", (A, [1.0]), {}),
    ("tile", (A, (2, 1)), {}), ("repeat", (A, 2), {"axis": 1}), ("flip", (A,), {}), ("fliplr", (A,), {}),
    ("roll", (A, 2), {}), ("rot90", (A,), {}), ("pad", (A, [[1, 0], [0, 2]], "constant"), {}),
    ("pad", (A, [[1, 1], [1, 1]], "reflect"), {}), ("take", (A, [0, 4]), {}), ("take", (A, [2, 0]), {"axis": 1}),
    ("take_along_axis", (A, np.argsort(A, axis=1)), {"axis": 1}), ("where", (A > 0, A, B), {}),
    ("diagonal", (A,), {"offset": 1}), ("tril", (A,), {"k": -1}), ("triu", (A,), {}), ("diff", (A,), {"axis": 1}),
    ("sort", (A,), {"axis": 0}), ("argsort", (A,), {}), ("compress", ([True, False, True], A), {"axis": 1}),
    ("dot", (A, B.T), {}), ("vdot", (A, B), {}), ("inner", (A, B), {}), ("outer", (A[0], B[1]), {}),
    ("matmul", (A, B.T), {}), ("matmul", (A, B[0]), {}), ("tensordot", (A, B), {"axes": [[1], [1]]}),
    ("kron", (A, B), {}), ("cross", (A, B), {}), ("polyval", (A[0], B), {}),
    ("zeros_like", (IA,), {}), ("ones_like", (A,), {}), ("full_like", (IA, 2.5), {}),
]


def _numpy_expected(name, args, kwargs):
    if name == "around":
        return np.round(*args, **kwargs)
    return getattr(np, name)(*args, **kwargs)


def _as_list(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _assert_like_numpy(result, expected, what):
    for got, want in zip(_as_list(result), _as_list(expected)):
        want = np.asarray(want)
        assert got.dtype.as_numpy_dtype == want.dtype, f"{what}: dtype {got.dtype.name}, NumPy {want.dtype}"
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12, err_msg=what)


@pytest.mark.parametrize("name,args,kwargs", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_function_matches_numpy_eagerly_and_in_graphs(name, args, kwargs, passes):
    fn = getattr(tnp, name)
    expected = _numpy_expected(name, args, kwargs)
    _assert_like_numpy(fn(*args, **kwargs), expected, f"{name} eager")
    tensors = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
    positions = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    @tf.function
    def graph(*ts):
        call = list(tensors)
        for i, t in zip(positions, ts):
            call[i] = t
        return fn(*call, **kwargs)

    _assert_like_numpy(graph(*[tensors[i] for i in positions]), expected, f"{name} in tf.function ({passes})")


def test_every_name_of_tf_2_21_is_here():
    assert len(tnp.__all__) == 229
    for name in tnp.__all__:
        assert hasattr(tnp, name), name
    assert tnp.ndarray is tf.Tensor
    import tinytf.experimental.numpy as imported

    assert imported is tnp


def test_dtype_inference_is_numpys():
    assert tnp.asarray(1.5).dtype == tf.float64
    assert tnp.asarray([1, 2]).dtype == tf.int64
    assert tnp.ones(2).dtype == tf.float64
    assert tnp.add(tf.constant([1], tf.int32), tf.constant([1.0], tf.float32)).dtype == tf.float64
    assert tnp.add(tf.constant([1.0], tf.float32), 2.5).dtype == tf.float32  # Python scalars are weak
    assert tnp.add(tf.constant([1], tf.int32), 2.5).dtype == tf.float64
    assert tnp.sum(tf.constant([1, 2], tf.int8)).dtype == tf.int64
    assert tnp.mean(tf.constant([1, 2], tf.int32)).dtype == tf.float64
    assert tnp.result_type(tnp.int8, tnp.uint8) == tf.int16


@pytest.mark.parametrize("fn,arrays", [
    (lambda a, b: tnp.sum(tnp.sin(a) * tnp.logaddexp(a, b)), [A, B]),
    (lambda a, b: tnp.var(a, axis=0) + tnp.sum(tnp.std(b, axis=1)), [A, B]),
    (lambda a, b: tnp.matmul(a, tnp.transpose(b)), [A, B]),
    (lambda a, b: tnp.cross(a, b), [A, B]),
    (lambda a, b: tnp.polyval(a[0], b), [A, B]),
    (lambda a, b: tnp.hypot(a, b) + tnp.cbrt(b + 5.0), [A, B]),
    (lambda a, b: tnp.where(a > 0, a * b, tnp.square(b)), [A, B]),
    (lambda a, b: tnp.kron(a, b) + 0.0, [A, B]),
    (lambda a, b: tnp.average(a, axis=1, weights=tnp.exp(b[0])), [A, B]),
    (lambda a, b: tnp.take_along_axis(a, tnp.argsort(b, axis=1), 1) * tnp.tile(b, (1, 1)), [A, B]),
    (lambda a, b: tnp.linspace(a[0], b[0], 4), [A, B]),
    (lambda a, b: tnp.einsum("ij,kj->ik", a, b) + tnp.outer(a[1], b[1])[:2, :2], [A, B]),
])
def test_gradients_match_finite_differences(fn, arrays):
    check_gradients(fn, arrays)


@pytest.fixture
def numpy_behavior():
    tnp.experimental_enable_numpy_behavior()
    yield
    tnp._disable_numpy_behavior()


def test_numpy_methods_appear_and_go(numpy_behavior):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.T.shape == (3, 2)
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
    assert x.astype(tnp.int32).dtype == tf.int32
    assert (tf.constant([1, 2], tf.int32) + tf.constant([1.0, 1.0])).dtype == tf.float64
    assert (tf.constant([1, 2]) / 2).dtype == tf.float64
    assert x.size == 6 and x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]

    @tf.function
    def traced(t):
        return t.T.reshape(-1) + tf.constant(1, tf.int32)

    out = traced(x)
    assert out.dtype == tf.float64  # float32 + int32 promotes as NumPy does, also on symbolic tensors
    np.testing.assert_array_equal(out.numpy(), x.numpy().T.reshape(-1) + 1)
    tnp._disable_numpy_behavior()
    assert not hasattr(x, "reshape") and not hasattr(x, "T")
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        tf.constant([1], tf.int32) + tf.constant([1.0])


def test_prefer_float32_makes_python_floats_float32(numpy_behavior):
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    assert tnp.asarray(1.5).dtype == tf.float32
    assert tnp.linspace(0, 1, 3).dtype == tf.float32
    assert tnp.zeros(2).dtype == tf.float64  # TF: the `float` default of zeros stays float64
    assert tnp.add(tnp.asarray([1], tnp.float16), 1.5).dtype == tf.float32


def test_other_dtype_conversion_modes_are_refused():
    with pytest.raises(NotImplementedError, match="weak-tensor"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
    assert not hasattr(tf.constant(1.0), "reshape")  # nothing was switched on


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="step must be non-zero"):
        tnp.arange(0, 3, 0)
    with pytest.raises(ValueError, match="rank at least 2"):
        tnp.tril([1, 2, 3])
    with pytest.raises(ValueError, match="must be integers"):
        tnp.gcd([1.5], [2.0])
    with pytest.raises(ValueError, match="may be `None`"):
        tnp.clip([1], None, None)


def test_random_draws_have_numpys_shapes_and_dtypes():
    tnp.random.seed(3)
    first = tnp.random.rand(2, 3)
    tnp.random.seed(3)
    again = tnp.random.rand(2, 3)
    np.testing.assert_array_equal(first.numpy(), again.numpy())
    assert first.dtype == tf.float64 and first.shape == (2, 3)
    assert tnp.random.randn(4).shape == (4,)
    ints = tnp.random.randint(2, 5, size=100)
    assert ints.dtype == tf.int64 and 2 <= ints.numpy().min() and ints.numpy().max() < 5
    u = tnp.random.uniform(-1.0, 1.0, size=(50,)).numpy()
    assert u.min() >= -1 and u.max() < 1
    assert tnp.random.standard_normal((2,)).shape == (2,)
    counts = tnp.random.poisson(3.0, size=20000)
    assert counts.dtype == tf.int64 and counts.shape == (20000,)
    assert abs(counts.numpy().mean() - 3.0) < 0.1 and abs(counts.numpy().var() - 3.0) < 0.2  # seeded: no flake
