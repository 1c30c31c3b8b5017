"""Poisson samples as TF's CPU kernels draw them (RandomPoissonV2, StatelessRandomPoisson), bit for bit, in
float64 whatever the output dtype: below rate 10 Knuth's product of uniforms (the count of uniforms whose
running product stays above exp(-rate)), from 10 on Hormann's transformed rejection ("The transformed
rejection method for generating Poisson random variables", 1993) with TF's constants. As for gamma
(random_gamma.py), output i (rates slowest) has its own generator at counter start + 256 i, uniforms come two
per Philox block, used last first, and sample s of rate r lands at s * num_rates + r."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from . import philox
from .random import infer_shape_input
from .random_gamma import _RESERVED, _Buffer, _log, _uniforms, _Words
from .stateless_random import _check_seed, generator_from_seed

_RATE_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_OUT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _highest(dtype) -> float:
    return float(np.finfo(dtype).max) if np.dtype(dtype).kind == "f" else float(np.iinfo(dtype).max)


def _knuth(rate: float, uniform, highest: float) -> float:
    exp_neg_rate = math.exp(-rate)
    product, count = 1.0, 0.0
    while True:
        product *= uniform()
        if product <= exp_neg_rate and count <= highest:
            return count
        count += 1


def _hormann(rate: float, uniform, highest: float) -> float:
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = uniform() - 0.5
        v = uniform()
        u_shifted = 0.5 - abs(u)
        k = math.floor((2 * a / u_shifted + b) * u + rate + 0.43)
        if k > highest:
            continue
        if u_shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (u_shifted < 0.013 and v > u_shifted):
            continue
        s = _log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -rate + k * log_rate - math.lgamma(k + 1)
        if s <= t:
            return k


def poisson_samples(generator: philox.PhiloxGenerator, start: int, rates: np.ndarray, samples_per_rate: int,
                    dtype) -> np.ndarray:
    flat_rates = np.asarray(rates, np.float64).reshape(-1)
    count = flat_rates.size * samples_per_rate
    out = np.zeros(count, np.float64)
    if count == 0:
        return out.astype(dtype)
    highest = _highest(dtype)
    offsets = np.arange(count, dtype=np.uint64) * np.uint64(_RESERVED)
    first = philox.blocks(generator.key, start, offsets)
    for output in range(count):
        rate_index, sample = divmod(output, samples_per_rate)
        rate = float(flat_rates[rate_index])
        uniform = _Buffer(_Words(generator.key, start + _RESERVED * output, (first[output],)), _uniforms)
        draw = _knuth if rate < 10 else _hormann
        out[sample * flat_rates.size + rate_index] = draw(rate, uniform, highest)
    return out.astype(dtype)


def _check_dtypes(rate, dtype, what):
    if rate.dtype not in _RATE_DTYPES:
        raise TypeError(f"{what}: lam must be float16, float32, float64, int32 or int64, got {rate.dtype.name}")
    if dtype not in _OUT_DTYPES:
        raise TypeError(f"{what}: dtype must be float16, float32, float64, int32 or int64, got {dtype.name}")


def _infer_poisson(shape, rate, *, dtype, stream):
    _check_dtypes(rate, dtype, "random_poisson")
    sample_shape = infer_shape_input(shape)
    if sample_shape is None or rate._shape is None:
        return dtype, None
    return dtype, tuple(sample_shape) + tuple(rate._shape)


def _poisson_kernel(shape, rate, *, dtype, stream):
    sample_shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    rate = np.asarray(rate)
    samples_per_rate = int(np.prod(sample_shape, dtype=np.int64))
    generator = stream.generator_for("random_poisson", rate.dtype, dtype.np)
    start = generator.reserve_outputs(samples_per_rate * rate.size)
    out = poisson_samples(generator, start, rate, samples_per_rate, dtype.np).reshape(sample_shape + rate.shape)
    return out[()] if out.ndim == 0 else out


random_poisson_op = register(OpDef(
    "random_poisson", _poisson_kernel, _infer_poisson, stateful=True, differentiable=False,
    doc="Poisson(lam) samples, `shape` of them for each rate (TF's RandomPoissonV2)"))


def _infer_stateless_poisson(shape, seed, rate, *, dtype):
    _check_dtypes(rate, dtype, "stateless_random_poisson")
    _check_seed(seed)
    out_shape = infer_shape_input(shape)
    return dtype, None if out_shape is None else tuple(out_shape)


def _stateless_poisson_kernel(shape, seed, rate, *, dtype):
    out_shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    rate = np.asarray(rate)
    if rate.ndim and out_shape[len(out_shape) - rate.ndim:] != rate.shape:
        raise ValueError(f"Shape passed in must end with broadcasted shape: shape {list(out_shape)}, lam shape "
                         f"{list(rate.shape)}")
    count = int(np.prod(out_shape, dtype=np.int64))
    if count == 0:
        return np.zeros(out_shape, dtype.np)
    generator = generator_from_seed(seed)
    out = poisson_samples(generator, generator.counter, rate, count // rate.size, dtype.np).reshape(out_shape)
    return out[()] if out.ndim == 0 else out


stateless_random_poisson_op = register(OpDef(
    "stateless_random_poisson", _stateless_poisson_kernel, _infer_stateless_poisson, differentiable=False,
    doc="Poisson(lam) samples determined by a seed (TF's StatelessRandomPoisson)"))
