"""keras.backend as TF 2.21 exposes it: Keras 3's session and dtype helpers (clear_session, floatx, epsilon,
standardize_dtype, result_type, is_keras_tensor, get_uid) and the Keras 2 functions tf.keras keeps for old code
(mean, dot, batch_flatten, variable, get_value, ...), which call TensorFlow's functions directly, so they follow
TF's dtype rules, not keras.ops'."""

from __future__ import annotations

import builtins
import collections
import math as _math

import numpy as np

import tinytf as tf

from . import initializers, naming
from .config import epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format
from .models.keras_tensor import KerasTensor
from .naming import reset_names
from .ops.dtype_rules import is_float_dtype, is_int_dtype, result_type, standardize_dtype
from .variable import KerasVariable

_uids: dict = collections.defaultdict(int)


def backend() -> str:
    return "tensorflow"


def clear_session(free_memory=True) -> None:
    """Restart Keras' automatic names (the next Dense is `dense` again) and get_uid's counters, and forget the
    global dtype policy (Keras 3 clears it with its global state: the next layer takes floatx's again)."""
    from .dtype_policies.dtype_policy import reset_dtype_policy

    reset_names()
    _uids.clear()
    reset_dtype_policy()


def get_uid(prefix: str = "") -> int:
    """1, 2, 3, ... per prefix: Keras' counter for unique object names."""
    _uids[prefix] += 1
    return _uids[prefix]


def is_keras_tensor(x) -> bool:
    """Whether x is a symbolic KerasTensor (what keras.Input and layers called on one return)."""
    return isinstance(x, KerasTensor)


class Variable(KerasVariable):
    """keras.Variable: a variable made from a value or from an initializer and a shape (Keras 3's signature),
    named `variable`, `variable_1`, ... unless named; float values take floatx."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True, aggregation="none",
                 synchronization="auto", name=None, **kwargs):
        name = name or naming.unique_name("variable")
        if isinstance(initializer, (str, dict, initializers.Initializer)) or (
                callable(initializer) and not tf.is_tensor(initializer)):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                                 f"specified. Received: initializer={initializer} and shape={shape}")
            dtype = standardize_dtype(dtype)
            value = initializers.get(initializer)(tuple(shape), dtype=dtype)
        else:
            value = tf.convert_to_tensor(initializer)
            dtype = standardize_dtype(dtype) if dtype is not None else (
                floatx() if value.dtype.is_floating else value.dtype.name)
            value = tf.cast(value, dtype)
            if shape is not None and tuple(shape) != tuple(value.shape.as_list()):
                raise ValueError(f"Initial value has shape {tuple(value.shape.as_list())}, but the variable's shape "
                                 f"is {tuple(shape)}.")
        from .layers.layer import _current_path  # the enclosing keras.name_scope's prefix (backend_scopes.py)

        scope = _current_path()
        super().__init__(value, name=name, path=f"{scope}/{name}" if scope else name, trainable=trainable, dtype=dtype)

    def __repr__(self):
        return (f"<Variable path={self.path}, shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}, "
                f"value={self.numpy()}>")


# --- Keras 2 functions: thin TensorFlow calls --------------------------------------------------------------
def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _float_bool(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(x, floatx()) if x.dtype == tf.bool else x


def abs(x):  # noqa: A001 - Keras' names shadow builtins throughout
    return tf.abs(x)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_all(tf.cast(x, tf.bool), axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_any(tf.cast(x, tf.bool), axis=_axis(axis), keepdims=keepdims)


def argmax(x, axis=-1):
    return tf.argmax(x, axis)


def argmin(x, axis=-1):
    return tf.argmin(x, axis)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    result = tf.range(start, limit=stop, delta=step)
    return tf.cast(result, dtype) if dtype != "int32" else result


def batch_flatten(x):
    """(batch, ...) -> (batch, product of the rest)."""
    x = tf.convert_to_tensor(x)
    return tf.reshape(x, tf.stack([-1, tf.reduce_prod(tf.shape(x)[1:])]))


def flatten(x):
    return tf.reshape(x, [-1])


def batch_get_value(tensors):
    return [get_value(t) for t in tensors]


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def get_value(x):
    """A variable's or tensor's value as numpy."""
    if isinstance(x, np.ndarray):
        return x
    return x.numpy()


def set_value(x, value):
    x.assign(np.asarray(value, dtype=x.dtype.as_numpy_dtype))


def eval(x):  # noqa: A001
    return get_value(x)


def variable(value, dtype=None, name=None, constraint=None):
    return tf.Variable(value, dtype=tf.as_dtype(dtype or floatx()), name=name, constraint=constraint)


def constant(value, dtype=None, shape=None, name=None):
    return tf.constant(value, dtype=dtype or floatx(), shape=shape)


def cast(x, dtype):
    return tf.cast(x, dtype)


def cast_to_floatx(x):
    """x in floatx: a tensor for tensors, a numpy array otherwise."""
    if tf.is_tensor(x) or isinstance(x, tf.Variable):
        return tf.cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def dtype(x) -> str:
    return x.dtype.name


def int_shape(x):
    """The static shape as a tuple of ints and None."""
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def shape(x):
    return tf.shape(x)


def ndim(x) -> int:
    return len(x.shape)


def count_params(x) -> int:
    return _math.prod(x.shape.as_list())


def zeros(shape, dtype=None, name=None):
    return variable(tf.zeros(shape, dtype or floatx()), dtype=dtype, name=name)


def ones(shape, dtype=None, name=None):
    return variable(tf.ones(shape, dtype or floatx()), dtype=dtype, name=name)


def eye(size, dtype=None, name=None):
    return variable(tf.eye(size, dtype=dtype or floatx()), dtype=dtype, name=name)


def zeros_like(x, dtype=None, name=None):
    return tf.zeros_like(x, dtype=dtype)


def ones_like(x, dtype=None, name=None):
    return tf.ones_like(x, dtype=dtype)


def mean(x, axis=None, keepdims=False):
    return tf.reduce_mean(_float_bool(x), axis=_axis(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return tf.math.reduce_std(_float_bool(x), axis=_axis(axis), keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return tf.math.reduce_variance(_float_bool(x), axis=_axis(axis), keepdims=keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_sum(x, axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return tf.reduce_prod(x, axis=_axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_min(x, axis=_axis(axis), keepdims=keepdims)


def cumsum(x, axis=0):
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return tf.math.cumprod(x, axis=axis)


def dot(x, y):
    """Keras 2's dot: matmul for matrices; for higher ranks, x's last axis against y's second-to-last."""
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    if len(x.shape) > 2 or len(y.shape) > 2:
        return tf.tensordot(x, y, [[len(x.shape) - 1], [len(y.shape) - 2]])
    return tf.matmul(x, y)


def transpose(x):
    return tf.transpose(x)


def permute_dimensions(x, pattern):
    return tf.transpose(x, perm=list(pattern))


def reshape(x, shape):
    return tf.reshape(x, shape)


def expand_dims(x, axis=-1):
    return tf.expand_dims(x, axis)


def squeeze(x, axis):
    return tf.squeeze(x, [axis])


def stack(x, axis=0):
    return tf.stack(x, axis=axis)


def concatenate(tensors, axis=-1):
    if axis < 0:
        rank = len(tensors[0].shape)
        axis = axis % rank if rank else 0
    return tf.concat(tensors, axis)


def tile(x, n):
    return tf.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    """(batch, dim) -> (batch, n, dim)."""
    if len(x.shape) != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={len(x.shape)}")
    return tf.tile(tf.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x, rep, axis):
    """Each slice of x along axis repeated rep times (np.repeat)."""
    n = x.shape[axis]
    index = [i for i in range(n) for _ in range(rep)]
    return tf.gather(x, index, axis=axis)


def reverse(x, axes):
    return tf.reverse(x, [axes] if isinstance(axes, int) else list(axes))


def gather(reference, indices):
    return tf.gather(reference, indices)


def one_hot(indices, num_classes):
    return tf.one_hot(indices, depth=num_classes, axis=-1)


def clip(x, min_value, max_value):
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    min_value = -np.inf if min_value is None else min_value
    max_value = np.inf if max_value is None else max_value
    return tf.clip_by_value(x, min_value, max_value)


def l2_normalize(x, axis=None):
    return tf.math.l2_normalize(x, axis=axis)


def pow(x, a):  # noqa: A001
    return tf.pow(x, a)


def round(x):  # noqa: A001
    return tf.round(x)


def _elementwise(name, fn):
    def op(x):
        return fn(x)
    op.__name__ = op.__qualname__ = name
    return op


cos, sin, exp, log, sqrt, square, sign, tanh = (_elementwise(n, f) for n, f in [
    ("cos", lambda x: tf.cos(x)), ("sin", lambda x: tf.sin(x)), ("exp", lambda x: tf.exp(x)),
    ("log", lambda x: tf.math.log(x)), ("sqrt", lambda x: tf.sqrt(x)), ("square", lambda x: tf.square(x)),
    ("sign", lambda x: tf.sign(x)), ("tanh", lambda x: tf.tanh(x))])
sigmoid, softplus, softsign = (_elementwise(n, f) for n, f in [
    ("sigmoid", lambda x: tf.sigmoid(x)), ("softplus", lambda x: tf.nn.softplus(x)),
    ("softsign", lambda x: tf.nn.softsign(x))])


def _comparison(name, fn):
    def op(x, y):
        return fn(x, y)
    op.__name__ = op.__qualname__ = name
    return op


equal, not_equal, greater, greater_equal, less, less_equal, maximum, minimum = (_comparison(n, f) for n, f in [
    ("equal", lambda x, y: tf.equal(x, y)), ("not_equal", lambda x, y: tf.not_equal(x, y)),
    ("greater", lambda x, y: tf.greater(x, y)), ("greater_equal", lambda x, y: tf.greater_equal(x, y)),
    ("less", lambda x, y: tf.less(x, y)), ("less_equal", lambda x, y: tf.less_equal(x, y)),
    ("maximum", lambda x, y: tf.maximum(x, y)), ("minimum", lambda x, y: tf.minimum(x, y))])


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """Keras 2's relu: a leak of alpha below threshold, a cap at max_value."""
    x = tf.convert_to_tensor(x)
    out = tf.where(x > threshold, x, alpha * (x - threshold) if alpha else tf.zeros_like(x))
    if max_value is not None:
        out = tf.minimum(out, tf.cast(max_value, x.dtype))
    return out


def elu(x, alpha=1.0):
    out = tf.nn.elu(x)
    return out if alpha == 1 else tf.where(x > 0, out, alpha * out)


def hard_sigmoid(x):
    """Keras 2's piecewise-linear sigmoid: clip(0.2 x + 0.5, 0, 1)."""
    x = tf.convert_to_tensor(x)
    return tf.clip_by_value(x * 0.2 + 0.5, 0.0, 1.0)


def softmax(x, axis=-1):
    x = tf.convert_to_tensor(x)
    if len(x.shape) <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return tf.nn.softmax(x, axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    from .ops.nn import binary_crossentropy as keras_bce
    return keras_bce(target, output, from_logits=from_logits)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .ops.nn import categorical_crossentropy as keras_cce
    return keras_cce(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1, ignore_class=None):
    from .ops.nn import sparse_categorical_crossentropy as keras_scce
    if ignore_class is not None:
        raise NotImplementedError("keras.backend.sparse_categorical_crossentropy: ignore_class is not supported "
                                  "by tinytf.")
    return keras_scce(target, output, from_logits=from_logits, axis=axis)


def bias_add(x, bias, data_format=None):
    data_format = data_format or image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    bias = tf.convert_to_tensor(bias)
    if len(bias.shape) != 1 and len(bias.shape) != len(x.shape) - 1:
        raise ValueError(f"Unexpected bias dimensions {len(bias.shape)}. Expected it to be 1 or "
                         f"{len(x.shape) - 1} dimensions")
    if data_format == "channels_first":
        shape = [1, -1] + [1] * (len(x.shape) - 2) if len(bias.shape) == 1 else [1, *bias.shape]
        if len(bias.shape) != 1:
            bias = tf.transpose(bias, [len(bias.shape) - 1] + list(range(len(bias.shape) - 1)))
            shape = [1, *bias.shape]
        return x + tf.reshape(bias, shape)
    return x + bias


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):  # noqa: A002 - Keras' name
    inv = tf.math.rsqrt(var + epsilon)
    if gamma is not None:
        inv = inv * gamma
    return x * inv + ((beta - mean * inv) if beta is not None else -mean * inv)


def in_top_k(predictions, targets, k):
    return tf.math.in_top_k(targets, predictions, k)


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [tf.stop_gradient(v) for v in variables]
    return tf.stop_gradient(variables)


def switch(condition, then_expression, else_expression):
    """then if condition else else: a tf.cond for a scalar condition, tf.where otherwise."""
    condition = tf.cast(condition, tf.bool)
    if len(condition.shape) == 0:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return tf.cond(condition, then_fn, else_fn)
    then_value = then_expression() if callable(then_expression) else then_expression
    else_value = else_expression() if callable(else_expression) else else_expression
    return tf.where(condition, then_value, else_value)


def map_fn(fn, elems, name=None, dtype=None):
    return tf.map_fn(fn, elems, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return tf.foldl(fn, elems, initializer=initializer)


def foldr(fn, elems, initializer=None, name=None):
    return tf.foldr(fn, elems, initializer=initializer)


def gradients(loss, variables):
    return tf.gradients(loss, variables)


def temporal_padding(x, padding=(1, 1)):
    if len(padding) != 2:
        raise ValueError(f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}")
    return tf.pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    data_format = data_format or image_data_format()
    pads = [list(p) for p in padding]
    pattern = [[0, 0], [0, 0], *pads] if data_format == "channels_first" else [[0, 0], *pads, [0, 0]]
    return tf.pad(x, pattern)


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    """x <- x * momentum + value * (1 - momentum)."""
    momentum = tf.cast(momentum, x.dtype)
    return x.assign_sub((x - tf.cast(value, x.dtype)) * (1 - momentum))


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return tf.random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return tf.random.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    dtype = dtype or floatx()
    return tf.where(tf.random.uniform(shape, dtype=dtype, seed=seed) <= p, tf.ones(shape, dtype),
                    tf.zeros(shape, dtype))


def dropout(x, level, noise_shape=None, seed=None):
    return tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def is_sparse(tensor) -> bool:
    return isinstance(tensor, tf.SparseTensor)


def to_dense(tensor):
    return tf.sparse.to_dense(tensor) if is_sparse(tensor) else tensor


def name_scope(name):
    """tf.name_scope(name): Keras 2's alias."""
    return tf.name_scope(name)

del builtins

__all__ = ["abs", "all", "any", "arange", "argmax", "argmin", "backend", "batch_flatten", "batch_get_value",
           "batch_normalization", "batch_set_value", "bias_add", "binary_crossentropy", "cast", "cast_to_floatx",
           "categorical_crossentropy", "clear_session", "clip", "concatenate", "constant", "cos", "count_params",
           "cumprod", "cumsum", "dot", "dropout", "dtype", "elu", "epsilon", "equal", "eval", "exp", "expand_dims",
           "eye", "flatten", "floatx", "foldl", "foldr", "gather", "get_uid", "get_value", "gradients", "greater",
           "greater_equal", "hard_sigmoid", "image_data_format", "in_top_k", "int_shape", "is_float_dtype",
           "is_int_dtype", "is_keras_tensor", "is_sparse", "l2_normalize", "less", "less_equal", "log", "map_fn",
           "max", "maximum", "mean", "min", "minimum", "moving_average_update", "name_scope", "ndim", "not_equal",
           "one_hot", "ones", "ones_like", "permute_dimensions", "pow", "prod", "random_bernoulli",
           "random_normal", "random_uniform", "relu", "repeat", "repeat_elements", "reshape", "result_type",
           "reverse", "round", "set_epsilon", "set_floatx", "set_image_data_format", "set_value", "shape",
           "sigmoid", "sign", "sin", "softmax", "softplus", "softsign", "sparse_categorical_crossentropy",
           "spatial_2d_padding", "sqrt", "square", "squeeze", "stack", "standardize_dtype", "std", "stop_gradient",
           "sum", "switch", "tanh", "temporal_padding", "tile", "to_dense", "transpose", "truncated_normal",
           "update", "update_add", "update_sub", "var", "variable", "zeros", "zeros_like"]

# CTC helpers (backend_ctc.py)
from .backend_ctc import ctc_batch_cost, ctc_decode, ctc_label_dense_to_sparse  # noqa: E402,F401

__all__ += ["ctc_batch_cost", "ctc_decode", "ctc_label_dense_to_sparse"]

# Keras 2's convolution, pooling, resizing and padding functions, batch_dot, focal crossentropies, random variables
from .backend_legacy import *  # noqa: E402,F401,F403
from .backend_legacy import __all__ as _legacy_names  # noqa: E402

__all__ += _legacy_names
from .backend_rnn import rnn  # noqa: E402,F401 - Keras 2's step-function loop

__all__ += ["rnn"]
