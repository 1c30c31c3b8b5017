"""Gamma samples as TF's CPU kernels draw them (RandomGamma, StatelessRandomGammaV3), bit for bit, and the
derivative of a sample with respect to its alpha (RandomGammaGrad), TF's implicit reparameterization.

The sampler is Marsaglia and Tsang's transformation-rejection ("A simple method for generating gamma
variables", 2000) in float64: d = alpha - 1/3, c = 1 / (3 sqrt(d)), draw a normal x until v = (1 + c x)^3 is
positive, accept d v when a uniform u passes the squeeze u < 1 - 0.0331 x^4 or log u < x^2 / 2 + d (1 - v +
log v); alpha < 1 samples alpha + 1 and multiplies by uniform^(1/alpha); alpha == 1 is -log1p(-u). TF's word
use, which this file follows: output i (numbered alpha by alpha, samples_per_alpha each) has its own generator
at counter start + 256 i; normals come two per Philox block (Box-Muller in float64) and uniforms two per block
(52-bit doubles), both from that one generator in the order they are needed, and each pair is used last value
first. Output i of alpha a and sample s lands at s * num_alphas + a (samples vary slowest)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..registry import OpDef, gradient, register
from . import philox
from .common import require
from .math import multiply
from .random import infer_shape_input
from .reduce import reduce_sum
from .stateless_random import _check_seed, generator_from_seed

_RESERVED = 256  # counters per output (TF's kReservedSamplesPerOutput)
_GAMMA_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


class _Words:
    """One output's generator: Philox blocks from its counter on, fetched as the sampler asks for them; the
    first two (nearly every sample needs only a normal block and a uniform block) are precomputed for all
    outputs at once."""

    __slots__ = ("key", "counter", "first", "used")

    def __init__(self, key, counter, first):
        self.key, self.counter, self.first, self.used = key, counter, first, 0

    def block(self):
        index = self.used
        self.used += 1
        if index < len(self.first):
            return self.first[index]
        return philox.blocks(self.key, self.counter + index, 1)[0]


def _normals(block):
    """NormalDistribution<double>: Box-Muller on (x0, x1) and (x2, x3) gives (sine, cosine) * radius."""
    words = np.asarray(block, np.uint32)
    sine, cosine = philox.box_muller_double(words[0:1], words[1:2], words[2:3], words[3:4])
    return [float(sine[0]), float(cosine[0])]


def _uniforms(block):
    """UniformDistribution<double>: doubles in [0, 1) from (x0, x1) and (x2, x3)."""
    words = np.asarray(block, np.uint32)
    return philox._double_from_bits(words[0::2], words[1::2]).tolist()


class _Buffer:
    """TF's sample buffers (the UNIFORM macro, RandomSampleBuffer): a distribution's values, last first."""

    __slots__ = ("words", "make", "values")

    def __init__(self, words, make):
        self.words, self.make, self.values = words, make, []

    def __call__(self):
        if not self.values:
            self.values = self.make(self.words.block())
        return self.values.pop()


def _log(x: float) -> float:
    """C's log: -inf at 0 (a uniform can be exactly 0), where Python's raises."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _one_sample(alpha: float, words: _Words) -> float:
    uniform = _Buffer(words, _uniforms)
    if alpha == 1.0:
        return -math.log1p(-uniform())
    normal = _Buffer(words, _normals)
    less_than_one = alpha < 1
    d = alpha + (2.0 / 3 if less_than_one else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or _log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            result = d * v
            if less_than_one:
                result *= math.pow(uniform(), 1 / alpha)
            return result


def gamma_samples(generator: philox.PhiloxGenerator, start: int, alphas: np.ndarray, samples_per_alpha: int,
                  dtype) -> np.ndarray:
    """The flat output (samples_per_alpha * alphas.size values, samples slowest) for a generator whose run
    starts at counter `start`."""
    flat_alphas = np.asarray(alphas, np.float64).reshape(-1)
    count = flat_alphas.size * samples_per_alpha
    out = np.empty(count, np.float64)
    if count == 0:
        return out.astype(dtype)
    offsets = np.arange(count, dtype=np.uint64) * np.uint64(_RESERVED)
    first = [philox.blocks(generator.key, start, offsets + np.uint64(k)) for k in (0, 1)]
    for output in range(count):
        alpha_index, sample = divmod(output, samples_per_alpha)
        alpha = float(flat_alphas[alpha_index])
        words = _Words(generator.key, start + _RESERVED * output, (first[0][output], first[1][output]))
        out[sample * flat_alphas.size + alpha_index] = _one_sample(alpha, words) if alpha > 0 else (
            0.0 if alpha == 0 else math.nan)  # TF: alpha 0 gives the floor below, a negative (or NaN) alpha NaN
    # TF's wrappers floor every sample at the dtype's smallest normal number (a sample that underflowed is
    # `tiny`, never 0, so its log stays finite)
    return np.maximum(out.astype(dtype), np.finfo(dtype).tiny)


def _shape_of(shape) -> tuple:
    return tuple(int(d) for d in np.asarray(shape).reshape(-1))


# --- RandomGamma (stateful): output shape = shape + alpha.shape ----------------------------------------------
def _infer_gamma(shape, alpha, *, stream):
    require(alpha.dtype, "float", "random_gamma")
    if alpha.dtype not in _GAMMA_DTYPES:
        raise TypeError(f"random_gamma: alpha must be float16, float32 or float64, got {alpha.dtype.name}")
    sample_shape = infer_shape_input(shape)
    if sample_shape is None or alpha._shape is None:
        return alpha.dtype, None
    return alpha.dtype, tuple(sample_shape) + tuple(alpha._shape)


def _gamma_kernel(shape, alpha, *, stream):
    sample_shape = _shape_of(shape)
    alpha = np.asarray(alpha)
    if alpha.size == 0:
        raise ValueError(f"Input alpha should have non-zero element count, got: {alpha.size}")
    samples_per_alpha = int(np.prod(sample_shape, dtype=np.int64))
    generator = stream.generator_for("random_gamma", alpha.dtype, shape.dtype)
    start = generator.reserve_outputs(samples_per_alpha * alpha.size)
    values = gamma_samples(generator, start, alpha, samples_per_alpha, alpha.dtype)
    out = values.reshape(sample_shape + alpha.shape)
    return out[()] if out.ndim == 0 else out


random_gamma_op = register(OpDef(
    "random_gamma", _gamma_kernel, _infer_gamma, stateful=True,
    doc="gamma(alpha, 1) samples, `shape` of them for each alpha (TF's RandomGamma)"))


# --- StatelessRandomGamma: output shape = shape, which ends with alpha's shape -------------------------------
def _infer_stateless_gamma(shape, seed, alpha):
    require(alpha.dtype, "float", "stateless_random_gamma")
    if alpha.dtype not in _GAMMA_DTYPES:
        raise TypeError(f"stateless_random_gamma: alpha must be float16, float32 or float64, got "
                        f"{alpha.dtype.name}")
    _check_seed(seed)
    out_shape = infer_shape_input(shape)
    if out_shape is not None and alpha._shape is not None and None not in out_shape and None not in alpha._shape:
        rank = len(alpha._shape)
        if rank > len(out_shape) or (rank and tuple(out_shape[-rank:]) != tuple(alpha._shape)):
            raise ValueError(f"Shape passed in must end with broadcasted shape: shape {list(out_shape)}, alpha "
                             f"shape {list(alpha._shape)}")
    return alpha.dtype, None if out_shape is None else tuple(out_shape)


def _stateless_gamma_kernel(shape, seed, alpha):
    out_shape = _shape_of(shape)
    alpha = np.asarray(alpha)
    if alpha.ndim and out_shape[len(out_shape) - alpha.ndim:] != alpha.shape:
        raise ValueError(f"Shape passed in must end with broadcasted shape: shape {list(out_shape)}, alpha shape "
                         f"{list(alpha.shape)}")
    count = int(np.prod(out_shape, dtype=np.int64))
    if count == 0:
        return np.zeros(out_shape, alpha.dtype)
    generator = generator_from_seed(seed)
    values = gamma_samples(generator, generator.counter, alpha, count // alpha.size, alpha.dtype)
    out = values.reshape(out_shape)
    return out[()] if out.ndim == 0 else out


stateless_random_gamma_op = register(OpDef(
    "stateless_random_gamma", _stateless_gamma_kernel, _infer_stateless_gamma,
    doc="gamma(alpha, 1) samples determined by a seed (TF's StatelessRandomGammaV3)"))


# --- RandomGammaGrad: d sample / d alpha -----------------------------------------------------------------------
def _lower_regularized_gamma(a: float, x: float) -> float:
    """P(a, x), the regularized lower incomplete gamma function: its series below a + 1, else one minus the
    continued fraction of Q (Numerical Recipes' gser/gcf), in float64."""
    if x <= 0:
        return 0.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        return total * math.exp(log_prefix)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-17:
            break
    return 1 - math.exp(log_prefix) * h


def _sample_derivative(a: float, x: float) -> float:
    """d x / d a for x ~ Gamma(a, 1) at fixed CDF value: -(dP/da) / (dP/dx), dP/da by a central difference of
    P in float64 (step 1e-5 a: error far below float32's precision)."""
    if not (a > 0 and x > 0) or math.isinf(x):
        return 0.0 if x == 0 else math.nan
    step = 1e-5 * a
    dp_da = (_lower_regularized_gamma(a + step, x) - _lower_regularized_gamma(a - step, x)) / (2 * step)
    log_density = (a - 1) * math.log(x) - x - math.lgamma(a)
    return -dp_da / math.exp(log_density)


def _gamma_grad_kernel(alpha, sample):
    alpha, sample = np.broadcast_arrays(np.asarray(alpha), np.asarray(sample))
    out = np.array([_sample_derivative(float(a), float(x)) for a, x in zip(alpha.ravel(), sample.ravel())],
                   np.float64)
    out = out.reshape(alpha.shape).astype(np.result_type(alpha.dtype, sample.dtype))
    return out[()] if out.ndim == 0 else out


def _infer_gamma_grad(alpha, sample):
    from .common import binary_infer

    return binary_infer("float")(alpha, sample)


random_gamma_grad_op = register(OpDef(
    "random_gamma_grad", _gamma_grad_kernel, _infer_gamma_grad, differentiable=False,
    doc="d sample / d alpha of gamma samples (TF's RandomGammaGrad)"))


def _alpha_gradient(g, alpha, sample):
    """TF's rule: the upstream gradient times d sample / d alpha, summed over the sample dimensions (those
    in front of alpha's)."""
    if sample._shape is None or alpha._shape is None:
        raise ValueError("the gradient of a gamma sample needs static ranks of alpha and of the sample")
    leading = len(sample._shape) - len(alpha._shape)
    from ..dispatch import apply

    partial = apply(random_gamma_grad_op, (alpha, sample), {})
    product = multiply(g, partial)
    return reduce_sum(product, axis=list(range(leading))) if leading else product


@gradient(random_gamma_op)
def _random_gamma_grad(record, g):
    return None, _alpha_gradient(g, record.inputs[1], record.outputs[0])


@gradient(stateless_random_gamma_op)
def _stateless_random_gamma_grad(record, g):
    return None, None, _alpha_gradient(g, record.inputs[2], record.outputs[0])
