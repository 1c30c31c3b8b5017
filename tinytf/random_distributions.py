"""tf.random's gamma, poisson, binomial and categorical families (stateful and stateless) and create_rng_state,
as TF 2.21's Python wrappers build them on the kernels of runtime/ops/random_gamma.py, random_poisson.py,
random_binomial.py and random_categorical.py: gamma divides by beta and keeps samples at least the dtype's
smallest normal number, categorical draws from a matrix of logits."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.random import shape_tensor, stream_for
from tinytf.runtime.ops.random_binomial import stateless_random_binomial_op
from tinytf.runtime.ops.random_categorical import multinomial_op, stateless_multinomial_op
from tinytf.runtime.ops.random_gamma import random_gamma_op, stateless_random_gamma_op
from tinytf.runtime.ops.random_poisson import random_poisson_op, stateless_random_poisson_op
from tinytf.runtime.ops.random_truncated_normal import stateless_parameterized_truncated_normal_op
from tinytf.runtime.ops.stateless_random import _seed_tensor


def _alpha_beta(alpha, beta, dtype):
    dtype = dtypes.as_dtype(dtype)
    alpha = convert_to_tensor(alpha, dtype)
    beta = convert_to_tensor(1 if beta is None else beta, dtype)
    if alpha.shape.is_fully_defined() and beta.shape.is_fully_defined() and \
            tuple(alpha.shape.as_list()) == tuple(np.broadcast_shapes(tuple(alpha.shape.as_list()),
                                                                      tuple(beta.shape.as_list()))):
        return alpha, beta, dtype
    shape = _tf.broadcast_dynamic_shape(_tf.shape(alpha), _tf.shape(beta))
    return _tf.broadcast_to(alpha, shape), beta, dtype


def _at_least_tiny(sample, beta, dtype):
    return _tf.maximum(np.finfo(dtype.as_numpy_dtype).tiny, sample / beta)


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.gamma`: `shape` samples of Gamma(alpha, beta) for each alpha/beta; the result has shape
    `shape + broadcast(alpha, beta).shape`. Differentiable in alpha and beta."""
    alpha, beta, dtype = _alpha_beta(alpha, beta, dtype)
    sample = apply(random_gamma_op, (shape_tensor(shape), alpha), {"stream": stream_for(seed)})
    return _at_least_tiny(sample, beta, dtype)


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """`tf.random.stateless_gamma`: Gamma(alpha, beta) samples determined by `seed`; `shape` must end with
    the broadcast shape of alpha and beta."""
    alpha, beta, dtype = _alpha_beta(alpha, beta, dtype)
    sample = apply(stateless_random_gamma_op, (shape_tensor(shape), _seed_tensor(seed), alpha), {})
    return _at_least_tiny(sample, beta, dtype)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.poisson`: `shape` samples of Poisson(lam) for each rate; shape `shape + lam.shape`."""
    lam = convert_to_tensor(lam, dtype_hint=dtypes.float32)
    return apply(random_poisson_op, (shape_tensor(shape), lam), {"dtype": dtypes.as_dtype(dtype),
                                                                  "stream": stream_for(seed)})


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """`tf.random.stateless_poisson`: Poisson(lam) samples determined by `seed`; `shape` ends with lam's."""
    lam = convert_to_tensor(lam, dtype_hint=dtypes.float32)
    return apply(stateless_random_poisson_op, (shape_tensor(shape), _seed_tensor(seed), lam),
                 {"dtype": dtypes.as_dtype(dtype)})


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """`tf.random.stateless_binomial`: Binomial(counts, probs) samples determined by `seed`; `shape` ends with
    the broadcast shape of counts and probs (which share probs' dtype, float32 unless given)."""
    probs = convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)
    return apply(stateless_random_binomial_op, (shape_tensor(shape), _seed_tensor(seed), counts, probs),
                 {"dtype": dtypes.as_dtype(output_dtype)})


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0, maxvals=2.0,
                                            name=None):
    """`tf.random.stateless_parameterized_truncated_normal`: normal samples with the given means and stddevs,
    kept within [minvals, maxvals] (broadcast against the trailing dimensions of `shape`), determined by `seed`."""
    params = [convert_to_tensor(p) for p in (means, stddevs, minvals, maxvals)]
    return apply(stateless_parameterized_truncated_normal_op, (shape_tensor(shape), _seed_tensor(seed), *params), {})


_STATE_SIZES = {1: 3, 2: 2, 3: 3}  # Philox, ThreeFry, auto_select (Philox on CPU)
_ALGORITHM_NUMBERS = {"philox": 1, "threefry": 2, "auto_select": 3}


def create_rng_state(seed, alg):
    """`tf.random.create_rng_state`: the int64 state a tf.random.Generator of algorithm `alg` starts from for
    `seed`: a Python int cut into 64-bit words, low first; a sequence flattened and padded with zeros on the
    left (so a small seed lands in the key, not the counter)."""
    alg = getattr(alg, "value", alg)
    number = _ALGORITHM_NUMBERS.get(alg) if isinstance(alg, str) else alg
    if number not in _STATE_SIZES:
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are philox for the Philox "
                         "algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection.")
    size = _STATE_SIZES[number]
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed, words = int(seed), []
        for _ in range(size):
            words.append(seed & ((1 << 64) - 1))
            seed >>= 64
    else:
        words = [int(w) for w in np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed).reshape(-1)][:size]
        words = [0] * (size - len(words)) + words
    words = [w & ((1 << 64) - 1) for w in words]
    return convert_to_tensor(np.array([w - (1 << 64) if w >> 63 else w for w in words], np.int64))


def _categorical_dtype(dtype):
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are (tf.int32, tf.int64).")
    return dtype


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`tf.random.categorical`: `num_samples` class indices per row of the [batch, classes] `logits` (int64
    unless `dtype`); a class with logit -inf is never drawn."""
    dtype = _categorical_dtype(dtype)
    logits = convert_to_tensor(logits)
    return apply(multinomial_op, (logits, convert_to_tensor(num_samples, dtypes.int32)),
                 {"output_dtype": dtype, "stream": stream_for(seed)})


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """`tf.random.stateless_categorical`: class indices per row of `logits`, determined by `seed`."""
    dtype = _categorical_dtype(dtype)
    logits = convert_to_tensor(logits)
    return apply(stateless_multinomial_op, (logits, convert_to_tensor(num_samples, dtypes.int32),
                                            _seed_tensor(seed)), {"output_dtype": dtype})


__all__ = ["categorical", "create_rng_state", "gamma", "poisson", "stateless_binomial", "stateless_categorical",
           "stateless_gamma", "stateless_parameterized_truncated_normal", "stateless_poisson"]
