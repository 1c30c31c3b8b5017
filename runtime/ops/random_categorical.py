"""Categorical (multinomial) samples as TF's CPU kernels draw them (Multinomial, StatelessMultinomial), bit for
bit: per row of logits, the running sums of exp(logit - max) in float64 (non-finite logits add nothing), then
per sample a 52-bit uniform double (two Philox words) times the total, and the first class whose running sum
exceeds it (upper_bound). The run reserves 256 counters for each of batch * 2 * ceil4(num_samples) outputs and
its rows take the words in order from its start: TF's kernel gives a shard of rows one generator, so this is
TF's stream when the rows form one shard (small inputs; TF splits large ones over its threads)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from . import philox
from .stateless_random import _check_seed, generator_from_seed


def multinomial_samples(generator: philox.PhiloxGenerator, logits: np.ndarray, num_samples: int, dtype):
    logits = np.asarray(logits)
    batch, classes = logits.shape
    out = np.zeros((batch, num_samples), dtype)
    if batch * num_samples == 0:
        return out
    ceil4 = (num_samples + 3) // 4 * 4
    start = generator.reserve_outputs(batch * ceil4 * 2)
    words = philox.blocks(generator.key, start, -(-(batch * num_samples * 2) // 4)).reshape(-1)
    words = words[:batch * num_samples * 2].reshape(batch, num_samples, 2)
    uniforms = philox._double_from_bits(words[..., 0], words[..., 1])
    wide = logits.astype(np.float64)
    finite = np.isfinite(wide)
    for row in range(batch):
        values = wide[row]
        maximum = values[finite[row]].max() if finite[row].any() else float(np.finfo(logits.dtype).min)
        weights = np.where(finite[row], np.exp(values - maximum), 0.0)
        cdf = np.cumsum(weights)
        targets = uniforms[row] * cdf[-1]
        out[row] = np.searchsorted(cdf, targets, side="right")
    return out


def _check_logits(logits, num_samples, output_dtype, what):
    if output_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {output_dtype}. Accepted dtypes are "
                         f"(tf.int32, tf.int64).")
    if not logits.dtype.is_floating:
        raise TypeError(f"{what}: logits must be a float tensor, got {logits.dtype.name}")
    if logits._shape is not None and len(logits._shape) != 2:
        raise ValueError(f"logits should be a matrix, got shape {list(logits._shape)}")
    if num_samples.dtype is not dtypes.int32 or (num_samples._shape is not None and num_samples._shape != ()):
        raise ValueError("num_samples should be an int32 scalar")
    batch = None if logits._shape is None else logits._shape[0]
    value = getattr(num_samples, "_value", None)  # known for an eager or constant count
    return output_dtype, (batch, None if value is None else int(value))


def _run_checks(logits, num_samples):
    if logits.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {list(logits.shape)}")
    if num_samples < 0:
        raise ValueError(f"num_samples should be non-negative, got {num_samples}")
    if logits.shape[1] == 0:
        raise ValueError(f"num_classes should be positive, got {logits.shape[1]}")


def _infer_multinomial(logits, num_samples, *, output_dtype, stream):
    return _check_logits(logits, num_samples, output_dtype, "multinomial")


def _multinomial_kernel(logits, num_samples, *, output_dtype, stream):
    logits, num_samples = np.asarray(logits), int(num_samples)
    _run_checks(logits, num_samples)
    generator = stream.generator_for("multinomial", logits.dtype, output_dtype.np)
    return multinomial_samples(generator, logits, num_samples, output_dtype.np)


multinomial_op = register(OpDef(
    "multinomial", _multinomial_kernel, _infer_multinomial, stateful=True, differentiable=False,
    doc="class indices drawn from the categorical distributions of the rows of logits"))


def _infer_stateless_multinomial(logits, num_samples, seed, *, output_dtype):
    _check_seed(seed)
    return _check_logits(logits, num_samples, output_dtype, "stateless_multinomial")


def _stateless_multinomial_kernel(logits, num_samples, seed, *, output_dtype):
    logits, num_samples = np.asarray(logits), int(num_samples)
    _run_checks(logits, num_samples)
    return multinomial_samples(generator_from_seed(seed), logits, num_samples, output_dtype.np)


stateless_multinomial_op = register(OpDef(
    "stateless_multinomial", _stateless_multinomial_kernel, _infer_stateless_multinomial, differentiable=False,
    doc="class indices from the rows of logits, determined by a seed"))
