"""keras.ops' values on TF 2.21: the `>>>` examples of Keras 3's ops docstrings (keras/src/ops/numpy.py, nn.py,
core.py, math.py, linalg.py) and the numpy-named functions on fixed inputs, axis and keyword variants included.
Each entry is the result ([dtype, shape, values]) or the error class and key phrase."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val

M = data((3, 4), seed=1)  # a float32 matrix
V = np.array([1.5, -2.0, 0.0, 3.25], np.float32)
I = np.array([[3, 1, 2], [0, -4, 7]], np.int32)  # noqa: E741


def _table(cases: dict) -> dict:
    return {name: outcome(fn, phrase) if isinstance(fn, tuple) is False else outcome(*fn)
            for name, (fn, phrase) in ((k, v if isinstance(v, tuple) else (v, "")) for k, v in cases.items())}


@program
def p_keras_ops_numpy_elementwise(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M)
    return _table({
        "add": lambda: ops.add(x, 1), "subtract": lambda: ops.subtract(I, 2.5), "multiply": lambda: ops.multiply(x, x),
        "divide": lambda: ops.divide(I, 4), "true_divide": lambda: ops.true_divide(x, 2),
        "floor_divide": lambda: ops.floor_divide(I, 3), "mod": lambda: ops.mod(I, 3), "fmod": lambda: ops.fmod(I, 3),
        "power": lambda: ops.power(I, 2), "power_f": lambda: ops.power(x, 2.0), "maximum": lambda: ops.maximum(x, 0.1),
        "minimum": lambda: ops.minimum(I, 1), "abs": lambda: ops.abs(I), "negative": lambda: ops.negative(x),
        "sqrt": lambda: ops.sqrt(ops.abs(x)), "exp": lambda: ops.exp(x), "exp2": lambda: ops.exp2(I),
        "expm1": lambda: ops.expm1(x), "log": lambda: ops.log(ops.abs(x) + 1), "log2": lambda: ops.log2(V + 3),
        "log10": lambda: ops.log10(ops.abs(x) + 1), "log1p": lambda: ops.log1p(ops.abs(x)),
        "sin": lambda: ops.sin(x), "cos": lambda: ops.cos(I), "tan": lambda: ops.tan(x),
        "arcsin": lambda: ops.arcsin(x),
        "arccos": lambda: ops.arccos(x), "arctan": lambda: ops.arctan(x), "arctan2": lambda: ops.arctan2(x, 0.5),
        "sinh": lambda: ops.sinh(x), "cosh": lambda: ops.cosh(x), "tanh": lambda: ops.tanh(x),
        "arcsinh": lambda: ops.arcsinh(x), "arccosh": lambda: ops.arccosh(ops.abs(x) + 1),
        "arctanh": lambda: ops.arctanh(x * 0.5), "floor": lambda: ops.floor(x * 3), "ceil": lambda: ops.ceil(x * 3),
        "trunc": lambda: ops.trunc(x * 3), "round": lambda: ops.round(x, 1), "round_int": lambda: ops.round(I * 17, -1),
        "round_half": lambda: ops.round(ops.array([0.5, 1.5, 2.5, -0.5])), "sign": lambda: ops.sign(V),
        "signbit": lambda: ops.signbit(ops.array([-0.0, 0.0, -1.0, 2.0])), "square": lambda: ops.square(I),
        "cbrt": lambda: ops.cbrt(ops.array([-8.0, 27.0, 2.0])), "reciprocal": lambda: ops.reciprocal(V + 0.5),
        "clip": lambda: ops.clip(x, -0.3, 0.4), "clip_int": lambda: ops.clip(I, 0, 3),
        "hypot": lambda: ops.hypot(ops.array([3.0, 5.0]), ops.array([4.0, 12.0])),
        "logaddexp": lambda: ops.logaddexp(x, 0.5), "logaddexp2": lambda: ops.logaddexp2(x, x),
        "heaviside": lambda: ops.heaviside(V, 0.5), "deg2rad": lambda: ops.deg2rad(I),
        "rad2deg": lambda: ops.rad2deg(x), "sinc": lambda: ops.sinc(V), "nan_to_num": lambda: ops.nan_to_num(
            ops.array([np.nan, np.inf, -np.inf, 1.0]), nan=0.5, posinf=9.0, neginf=-9.0),
        "isnan": lambda: ops.isnan(ops.array([np.nan, 1.0])), "isinf": lambda: ops.isinf(ops.array([np.inf, 1.0])),
        "isfinite": lambda: ops.isfinite(ops.array([np.inf, 1.0, np.nan])),
        "isclose": lambda: ops.isclose(ops.array([1.0, 2.0]), ops.array([1.0 + 1e-7, 2.1])),
        "allclose": lambda: ops.allclose(x, x + 1e-9), "equal": lambda: ops.equal(I, 2),
        "greater": lambda: ops.greater(x, 0), "less_equal": lambda: ops.less_equal(I, 1),
        "logical_and": lambda: ops.logical_and(I, x[:2, :3]), "logical_xor": lambda: ops.logical_xor(I > 0, True),
        "logical_not": lambda: ops.logical_not(I), "fmax": lambda: ops.fmax(ops.array([np.nan, 1.0]), 0.5),
        "gcd": lambda: ops.gcd(ops.array([12, 18, 7]), ops.array([8, 12, 0])),
        "lcm": lambda: ops.lcm(ops.array([4, 6]), ops.array([6, 4])), "ldexp": lambda: ops.ldexp(x, 3),
        "divide_no_nan": lambda: ops.divide_no_nan(V, ops.array([1.0, 0.0, 0.0, 2.0])),
    })


@program
def p_keras_ops_numpy_reductions(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M)
    return _table({
        "sum": lambda: ops.sum(x), "sum_axis": lambda: ops.sum(I, axis=1), "sum_keep": lambda: ops.sum(x, 0, True),
        "sum_tuple": lambda: ops.sum(x, axis=(0, 1)), "mean": lambda: ops.mean(I), "mean_axis": lambda: ops.mean(x, -1),
        "prod": lambda: ops.prod(I, axis=0), "max": lambda: ops.max(x, axis=1), "min": lambda: ops.min(I),
        "max_initial": lambda: ops.max(x, initial=2.0), "amax": lambda: ops.amax(x, 0), "amin": lambda: ops.amin(I, 1),
        "std": lambda: ops.std(x, axis=0), "var": lambda: ops.var(I), "var_keep": lambda: ops.var(x, 1, True),
        "all": lambda: ops.all(I), "any": lambda: ops.any(I > 5, axis=0), "ptp": lambda: ops.ptp(x, axis=1),
        "argmax": lambda: ops.argmax(x), "argmax_axis": lambda: ops.argmax(x, axis=1),
        "argmax_keep": lambda: ops.argmax(x, axis=0, keepdims=True), "argmin": lambda: ops.argmin(I, axis=1),
        "cumsum": lambda: ops.cumsum(I), "cumsum_axis": lambda: ops.cumsum(x, axis=1),
        "cumprod": lambda: ops.cumprod(I, axis=0), "count_nonzero": lambda: ops.count_nonzero(I),
        "count_nonzero_axis": lambda: ops.count_nonzero(I, axis=1),
        "average": lambda: ops.average(x, axis=1, weights=ops.array([1.0, 2.0, 0.5, 1.5])),
        "average_all": lambda: ops.average(I), "median": lambda: ops.median(x, axis=1),
        "median_all": lambda: ops.median(I), "quantile": lambda: ops.quantile(x, 0.3, axis=0),
        "quantile_many": lambda: ops.quantile(x, ops.array([0.25, 0.75])),
        "quantile_lower": lambda: ops.quantile(x, 0.4, method="lower"),
        "quantile_midpoint": lambda: ops.quantile(x, 0.4, axis=1, method="midpoint", keepdims=True),
        "percentile": lambda: ops.percentile(I, 50), "nansum": lambda: ops.nansum(ops.array([1.0, np.nan, 2.0])),
        "nanmean": lambda: ops.nanmean(ops.array([[1.0, np.nan], [3.0, 5.0]]), axis=1),
        "nanmax": lambda: ops.nanmax(ops.array([1.0, np.nan, 2.0])),
        "nanvar": lambda: ops.nanvar(ops.array([1.0, np.nan, 2.0, 4.0])),
        "logsumexp": lambda: ops.logsumexp(x, axis=1), "trace": lambda: ops.trace(I[:, :2]),
        "max_empty": (lambda: ops.max(ops.zeros((0,))), "empty"),
    })


@program
def p_keras_ops_numpy_shapes(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M)
    return _table({
        "reshape": lambda: ops.reshape(x, (2, -1)), "ravel": lambda: ops.ravel(I),
        "transpose": lambda: ops.transpose(x),
        "transpose_axes": lambda: ops.transpose(ops.reshape(x, (3, 2, 2)), (2, 0, 1)),
        "swapaxes": lambda: ops.swapaxes(ops.reshape(x, (3, 2, 2)), 0, 2),
        "moveaxis": lambda: ops.moveaxis(ops.reshape(x, (3, 2, 2)), 0, -1),
        "expand_dims": lambda: ops.expand_dims(I, 1), "expand_dims_tuple": lambda: ops.expand_dims(I, (0, 3)),
        "squeeze": lambda: ops.squeeze(ops.ones((1, 3, 1))),
        "squeeze_axis": lambda: ops.squeeze(ops.ones((1, 3, 1)), 2),
        "broadcast_to": lambda: ops.broadcast_to(V, (2, 4)), "concatenate": lambda: ops.concatenate([I, I * 2], axis=1),
        "concatenate_mixed": lambda: ops.concatenate([I, x[:2, :3]]), "append": lambda: ops.append(I, V),
        "stack": lambda: ops.stack([V, V * 2], axis=1), "hstack": lambda: ops.hstack([I, I]),
        "vstack": lambda: ops.vstack([V, V]), "dstack": lambda: ops.dstack([I, I]),
        "split": lambda: ops.split(x, 2, axis=1), "split_at": lambda: ops.split(V, [1, 3]),
        "array_split": lambda: ops.array_split(ops.arange(7), 3), "hsplit": lambda: ops.hsplit(x, 2),
        "vsplit": lambda: ops.vsplit(ops.reshape(ops.arange(8), (4, 2)), 2),
        "tile": lambda: ops.tile(I, 2), "tile_many": lambda: ops.tile(V, (2, 1, 2)),
        "repeat": lambda: ops.repeat(I, 2), "repeat_axis": lambda: ops.repeat(I, [1, 2], axis=0),
        "flip": lambda: ops.flip(x, 1), "flip_all": lambda: ops.flip(I), "fliplr": lambda: ops.fliplr(I),
        "flipud": lambda: ops.flipud(I), "roll": lambda: ops.roll(I, 1), "roll_axis": lambda: ops.roll(x, -1, axis=0),
        "rot90": lambda: ops.rot90(I), "rot90_k3": lambda: ops.rot90(I, k=3),
        "rot90_k2": lambda: ops.rot90(x[:, :3], 2),
        "take": lambda: ops.take(x, ops.array([2, 0]), axis=1), "take_flat": lambda: ops.take(I, ops.array([-1, 0])),
        "take_along_axis": lambda: ops.take_along_axis(x, ops.argsort(x, axis=1), axis=1),
        "where": lambda: ops.where(x > 0, x, 0), "where_idx": lambda: ops.where(I > 0),
        "nonzero": lambda: ops.nonzero(I), "select": lambda: ops.select([I < 0, I > 2], [I, I * 10], -1),
        "diagonal": lambda: ops.diagonal(x), "diagonal_off": lambda: ops.diagonal(x, 1),
        "diag": lambda: ops.diag(V), "diag_k": lambda: ops.diag(ops.array([1, 2]), k=-1),
        "diag_of": lambda: ops.diag(x, 1), "diagflat": lambda: ops.diagflat(I[:, :2]),
        "tril": lambda: ops.tril(x), "triu": lambda: ops.triu(x, -1), "tri": lambda: ops.tri(3, 4, 1),
        "pad": lambda: ops.pad(I, ((1, 0), (0, 2))), "pad_value": lambda: ops.pad(V, 1, constant_values=7.0),
        "pad_reflect": lambda: ops.pad(I, ((0, 0), (2, 1)), mode="reflect"),
        "pad_symmetric": lambda: ops.pad(I, ((1, 1), (0, 0)), mode="symmetric"),
        "sort": lambda: ops.sort(x), "sort_axis0": lambda: ops.sort(I, axis=0), "argsort": lambda: ops.argsort(V),
        "searchsorted": lambda: ops.searchsorted(ops.array([1.0, 2.0, 3.0]), ops.array([2.0, 0.5, 4.0])),
        "searchsorted_right": lambda: ops.searchsorted(ops.array([1, 2, 3]), ops.array([2]), side="right"),
        "digitize": lambda: ops.digitize(V, ops.array([-1.0, 0.0, 2.0])),
        "unravel_index": lambda: ops.unravel_index(ops.array([5, 7]), (3, 4)),
        "bincount": lambda: ops.bincount(ops.array([0, 2, 2, 5]), minlength=7),
        "unique": lambda: ops.unique(ops.array([3, 1, 3, 2, 1])),
        "unique_all": lambda: ops.unique(ops.array([3, 1, 3, 2]), return_inverse=True, return_counts=True),
        "isin": lambda: ops.isin(I, ops.array([0, 7, 3])), "histogram": lambda: ops.histogram(V, bins=3),
        "histogram_range": lambda: ops.histogram(V, bins=2, range=(-1.0, 2.0)),
        "meshgrid": lambda: ops.meshgrid(ops.array([1, 2]), ops.array([3, 4, 5])),
        "meshgrid_ij": lambda: ops.meshgrid(ops.array([1, 2]), ops.array([3, 4, 5]), indexing="ij"),
        "diff": lambda: ops.diff(V), "diff2": lambda: ops.diff(x, n=2, axis=1),
        "get_item": lambda: ops.get_item(x, 1), "size": lambda: ops.size(x), "ndim": lambda: ops.ndim(x),
        "shape": lambda: list(ops.shape(x)), "squeeze_bad": (lambda: ops.squeeze(ops.ones((2, 3)), 0), "squeeze"),
        "split_bad": (lambda: ops.split(V, 3), ""),
    })


@program
def p_keras_ops_numpy_creation_and_products(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M)
    return _table({
        "arange": lambda: ops.arange(3, 9, 2), "arange_f": lambda: ops.arange(0.5, 2.0, 0.25),
        "linspace": lambda: ops.linspace(0.0, 1.0, 5), "linspace_noend": lambda: ops.linspace(0, 1, 4, endpoint=False),
        "linspace_step": lambda: ops.linspace(2.0, 3.0, 5, retstep=True),
        "linspace_vec": lambda: ops.linspace(ops.array([0.0, 1.0]), ops.array([1.0, 3.0]), 3),
        "linspace_axis": lambda: ops.linspace(ops.array([0.0, 1.0]), ops.array([1.0, 3.0]), 3, axis=1),
        "logspace": lambda: ops.logspace(0.0, 2.0, 3), "logspace_base": lambda: ops.logspace(0, 3, 4, base=2),
        "geomspace": lambda: ops.geomspace(1.0, 1000.0, 4), "eye": lambda: ops.eye(3, 4, k=1),
        "identity": lambda: ops.identity(3), "zeros": lambda: ops.zeros((2, 3), "int32"), "ones": lambda: ops.ones(3),
        "full": lambda: ops.full((2, 2), 7, dtype="int32"), "full_like": lambda: ops.full_like(I, 4),
        "zeros_like": lambda: ops.zeros_like(x), "ones_like": lambda: ops.ones_like(I, dtype="float32"),
        "empty": lambda: ops.empty((2,)), "copy": lambda: ops.copy(I), "array": lambda: ops.array([[1, 2], [3, 4]]),
        "matmul": lambda: ops.matmul(x, ops.transpose(x)), "matmul_vec": lambda: ops.matmul(x, V),
        "matmul_int": lambda: ops.matmul(I, ops.transpose(I)), "matmul_batch": lambda: ops.matmul(
            ops.reshape(ops.arange(12.0), (2, 2, 3)), ops.reshape(ops.arange(6.0), (3, 2))),
        "dot": lambda: ops.dot(V, V), "dot_mat": lambda: ops.dot(x, V), "dot_nd": lambda: ops.dot(
            ops.reshape(ops.arange(12.0), (2, 2, 3)), ops.reshape(ops.arange(6.0), (3, 2))),
        "vdot": lambda: ops.vdot(x, x), "inner": lambda: ops.inner(x, x), "outer": lambda: ops.outer(V, I[0]),
        "tensordot": lambda: ops.tensordot(x, ops.transpose(x), axes=1),
        "tensordot_pairs": lambda: ops.tensordot(x, x, axes=([0, 1], [0, 1])),
        "einsum": lambda: ops.einsum("ij,kj->ik", x, x), "einsum_trace": lambda: ops.einsum("ii->", x[:, :3]),
        "kron": lambda: ops.kron(ops.array([[1, 2], [3, 4]]), ops.array([[0, 1], [1, 0]])),
        "cross": lambda: ops.cross(ops.array([1.0, 2.0, 3.0]), ops.array([4.0, 5.0, 6.0])),
        "cross2": lambda: ops.cross(ops.array([[1.0, 2.0]]), ops.array([[3.0, 4.0, 5.0]])),
        "vander": lambda: ops.vander(ops.array([1, 2, 3])), "vander_inc": lambda: ops.vander(ops.array([1.0, 2.0]),
                                                                                            3, increasing=True),
        "trapezoid": lambda: ops.trapezoid(V), "trapezoid_x": lambda: ops.trapezoid(V, x=ops.array([0.0, 1, 3, 4])),
        "trapezoid_dx": lambda: ops.trapezoid(x, dx=0.5, axis=0),
        "correlate_valid": lambda: ops.correlate(ops.array([1.0, 2, 3, 4]), ops.array([0.0, 1, 0.5])),
        "correlate_full": lambda: ops.correlate(ops.array([1.0, 2, 3]), ops.array([0.0, 1, 0.5]), mode="full"),
        "correlate_same": lambda: ops.correlate(ops.array([1.0, 2, 3, 4]), ops.array([1.0, 0.5]), mode="same"),
        "corrcoef": lambda: ops.corrcoef(x), "bartlett": lambda: ops.bartlett(5), "hamming": lambda: ops.hamming(4),
        "hanning": lambda: ops.hanning(4), "blackman": lambda: ops.blackman(5), "kaiser": lambda: ops.kaiser(4, 0.5),
        "real": lambda: ops.real(x), "imag": lambda: ops.imag(x), "conj": lambda: ops.conj(I),
        "angle": lambda: ops.angle(V), "slogdet": lambda: ops.slogdet(ops.array([[2.0, 1.0], [1.0, 3.0]])),
    })


@program
def p_keras_ops_nn_activations(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M * 3)
    v = ops.array([-1.0, 0.0, 1.0])
    return _table({
        "relu": lambda: ops.relu(x), "relu6": lambda: ops.relu6(x * 4), "sigmoid": lambda: ops.sigmoid(x),
        "softplus": lambda: ops.softplus(x), "softsign": lambda: ops.softsign(x), "silu": lambda: ops.silu(x),
        "swish": lambda: ops.swish(v), "log_sigmoid": lambda: ops.log_sigmoid(x),
        "leaky_relu": lambda: ops.leaky_relu(x), "leaky_relu_slope": lambda: ops.leaky_relu(v, negative_slope=0.5),
        "hard_sigmoid": lambda: ops.hard_sigmoid(x), "hard_silu": lambda: ops.hard_silu(x),
        "hard_swish": lambda: ops.hard_swish(v), "elu": lambda: ops.elu(x), "elu_alpha": lambda: ops.elu(x, alpha=0.5),
        "selu": lambda: ops.selu(x), "gelu": lambda: ops.gelu(x), "gelu_exact": lambda: ops.gelu(x, approximate=False),
        "celu": lambda: ops.celu(x), "celu_alpha": lambda: ops.celu(x, alpha=2.0), "glu": lambda: ops.glu(x),
        "glu_axis": lambda: ops.glu(ops.reshape(x, (4, 3)), axis=0), "hard_tanh": lambda: ops.hard_tanh(x),
        "hard_shrink": lambda: ops.hard_shrink(x), "hard_shrink_t": lambda: ops.hard_shrink(x, threshold=1.0),
        "soft_shrink": lambda: ops.soft_shrink(x), "soft_shrink_t": lambda: ops.soft_shrink(x, threshold=1.0),
        "tanh_shrink": lambda: ops.tanh_shrink(x), "sparse_plus": lambda: ops.sparse_plus(x),
        "sparse_sigmoid": lambda: ops.sparse_sigmoid(x), "squareplus": lambda: ops.squareplus(x),
        "squareplus_b": lambda: ops.squareplus(x, b=1), "threshold": lambda: ops.threshold(x, 0.5, -1.0),
        "softmax": lambda: ops.softmax(x), "softmax_axis0": lambda: ops.softmax(x, axis=0),
        "softmax_tuple": lambda: ops.softmax(x, axis=(0, 1)), "softmax_none": lambda: ops.softmax(x, axis=None),
        "log_softmax": lambda: ops.log_softmax(x, axis=0), "sparsemax_doc": lambda: ops.sparsemax(v),
        "sparsemax_rows": lambda: ops.sparsemax(ops.array([[0.0, 0.0, 3.0], [2.0, -1.0, -5.0]])),
        "glu_odd": (lambda: ops.glu(ops.ones((2, 3))), "divisible by 2"),
        "relu_doc": lambda: ops.relu(ops.array([-1.0, 0.0, 1.0, 0.2])),
        "sigmoid_doc": lambda: ops.sigmoid(ops.array([-6.0, 1.0, 0.0, 1.0, 6.0])),
        "softplus_doc": lambda: ops.softplus(ops.array([-0.555, 0.0, 0.555])),
        "celu_doc": lambda: ops.celu(ops.array([-1.0, 0.0, 1.0])),
        "log_softmax_doc": lambda: ops.log_softmax(ops.array([-1.0, 0.0, 1.0])),
    })


@program
def p_keras_ops_nn_layers(tf):
    ops = tf.keras.ops
    images = ops.convert_to_tensor(data((2, 5, 6, 3), seed=2))
    seq = ops.convert_to_tensor(data((2, 7, 3), seed=3))
    k2 = ops.convert_to_tensor(data((3, 3, 3, 4), seed=4, scale=0.5))
    k1 = ops.convert_to_tensor(data((3, 3, 2), seed=5, scale=0.5))
    dw = ops.convert_to_tensor(data((2, 2, 3, 2), seed=6, scale=0.5))
    pw = ops.convert_to_tensor(data((1, 1, 6, 4), seed=7, scale=0.5))
    kt = ops.convert_to_tensor(data((3, 3, 2, 3), seed=8, scale=0.5))
    logits = ops.convert_to_tensor(data((4, 3), seed=9, scale=2.0))
    labels = ops.array([0, 2, 1, 2])
    q = ops.convert_to_tensor(data((2, 4, 2, 3), seed=10))
    kv = ops.convert_to_tensor(data((2, 5, 2, 3), seed=11))
    return _table({
        "conv2d": lambda: ops.conv(images, k2), "conv2d_same": lambda: ops.conv(images, k2, padding="same"),
        "conv2d_strides": lambda: ops.conv(images, k2, strides=2, padding="same"),
        "conv2d_dilated": lambda: ops.conv(images, k2, dilation_rate=2, padding="same"),
        "conv1d": lambda: ops.conv(seq, k1), "conv1d_same_stride": lambda: ops.conv(seq, k1, 2, "same"),
        "conv_first": lambda: ops.conv(ops.transpose(images, (0, 3, 1, 2)), k2, data_format="channels_first"),
        "depthwise": lambda: ops.depthwise_conv(images, dw), "depthwise_same": lambda: ops.depthwise_conv(
            images, dw, strides=2, padding="same"),
        "separable": lambda: ops.separable_conv(images, dw, pw),
        "conv_transpose": lambda: ops.conv_transpose(images[..., :3], kt),
        "conv_transpose_same": lambda: ops.conv_transpose(images, kt, strides=2, padding="same"),
        "max_pool": lambda: ops.max_pool(images, 2), "max_pool_same": lambda: ops.max_pool(images, 3, 2, "same"),
        "avg_pool": lambda: ops.average_pool(images, (2, 3)), "avg_pool1d": lambda: ops.average_pool(seq, 2),
        "max_pool1d": lambda: ops.max_pool(seq, 3, 1),
        "one_hot": lambda: ops.one_hot(ops.array([0, 2, -1, 1]), 3),
        "one_hot_axis": lambda: ops.one_hot(ops.array([[1, 0]]), 3, axis=0),
        "one_hot_bool": lambda: ops.one_hot(ops.array([1]), 2, dtype="bool"),
        "multi_hot": lambda: ops.multi_hot(ops.array([[0, 2], [1, 1]]), 4),
        "multi_hot_1d": lambda: ops.multi_hot(ops.array([1, 3]), 5),
        "bce": lambda: ops.binary_crossentropy(ops.array([[0.0, 1.0], [1.0, 0.0]]), ops.sigmoid(logits[:2, :2])),
        "bce_logits": lambda: ops.binary_crossentropy(ops.array([[0.0, 1.0]]), logits[:1, :2], from_logits=True),
        "cce": lambda: ops.categorical_crossentropy(ops.one_hot(labels, 3), ops.softmax(logits)),
        "cce_logits": lambda: ops.categorical_crossentropy(ops.one_hot(labels, 3), logits, from_logits=True),
        "cce_doc": lambda: ops.categorical_crossentropy(
            ops.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), ops.array([[0.9, 0.05, 0.05], [0.1, 0.85, 0.05]])),
        "scce": lambda: ops.sparse_categorical_crossentropy(labels, ops.softmax(logits)),
        "scce_logits": lambda: ops.sparse_categorical_crossentropy(labels, logits, from_logits=True),
        "bce_shape": (lambda: ops.binary_crossentropy(ops.ones((2, 3)), ops.ones((2, 2))), "same shape"),
        "moments": lambda: ops.moments(images, axes=[0, 1, 2]),
        "moments_keep": lambda: ops.moments(logits, axes=[1], keepdims=True),
        "batch_norm": lambda: ops.batch_normalization(logits, ops.array([0.1, 0.2, 0.3]), ops.array([1.0, 2.0, 0.5]),
                                                      axis=-1, offset=ops.array([0.0, 1.0, -1.0]),
                                                      scale=ops.array([2.0, 1.0, 0.5])),
        "batch_norm_axis0": lambda: ops.batch_normalization(logits, ops.array([0.1, 0.2, 0.3, 0.0]),
                                                            ops.array([1.0, 2.0, 0.5, 1.0]), axis=0),
        "normalize": lambda: ops.normalize(logits), "normalize_l1": lambda: ops.normalize(logits, axis=0, order=1),
        "rms_normalization": lambda: ops.rms_normalization(logits, scale=2.0),
        "layer_normalization": lambda: ops.layer_normalization(logits, gamma=ops.array([1.0, 2.0, 3.0]),
                                                               beta=ops.array([0.5, 0.0, -0.5])),
        "psnr": lambda: ops.psnr(images, images * 0.9, 1.0),
        "attention": lambda: ops.dot_product_attention(q, kv, kv),
        "attention_causal": lambda: ops.dot_product_attention(q, kv[:, :4], kv[:, :4], is_causal=True),
        "attention_scale_bias": lambda: ops.dot_product_attention(q, kv, kv, scale=0.3,
                                                                  bias=ops.ones((2, 2, 4, 5)) * 0.1),
        "attention_mask": lambda: ops.dot_product_attention(
            q, kv, kv, mask=ops.array(np.tril(np.ones((4, 5), bool)))[None, None]),
    })


@program
def p_keras_ops_core_and_math(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor(M)
    elems = ops.array([1.0, 2.0, 3.0, 4.0, 5.0])
    return _table({
        "cond": lambda: ops.cond(ops.sum(x) > 0, lambda: x * 2, lambda: x - 1),
        "switch": lambda: ops.switch(1, [lambda a: a + 1, lambda a: a * 10], x),
        "switch_clamped": lambda: ops.switch(7, [lambda a: a + 1, lambda a: a * 10], elems),
        "while_loop": lambda: ops.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 2), (0, 1.0)),
        "while_single": lambda: ops.while_loop(lambda v: v < 100, lambda v: v * 3, 1),
        "while_max": lambda: ops.while_loop(lambda v: v < 100, lambda v: (v * 3,), (1,), maximum_iterations=2),
        "fori_loop": lambda: ops.fori_loop(0, 4, lambda i, v: v + i, 10),
        "fori_loop_tensor": lambda: ops.fori_loop(1, 4, lambda i, v: v * ops.cast(i, "float32"), ops.ones((2,))),
        "scan": lambda: ops.scan(lambda c, v: (c + v, c * v), 0.0, elems),
        "scan_reverse": lambda: ops.scan(lambda c, v: (c + v, c), 0.0, elems, reverse=True),
        "associative_scan": lambda: ops.associative_scan(lambda a, b: a + b, elems),
        "associative_scan_rev": lambda: ops.associative_scan(lambda a, b: a * b, elems, reverse=True),
        "associative_scan_axis": lambda: ops.associative_scan(lambda a, b: ops.maximum(a, b), x, axis=1),
        "map": lambda: ops.map(lambda v: v * 2 + 1, elems), "map_rows": lambda: ops.map(lambda r: ops.sum(r), x),
        "vectorized_map": lambda: ops.vectorized_map(lambda r: ops.max(r), x),
        "slice": lambda: ops.slice(x, (1, 0), (2, 3)),
        "slice_update": lambda: ops.slice_update(ops.zeros((3, 4)), (1, 1), ops.ones((2, 2))),
        "scatter": lambda: ops.scatter(ops.array([[0, 1], [2, 0], [0, 1]]), ops.array([1.0, 2.0, 3.0]), (3, 2)),
        "scatter_update": lambda: ops.scatter_update(ops.zeros((2, 3)), ops.array([[0, 0], [1, 2]]),
                                                     ops.array([5.0, 6.0])),
        "unstack": lambda: ops.unstack(x, axis=1), "stop_gradient": lambda: ops.stop_gradient(x),
        "cast": lambda: ops.cast(x * 5, "int32"), "saturate_cast": lambda: ops.saturate_cast(
            ops.array([-5.0, 300.0, 7.5]), "uint8"), "dtype": lambda: ops.dtype(x), "is_tensor": lambda: [
            ops.is_tensor(x), ops.is_tensor(M), ops.is_tensor(3)],
        "convert_to_numpy": lambda: ops.convert_to_numpy(x), "shape": lambda: list(ops.shape(I)),
        "segment_sum": lambda: ops.segment_sum(elems, ops.array([0, 0, 1, 1, 2])),
        "segment_sum_n": lambda: ops.segment_sum(elems, ops.array([0, 0, 1, 1, 3]), num_segments=5),
        "segment_max": lambda: ops.segment_max(x, ops.array([0, 1, 1]), num_segments=2),
        "segment_sorted": lambda: ops.segment_sum(elems, ops.array([0, 0, 1, 2, 2]), sorted=True),
        "top_k": lambda: ops.top_k(elems * ops.array([1.0, -1.0, 2.0, 0.5, 1.0]), 3),
        "top_k_rows": lambda: ops.top_k(x, 2), "in_top_k": lambda: ops.in_top_k(ops.array([0, 3, 1]), x, 2),
        "logsumexp_all": lambda: ops.logsumexp(x), "erf": lambda: ops.erf(x), "rsqrt": lambda: ops.rsqrt(elems),
        "extract_sequences": lambda: ops.extract_sequences(ops.arange(10.0), 4, 3),
        "extract_sequences_batch": lambda: ops.extract_sequences(x, 2, 1),
        "logdet": lambda: ops.logdet(ops.array([[2.0, 1.0], [1.0, 3.0]])),
    })


@program
def p_keras_ops_linalg_and_image(tf):
    ops = tf.keras.ops
    a = ops.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    b = ops.array([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]])
    image = ops.convert_to_tensor(data((1, 4, 6, 3), seed=12, scale=0.5) + 0.5)
    return _table({
        "inv": lambda: ops.inv(a), "det": lambda: ops.det(a), "cholesky": lambda: ops.cholesky(a),
        "cholesky_upper": lambda: ops.cholesky(a, upper=True), "cholesky_inverse": lambda: ops.cholesky_inverse(
            ops.cholesky(a)), "solve": lambda: ops.solve(a, b), "solve_vec": lambda: ops.solve(a, b[:, 0]),
        "solve_triangular": lambda: ops.solve_triangular(a, b, lower=True),
        "solve_triangular_upper": lambda: ops.solve_triangular(a, b),
        "norm": lambda: ops.norm(b), "norm_axis": lambda: ops.norm(b, axis=0), "norm_l1": lambda: ops.norm(
            b, ord=1, axis=1), "norm_inf": lambda: ops.norm(b, ord=float("inf"), axis=-1),
        "norm_fro": lambda: ops.norm(a, ord="fro"), "norm_mat1": lambda: ops.norm(a, ord=1, axis=(0, 1)),
        "norm_matinf": lambda: ops.norm(b, ord=float("inf"), axis=(0, 1), keepdims=True),
        "norm_3": lambda: ops.norm(b, ord=3, axis=0), "norm_0": lambda: ops.norm(ops.array([0.0, 2.0, 0.0]), ord=0),
        "linalg_ns": lambda: ops.linalg.det(a),
        "resize": lambda: ops.image.resize(image, (8, 12)),
        "resize_nearest": lambda: ops.image.resize(image, (2, 3), interpolation="nearest"),
        "resize_single": lambda: ops.image.resize(image[0], (3, 3)),
        "resize_first": lambda: ops.image.resize(ops.transpose(image, (0, 3, 1, 2)), (2, 2),
                                                 data_format="channels_first"),
        "grayscale": lambda: ops.image.rgb_to_grayscale(image),
        "grayscale_first": lambda: ops.image.rgb_to_grayscale(ops.transpose(image, (0, 3, 1, 2)),
                                                              data_format="channels_first"),
        "pad_images": lambda: ops.image.pad_images(image, 1, 2, target_height=7, target_width=9),
        "crop_images": lambda: ops.image.crop_images(image, 1, 1, target_height=2, target_width=3),
        "crop_images_margins": lambda: ops.image.crop_images(image, top_cropping=1, bottom_cropping=1,
                                                             left_cropping=2, right_cropping=0),
        "resize_bad": (lambda: ops.image.resize(image, (2, 3), interpolation="cubic"), "interpolation"),
    })


@program
def p_keras_ops_in_function_and_layers(tf):
    """keras.ops inside tf.function, in a custom layer's call, and between layers of a Functional model."""
    ops, keras = tf.keras.ops, tf.keras

    @tf.function
    def step(x):
        y = ops.softmax(ops.matmul(x, ops.transpose(x)))
        total = ops.fori_loop(0, 3, lambda i, acc: acc + ops.sum(y), 0.0)
        carry, ys = ops.scan(lambda c, v: (c + v, c), 0.0, ops.ravel(y))
        return y, total, carry, ys, ops.cond(total > 1.0, lambda: ops.mean(y), lambda: ops.max(y))

    class Scaled(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return ops.relu(ops.multiply(x, self.w)) + ops.log_sigmoid(x)

    inputs = keras.Input((4,))
    hidden = ops.tanh(inputs)
    hidden = ops.add(hidden, hidden)
    hidden = Scaled()(hidden)
    outputs = ops.sum(ops.square(hidden), axis=-1, keepdims=True)
    model = keras.Model(inputs, outputs)
    x = tf.constant(M)
    return [val(step(x)), val(model(x)), model.output.shape if hasattr(model, "output") else None,
            val(Scaled()(x))]


@program
def p_keras_ops_spectral_and_rearrangements(tf):
    ops = tf.keras.ops
    real, imag = ops.convert_to_tensor(data((2, 8), seed=13)), ops.convert_to_tensor(data((2, 8), seed=14))
    signal = ops.convert_to_tensor(data((2, 32), seed=15))
    image = ops.convert_to_tensor(data((2, 4, 4, 8), seed=16))
    seq = ops.convert_to_tensor(data((2, 7, 3), seed=17))
    nchw = ops.convert_to_tensor(data((2, 3, 5, 6), seed=18))
    nan_rows = ops.array([[1.0, np.nan, 3.0, 4.0], [2.0, 5.0, 1.0, 0.0]])
    spectrum = ops.stft(signal, 8, 4, 16)
    return _table({
        "fft": lambda: ops.fft((real, imag)), "fft2": lambda: ops.fft2((real, imag)),
        "ifft2": lambda: ops.ifft2((real, imag)), "rfft": lambda: ops.rfft(real),
        "rfft_len": lambda: ops.rfft(real, fft_length=10), "irfft": lambda: ops.irfft(ops.rfft(real)),
        "irfft_odd": lambda: ops.irfft(ops.rfft(real), fft_length=7),
        "stft": lambda: spectrum, "stft_hamming": lambda: ops.stft(signal, 6, 3, 8, window="hamming", center=False),
        "stft_none": lambda: ops.stft(signal, 8, 8, 8, window=None),
        "istft": lambda: ops.istft(spectrum, 8, 4, 16), "istft_len": lambda: ops.istft(spectrum, 8, 4, 16, length=30),
        "fft_bad": (lambda: ops.fft(real), ""),
        "depth_to_space": lambda: ops.depth_to_space(image, 2),
        "space_to_depth": lambda: ops.space_to_depth(image, 2),
        "depth_to_space_first": lambda: ops.depth_to_space(ops.transpose(image, (0, 3, 1, 2)), 2,
                                                           data_format="channels_first"),
        "adaptive_avg_2d": lambda: ops.adaptive_average_pool(image, (3, 2)),
        "adaptive_max_2d": lambda: ops.adaptive_max_pool(image, 3),
        "adaptive_avg_1d": lambda: ops.adaptive_average_pool(seq, 3),
        "adaptive_max_1d": lambda: ops.adaptive_max_pool(seq, 4),
        "unfold": lambda: ops.unfold(nchw, 2), "unfold_args": lambda: ops.unfold(nchw, (2, 3), dilation=(2, 1),
                                                                                  padding=1, stride=2),
        "fold": lambda: ops.fold(ops.unfold(nchw, 2), (5, 6), 2),
        "fold_args": lambda: ops.fold(ops.unfold(nchw, (2, 3), padding=1, stride=2), (5, 6), (2, 3), padding=1,
                                      stride=2),
        "polar_parts": lambda: [ops.real(ops.polar(real, imag)), ops.imag(ops.polar(real, imag))],
        "view_as_real": lambda: ops.view_as_real(ops.polar(real, imag)),
        "view_as_complex_parts": lambda: ops.imag(ops.view_as_complex(ops.stack([real, imag], axis=-1))),
        "cdist": lambda: ops.cdist(real[:, :3], imag[:, :3]),
        "cdist_batch": lambda: ops.cdist(ops.reshape(real, (2, 4, 2)), ops.reshape(imag, (2, 4, 2))),
        "nanmedian": lambda: ops.nanmedian(nan_rows, axis=1), "nanmedian_all": lambda: ops.nanmedian(nan_rows),
        "nanquantile": lambda: ops.nanquantile(nan_rows, ops.array([0.2, 0.7]), axis=1),
        "nanpercentile": lambda: ops.nanpercentile(nan_rows, 40.0, axis=0),
        "quantile_nan": lambda: ops.quantile(nan_rows, 0.5, axis=1),
    })


@program
def p_keras_ops_jvp(tf):
    ops = tf.keras.ops
    x, y = ops.array([[1.0, 2.0]]), ops.array([[3.0], [4.0]])
    return _table({
        "square": lambda: ops.jvp(lambda v: v ** 2, (ops.array([1.0, 2.0]),), (ops.array([1.0, 1.0]),)),
        "aux": lambda: ops.jvp(lambda v: (v ** 2, v * 3), (ops.array([1.0, 2.0]),), (ops.array([1.0, 1.0]),),
                               has_aux=True),
        "matmul": lambda: ops.jvp(ops.matmul, (x, y), (ops.array([[1.0, 0.0]]), ops.array([[0.0], [1.0]]))),
        "nested_out": lambda: ops.jvp(lambda v: {"s": ops.sin(v), "p": ops.prod(v)}, (ops.array([0.5, 2.0]),),
                                      (ops.array([1.0, -1.0]),)),
        "in_function": lambda: tf.function(lambda a: ops.jvp(lambda v: ops.tanh(v) * v, (a,), (ops.ones_like(a),)))(
            ops.array([0.3, -1.2])),
    })


@program
def p_keras_ops_image_more(tf):
    ops = tf.keras.ops
    image = ops.convert_to_tensor(data((2, 5, 6, 3), seed=19, scale=0.5) + 0.5)
    gray = ops.array([[[[0.3, 0.3, 0.3], [1.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.2, 0.9, 0.4]]]])
    return _table({
        "rgb_to_hsv": lambda: ops.image.rgb_to_hsv(image), "rgb_to_hsv_edges": lambda: ops.image.rgb_to_hsv(gray),
        "hsv_to_rgb": lambda: ops.image.hsv_to_rgb(image),
        "hsv_round_trip": lambda: ops.image.hsv_to_rgb(ops.image.rgb_to_hsv(image)),
        "rgb_to_hsv_first": lambda: ops.image.rgb_to_hsv(ops.transpose(image, (0, 3, 1, 2)),
                                                         data_format="channels_first"),
        "rgb_to_hsv_int": (lambda: ops.image.rgb_to_hsv(ops.ones((1, 2, 2, 3), "int32")), "float dtype"),
        "gaussian_blur": lambda: ops.image.gaussian_blur(image),
        "gaussian_blur_wide": lambda: ops.image.gaussian_blur(image, kernel_size=(5, 5), sigma=(2.0, 2.0)),
        "gaussian_blur_single": lambda: ops.image.gaussian_blur(image[0], (3, 3), (0.5, 0.5)),
        "extract_patches": lambda: ops.image.extract_patches(image, 2),
        "extract_patches_args": lambda: ops.image.extract_patches(image, (2, 3), strides=(1, 2), padding="same"),
        "extract_patches_dilated": lambda: ops.image.extract_patches(image, 2, strides=1, dilation_rate=2),
    })


@program
def p_keras_ops_rearrange(tf):
    ops = tf.keras.ops
    images = ops.convert_to_tensor(data((4, 6, 8, 3), seed=20))
    return _table({
        "bchw": lambda: ops.rearrange(images, "b h w c -> b c h w"),
        "merge_first": lambda: ops.rearrange(images, "b h w c -> (b h) w c"),
        "merge_second": lambda: ops.rearrange(images, "b h w c -> h (b w) c"),
        "flatten": lambda: ops.rearrange(images, "b h w c -> b (c h w)"),
        "patches": lambda: ops.rearrange(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2),
        "space_to_depth": lambda: ops.rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2),
        "in_function": lambda: tf.function(lambda t: ops.rearrange(t, "b h w c -> b (w h) c"))(images),
    })


@program
def p_keras_ops_lu_factor(tf):
    ops = tf.keras.ops
    a = ops.convert_to_tensor(data((4, 4), seed=21))
    batch = ops.convert_to_tensor(data((2, 3, 3), seed=22))
    return _table({
        "lu": lambda: ops.lu_factor(a), "lu_batch_item": lambda: ops.lu_factor(batch[1]),
        "lu_pivoting": lambda: ops.lu_factor(ops.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [1.0, 0.0, 7.0]])),
        "lu_function": lambda: tf.function(ops.lu_factor)(a),
    })
