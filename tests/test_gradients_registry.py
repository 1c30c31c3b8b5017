"""Registry-wide gradient checks: every differentiable op has a rule, and every rule matches central
finite differences in float64 on random inputs (eagerly and as a graph; second order for smooth ops)."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, check_second_order

import tinytf as tf
from tinytf.runtime.ops.image_transform import image_projective_transform_v3
from tinytf.runtime.ops.sorting import top_k
from tinytf.runtime.registry import OPS

# Ops whose rules are checked elsewhere, because a generic float-tensors-in/out case cannot exercise them.
CHECKED_ELSEWHERE = {
    "read_variable": "test_gradient_tape.py (variables)",
    # a gamma sample's alpha gradient is the implicit reparameterization one, not a finite difference of the
    # sampler: test_random_distributions.py checks it against the inverse CDF
    "random_gamma": "test_random_distributions.py", "stateless_random_gamma": "test_random_distributions.py",
    "cond": "test_gradients_control_flow.py",
    "while_loop": "test_gradients_control_flow.py",
    "gradient_stack_read": "test_gradients_second_order_loops.py (second derivatives through while_loop)",
    "gradient_stack_push": "test_gradients_second_order_loops.py (second derivatives through while_loop)",
    "spectral_norm_direction_grad": "test_third_derivative_of_the_spectral_norm_raises (its second-order cases: "
                                    "norm with ord=2, spectral_norm_direction)",
    **{f"tensor_array_{name}": "test_gradients_control_flow.py (TensorArray programs)"
       for name in ("write", "read", "stack", "gather", "concat", "unstack", "scatter")},
    **{f"tensor_list_{name}": "test_tensor_list.py (TF's TensorList ops, against finite differences)"
       for name in ("from_tensor", "push_back", "pop_back", "get_item", "set_item", "stack", "add", "resize",
                    "scatter_into_existing", "gather", "concat", "split")},
    **{f"optional_{name}": "test_tensor_list.py (TF's optionals, against finite differences)"
       for name in ("from_value", "get_value")},
    **{f"gradient_list_{name}": "test_gradients_control_flow.py (second derivatives of TensorArray programs)"
       for name in ("add", "read", "set", "clear", "unstack", "stack", "scatter", "gather", "split", "concat")},
    # fake quantization is piecewise constant: TF's gradient is the straight-through one (no finite difference
    # sees it), checked against TF 2.21 in tests/test_quantization.py and conformance toplevel_more
    **{name: "test_quantization.py (straight-through gradients, against TF 2.21)"
       for name in ("fake_quant_with_min_max_args", "fake_quant_with_min_max_vars",
                    "fake_quant_with_min_max_vars_per_channel")},
    **{name: "test_quantization.py and conformance toplevel_more (TF's straight-through gradients, recorded from "
             "TF 2.21: the op is piecewise constant)"
       for name in ("quantize_and_dequantize_v2", "quantize_and_dequantize_v4")},
    "critical_section_unlock": "test_toplevel_more_critical_section.py (identity gradients through "
                               "CriticalSection.execute, eagerly and in graphs)",
}


class Case:
    """One way to call an op: fn(*tensors) with inputs of `shapes` drawn uniformly from [low, high]."""

    def __init__(self, fn, *shapes, low=-2.0, high=2.0, second=True, rtol=1e-5, atol=1e-6, eps=1e-6):
        self.fn, self.shapes, self.low, self.high = fn, shapes, low, high
        self.second, self.rtol, self.atol, self.eps = second, rtol, atol, eps

    def arrays(self, seed):
        rng = np.random.default_rng(seed)
        return [rng.uniform(self.low, self.high, shape) for shape in self.shapes]


def _away_from_zero(x):
    """Inputs kept away from kinks at 0 (abs, sign, max ties) so finite differences are exact."""
    return x + tf.sign(x) * 0.5


CASES = {
    # --- math: binary, with broadcasting ---
    "add": [Case(tf.add, (2, 3), (3,)), Case(tf.add, (), (2, 2))],
    "subtract": [Case(tf.subtract, (2, 3), (2, 1))],
    "multiply": [Case(tf.multiply, (2, 3), (3,)), Case(tf.multiply, (4,), ())],
    "divide": [Case(tf.divide, (2, 3), (3,), low=0.5, high=2.0)],
    "floormod": [Case(lambda x, y: tf.floormod(x, y), (3, 2), (2,), low=0.6, high=2.0, second=False)],
    "pow": [Case(tf.pow, (2, 3), (3,), low=0.5, high=2.0), Case(lambda x: tf.pow(x, 3.0), (4,))],
    "maximum": [Case(lambda x, y: tf.maximum(x, y + 5.0), (2, 3), (3,)),
                Case(lambda x, y: tf.maximum(x + 5.0, y), (2, 3), (3,))],
    "minimum": [Case(lambda x, y: tf.minimum(x, y + 5.0), (2, 3), (3,))],
    "squared_difference": [Case(tf.squared_difference, (2, 3), (3,))],
    # --- math: unary ---
    "negative": [Case(tf.negative, (3,))],
    "abs": [Case(lambda x: tf.abs(_away_from_zero(x)), (3, 2))],
    "sign": [Case(lambda x: tf.sign(x) * x, (4,))],
    "square": [Case(tf.square, (2, 3))],
    "sqrt": [Case(tf.sqrt, (2, 3), low=0.5)],
    "rsqrt": [Case(tf.rsqrt, (2, 3), low=0.5)],
    "exp": [Case(tf.exp, (2, 3))],
    "expm1": [Case(tf.expm1, (2, 3))],
    "log": [Case(tf.log, (2, 3), low=0.5)],
    "log1p": [Case(tf.log1p, (2, 3), low=-0.5)],
    "sin": [Case(tf.sin, (2, 3))],
    "cos": [Case(tf.cos, (2, 3))],
    "tan": [Case(tf.tan, (2, 3), low=-1.0, high=1.0)],
    "tanh": [Case(tf.tanh, (2, 3))],
    "sigmoid": [Case(tf.sigmoid, (2, 3))],
    "reciprocal": [Case(tf.reciprocal, (2, 3), low=0.5)],
    # float32 rounding: a wider step and tolerance (the function is quadratic, so the step adds no error)
    "cast": [Case(lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64) * x, (3,), rtol=1e-3, atol=1e-3, eps=1e-2)],
    "floordiv": [Case(lambda x, y: tf.floordiv(x, y) + x * y, (3,), (3,), low=0.6, high=2.0)],
    "truncatemod": [Case(lambda x, y: tf.math.truncatemod(x, y), (3, 2), (2,), low=0.6, high=2.0, second=False)],
    "atan": [Case(tf.math.atan, (2, 3))],
    "asin": [Case(tf.math.asin, (2, 3), low=-0.8, high=0.8)],
    "acos": [Case(tf.math.acos, (2, 3), low=-0.8, high=0.8)],
    "sinh": [Case(tf.math.sinh, (2, 3))],
    "cosh": [Case(tf.math.cosh, (2, 3))],
    "asinh": [Case(tf.math.asinh, (2, 3))],
    "acosh": [Case(tf.math.acosh, (2, 3), low=1.5, high=3.0)],
    "atanh": [Case(tf.math.atanh, (2, 3), low=-0.8, high=0.8)],
    "erf": [Case(tf.math.erf, (2, 3))],
    "erfc": [Case(tf.math.erfc, (2, 3))],
    "log_sigmoid": [Case(tf.math.log_sigmoid, (2, 3))],
    "reciprocal_no_nan": [Case(tf.math.reciprocal_no_nan, (2, 3), low=0.5)],
    "atan2": [Case(tf.math.atan2, (2, 3), (3,), low=0.3)],
    "divide_no_nan": [Case(tf.math.divide_no_nan, (2, 3), (3,), low=0.5)],
    "multiply_no_nan": [Case(tf.math.multiply_no_nan, (2, 3), (3,))],
    "xlogy": [Case(tf.math.xlogy, (2, 3), (3,), low=0.5)],
    "xdivy": [Case(tf.math.xdivy, (2, 3), (3,), low=0.5)],
    # --- complex numbers (real inputs, real results; complex values in between) ---
    "complex": [Case(lambda x, y: tf.abs(tf.complex(x, y) * tf.complex(y, x + 1.0)), (2, 3), (3,)),
                Case(lambda x, y: tf.math.real(tf.complex(x, y) / tf.complex(y + 3.0, x)), (3,), (3,))],
    "real": [Case(lambda x, y: tf.math.real(tf.complex(x, y)) * y, (2, 3), (2, 3))],
    "imag": [Case(lambda x, y: tf.math.imag(tf.complex(x, y)) * x, (2, 3), (2, 3))],
    "conj": [Case(lambda x, y: tf.math.imag(tf.math.conj(tf.complex(x, y)) * tf.complex(y, x)), (3,), (3,))],
    "angle": [Case(lambda x, y: tf.math.angle(tf.complex(x, y)), (2, 3), (2, 3), low=0.3)],
    # --- reductions ---
    "reduce_sum": [Case(lambda x: tf.reduce_sum(x * x), (2, 3)),
                   Case(lambda x: tf.reduce_sum(x * x, axis=1), (2, 3)),
                   Case(lambda x: tf.reduce_sum(x * x, axis=[0, 2], keepdims=True), (2, 3, 2))],
    "reduce_mean": [Case(lambda x: tf.reduce_mean(x * x, axis=0), (2, 3)),
                    Case(lambda x: tf.reduce_mean(x * x, keepdims=True), (2, 3))],
    "reduce_max": [Case(lambda x: tf.reduce_max(x * x, axis=-1), (2, 3))],
    "reduce_min": [Case(lambda x: tf.reduce_min(x * x, axis=0, keepdims=True), (3, 2))],
    "reduce_prod": [Case(lambda x: tf.reduce_prod(x, axis=1), (2, 3)),
                    Case(lambda x: tf.reduce_prod(x, axis=[0, 2], keepdims=True), (2, 3, 2)),
                    Case(lambda x: tf.reduce_prod(x), (2, 2))],
    "reduce_variance": [Case(lambda x: tf.math.reduce_variance(x, axis=1), (2, 3))],
    "reduce_std": [Case(lambda x: tf.math.reduce_std(x, axis=0, keepdims=True), (3, 2))],
    "reduce_logsumexp": [Case(lambda x: tf.math.reduce_logsumexp(x, axis=-1), (2, 3)),
                         Case(lambda x: tf.math.reduce_logsumexp(x), (2, 3))],
    "reduce_euclidean_norm": [Case(lambda x: tf.math.reduce_euclidean_norm(x, axis=1), (2, 3))],
    "cumsum": [Case(lambda x: tf.math.cumsum(x * x, axis=1), (2, 3)),
               Case(lambda x: tf.math.cumsum(x * x, axis=0, exclusive=True, reverse=True), (3, 2))],
    "cumprod": [Case(lambda x: tf.math.cumprod(x, axis=1), (2, 3), low=0.5),
                Case(lambda x: tf.math.cumprod(x, axis=0, exclusive=True, reverse=True), (3, 2), low=0.5)],
    "add_n": [Case(lambda x, y: tf.math.add_n([x, y * y, x]), (2, 3), (2, 3))],
    "clip_by_value": [Case(lambda x, lo, hi: tf.clip_by_value(x, lo - 3.0, hi + 3.0) + tf.clip_by_value(x, -0.5, 0.5),
                           (2, 3), (3,), ())],
    # --- array ---
    "identity": [Case(lambda x: tf.identity(x) * x, (3,))],
    "reshape": [Case(lambda x: tf.reshape(x * x, [3, 2]), (2, 3)), Case(lambda x: tf.reshape(x * x, [-1]), (2, 3))],
    "fill": [Case(lambda x: tf.fill([2, 3], x) * tf.fill([2, 3], x), ())],
    "squeeze": [Case(lambda x: tf.squeeze(x * x, axis=1), (2, 1, 3))],
    "expand_dims": [Case(lambda x: tf.expand_dims(x * x, -1), (2, 3))],
    "broadcast_to": [Case(lambda x: tf.broadcast_to(x * x, [2, 3, 3]), (3, 1))],
    "transpose": [Case(lambda x: tf.transpose(x * x, [1, 2, 0]), (2, 3, 2)),
                  Case(lambda x: tf.transpose(x * x), (2, 3))],
    "reverse": [Case(lambda x: tf.reverse(x * x, [0, 1]), (2, 3))],
    "tile": [Case(lambda x: tf.tile(x * x, [2, 3]), (2, 2))],
    "pad": [Case(lambda x, c: tf.pad(x * x, [[1, 0], [2, 1]], constant_values=c * c), (2, 3), ()),
            Case(lambda x: tf.pad(x * x, [[1, 2], [2, 1]], mode="REFLECT"), (4, 3)),
            Case(lambda x: tf.pad(x * x, [[2, 1], [0, 3]], mode="SYMMETRIC"), (3, 3))],
    "linspace": [Case(lambda a, b: tf.linspace(a * a, b, 4), (), ()),
                 Case(lambda a, b: tf.linspace(a, b * b, 3, axis=1), (2,), (2,))],
    "stack": [Case(lambda x, y: tf.stack([x * x, y, x], axis=1), (2, 3), (2, 3))],
    "unstack": [Case(lambda x: tf.unstack(x * x, axis=1)[0] * tf.unstack(x, axis=1)[2], (2, 3))],
    "concat": [Case(lambda x, y: tf.concat([x * x, y], axis=1), (2, 3), (2, 1)),
               Case(lambda x: tf.concat([x * x], axis=0), (2,))],
    "split": [Case(lambda x: tf.split(x * x, [1, 2], axis=1)[1] * tf.split(x, 3, axis=1)[0], (2, 3))],
    # --- indexing ---
    "strided_slice": [Case(lambda x: (x * x)[1:, ::-2], (3, 4)), Case(lambda x: (x * x)[1, None, ..., 2], (3, 2, 4))],
    "slice": [Case(lambda x: tf.slice(x * x, [1, 0], [1, -1]), (3, 4))],
    "gather": [Case(lambda x: tf.gather(x * x, [2, 0, 2], axis=1), (2, 3)),
               Case(lambda x: tf.gather(x * x, [[1, 1], [0, 2]], axis=1, batch_dims=1), (2, 3, 2))],
    "gather_nd": [Case(lambda x: tf.gather_nd(x * x, [[0, 1], [1, 2], [0, 1]]), (2, 3)),
                  Case(lambda x: tf.gather_nd(x * x, [[1], [0]], batch_dims=1), (2, 3, 2))],
    "select": [Case(lambda x, y: tf.where(tf.constant([[True, False, True]]), x * x, y), (2, 3), (3,))],
    "boolean_mask": [Case(lambda x: tf.boolean_mask(x * x, tf.constant([True, False, True])), (3, 2)),
                     Case(lambda x: tf.boolean_mask(x * x, tf.constant([False, True]), axis=1), (3, 2))],
    # --- sorting ---
    "sort": [Case(lambda x: tf.sort(x * x, axis=0), (3, 2)),
             Case(lambda x: tf.sort(x, direction="DESCENDING"), (2, 4))],
    "top_k": [Case(lambda x: top_k(x * x, k=2).values, (2, 4))],
    # --- linear algebra ---
    "matmul": [Case(tf.matmul, (2, 3), (3, 4)),
               Case(lambda a, b: tf.matmul(a, b, transpose_a=True), (3, 2), (3, 4)),
               Case(lambda a, b: tf.matmul(a, b, transpose_b=True), (2, 3), (4, 3)),
               Case(lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True), (3, 2), (4, 3)),
               Case(tf.matmul, (2, 2, 3), (3, 2)), Case(tf.matmul, (1, 2, 3), (4, 3, 2))],
    "matvec": [Case(tf.linalg.matvec, (2, 3), (3,)), Case(tf.linalg.matvec, (4, 2, 3), (3,)),
               Case(lambda a, b: tf.linalg.matvec(a, b, transpose_a=True), (3, 2), (2, 3))],
    "tensordot": [Case(lambda a, b: tf.tensordot(a, b, 1), (2, 3), (3, 2)),
                  Case(lambda a, b: tf.tensordot(a, b, [[0, 2], [2, 0]]), (2, 3, 4), (4, 2, 2))],
    "einsum": [Case(lambda a, b: tf.einsum("ij,jk->ik", a, b), (2, 3), (3, 4)),
               Case(lambda a, b: tf.einsum("bij,bj->bi", a, b), (2, 3, 2), (2, 2)),
               Case(lambda a: tf.einsum("ij->j", a), (2, 3)),
               Case(lambda a, b: tf.einsum("...ij,jk->...ik", a, b), (2, 2, 3), (3, 1)),
               Case(lambda a, b: tf.einsum("ij,k->ik", a, b), (2, 3), (2,))],
    "norm": [Case(lambda x: tf.norm(x), (2, 3)), Case(lambda x: tf.norm(x, ord=1, axis=1), (2, 3)),
             Case(lambda x: tf.norm(x, ord=np.inf, axis=0, keepdims=True), (3, 2), second=False),
             Case(lambda x: tf.norm(x, ord=3, axis=-1), (2, 3)),
             Case(lambda x: tf.norm(x, ord="fro", axis=(0, 1)), (2, 3)),
             Case(lambda x: tf.norm(x, ord=1, axis=(1, 2)), (2, 3, 3), second=False),
             Case(lambda x: tf.norm(x, ord=np.inf, axis=(0, 1)), (3, 3), second=False),
             Case(lambda x: tf.norm(x, ord=2, axis=(0, 1)), (3, 2)),
             Case(lambda x: tf.norm(x, ord=2, axis=(-1, 0), keepdims=True), (4, 2, 3)),
             Case(lambda x: tf.norm(x, ord=2, axis=[1, 2]) * tf.norm(x, ord=2, axis=[2, 1]), (2, 2, 5))],
    "matrix_transpose": [Case(lambda x: tf.linalg.matrix_transpose(x * x), (2, 3, 2))],
    "matrix_diag": [Case(lambda x: tf.linalg.diag(x * x), (2, 3)), Case(lambda x: tf.linalg.diag(x * x, k=1), (3,))],
    "matrix_diag_part": [Case(lambda x: tf.linalg.diag_part(x * x), (2, 3, 3)),
                         Case(lambda x: tf.linalg.diag_part(x * x, k=2), (2, 5)),
                         Case(lambda x: tf.linalg.diag_part(x * x, k=-1), (4, 2))],
    "trace": [Case(lambda x: tf.linalg.trace(x * x), (2, 3, 3))],
    "matrix_inverse": [Case(lambda x: tf.linalg.inv(x + 3 * tf.eye(3, dtype=tf.float64)), (3, 3)),
                       Case(lambda x: tf.linalg.inv(x + 3 * tf.eye(2, dtype=tf.float64), adjoint=True), (2, 2, 2))],
    "matrix_determinant": [Case(lambda x: tf.linalg.det(x), (2, 3, 3))],
    "log_matrix_determinant": [Case(lambda x: tf.linalg.slogdet(x + 3 * tf.eye(3, dtype=tf.float64))[1], (3, 3))],
    "cholesky": [Case(lambda x: tf.linalg.cholesky(tf.matmul(x, x, transpose_b=True) + tf.eye(3, dtype=tf.float64)),
                      (3, 3), rtol=1e-4)],
    "matrix_solve": [Case(lambda a, b: tf.linalg.solve(a + 3 * tf.eye(3, dtype=tf.float64), b), (3, 3), (3, 2)),
                     Case(lambda a, b: tf.linalg.solve(a + 3 * tf.eye(2, dtype=tf.float64), b, adjoint=True),
                          (2, 2, 2), (2, 2, 1))],
    # --- neural networks ---
    "relu": [Case(lambda x: tf.nn.relu(_away_from_zero(x)), (2, 3))],
    "relu6": [Case(lambda x: tf.nn.relu6(_away_from_zero(x) * 3.0), (2, 4))],
    "elu": [Case(lambda x: tf.nn.elu(_away_from_zero(x)), (2, 3))],
    "selu": [Case(lambda x: tf.nn.selu(_away_from_zero(x)), (2, 3))],
    "softplus": [Case(tf.nn.softplus, (2, 3))],
    "softsign": [Case(lambda x: tf.nn.softsign(_away_from_zero(x)), (2, 3))],
    "leaky_relu": [Case(lambda x: tf.nn.leaky_relu(_away_from_zero(x), 0.1), (2, 3)),
                   Case(lambda x: tf.nn.leaky_relu(_away_from_zero(x), 2.0), (2, 3))],
    "silu": [Case(lambda x: tf.nn.silu(x, 1.5), (2, 3))],
    "softmax": [Case(tf.nn.softmax, (2, 3)), Case(lambda x: tf.nn.softmax(x, axis=0), (3, 2))],
    "log_softmax": [Case(tf.nn.log_softmax, (2, 3)), Case(lambda x: tf.nn.log_softmax(x, axis=0), (3, 2))],
    "sparse_softmax_cross_entropy_with_logits": [Case(
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([2, 0]), logits=x), (2, 3))],
    "softmax_cross_entropy_with_logits": [Case(
        lambda labels, x: tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(labels), logits=x),
        (2, 3), (2, 3))],
    "sigmoid_cross_entropy_with_logits": [Case(
        lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), (2, 3), (2, 3))],
    "l2_loss": [Case(tf.nn.l2_loss, (2, 3))],
    "bias_add": [Case(tf.nn.bias_add, (2, 3), (3,)),
                 Case(lambda v, b: tf.nn.bias_add(v, b, data_format="NCHW"), (2, 3, 2, 2), (3,))],
    "conv2d": [Case(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), (2, 4, 4, 2), (3, 3, 2, 3)),
               Case(lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), (1, 5, 4, 2), (3, 2, 2, 2)),
               Case(lambda x, f: tf.nn.conv2d(x, f, 1, "SAME", dilations=2), (1, 5, 5, 1), (2, 2, 1, 2)),
               Case(lambda x, f: tf.nn.conv2d(x, f, [1, 2], [[0, 0], [1, 0], [2, 1], [0, 0]]), (1, 4, 5, 1),
                    (2, 3, 1, 2))],
    "depthwise_conv2d": [Case(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID"), (2, 4, 4, 2),
                              (3, 3, 2, 2)),
                         Case(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME"), (1, 5, 4, 2),
                              (3, 2, 2, 3)),
                         Case(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", dilations=[2, 2]),
                              (1, 5, 5, 1), (2, 2, 1, 2))],
    "max_pool2d": [Case(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), (2, 4, 4, 2), second=False),
                   Case(lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), (1, 5, 4, 1), second=False)],
    "avg_pool2d": [Case(lambda x: tf.nn.avg_pool2d(x * x, 2, 2, "VALID"), (2, 4, 4, 2)),
                   Case(lambda x: tf.nn.avg_pool2d(x * x, 3, 2, "SAME"), (1, 5, 4, 1))],
    # --- gradient helpers (reached by second derivatives) ---
    "stop_gradient": [],
}


def _helper(name):
    from tinytf.runtime.ops import gradient_helpers as grad_ops
    from tinytf.runtime.ops import indexing_grad_ops as scatter_ops

    return getattr(grad_ops, name, None) or getattr(scatter_ops, name)


def _spectral_direction(x, rows, cols):
    from tinytf.runtime.ops.spectral import spectral_direction

    return spectral_direction(x, rows, cols)


def _i32(value):
    return tf.constant(value, tf.int32)


def _op(name, attrs=None):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    return lambda *xs: apply(ops[name], xs, attrs or {})


def _conv_op(name, attrs=None):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    conv_attrs = {"strides": (1, 1), "padding": "VALID", "dilations": (1, 1)}
    return lambda *xs: apply(ops[name], xs, {**conv_attrs, **(attrs or {})})


def _pool_op(name, attrs=None):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    return lambda *xs: apply(ops[name], xs, {"ksize": (2, 2), "strides": (1, 1), "padding": "SAME", **(attrs or {})})


CASES.update({
    "conv2d_backprop_input": [Case(_conv_op("conv2d_backprop_input", {"shape": (4, 4, 2)}),
                                   (1, 2, 3, 3), (3, 2, 2, 3))],
    "conv2d_backprop_filter": [Case(_conv_op("conv2d_backprop_filter", {"filter_shape": (3, 2, 2, 3)}),
                                    (1, 4, 4, 2), (1, 2, 3, 3))],
    "depthwise_conv2d_backprop_input": [Case(_conv_op("depthwise_conv2d_backprop_input", {"shape": (4, 4, 2)}),
                                             (1, 2, 2, 4), (3, 3, 2, 2))],
    "depthwise_conv2d_backprop_filter": [Case(_conv_op("depthwise_conv2d_backprop_filter",
                                                       {"filter_shape": (3, 3, 2, 2)}), (1, 4, 4, 2), (1, 2, 2, 4))],
    "max_pool2d_grad": [Case(lambda x, g: _pool_op("max_pool2d_grad")(
        tf.stop_gradient(x), tf.stop_gradient(_pool_op("max_pool2d")(x)), g), (1, 3, 3, 2), (1, 3, 3, 2))],
    "dropout_select": [Case(lambda x: _op("dropout_select")(tf.constant([[True, False, True], [False, True, True]]),
                                                            x * x), (2, 3)),
                       Case(lambda x: _op("dropout_select", {"scale": 1.25, "scale_first": True})(
                           tf.constant([[True, False, True], [False, True, True]]), x * x), (2, 3)),
                       Case(lambda x: _op("dropout_select", {"scale": 2.0, "scale_first": False})(
                           tf.constant([[True, False, True], [False, True, True]]), x * x), (2, 3))],
    "max_pool2d_take": [Case(lambda x, d: _pool_op("max_pool2d_take")(tf.stop_gradient(x), d), (1, 3, 3, 2),
                             (1, 3, 3, 2))],
    "sparse_softmax_cross_entropy_backprop": [Case(
        lambda x: _op("sparse_softmax_cross_entropy_backprop")(tf.constant([2, 0]), x) * x, (2, 3))],
    "avg_pool2d_grad": [Case(lambda g: _pool_op("avg_pool2d_grad", {"shape": (4, 3, 2), "strides": (2, 2)})(g * g),
                             (1, 2, 2, 2))],
    "strided_slice_grad": [Case(lambda g, x: _helper("strided_slice_grad")(g * g, x, [], ((1, None, None), 2)),
                                (2,), (3, 4))],
    "gather_grad": [Case(lambda g, x: _helper("gather_grad")(g * g, _i32([2, 0, 2]), x, 1, 0), (2, 3), (2, 4))],
    "gather_nd_grad": [Case(lambda g, x: _helper("gather_nd_grad")(g * g, _i32([[0, 1], [0, 1]]), x, 0), (2,), (2, 3))],
    "boolean_mask_grad": [Case(lambda g, x: _helper("boolean_mask_grad")(g * g, tf.constant([True, False, True]), x, 0),
                               (2, 2), (3, 2))],
    "take_along_axis": [Case(lambda x: _helper("take_along_axis")(x * x, _i32([[2, 0], [1, 1]]), 1), (2, 3))],
    "scatter_along_axis": [Case(lambda g, x: _helper("scatter_along_axis")(g * g, _i32([[2, 0], [1, 0]]), x, 1),
                                (2, 2), (2, 3))],
    "mirror_pad_grad": [Case(lambda g: _helper("mirror_pad_grad")(g * g, None, ((1, 2), (0, 1)), "REFLECT"), (6, 3))],
    "mirror_pad_grad_dynamic": [Case(lambda g: _helper("mirror_pad_grad_dynamic")(g * g, _i32([[1, 2], [0, 1]]),
                                                                                 "SYMMETRIC"), (6, 3))],
    "mirror_pad_dynamic": [Case(lambda x: _op("mirror_pad_dynamic", {"mode": "REFLECT"})(x * x, _i32([[1, 0], [2, 1]])),
                                (3, 4))],
    "sum_to_like": [Case(lambda g, x: _helper("sum_to_like")(g * g, x), (2, 3), (1, 3))],
    "broadcast_to_like": [Case(lambda x, y: _helper("broadcast_to_like")(x * x, y), (3,), (2, 3))],
    "reshape_like": [Case(lambda x, y: _helper("reshape_like")(x * x, y), (2, 3), (3, 2))],
    # a third derivative of the spectral norm: its second-derivative op has no rule (test below)
    "spectral_norm_direction": [Case(lambda x: _spectral_direction(x * x, 0, 2), (3, 2, 4), second=False)],
    "broadcast_reduced": [
        Case(lambda g, x: _helper("broadcast_reduced")(g * g, x, 1, False), (2,), (2, 3)),
        Case(lambda g, x: _helper("broadcast_reduced")(g * g, x, None, False, True), (), (2, 3))],
})


# --- sparse and ragged kernels (tinytf/sparse, tinytf/ragged) ---
def _sparse_add_grad_case(g):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    a, b = tf.constant([[0, 0], [1, 1]], tf.int64), tf.constant([[1, 1], [0, 1]], tf.int64)
    shape, summed = tf.constant([2, 2], tf.int64), tf.constant([[0, 0], [0, 1], [1, 1]], tf.int64)
    ga, gb = apply(ops["sparse_add_grad"], (g * g, a, shape, b, shape, summed))
    return ga * gb


def _ragged_from_dense_case(x):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    return apply(ops["ragged_from_dense"], (x * x, tf.constant([0, 2, 2, 3], tf.int64),
                                            tf.constant([0, 1, 3, 4], tf.int64)), {"inner_shape": ()})


CASES.update({
    "sparse_to_dense": [
        Case(lambda v: tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], v * v, [2, 3])), (3,)),
        Case(lambda v, d: tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [1, 2]], v * v, [2, 3]), d * d),
             (2,), ())],
    "sparse_add": [Case(lambda a, b: tf.sparse.add(tf.sparse.SparseTensor([[0, 0], [1, 1]], a * a, [2, 2]),
                                                   tf.sparse.SparseTensor([[1, 1], [0, 1]], b * a, [2, 2])).values,
                        (2,), (2,))],
    "sparse_add_grad": [Case(_sparse_add_grad_case, (3,))],
    "ragged_to_dense": [
        Case(lambda v: tf.RaggedTensor.from_row_splits(v * v, [0, 2, 2, 3]).to_tensor(), (3,)),
        Case(lambda v, d: tf.RaggedTensor.from_row_splits(v * v, [0, 2, 3]).to_tensor(d * d, shape=[2, 3, 1]),
             (3, 2), ()),
        Case(lambda v: tf.RaggedTensor.from_nested_row_splits(v * v, [[0, 2, 2, 3], [0, 1, 3, 4]]).to_tensor(),
             (4,))],
    "ragged_from_dense": [Case(_ragged_from_dense_case, (3, 2, 2))],
})


CASES.update({
    "check_numerics": [Case(lambda x: tf.debugging.check_numerics(x * x, "checked"), (2, 3))],
    # differentiable once, as TF's: through the tape of its own call
    "py_function": [Case(lambda x, y: tf.py_function(lambda a, b: tf.sin(a) * b, [x, y], tf.float64), (2, 3), (3,),
                         second=False)],
})


def _all_cases():
    for name, cases in sorted(CASES.items()):
        for i, case in enumerate(cases):
            yield pytest.param(name, case, id=f"{name}-{i}")

def _dynamic_op(name, *shape_args):
    """Call the dynamic twin `name` with its shape-like inputs given as int32 tensors (as a graph would)."""
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    def call(x, *more):
        tensors = [tf.constant(a, tf.int32) for a in shape_args]
        return apply(ops[name], (x, *tensors, *more))

    return call


CASES.update({
    "fill_dynamic": [Case(lambda x: _dynamic_op("fill_dynamic")(tf.constant([2, 3]), x * x) * x, ())],
    "reshape_dynamic": [Case(lambda x: _dynamic_op("reshape_dynamic", [3, -1])(x * x), (2, 3))],
    "broadcast_to_dynamic": [Case(lambda x: _dynamic_op("broadcast_to_dynamic", [2, 3, 3])(x * x), (3, 1))],
    "tile_dynamic": [Case(lambda x: _dynamic_op("tile_dynamic", [2, 3])(x * x), (2, 2))],
    "pad_dynamic": [Case(lambda x, c: _dynamic_op("pad_dynamic", [[1, 0], [2, 1]])(x * x, c * c), (2, 3), ())],
    "tensor_scatter_nd": [Case(lambda x, u: tf.tensor_scatter_nd_update(x * x, [[2, 0], [0, 1]], u * u), (3, 2), (2,)),
                          Case(lambda x, u: tf.tensor_scatter_nd_add(x * x, [[1], [1]], u * u), (3, 2), (2, 2)),
                          Case(lambda x, u: tf.tensor_scatter_nd_sub(x * x, [[0]], u), (3, 2), (1, 2)),
                          Case(lambda x, u: tf.tensor_scatter_nd_max(x, [[0], [2]], u), (3,), (2,), second=False),
                          Case(lambda x, u: tf.tensor_scatter_nd_min(x, [[1], [2]], u), (3,), (2,), second=False)],
    "slice_dynamic": [Case(lambda x: _dynamic_op("slice_dynamic", [1, 0], [1, -1])(x * x), (3, 3))],
})


CASES.update({
    "segment_reduction": [Case(lambda x: tf.math.segment_sum(x * x, [0, 0, 2]), (3, 2)),
                          Case(lambda x: tf.math.segment_mean(x * x, [0, 1, 1]), (3, 2)),
                          Case(lambda x: tf.math.segment_max(x, [0, 0, 1]), (3, 2), second=False),
                          Case(lambda x: tf.math.segment_min(x, [0, 1, 1]), (3, 2), second=False),
                          Case(lambda x: tf.math.segment_prod(x, [1, 1, 1]), (3, 2))],
    "unsorted_segment_reduction": [
        Case(lambda x: tf.math.unsorted_segment_sum(x * x, [1, -1, 1], 2), (3, 2)),
        Case(lambda x: tf.math.unsorted_segment_max(x, [1, 0, 1], 2), (3, 2), second=False),
        Case(lambda x: tf.math.unsorted_segment_min(x, [1, 0, 0], 2), (3, 2), second=False),
        Case(lambda x: tf.math.unsorted_segment_prod(x, [0, -1, 0], 1), (3, 2))],
    "confusion_matrix": [Case(lambda w: tf.math.confusion_matrix([0, 1, 1], [1, 1, 0], 2, weights=w * w,
                                                                 dtype=tf.float64), (3,))],
})

# Keras' image transforms (RandomRotation/Zoom/Translation): linear in the images, the adjoint op is the rule.
_TURN = [[0.8, -0.6, 1.5, 0.6, 0.8, -1.0, 0.01, -0.02], [1.2, 0.1, -2.0, 0.0, 0.7, 0.5, 0.0, 0.0]]
CASES.update({
    "image_projective_transform_v3": [
        Case(lambda x, i=i, m=m: image_projective_transform_v3(x, tf.constant(_TURN), [6, 3], 0.5, i, m),
             (2, 5, 4, 3), second=False)
        for i, m in (("BILINEAR", "REFLECT"), ("BILINEAR", "CONSTANT"), ("NEAREST", "WRAP"), ("BILINEAR", "NEAREST"))],
})

# --- core API names (helper coreapi): 3-D convolution and pooling, special functions, core ops ---
def _op3d(name, attrs):
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.registry import OPS as ops

    return lambda *xs: apply(ops[name], xs, attrs)


_CONV3D = {"strides": (1, 1, 1), "padding": "VALID", "dilations": (1, 1, 1)}
_POOL3D = {"ksize": (2, 2, 2), "strides": (1, 1, 1), "padding": "SAME"}
CASES.update({
    "conv3d": [Case(lambda x, f: tf.nn.conv3d(x, f, 1, "VALID"), (1, 3, 4, 3, 2), (2, 3, 2, 2, 2)),
               Case(lambda x, f: tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "SAME"), (2, 3, 3, 4, 1), (2, 2, 3, 1, 2))],
    "conv3d_backprop_input": [Case(_op3d("conv3d_backprop_input", {"shape": (3, 3, 3, 2), **_CONV3D}),
                                   (1, 2, 2, 2, 3), (2, 2, 2, 2, 3))],
    "conv3d_backprop_filter": [Case(_op3d("conv3d_backprop_filter", {"filter_shape": (2, 2, 2, 2, 3), **_CONV3D}),
                                    (1, 3, 3, 3, 2), (1, 2, 2, 2, 3))],
    "max_pool3d": [Case(lambda x: tf.nn.max_pool3d(x, 2, 2, "VALID"), (1, 4, 4, 2, 2), second=False),
                   Case(lambda x: tf.nn.max_pool3d(x, 3, 2, "SAME"), (1, 3, 5, 4, 1), second=False)],
    "avg_pool3d": [Case(lambda x: tf.nn.avg_pool3d(x * x, 2, 2, "VALID"), (1, 4, 4, 2, 2)),
                   Case(lambda x: tf.nn.avg_pool3d(x * x, 3, 2, "SAME"), (1, 3, 5, 4, 1))],
    "max_pool3d_grad": [Case(lambda x, g: _op3d("max_pool3d_grad", _POOL3D)(tf.stop_gradient(x), g),
                             (1, 3, 3, 2, 2), (1, 3, 3, 2, 2))],
    "max_pool3d_grad_grad": [Case(lambda x, d: _op3d("max_pool3d_grad_grad", _POOL3D)(tf.stop_gradient(x), d),
                                  (1, 3, 3, 2, 2), (1, 3, 3, 2, 2))],
    "avg_pool3d_grad": [Case(lambda g: _op3d("avg_pool3d_grad", {"shape": (1, 4, 3, 2, 2), **_POOL3D,
                                                                 "strides": (2, 2, 2)})(g * g), (1, 2, 2, 1, 2))],
    "repeat": [Case(lambda x: tf.repeat(x * x, [2, 0, 1], axis=1), (2, 3)), Case(lambda x: tf.repeat(x, 2), (2, 2))],
    "repeat_grad": [Case(lambda x: _op3d("repeat_grad", {"axis": 0})(x * x, tf.constant([2, 1]), tf.zeros([2, 2])),
                         (3, 2))],
    "ensure_shape": [Case(lambda x: tf.ensure_shape(x * x, [None, 2]), (3, 2))],
    "reverse_sequence": [Case(lambda x: tf.reverse_sequence(x * x, [2, 3], seq_axis=1, batch_axis=0), (2, 4))],
    "dynamic_partition": [Case(lambda x: tf.dynamic_partition(x * x, [1, 0, 1], 2)[1] * 2.0, (3, 2))],
    # (TF's rule gathers for every list, also where a later list overrides an index: no duplicates here)
    "dynamic_stitch": [Case(lambda x, y: tf.dynamic_stitch([[0, 2], [1, 3]], [x * x, y]), (2, 2), (2, 2))],
    "space_to_batch_nd": [Case(lambda x: tf.space_to_batch_nd(x * x, [2, 1], [[1, 1], [0, 0]]), (1, 2, 3, 2))],
    "batch_to_space_nd": [Case(lambda x: tf.batch_to_space(x * x, [2, 1], [[1, 0], [0, 1]]), (2, 2, 3, 1))],
    # TF's rule takes the log of the incoming gradient's parts: not twice differentiable where they are 0, and
    # NaN for exclusive sums (their first output is -inf), as in TF; first order, inclusive, checked here
    "cumulative_logsumexp": [Case(lambda x: tf.math.cumulative_logsumexp(x, axis=1), (2, 4), second=False),
                             Case(lambda x: tf.math.cumulative_logsumexp(x, reverse=True), (4,), second=False)],
    "lgamma": [Case(tf.math.lgamma, (4,), low=0.2, high=5.0), Case(tf.math.lgamma, (3,), low=-0.9, high=-0.1)],
    "digamma": [Case(tf.math.digamma, (4,), low=0.2, high=5.0)],
    "polygamma": [Case(lambda x: tf.math.polygamma(tf.constant([1.0, 2.0, 3.0], tf.float64), x), (3,), low=0.3,
                       high=4.0)],
    "zeta": [Case(lambda q: tf.math.zeta(tf.constant([2.0, 3.5], tf.float64), q), (2,), low=0.5, high=3.0)],
    "ndtri": [Case(tf.math.ndtri, (4,), low=0.05, high=0.95)],
    "erfinv": [Case(tf.math.erfinv, (4,), low=-0.9, high=0.9)],
    "erfcinv": [Case(tf.math.erfcinv, (4,), low=0.1, high=1.9)],
})

def _cx(x):
    """A complex input with independent-looking parts, from one real array."""
    return tf.complex(x, x * x - 0.5)


def _parts(z):
    """A real function of both parts of a complex result (so every part's gradient matters)."""
    return tf.math.real(z) * 1.5 + tf.math.imag(z) * tf.math.real(z)


# tf.signal's Fourier transforms (runtime/ops/fft.py, rules in fft_grad.py)
CASES.update({
    "fft": [Case(lambda x: _parts(tf.signal.fft(_cx(x))), (2, 5))],
    "ifft": [Case(lambda x: _parts(tf.signal.ifft(_cx(x))), (2, 4))],
    "fft2d": [Case(lambda x: _parts(tf.signal.fft2d(_cx(x))), (2, 3, 4))],
    "ifft2d": [Case(lambda x: _parts(tf.signal.ifft2d(_cx(x))), (3, 3))],
    "fft3d": [Case(lambda x: _parts(tf.signal.fft3d(_cx(x))), (2, 2, 3))],
    "ifft3d": [Case(lambda x: _parts(tf.signal.ifft3d(_cx(x))), (2, 3, 2))],
    "fftnd": [Case(lambda x: _parts(tf.signal.fftnd(_cx(x), axes=[0, 2])), (2, 3, 3))],
    "ifftnd": [Case(lambda x: _parts(tf.signal.ifftnd(_cx(x), fft_length=[4], axes=[1], norm="ortho")), (2, 3))],
    "rfft": [Case(lambda x: _parts(tf.signal.rfft(x * x)), (2, 6)), Case(lambda x: _parts(tf.signal.rfft(x)), (5,)),
             Case(lambda x: _parts(tf.signal.rfft(x, [3])), (2, 5))],
    "rfft2d": [Case(lambda x: _parts(tf.signal.rfft2d(x * x)), (3, 4)),
               Case(lambda x: _parts(tf.signal.rfft2d(x)), (3, 5))],
    "rfft3d": [Case(lambda x: _parts(tf.signal.rfft3d(x * x)), (2, 3, 4))],
    "rfftnd": [Case(lambda x: _parts(tf.signal.rfftnd(x * x, axes=[0])), (5, 2))],
    "irfft": [Case(lambda x: tf.signal.irfft(_cx(x)) ** 2, (2, 4)),
              Case(lambda x: tf.signal.irfft(_cx(x), [7]), (3, 4)),
              Case(lambda x: tf.signal.irfft(_cx(x), [4]), (5,))],
    "irfft2d": [Case(lambda x: tf.signal.irfft2d(_cx(x)) ** 2, (3, 4)),
                Case(lambda x: tf.signal.irfft2d(_cx(x), [3, 5]), (3, 3))],
    "irfft3d": [Case(lambda x: tf.signal.irfft3d(_cx(x)) ** 2, (2, 2, 3))],
    "irfftnd": [Case(lambda x: tf.signal.irfftnd(_cx(x), axes=[0]) ** 2, (3, 2))],
})

# CTC: TF's rule scales the loss's stored gradient; TF forbids second derivatives of its fused op
_CTC_LABELS = [[1, 2, 2], [3, 0, 0]]
CASES.update({
    "ctc_loss": [Case(lambda x: tf.nn.ctc_loss(_CTC_LABELS, tf.reshape(x, [5, 2, 4]), [3, 1], [5, 4]) * [1.0, 2.0],
                      (40,), second=False),
                 Case(lambda x: tf.nn.ctc_loss(tf.sparse.from_dense(tf.constant([[1, 3, 3], [0, 1, 0]])),
                                               tf.reshape(x, [6, 2, 4]), None, [6, 5], blank_index=2), (48,),
                      second=False)],
})

# the nn / sparse / ragged leftovers slice
CASES.update({
    "sparse_fill_empty_rows": [Case(lambda v, d: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[3, 1], [1, 0], [1, 2]], v, [5, 3]), d)[0].values ** 2, (3,), ())],
    "max_pool_with_argmax": [Case(lambda x: tf.nn.max_pool_with_argmax(x, 3, 2, "SAME")[0] ** 2, (2, 5, 6, 3)),
                             Case(lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID",
                                                                       include_batch_in_index=True)[0], (2, 4, 4, 1))],
    "dilation2d": [Case(lambda x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 2, 2, 1]) ** 2,
                        (2, 5, 6, 3), (2, 3, 3), second=False),
                   Case(lambda x, f: tf.nn.erosion2d(x, f, [1, 2, 2, 1], "VALID", "NHWC", [1, 1, 1, 1]),
                        (1, 5, 5, 2), (2, 2, 2), second=False)],
    "fractional_pool": [Case(lambda x: tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], overlapping=True,
                                                                  seed=5)[0] ** 2, (1, 7, 9, 2), second=False),
                        Case(lambda x: tf.nn.fractional_avg_pool(x, 1.5, pseudo_random=True, seed=3)[0] ** 2,
                             (2, 6, 7, 1), second=False)],
    "bessel_i0": [Case(tf.math.bessel_i0, (6,), low=-4.0, high=4.0)],
    "bessel_i0e": [Case(tf.math.bessel_i0e, (6,), low=-4.0, high=4.0)],
    "bessel_i1": [Case(tf.math.bessel_i1, (6,), low=-4.0, high=4.0)],
    "bessel_i1e": [Case(tf.math.bessel_i1e, (6,), low=-4.0, high=4.0)],
    "isotonic_regression": [Case(lambda x: tf.nn.isotonic_regression(x)[0] ** 2, (3, 5)),
                            Case(lambda x: tf.nn.isotonic_regression(x, axis=0, decreasing=False)[0], (4, 3))],
})

# --- the strmath slice: incomplete gamma/beta (dP/da is TF's IgammaGradA, which has no gradient of its own: no
# second derivative through a), tf.math.special ---
CASES.update({
    "igamma": [Case(tf.math.igamma, (4,), (4,), low=0.5, high=4.0, second=False),
               Case(lambda x: tf.math.igamma(2.5, x), (2, 3), low=0.2, high=6.0)],
    "igammac": [Case(tf.math.igammac, (3,), (3,), low=0.5, high=4.0, second=False)],
    "betainc": [Case(lambda x: tf.math.betainc(2.0, 3.5, x), (5,), low=0.05, high=0.95),
                Case(lambda x: tf.math.betainc(0.7, 1.0, x), (4,), low=0.1, high=0.9)],
})
CASES.update({name: [Case(getattr(tf.math.special, name), (6,), low=0.3, high=6.0)]
              for name in ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1",
                           "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence")})


# Ops through which TF registers no gradient although they may output floats: asking for one raises TF's
# LookupError (checked in test_sets_and_counts.py), so they keep differentiable=True with no rule.
TF_HAS_NO_GRADIENT = {"unique", "bincount", "resize_area", "extract_glimpse", "draw_bounding_boxes",
                      "non_max_suppression_v5", "combined_non_max_suppression", "guarantee_const"}


def test_every_float_op_has_a_rule_or_is_marked():
    missing = sorted(name for name, op in OPS.items()
                     if op.differentiable and op.grad is None and name not in TF_HAS_NO_GRADIENT)
    assert not missing, ("ops that are differentiable but have no gradient rule (add a rule, or declare "
                         f"differentiable=False): {missing}")


def test_every_rule_has_a_finite_difference_case():
    unchecked = sorted(name for name, op in OPS.items()
                       if op.grad is not None and not CASES.get(name) and name not in CHECKED_ELSEWHERE)
    assert not unchecked, f"gradient rules without a finite-difference case in CASES: {unchecked}"


def test_stop_gradient_blocks_the_gradient():
    x = tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.stop_gradient(x * x) * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 4.0])


def test_spectral_norm_gradient_is_the_top_singular_pair():
    x = np.array([[3.0, 1.0], [1.0, 2.0], [0.5, -1.0]])
    u, s, vt = np.linalg.svd(x)
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.norm(t, ord=2, axis=[0, 1])
    np.testing.assert_allclose(y.numpy(), s[0])
    np.testing.assert_allclose(tape.gradient(y, t).numpy(), np.outer(u[:, 0], vt[0]), rtol=1e-12)


def test_third_derivative_of_the_spectral_norm_raises():
    x = tf.constant([[3.0, 1.0], [1.0, 2.0]], tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.norm(x, ord=2, axis=[0, 1])
            g = t1.gradient(y, x)
            g_squared = tf.reduce_sum(g * g * x)
        h = t2.gradient(g_squared, x)
    with pytest.raises(NotImplementedError, match="third derivatives of the spectral matrix norm"):
        t3.gradient(h, x)



def _symmetric(x):
    return x + tf.linalg.matrix_transpose(x)


def _sign_fixed(v):
    """Eigen/singular vectors with their sign chosen by the first row, so finite differences see one branch."""
    return v * tf.sign(v[..., :1, :])


CASES.update({  # the decompositions (runtime/ops/linalg_decompositions_grad.py)
    "self_adjoint_eig": [Case(lambda x: tf.linalg.eigvalsh(_symmetric(x)), (3, 3)),
                         Case(lambda x: _sign_fixed(tf.linalg.eigh(_symmetric(x))[1]), (2, 3, 3), second=False)],
    "qr": [Case(lambda x: tf.linalg.qr(x)[0] + 0.0, (4, 3), second=False),
           Case(lambda x: tf.linalg.qr(x)[1], (3, 3), second=False)],
    "svd": [Case(lambda x: tf.linalg.svd(x, compute_uv=False), (4, 3), second=False),
            Case(lambda x: _sign_fixed(tf.linalg.svd(x)[1]), (3, 4), second=False),
            Case(lambda x: _sign_fixed(tf.linalg.svd(x)[2]), (4, 3), second=False)],
    "matrix_square_root": [Case(lambda x: tf.linalg.sqrtm(tf.matmul(x, x, transpose_b=True)
                                                       + 3 * tf.eye(3, dtype=tf.float64)), (3, 3), second=False)],
    "matrix_triangular_solve": [
        Case(lambda a, b: tf.linalg.triangular_solve(a + 3 * tf.eye(3, dtype=tf.float64), b), (3, 3), (2, 3, 2)),
        Case(lambda a, b: tf.linalg.triangular_solve(a + 3 * tf.eye(3, dtype=tf.float64), b, lower=False,
                                                     adjoint=True), (3, 3), (3, 1))],
})


# --- tf.image's resize kernels (runtime/ops/image_resize_kernels.py): linear in the images, the adjoint ops are
# the rules; the kernels compute in float32 as TF's do, so the differences take a large step ---
def _resize_cases():
    from tinytf.runtime.ops import image_resize_kernels as kernels

    def scaled(kernel_type, antialias):
        return lambda x: kernels.scale_and_translate(x, [3, 6], [0.6, 1.4], [0.3, -0.5], kernel_type, antialias)

    loose = {"rtol": 2e-3, "atol": 2e-3, "eps": 1e-2, "second": False}
    return {
        "scale_and_translate": [Case(scaled(k, a), (2, 5, 4, 2), **loose)
                                for k, a in (("lanczos3", True), ("keyscubic", False), ("gaussian", True))],
        "resize_bicubic": [Case(lambda x: kernels.resize_bicubic(x, [7, 3], half_pixel_centers=True), (1, 4, 5, 2),
                                **loose),
                           Case(lambda x: kernels.resize_bicubic(x, [3, 8], align_corners=True), (2, 5, 4, 1),
                                **loose)],
    }


CASES.update(_resize_cases())


def _window_cases():
    """crop_and_resize for the image and the boxes (boxes whose grid stays off pixel edges, where the bilinear
    sampling is smooth), extract_patches for the images."""
    boxes = tf.constant([[0.13, 0.21, 0.77, 0.88], [-0.21, 0.04, 0.52, 1.27]], tf.float64)
    image = tf.constant(np.random.default_rng(5).uniform(-1, 1, (2, 5, 4, 2)))

    def crops(x, b, method="bilinear"):
        return tf.image.crop_and_resize(x, tf.cast(b, tf.float32), [1, 0], [3, 4], method)

    loose = {"rtol": 2e-3, "atol": 2e-3, "eps": 1e-3, "second": False}
    return {
        "crop_and_resize": [Case(lambda x: crops(x, boxes), (2, 5, 4, 2), **loose),
                            Case(lambda x: crops(x, boxes, "nearest"), (2, 5, 4, 2), **loose),
                            Case(lambda b: crops(image, b + boxes), (2, 4), low=-0.01, high=0.01, **loose)],
        "extract_image_patches": [
            Case(lambda x, p=p: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], p), (2, 7, 6, 2),
                 second=False) for p in ("SAME", "VALID")],
    }


CASES.update(_window_cases())


# Parametrized last: the CASES.update blocks above must all have run when pytest collects these.
@pytest.mark.parametrize("name, case", list(_all_cases()))
def test_rule_matches_finite_differences(name, case):
    if name not in OPS:
        pytest.skip(f"op {name} is not registered")
    check_gradients(case.fn, case.arrays(seed=len(name)), rtol=case.rtol, atol=case.atol, eps=case.eps)


@pytest.mark.parametrize("name, case", [p for p in _all_cases() if p.values[1].second])
def test_rule_second_order_matches_finite_differences(name, case):
    if name not in OPS:
        pytest.skip(f"op {name} is not registered")
    check_second_order(case.fn, case.arrays(seed=len(name) + 1), rtol=max(case.rtol, 1e-4),
                       atol=max(case.atol, 1e-5), eps=case.eps)
