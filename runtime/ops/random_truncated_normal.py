"""Truncated normal samples with per-batch mean, stddev and bounds, as TF's CPU kernel draws them
(StatelessParameterizedTruncatedNormal, TruncatedNormalFunctorV2), in the parameters' dtype: with the bounds
moved to the standard normal's scale, a normal proposal when one bound is more than 1.3 standard deviations
out, a uniform proposal on [lower, upper] when the interval is narrower than the exponential sampler's cutoff,
else Robert's exponential proposal ("Simulation of truncated normal variables", 1995). Unlike gamma, the
outputs share one generator (output by output, pairs slowest) and take its values in order, a float32 block
giving four values and a float64 block two: TF gives each shard of outputs one generator, so this is TF's
stream when the output is one shard (small outputs; TF splits large ones over its threads)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from . import philox
from .random import infer_shape_input
from .stateless_random import _check_seed, generator_from_seed

_MAX_ITERATIONS = 1000
_FLOAT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


class _Stream:
    """One generator's values in order: uniform or normal groups (four float32 or two float64 per block)."""

    def __init__(self, generator, dtype):
        self.key, self.counter, self.used = generator.key, generator.counter, 0
        self.double, self.half = dtype == np.float64, dtype == np.float16
        self._blocks, self._first = None, 0

    def _block(self):
        index = self.used
        self.used += 1
        if self._blocks is None or index - self._first >= len(self._blocks):
            self._first, self._blocks = index, philox.blocks(self.key, self.counter + index, 64)
        return self._blocks[index - self._first]

    def uniforms(self):
        words = np.asarray(self._block(), np.uint32)
        if self.double:
            return philox._double_from_bits(words[0::2], words[1::2])
        return philox._half_from_bits(words) if self.half else philox._float_from_bits(words)

    def normals(self):
        words = np.asarray(self._block(), np.uint32)
        if self.double:
            sine, cosine = philox.box_muller_double(words[0:1], words[1:2], words[2:3], words[3:4])
            return np.array([sine[0], cosine[0]])
        sine, cosine = philox.box_muller_float(words[0::2], words[1::2])
        return np.array([sine[0], cosine[0], sine[1], cosine[1]], np.float16 if self.half else np.float32)


def _exp(t, x):
    """exp in the dtype t (float16 computes as float32, as Eigen's half does), correctly rounded from float64
    (the C library's expf agrees but for rare ties)."""
    try:
        return t(math.exp(float(x)))
    except OverflowError:  # beyond float64 (a bound of 10000 stddevs): inf, as the C library's exp gives
        return t(math.inf)


def _log(t, x):
    if t in (np.float32, np.float16):
        return t(philox._logf(np.array([x], np.float32))[0])
    return t(math.log(float(x))) if x > 0 else t(-math.inf)


def _samples(stream: _Stream, t, mean, stddev, minval, maxval, count: int, out: list) -> None:
    """`count` samples of one (mean, stddev, minval, maxval), appended to `out` (TF's arithmetic in dtype t)."""
    if not (stddev > 0 and minval < maxval and (math.isfinite(minval) or math.isfinite(maxval))):
        raise ValueError("Invalid parameters")
    if (math.isinf(minval) and minval < 0) or maxval < mean:
        minval, maxval, stddev = maxval, minval, -stddev
    norm_min = t((minval - mean) / stddev)
    norm_max = t((maxval - mean) / stddev)
    sqrt_factor = t(math.sqrt(float(t(norm_min * norm_min + t(4)))))
    cutoff = t(t(2) * _exp(t, t(t(0.5) + t(norm_min * t(norm_min - sqrt_factor)) / t(4))) / t(norm_min + sqrt_factor))
    diff = t(norm_max - norm_min)
    inside = t(1.3)
    iterations, done = 0, 0
    if (norm_min < -inside and norm_max >= 0) or (norm_max > inside and norm_min <= 0):
        while done < count:
            for value in stream.normals():
                if norm_min <= value <= norm_max:
                    out.append(t(t(value * stddev) + mean))
                    done += 1
                    if done >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1
                    if iterations > _MAX_ITERATIONS:
                        raise RuntimeError("TruncatedNormal randn rejection sampler failed to accept a sample.")
    elif diff < cutoff:
        plus = t(0) if norm_min < 0 else t(norm_min * norm_min)
        while done < count:
            z = [t(t(r * diff) + norm_min) for r in stream.uniforms()]
            g = [t(t(plus - t(v * v)) / t(2)) for v in z]
            u = stream.uniforms()
            for zi, gi, ui in zip(z, g, u):
                accept = ui <= _exp(t, gi)
                if accept or iterations + 1 >= _MAX_ITERATIONS:
                    if not accept:
                        raise RuntimeError("TruncatedNormal uniform rejection sampler failed to accept a sample.")
                    out.append(t(t(zi * stddev) + mean))
                    done += 1
                    if done >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1
    else:
        alpha = t(t(norm_min + t(math.sqrt(float(t(norm_min * norm_min + t(4)))))) / t(2))
        while done < count:
            values = stream.uniforms()
            for i in range(0, len(values), 2):
                z = t(t(-_log(t, values[i]) / alpha) + norm_min)
                x = t(alpha - z) if norm_min < alpha else t(norm_min - alpha)
                g = _exp(t, t(t(-x * x) / t(2)))
                accept = values[i + 1] <= g and z < norm_max
                if accept or iterations + 1 >= _MAX_ITERATIONS:
                    if not accept:
                        raise RuntimeError("TruncatedNormal exponential distribution rejection sampler failed to "
                                           "accept a sample.")
                    out.append(t(t(z * stddev) + mean))
                    done += 1
                    if done >= count:
                        break
                    iterations = 0
                else:
                    iterations += 1


def _infer(shape, seed, means, stddevs, minvals, maxvals):
    _check_seed(seed)
    dtype = means.dtype
    if dtype not in _FLOAT_DTYPES or any(p.dtype is not dtype for p in (stddevs, minvals, maxvals)):
        raise TypeError("stateless_parameterized_truncated_normal: means, stddevs, minvals and maxvals must share "
                        f"one float dtype, got {[p.dtype.name for p in (means, stddevs, minvals, maxvals)]}")
    out_shape = infer_shape_input(shape)
    return dtype, None if out_shape is None else tuple(out_shape)


def _kernel(shape, seed, means, stddevs, minvals, maxvals):
    out_shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    params = [np.asarray(p) for p in (means, stddevs, minvals, maxvals)]
    try:
        batch_shape = np.broadcast_shapes(*(p.shape for p in params))
    except ValueError:
        raise ValueError("means, stddevs, minvals and maxvals must have compatible batch dimensions: "
                         f"{[list(p.shape) for p in params]}") from None
    if len(batch_shape) > len(out_shape) or (batch_shape and out_shape[len(out_shape) - len(batch_shape):] !=
                                             tuple(batch_shape)):
        raise ValueError("Shape passed in must end with broadcasted shape.")
    t = params[0].dtype.type  # TF's arithmetic runs in the parameters' dtype
    count = int(np.prod(out_shape, dtype=np.int64))
    if count == 0:
        return np.zeros(out_shape, t)
    batches = int(np.prod(batch_shape, dtype=np.int64))
    per_batch = count // batches
    flat = [np.broadcast_to(p, batch_shape).reshape(-1) for p in params]
    stream = _Stream(generator_from_seed(seed), np.dtype(t))
    out = np.empty(count, t)
    for batch in range(batches):
        drawn: list = []
        _samples(stream, t, *(p[batch] for p in flat), per_batch, drawn)
        out[np.arange(per_batch) * batches + batch] = drawn
    out = out.reshape(out_shape)
    return out[()] if out.ndim == 0 else out


stateless_parameterized_truncated_normal_op = register(OpDef(
    "stateless_parameterized_truncated_normal", _kernel, _infer, differentiable=False,
    doc="normal samples truncated to [minval, maxval] per batch, determined by a seed "
        "(TF's StatelessParameterizedTruncatedNormal)"))
