"""Binomial samples as TF's CPU kernel draws them (StatelessRandomBinomial), bit for bit, in float64: for
count * p below 10 binomial inversion (count geometric variables ceil(log u / log1p(-p)) until their sum
exceeds count), else Hormann's BTRS transformed rejection ("The generation of binomial random variates",
1993) with TF's constants and Stirling tail table; p above 0.5 samples count - Binomial(count, 1 - p). The
branch tests (count * p >= 10, p <= 0.5, 1 - p) run in the parameters' own dtype, as TF's do. Output i (the
broadcast (count, p) pairs slowest) has its generator at counter start + 42 i for inversion, start + 256 i for
BTRS; uniforms come two per Philox block, used last first; sample s of pair j lands at s * pairs + j."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from . import philox
from .random import infer_shape_input
from .random_gamma import _Buffer, _log, _uniforms, _Words
from .stateless_random import _check_seed, generator_from_seed

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)
_PARAM_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_OUT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _inversion(count: float, prob: float, uniform) -> float:
    geom_sum, num_geom = 0.0, 0
    log_q = math.log1p(-prob)
    while True:
        geom = math.ceil(_log(uniform()) / log_q)
        geom_sum += geom
        if geom_sum > count:
            return float(num_geom)
        num_geom += 1


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, prob: float, uniform) -> float:
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = uniform()
        v = uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        upperbound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                      + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                      + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                      + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upperbound:
            return float(k)


def binomial_samples(generator: philox.PhiloxGenerator, counts: np.ndarray, probs: np.ndarray,
                     samples_per_pair: int, dtype) -> np.ndarray:
    """Flat samples for the broadcast (counts, probs) pairs (same dtype, already broadcast and flat)."""
    pairs = counts.size
    out = np.zeros(pairs * samples_per_pair, np.float64)
    start = generator.counter
    param = counts.dtype.type
    for output in range(pairs * samples_per_pair):
        pair, sample = divmod(output, samples_per_pair)
        count, prob = counts[pair], probs[pair]
        dcount = float(count)
        slot = sample * pairs + pair
        if dcount <= 0.0 or prob <= 0:
            out[slot] = 0.0
            continue
        if prob >= 1:
            out[slot] = dcount
            continue
        if prob != prob:
            out[slot] = math.nan
            continue
        flip = not prob <= param(0.5)
        p = param(1) - prob if flip else prob
        btrs = count * p >= param(10)
        skip = 256 if btrs else 42
        words = _Words(generator.key, start + skip * output, ())
        drawn = (_btrs if btrs else _inversion)(dcount, float(p), _Buffer(words, _uniforms))
        out[slot] = dcount - drawn if flip else drawn
    return out.astype(dtype)


def _infer_binomial(shape, seed, counts, probs, *, dtype):
    _check_seed(seed)
    if counts.dtype is not probs.dtype or counts.dtype not in _PARAM_DTYPES:
        raise TypeError(f"stateless_random_binomial: counts and probs must have one float dtype, got "
                        f"{counts.dtype.name} and {probs.dtype.name}")
    if dtype not in _OUT_DTYPES:
        raise TypeError(f"stateless_random_binomial: output_dtype must be float16, float32, float64, int32 or "
                        f"int64, got {dtype.name}")
    out_shape = infer_shape_input(shape)
    return dtype, None if out_shape is None else tuple(out_shape)


def _binomial_kernel(shape, seed, counts, probs, *, dtype):
    out_shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    counts, probs = np.asarray(counts), np.asarray(probs)
    try:
        pair_shape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise ValueError(f"counts and probs must have compatible batch dimensions: {list(counts.shape)} vs. "
                         f"{list(probs.shape)}") from None
    if len(pair_shape) > len(out_shape) or (pair_shape and out_shape[len(out_shape) - len(pair_shape):] !=
                                            tuple(pair_shape)):
        raise ValueError("Shape passed in must end with broadcasted shape.")
    count = int(np.prod(out_shape, dtype=np.int64))
    if count == 0:
        return np.zeros(out_shape, dtype.np)
    pairs = int(np.prod(pair_shape, dtype=np.int64))
    flat_counts = np.broadcast_to(counts, pair_shape).reshape(-1)
    flat_probs = np.broadcast_to(probs, pair_shape).reshape(-1)
    out = binomial_samples(generator_from_seed(seed), flat_counts, flat_probs, count // pairs, dtype.np)
    out = out.reshape(out_shape)
    return out[()] if out.ndim == 0 else out


stateless_random_binomial_op = register(OpDef(
    "stateless_random_binomial", _binomial_kernel, _infer_binomial, differentiable=False,
    doc="Binomial(counts, probs) samples determined by a seed (TF's StatelessRandomBinomial)"))
