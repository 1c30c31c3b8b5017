"""keras.ops on tinytf: the same values eagerly and inside tf.function, against numpy, gradients against finite
differences, on KerasTensors in Functional models, and Keras' dtype rules (TF 2.21's recorded results are in
tests/tf_reference/keras_ops_*.json, compared by test_tf_conformance)."""

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays

import tinytf as tf

ops = tf.keras.ops
keras = tf.keras
RNG = np.random.default_rng(7)
A = RNG.normal(size=(3, 4)).astype(np.float32)
B = RNG.normal(size=(4, 2)).astype(np.float32)
POS = (np.abs(A) + 0.5).astype(np.float32)
IMG = RNG.uniform(size=(2, 6, 5, 3)).astype(np.float32)
KER = RNG.normal(size=(3, 3, 3, 2)).astype(np.float32)

# (name, function of numpy inputs, inputs, numpy reference or None)
CASES = [
    ("add_weak", lambda x: ops.add(x, 1.5), [A], lambda x: x + 1.5),
    ("sqrt", ops.sqrt, [POS], np.sqrt),
    ("log2", ops.log2, [POS], np.log2),
    ("logaddexp", ops.logaddexp, [A, A.T[:3, :4] if False else A * 0.5], np.logaddexp),
    ("hypot", ops.hypot, [A, A * 2], np.hypot),
    ("cbrt", ops.cbrt, [A], np.cbrt),
    ("matmul", ops.matmul, [A, B], np.matmul),
    ("dot_vec", ops.dot, [A, B[:, 0]], np.dot),
    ("tensordot", lambda x, y: ops.tensordot(x, y, axes=1), [A, B], lambda x, y: np.tensordot(x, y, 1)),
    ("kron", ops.kron, [A[:2, :2], B[:2]], np.kron),
    ("cross", ops.cross, [A[:, :3], A[:, 1:]], np.cross),
    ("outer", ops.outer, [A[0], B[:, 1]], np.outer),
    ("cumsum", lambda x: ops.cumsum(x, axis=1), [A], lambda x: np.cumsum(x, 1)),
    ("cumprod", ops.cumprod, [A], lambda x: np.cumprod(x)),
    ("var", lambda x: ops.var(x, axis=0), [A], lambda x: np.var(x, 0)),
    ("std_keep", lambda x: ops.std(x, axis=1, keepdims=True), [A], lambda x: np.std(x, 1, keepdims=True)),
    ("median", lambda x: ops.median(x, axis=1), [A], lambda x: np.median(x, 1)),
    ("quantile", lambda x: ops.quantile(x, [0.1, 0.9], axis=0), [A], lambda x: np.quantile(x, [0.1, 0.9], 0)),
    ("percentile_nearest", lambda x: ops.percentile(x, 40, method="nearest"), [A],
     lambda x: np.percentile(x, 40, method="nearest")),
    ("ptp", lambda x: ops.ptp(x, 0), [A], lambda x: np.ptp(x, 0)),
    ("average", lambda x, w: ops.average(x, axis=1, weights=w), [A, POS[0]],
     lambda x, w: np.average(x, 1, weights=w)),
    ("take_along_axis", lambda x: ops.take_along_axis(x, ops.argsort(x, axis=0), axis=0), [A],
     lambda x: np.take_along_axis(x, np.argsort(x, 0), 0)),
    ("take_neg", lambda x: ops.take(x, [-1, 0], axis=1), [A], lambda x: np.take(x, [-1, 0], 1)),
    ("repeat", lambda x: ops.repeat(x, [1, 0, 2], axis=0), [A], lambda x: np.repeat(x, [1, 0, 2], 0)),
    ("tile", lambda x: ops.tile(x, (2, 1, 2)), [A], lambda x: np.tile(x, (2, 1, 2))),
    ("moveaxis", lambda x: ops.moveaxis(x, [0, 1], [2, 0]), [IMG[0]], lambda x: np.moveaxis(x, [0, 1], [2, 0])),
    ("rot90", lambda x: ops.rot90(x, 3, axes=(1, 2)), [IMG], lambda x: np.rot90(x, 3, (1, 2))),
    ("rot90_k2", lambda x: ops.rot90(x, 2), [A], lambda x: np.rot90(x, 2)),
    ("diagonal", lambda x: ops.diagonal(x, -1), [A], lambda x: np.diagonal(x, -1)),
    ("diagonal_3d", lambda x: ops.diagonal(x, 1, 1, 2), [IMG], lambda x: np.diagonal(x, 1, 1, 2)),
    ("trace", ops.trace, [A], np.trace),
    ("tril", lambda x: ops.tril(x, 1), [A], lambda x: np.tril(x, 1)),
    ("triu", ops.triu, [A], np.triu),
    ("pad_reflect", lambda x: ops.pad(x, ((1, 2), (2, 1)), mode="reflect"), [A],
     lambda x: np.pad(x, ((1, 2), (2, 1)), mode="reflect")),
    ("diff", lambda x: ops.diff(x, 2, axis=0), [A], lambda x: np.diff(x, 2, 0)),
    ("trapezoid", lambda x: ops.trapezoid(x, axis=0), [A], lambda x: np.trapezoid(x, axis=0)),
    ("correlate", lambda x, y: ops.correlate(x, y, mode="same"), [A[0], B[:3, 0]],
     lambda x, y: np.correlate(x, y, "same")),
    ("corrcoef", ops.corrcoef, [A], np.corrcoef),
    ("linspace", lambda x: ops.linspace(x[0, :2], x[1, :2], 5, axis=1), [A],
     lambda x: np.linspace(x[0, :2], x[1, :2], 5, axis=1)),
    ("geomspace", lambda x: ops.geomspace(x[0, 0], x[0, 0] * 100, 3), [POS],
     lambda x: np.geomspace(x[0, 0], x[0, 0] * 100, 3)),
    ("einsum", lambda x, y: ops.einsum("ij,jk->ki", x, y), [A, B], lambda x, y: np.einsum("ij,jk->ki", x, y)),
    ("softmax_tuple", lambda x: ops.softmax(x, axis=(0, 1)), [A], lambda x: np.exp(x) / np.exp(x).sum()),
    ("log_softmax", lambda x: ops.log_softmax(x, axis=0), [A],
     lambda x: x - np.log(np.exp(x).sum(0, keepdims=True))),
    ("celu", ops.celu, [A], lambda x: np.maximum(x, 0) + np.expm1(np.minimum(x, 0))),
    ("glu", ops.glu, [A], lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    ("squareplus", ops.squareplus, [A], lambda x: (x + np.sqrt(x * x + 4)) / 2),
    ("sparse_plus", ops.sparse_plus, [A * 2],
     lambda x: np.where(x <= -1, 0, np.where(x < 1, (x + 1) ** 2 / 4, x))),
    ("soft_shrink", ops.soft_shrink, [A], lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.5, 0)),
    ("hard_silu", ops.hard_silu, [A * 3], lambda x: x * np.clip(x / 6 + 0.5, 0, 1)),
    ("tanh_shrink", ops.tanh_shrink, [A], lambda x: x - np.tanh(x)),
    ("conv_same", lambda x, k: ops.conv(x, k, padding="same"), [IMG, KER], None),
    ("conv_transpose", lambda x, k: ops.conv_transpose(x, k, strides=2), [IMG[..., :2], KER], None),
    ("max_pool", lambda x: ops.max_pool(x, 2, 1), [IMG], None),
    ("moments", lambda x: ops.moments(x, [0, 1, 2]), [IMG], lambda x: (x.mean((0, 1, 2)), x.var((0, 1, 2)))),
    ("norm_fro", lambda x: ops.norm(x), [A], np.linalg.norm),
    ("norm_1_axis", lambda x: ops.norm(x, ord=1, axis=0), [A], lambda x: np.linalg.norm(x, 1, 0)),
    ("norm_mat_inf", lambda x: ops.norm(x, ord=np.inf, axis=(0, 1)), [A], lambda x: np.linalg.norm(x, np.inf)),
    ("solve", ops.solve, [A[:, :3] + 3 * np.eye(3, dtype=np.float32), B[:3]], np.linalg.solve),
    ("solve_triangular", lambda a, b: ops.solve_triangular(a, b, lower=True),
     [A[:, :3] + 3 * np.eye(3, dtype=np.float32), B[:3]], lambda a, b: np.linalg.solve(np.tril(a), b)),
    ("inv", ops.inv, [A[:, :3] + 3 * np.eye(3, dtype=np.float32)], np.linalg.inv),
    ("unique", lambda x: ops.unique(x, return_inverse=True, return_counts=True), [np.array([4, 1, 4, 0, 1])],
     lambda x: np.unique(x, return_inverse=True, return_counts=True)),
    ("isin", lambda x, y: ops.isin(x, y), [np.array([[1, 2], [3, 4]]), np.array([4, 1])], np.isin),
    ("searchsorted", ops.searchsorted, [np.array([0.5, 1.0, 2.0]), A[0]], np.searchsorted),
    ("digitize", ops.digitize, [A, np.array([-1.0, 0.0, 1.0], np.float32)], np.digitize),
    ("histogram", lambda x: ops.histogram(x, bins=4), [A.ravel()],
     lambda x: tuple(np.histogram(x, bins=4))),
    ("bincount", lambda x, w: ops.bincount(x, weights=w, minlength=6), [np.array([0, 3, 3, 1]), A[0]],
     lambda x, w: np.bincount(x, weights=w, minlength=6)),
    ("nanmean", lambda x: ops.nanmean(x, axis=0), [np.where(A > 1, np.nan, A)],
     lambda x: np.nanmean(x, 0)),
    ("nanargmax", lambda x: ops.nanargmax(x, axis=1), [np.where(A > 1, np.nan, A)],
     lambda x: np.nanargmax(x, 1)),
    ("gcd", ops.gcd, [np.array([12, -18, 7, 0]), np.array([8, 12, 0, 5])], np.gcd),
    ("lcm", ops.lcm, [np.array([4, 6, 0]), np.array([6, 4, 3])], np.lcm),
    ("unravel_index", lambda x: ops.unravel_index(x, (3, 4, 2)), [np.array([5, 23, 0])],
     lambda x: np.unravel_index(x, (3, 4, 2))),
    ("array_split", lambda x: ops.array_split(x, 3, axis=1), [A], lambda x: np.array_split(x, 3, 1)),
    ("split_at", lambda x: ops.split(x, [1, 3], axis=1), [A], lambda x: np.split(x, [1, 3], 1)),
    ("select", lambda x: ops.select([x < -0.5, x > 0.5], [x * 10, x * 100], default=-1.0), [A],
     lambda x: np.select([x < -0.5, x > 0.5], [x * 10, x * 100], default=-1.0)),
    ("nonzero", lambda x: ops.nonzero(x > 0), [A], lambda x: np.nonzero(x > 0)),
    ("signbit", ops.signbit, [np.array([-0.0, 0.0, -2.0, 3.0], np.float32)], np.signbit),
    ("vander", ops.vander, [A[0]], np.vander),
    ("slice_update", lambda x, u: ops.slice_update(x, (1, 2), u), [A, B[:2]], None),
    ("associative_scan", lambda x: ops.associative_scan(lambda a, b: a + b, x, axis=1), [A],
     lambda x: np.cumsum(x, 1)),
    ("scan", lambda x: ops.scan(lambda c, v: (c * 0.5 + v, c), ops.zeros((4,)), x), [A], None),
    ("fori_loop", lambda x: ops.fori_loop(0, 3, lambda i, v: v * 2 + ops.cast(i, "float32"), x), [A],
     lambda x: ((x * 2 + 0) * 2 + 1) * 2 + 2),
    ("while_loop", lambda x: ops.while_loop(lambda v, n: n < 4, lambda v, n: (v + 1.0, n + 1), (x, 0)), [A],
     lambda x: (x + 4, 4)),
    ("map", lambda x: ops.map(lambda r: ops.sum(r * r), x), [A], lambda x: (x * x).sum(1)),
    ("vectorized_map", lambda x: ops.vectorized_map(lambda r: r * 2.0, x), [A], lambda x: x * 2),
    ("switch", lambda x: ops.switch(ops.cast(ops.sum(x) > 0, "int32"), [lambda v: -v, lambda v: v * 3], x), [A],
     lambda x: x * 3 if x.sum() > 0 else -x),
    ("attention", lambda q, k: ops.dot_product_attention(q, k, k, is_causal=True), [IMG[:, :4, :, :2],
                                                                                    IMG[:, 1:5, :, 1:]], None),
    ("fft", lambda r, i: ops.fft((r, i)), [A, A[::-1]],
     lambda r, i: (np.fft.fft(r + 1j * i).real, np.fft.fft(r + 1j * i).imag)),
    ("ifft2", lambda r, i: ops.ifft2((r, i)), [A, A * 2],
     lambda r, i: (np.fft.ifft2(r + 2j * r).real, np.fft.ifft2(r + 2j * r).imag)),
    ("rfft", lambda x: ops.rfft(x, 6), [A], lambda x: (np.fft.rfft(x, 6).real, np.fft.rfft(x, 6).imag)),
    ("irfft", lambda r, i: ops.irfft((r, i), 6), [A, A[::-1]], lambda r, i: np.fft.irfft(r + 1j * i, 6)),
    # the first and last samples miss the frames before and after the signal (as in TF), the rest is exact
    ("stft_istft", lambda x: ops.istft(ops.stft(x, 8, 2, 8), 8, 2, 8, length=24)[:, 2:-2],
     [RNG.normal(size=(2, 24))], lambda x: x[:, 2:-2]),
    ("depth_space", lambda x: ops.space_to_depth(ops.depth_to_space(x, 2), 2), [IMG[:, :4, :4, :].repeat(4, -1)],
     lambda x: x),
    ("adaptive_avg", lambda x: ops.adaptive_average_pool(x, (4, 2)), [IMG], None),
    ("adaptive_max", lambda x: ops.adaptive_max_pool(x, 3), [IMG], None),
    ("unfold_fold", lambda x: ops.fold(ops.unfold(x, 2, stride=2), (6, 4), 2, stride=2),
     [np.transpose(IMG[:, :, :4], (0, 3, 1, 2))], lambda x: x),
    ("cdist", ops.cdist, [A, A[::-1] * 2], lambda x, y: np.sqrt(((x[:, None] - y[None]) ** 2).sum(-1))),
    ("nanquantile", lambda x: ops.nanquantile(x, [0.3, 0.6], axis=1), [np.where(A > 1, np.nan, A)],
     lambda x: np.nanquantile(x, [0.3, 0.6], axis=1)),
]


def _to_numpy(result):
    if isinstance(result, (list, tuple)):
        return [_to_numpy(r) for r in result]
    return np.asarray(result.numpy() if hasattr(result, "numpy") else result)


def _close(got, want, rtol=1e-5, atol=1e-5):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w, rtol, atol)
    else:
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name,fn,inputs,reference", CASES, ids=[c[0] for c in CASES])
def test_eager_graph_and_numpy_agree(name, fn, inputs, reference):
    eager = _to_numpy(fn(*[tf.constant(x) for x in inputs]))
    graph = _to_numpy(tf.function(fn)(*[tf.constant(x) for x in inputs]))
    _close(graph, eager, rtol=1e-6, atol=1e-6)
    if reference is not None:
        want = reference(*inputs)
        _close(eager, list(want) if isinstance(want, tuple) else want)


GRADIENT_CASES = [
    ("logaddexp", lambda x, y: ops.logaddexp(x, y), [(3, 4), (3, 4)]),
    ("hypot", lambda x, y: ops.hypot(x, y), [(3,), (3,)]),
    ("power_weak", lambda x: ops.power(ops.abs(x) + 0.5, 1.7), [(2, 3)]),
    ("divide", lambda x, y: ops.divide(x, ops.abs(y) + 1.0), [(3,), (3,)]),
    ("matmul", ops.matmul, [(2, 3), (3, 4)]),
    ("dot_nd", ops.dot, [(2, 2, 3), (3, 2)]),
    ("outer", ops.outer, [(3,), (2,)]),
    ("cross", ops.cross, [(2, 3), (2, 3)]),
    ("kron", ops.kron, [(2, 2), (2, 2)]),
    ("var", lambda x: ops.var(x, axis=0), [(4, 3)]),
    ("quantile", lambda x: ops.quantile(x, 0.3, axis=1), [(3, 5)]),
    ("average", lambda x, w: ops.average(x, axis=1, weights=ops.abs(w) + 0.5), [(2, 3), (3,)]),
    ("take_along_axis", lambda x: ops.take_along_axis(x, ops.argsort(x, axis=1), axis=1), [(2, 4)]),
    ("trapezoid", lambda x: ops.trapezoid(x, dx=0.5), [(2, 5)]),
    ("correlate", lambda x, y: ops.correlate(x, y, mode="full"), [(5,), (3,)]),
    ("cumprod", lambda x: ops.cumprod(x, axis=1), [(2, 4)]),
    ("softmax_tuple", lambda x: ops.softmax(x, axis=(0, 1)), [(2, 3)]),
    ("log_softmax", lambda x: ops.log_softmax(x, axis=0), [(3, 2)]),
    ("celu", lambda x: ops.celu(x, alpha=0.7), [(6,)]),
    ("glu", ops.glu, [(2, 4)]),
    ("squareplus", ops.squareplus, [(5,)]),
    ("sparse_plus", lambda x: ops.sparse_plus(x * 2.0), [(6,)]),
    ("sparsemax", lambda x: ops.sparsemax(x * 2.0), [(2, 4)]),
    ("soft_shrink", ops.soft_shrink, [(5,)]),
    ("log_sigmoid", ops.log_sigmoid, [(4,)]),
    ("layer_normalization", lambda x: ops.layer_normalization(x, gamma=[1.0, 2.0, 0.5]), [(2, 3)]),
    ("rms_normalization", lambda x: ops.rms_normalization(x, scale=1.5), [(2, 3)]),
    ("normalize", ops.normalize, [(2, 3)]),
    ("moments", lambda x: ops.moments(x, axes=[0]), [(4, 2)]),
    ("batch_normalization", lambda x, m: ops.batch_normalization(x, m, ops.abs(m) + 1.0, axis=1), [(3, 2), (2,)]),
    ("bce", lambda p: ops.binary_crossentropy(ops.array([[0.0, 1.0, 1.0]], "float64"), ops.sigmoid(p)), [(1, 3)]),
    ("cce_logits", lambda z: ops.categorical_crossentropy(ops.one_hot([1, 0], 3, dtype="float64"), z,
                                                          from_logits=True), [(2, 3)]),
    ("scce", lambda z: ops.sparse_categorical_crossentropy([2, 0], ops.softmax(z)), [(2, 3)]),
    ("attention", lambda q, k, v: ops.dot_product_attention(q, k, v, is_causal=True),
     [(1, 3, 2, 2), (1, 3, 2, 2), (1, 3, 2, 2)]),
    ("conv", lambda x, k: ops.conv(x, k, padding="same"), [(1, 4, 4, 2), (3, 3, 2, 2)]),
    ("conv1d", lambda x, k: ops.conv(x, k, strides=2), [(1, 7, 2), (3, 2, 3)]),
    ("depthwise", lambda x, k: ops.depthwise_conv(x, k), [(1, 4, 4, 2), (2, 2, 2, 2)]),
    ("conv_transpose", lambda x, k: ops.conv_transpose(x, k, strides=2, padding="same"),
     [(1, 3, 3, 2), (3, 3, 2, 2)]),
    ("average_pool", lambda x: ops.average_pool(x, 2, padding="same"), [(1, 3, 3, 2)]),
    ("norm", lambda x: ops.norm(x, ord=3, axis=1), [(2, 3)]),
    ("solve", lambda a, b: ops.solve(a + 3 * ops.eye(3, dtype="float64"), b), [(3, 3), (3, 2)]),
    ("solve_triangular", lambda a, b: ops.solve_triangular(a + 3 * ops.eye(3, dtype="float64"), b, lower=True),
     [(3, 3), (3,)]),
    ("slice_update", lambda x, u: ops.slice_update(x, (1, 0), u), [(3, 3), (2, 2)]),
    ("scatter_update", lambda x, u: ops.scatter_update(x, [[0, 1], [2, 2]], u), [(3, 3), (2,)]),
    ("scan", lambda xs: ops.scan(lambda c, v: (c * v + 1.0, c), ops.ones((2,), "float64"), xs), [(3, 2)]),
    ("fori_loop", lambda x: ops.fori_loop(0, 3, lambda i, v: ops.sin(v) * 1.5, x), [(3,)]),
    ("while_loop", lambda x: ops.while_loop(lambda v, n: n < 3, lambda v, n: (v * v * 0.5, n + 1), (x, 0))[0],
     [(3,)]),
    ("associative_scan", lambda x: ops.associative_scan(lambda a, b: a * b, x), [(5,)]),
    ("map", lambda x: ops.map(lambda r: ops.sum(ops.exp(r)), x), [(3, 2)]),
    ("cond", lambda x: ops.cond(ops.sum(x) > 100.0, lambda: x * 2.0, lambda: ops.square(x)), [(3,)]),
    ("fft2", lambda r, i: ops.fft2((r, i)), [(2, 3), (2, 3)]),
    ("irfft", lambda r, i: ops.irfft((r, i), 5), [(2, 3), (2, 3)]),
    ("stft", lambda x: ops.stft(x, 4, 2, 6), [(1, 10)]),
    ("istft", lambda r, i: ops.istft((r, i), 4, 2, 4), [(3, 3), (3, 3)]),
    ("adaptive_max_pool", lambda x: ops.adaptive_max_pool(x, (2, 2)), [(1, 3, 5, 1)]),
    ("adaptive_average_pool", lambda x: ops.adaptive_average_pool(x, 2), [(1, 5, 2)]),
    ("fold", lambda x: ops.fold(x, (3, 3), 2), [(1, 4, 4)]),
    ("unfold", lambda x: ops.unfold(x, 2, padding=1), [(1, 1, 2, 3)]),
    ("depth_to_space", lambda x: ops.depth_to_space(x, 2), [(1, 1, 2, 4)]),
    ("cdist", ops.cdist, [(3, 2), (2, 2)]),
    ("rgb_to_hsv", lambda x: ops.image.rgb_to_hsv(x * 0.4 + 0.5), [(1, 2, 2, 3)]),
    ("hsv_to_rgb", lambda x: ops.image.hsv_to_rgb(x * 0.4 + 0.5), [(1, 2, 2, 3)]),
    ("gaussian_blur", lambda x: ops.image.gaussian_blur(x), [(1, 3, 3, 2)]),
    ("extract_patches", lambda x: ops.image.extract_patches(x, 2, padding="same"), [(1, 3, 3, 2)]),
]


@pytest.mark.parametrize("name,fn,shapes", GRADIENT_CASES, ids=[c[0] for c in GRADIENT_CASES])
def test_gradients_match_finite_differences(name, fn, shapes):
    check_gradients(fn, uniform_arrays(*shapes, seed=3), rtol=1e-4, atol=1e-6)


def test_image_resize_gradient():
    # TF's bilinear resize computes in float32 whatever the input, so the differences need a float32 step
    check_gradients(lambda x: ops.image.resize(x, (5, 3)), uniform_arrays((1, 3, 2, 1), seed=3), rtol=2e-3,
                    atol=1e-4, eps=1e-3)


def _sparsemax_reference(z):
    """The Euclidean projection onto the simplex, by sorting (Martins & Astudillo, 2016)."""
    out = np.empty_like(z)
    for i, row in enumerate(z.reshape(-1, z.shape[-1])):
        s = np.sort(row)[::-1]
        k = np.arange(1, len(s) + 1)
        support = s - (np.cumsum(s) - 1) / k > 0
        kz = k[support][-1]
        tau = (s[:kz].sum() - 1) / kz
        out.reshape(-1, z.shape[-1])[i] = np.maximum(row - tau, 0)
    return out


def test_sparsemax_is_the_simplex_projection():
    # TF 2.21's Keras sparsemax sums the cumulative sums over the support (it gives [0.25, 0, 0] for
    # [1, 0.5, 0]); tinytf follows the documented definition, which the docstring example shows too.
    z = RNG.normal(size=(5, 6)) * 2
    got = ops.sparsemax(z).numpy()
    np.testing.assert_allclose(got, _sparsemax_reference(z), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(got.sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(ops.sparsemax(z.T, axis=0).numpy(), _sparsemax_reference(z).T, atol=1e-9)


def test_keras_result_type_rules():
    br = keras.backend.result_type
    assert br("bfloat16", int) == "bfloat16"
    assert br("int32", "float32") == "float32"
    assert br("int8", int) == "int8" and br("uint8", "int8") == "int16"
    assert br("float16", float) == "float16" and br(int, float) == "float32"
    assert br("bool", int) == "int32" and br("int64", float) == "float32" and br("uint64", "int8") == "float32"
    assert br() == "float32" and br(None) == "float32"
    assert ops.add(tf.constant([1, 2]), 1.5).dtype == tf.float32
    assert ops.add(tf.constant([1, 2], tf.int8), 1).dtype == tf.int8
    assert ops.multiply(tf.constant([1.0], tf.float16), 2.0).dtype == tf.float16
    with pytest.raises(ValueError, match="Invalid dtype"):
        keras.utils.standardize_dtype("float")


def test_floatx_drives_weak_types_and_float_functions():
    keras.config.set_floatx("float64")
    try:
        assert keras.config.floatx() == "float64"
        assert ops.add(tf.constant([1, 2]), 1.5).dtype == tf.float64
        assert ops.sin(tf.constant([1, 2], tf.int64)).dtype == tf.float64
        assert ops.zeros((2,)).dtype == tf.float64 and ops.full((1,), 3).dtype == tf.float64
        with pytest.raises(ValueError, match="Unknown `floatx` value"):
            keras.config.set_floatx("int32")
    finally:
        keras.config.set_floatx("float32")
    assert ops.ones(2).dtype == tf.float32


def test_config_settings():
    assert keras.config.backend() == "tensorflow" and keras.config.epsilon() == 1e-7
    assert keras.config.image_data_format() == "channels_last"
    keras.config.set_image_data_format("channels_first")
    try:
        x = ops.conv(tf.constant(np.transpose(IMG, (0, 3, 1, 2))), tf.constant(KER))
        want = ops.conv(tf.constant(IMG), tf.constant(KER), data_format="channels_last")
        np.testing.assert_allclose(x.numpy(), np.transpose(want.numpy(), (0, 3, 1, 2)), rtol=1e-5, atol=1e-5)
    finally:
        keras.config.set_image_data_format("channels_last")
    with pytest.raises(ValueError, match="data_format"):
        keras.config.set_image_data_format("NHWC")
    keras.config.set_epsilon(1e-3)
    try:
        assert keras.backend.epsilon() == 1e-3
        clipped = ops.binary_crossentropy(tf.constant([1.0]), tf.constant([0.0]))
        np.testing.assert_allclose(clipped.numpy(), [-np.log(1e-3)], rtol=1e-5)
    finally:
        keras.config.set_epsilon(1e-7)


def test_ops_between_layers_of_a_functional_model_train_and_save_shapes():
    inputs = keras.Input((4,))
    x = ops.tanh(inputs)
    x = keras.layers.Dense(3)(ops.concatenate([x, ops.square(inputs)], axis=-1))
    outputs = ops.mean(ops.softmax(x), axis=-1, keepdims=True) + ops.sum(x, axis=-1, keepdims=True)
    assert keras.utils.is_keras_tensor(outputs) and outputs.shape == (None, 1)
    model = keras.Model(inputs, outputs)
    data = RNG.normal(size=(16, 4)).astype(np.float32)
    direct = model(tf.constant(data)).numpy()
    dense = model.layers[[type(layer).__name__ for layer in model.layers].index("Dense")]
    h = np.concatenate([np.tanh(data), data ** 2], -1) @ dense.kernel.numpy() + dense.bias.numpy()
    e = np.exp(h - h.max(-1, keepdims=True))
    want = (e / e.sum(-1, keepdims=True)).mean(-1, keepdims=True) + h.sum(-1, keepdims=True)
    np.testing.assert_allclose(direct, want, rtol=1e-5, atol=1e-5)
    model.compile(optimizer="sgd", loss="mse")
    before = model.evaluate(data, np.zeros((16, 1)), verbose=0)
    model.fit(data, np.zeros((16, 1)), epochs=3, batch_size=8, verbose=0)
    assert model.evaluate(data, np.zeros((16, 1)), verbose=0) < before


def test_ops_in_a_custom_layer_eager_and_graph():
    class Gate(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], 2 * input_shape[-1]), initializer="glorot_uniform")

        def call(self, x):
            return ops.glu(ops.matmul(x, self.w)) + ops.where(x > 0, x, ops.zeros_like(x))

    layer = Gate()
    x = tf.constant(A)
    eager = layer(x)
    graph = tf.function(layer)(x)
    np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-6)
    with tf.GradientTape() as tape:
        loss = ops.sum(ops.square(layer(x)))
    grad = tape.gradient(loss, layer.w)
    assert grad is not None and grad.shape == layer.w.shape


def test_jvp_matches_finite_differences():
    def f(x, y):
        return ops.sin(x) * ops.matmul(x, y)[:, :1]

    x, y = uniform_arrays((2, 3), (3, 2), seed=4)
    tx, ty = uniform_arrays((2, 3), (3, 2), seed=5)
    out, tangent = ops.jvp(f, (tf.constant(x), tf.constant(y)), (tf.constant(tx), tf.constant(ty)))
    eps = 1e-6
    numeric = (f(tf.constant(x + eps * tx), tf.constant(y + eps * ty)).numpy()
               - f(tf.constant(x - eps * tx), tf.constant(y - eps * ty)).numpy()) / (2 * eps)
    np.testing.assert_allclose(tangent.numpy(), numeric, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(out.numpy(), f(tf.constant(x), tf.constant(y)).numpy())
    graph_out, graph_tangent = tf.function(lambda a, b: ops.jvp(f, (a, b), (tf.constant(tx), tf.constant(ty))))(
        tf.constant(x), tf.constant(y))
    np.testing.assert_allclose(graph_tangent.numpy(), tangent.numpy(), rtol=1e-12)


def test_rearrange_with_unknown_batch_and_errors():
    @tf.function(input_signature=[tf.TensorSpec([None, 4, 6, 3], tf.float32)])
    def patches(x):
        return ops.rearrange(x, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=3)

    images = RNG.normal(size=(2, 4, 6, 3)).astype(np.float32)
    want = images.reshape(2, 2, 2, 3, 2, 3).transpose(0, 1, 3, 2, 4, 5).reshape(12, 2, 2, 3)
    np.testing.assert_allclose(patches(tf.constant(images)).numpy(), want)
    inputs = keras.Input((4, 6, 3))
    assert ops.rearrange(inputs, "b h w c -> b (h w) c").shape == (None, 24, 3)
    assert ops.shape(inputs) == (None, 4, 6, 3) and ops.ndim(inputs) == 4 and ops.dtype(inputs) == "float32"
    with pytest.raises(ValueError, match="same axes"):
        ops.rearrange(tf.constant(images), "b h w c -> b h w")
    with pytest.raises(ValueError, match="cannot infer"):
        ops.rearrange(tf.constant(images), "b (h1 h) w c -> b h1 h w c")
    with pytest.raises(ValueError, match="names 3 axes"):
        ops.rearrange(tf.constant(images), "b h w -> w h b")


def test_lu_factor_reconstructs_and_batches():
    # Keras documents (..., M, M) inputs; TF 2.21's backend raises on a batch (it inverts the permutation of
    # the whole batch at once), tinytf factors each matrix.
    a = RNG.normal(size=(2, 4, 4))
    lu, pivots = ops.lu_factor(a)
    for i in range(2):
        lower = np.tril(lu.numpy()[i], -1) + np.eye(4)
        upper = np.triu(lu.numpy()[i])
        order = np.argsort(pivots.numpy()[i])
        np.testing.assert_allclose(a[i][order], lower @ upper, rtol=1e-10, atol=1e-12)
        one_lu, one_pivots = ops.lu_factor(a[i])
        np.testing.assert_allclose(one_lu.numpy(), lu.numpy()[i])
        np.testing.assert_array_equal(one_pivots.numpy(), pivots.numpy()[i])
    check_gradients(lambda m: ops.lu_factor(m + 4 * ops.eye(3, dtype="float64"))[0], uniform_arrays((3, 3)))


def test_shape_with_unknown_dimensions_inside_function():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def f(x):
        shape = ops.shape(x)
        seen.append(shape[1])
        return ops.reshape(x, (shape[0] * 2, 2))

    assert f(tf.constant(A)).shape == (6, 2)
    assert seen == [4]


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="divisible by 2"):
        ops.glu(tf.ones((2, 3)))
    with pytest.raises(ValueError, match="same shape"):
        ops.binary_crossentropy(tf.ones((2, 3)), tf.ones((2, 2)))
    with pytest.raises(ValueError, match="Cannot squeeze"):
        ops.squeeze(tf.ones((2, 3)), 0)
    with pytest.raises(ValueError, match="interpolation"):
        ops.image.resize(tf.ones((1, 4, 4, 1)), (2, 2), interpolation="cubic")
    with pytest.raises(ValueError, match="`length`"):
        ops.scan(lambda c, v: (c, v), 0.0, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty"):
        ops.max(tf.zeros((0,)))
    with pytest.raises(ValueError, match="must be a floating point"):
        ops.gelu(tf.constant([1, 2]))


def test_new_activations_by_name_and_serialization():
    for name in ["celu", "glu", "hard_shrink", "hard_silu", "hard_tanh", "log_sigmoid", "soft_shrink",
                 "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink"]:
        fn = keras.activations.get(name)
        assert keras.activations.serialize(fn) == name
        layer = keras.layers.Dense(4, activation=name)
        out = layer(tf.constant(A))
        np.testing.assert_allclose(out.numpy(), getattr(ops, name)(layer.kernel.numpy().T[:0].T if False else
                                                                    A @ layer.kernel.numpy() +
                                                                    layer.bias.numpy()).numpy(), rtol=1e-5)
    assert keras.activations.get("hard_swish") is keras.activations.hard_silu
    assert keras.activations.serialize(keras.activations.hard_swish) == "hard_silu"
    np.testing.assert_allclose(keras.activations.threshold(tf.constant([0.2, 1.0]), 0.5, -1.0).numpy(), [-1, 1])


def test_backend_functions_follow_tensorflow():
    kb = keras.backend
    x = tf.constant(A)
    np.testing.assert_allclose(kb.batch_flatten(tf.constant(IMG)).numpy(), IMG.reshape(2, -1))
    assert kb.int_shape(x) == (3, 4) and kb.ndim(x) == 2 and kb.dtype(x) == "float32"
    np.testing.assert_allclose(kb.dot(tf.constant(IMG[0]), tf.constant(KER[0, 0])).numpy(), IMG[0] @ KER[0, 0],
                               rtol=1e-5)
    np.testing.assert_allclose(kb.repeat_elements(x, 2, axis=1).numpy(), np.repeat(A, 2, 1))
    assert kb.repeat(x, 3).shape == (3, 3, 4)
    np.testing.assert_allclose(kb.mean(tf.constant([True, False])).numpy(), 0.5)
    assert kb.argmax(x).dtype == tf.int64
    v = kb.variable(A)
    kb.set_value(v, np.zeros((3, 4)))
    assert kb.get_value(v).sum() == 0 and kb.count_params(v) == 12
    kb.moving_average_update(v, tf.ones((3, 4)), 0.9)
    np.testing.assert_allclose(kb.eval(v), 0.1, rtol=1e-6)
    np.testing.assert_allclose(kb.switch(tf.constant(True), lambda: x, lambda: -x).numpy(), A)
    np.testing.assert_allclose(kb.switch(x > 0, x, -x).numpy(), np.abs(A))
    np.testing.assert_allclose(kb.relu(x, alpha=0.1, max_value=0.5).numpy(),
                               np.minimum(np.where(A > 0, A, 0.1 * A), 0.5), rtol=1e-6)
    np.testing.assert_allclose(kb.hard_sigmoid(x).numpy(), np.clip(0.2 * A + 0.5, 0, 1), rtol=1e-6)
    np.testing.assert_allclose(kb.bias_add(tf.constant(IMG), tf.constant([1.0, 2.0, 3.0])).numpy(),
                               IMG + [1, 2, 3], rtol=1e-6)
    np.testing.assert_allclose(kb.bias_add(tf.constant(np.transpose(IMG, (0, 3, 1, 2))), tf.constant(
        [1.0, 2.0, 3.0]), data_format="channels_first").numpy(), np.transpose(IMG + [1, 2, 3], (0, 3, 1, 2)),
        rtol=1e-6)
    assert kb.spatial_2d_padding(tf.constant(IMG)).shape == (2, 8, 7, 3)
    assert kb.temporal_padding(tf.constant(IMG[0]), (2, 0)).shape == (6, 7, 3)
    assert kb.cast_to_floatx(np.array([1, 2])).dtype == np.float32
    kb.clear_session()
    assert kb.get_uid("x") == 1 and kb.get_uid("x") == 2 and kb.get_uid() == 1
    with pytest.raises(ValueError, match="1D"):
        kb.softmax(tf.constant([1.0, 2.0]))


def test_keras_level_aliases_and_variable():
    assert keras.KerasTensor is type(keras.Input((2,)))
    assert keras.Loss is keras.losses.Loss and keras.Metric is keras.metrics.Metric
    assert keras.Optimizer is keras.optimizers.Optimizer and keras.Initializer is keras.initializers.Initializer
    assert keras.Regularizer is keras.regularizers.Regularizer
    keras.backend.clear_session()
    v = keras.Variable(initializer="ones", shape=(2,))
    assert v.name == "variable" and v.path == "variable" and v.dtype == tf.float32 and v.trainable
    w = keras.Variable(np.array([1.0, 2.0]))
    assert w.name == "variable_1" and w.dtype == tf.float32
    c = keras.Variable(3, dtype="int32", name="count", trainable=False)
    assert c.name == "count" and not c.trainable and c.dtype == tf.int32
    with tf.GradientTape() as tape:
        loss = ops.sum(v * w)
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [1.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        keras.Variable(initializer="zeros")


def test_custom_object_scope_makes_a_layer_loadable():
    class Doubler(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

    config = keras.utils.serialize_keras_object(Doubler(name="d"))
    with pytest.raises(ValueError):
        keras.utils.deserialize_keras_object(config)
    with keras.utils.custom_object_scope({"Doubler": Doubler}):
        restored = keras.utils.deserialize_keras_object(config)
        assert "Doubler" in keras.utils.get_custom_objects()
    assert isinstance(restored, Doubler) and restored.name == "d"
    assert "Doubler" not in keras.utils.get_custom_objects()
    assert keras.utils.CustomObjectScope is keras.utils.custom_object_scope
    assert keras.utils.clear_session is keras.backend.clear_session
