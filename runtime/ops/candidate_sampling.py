"""Candidate samplers (word2vec's negative sampling, sampled softmax): TF's UniformCandidateSampler,
LogUniformCandidateSampler and AllCandidateSampler kernels, with TF's numbers for the same seeds, and
ComputeAccidentalHits.

Each run reserves 2048 * num_sampled 32-bit samples of its op's Philox generator (as TF's kernel does) and draws
from a SimplePhilox word stream over them: a log-uniform class is exp(u * log(range + 1)) - 1 with u a double of
two words, a uniform class a 64-bit word pair modulo the range. With `unique`, draws that repeat are rejected,
and the expected counts become 1 - (1 - p)^tries, as TF approximates them."""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import philox
from .random import get_seed, stream_for

_SAMPLES32_PER_CANDIDATE = 2048


class _LogUniform:
    def __init__(self, range_max):
        self.range_max, self.log_range = range_max, math.log1p(range_max)

    def sample(self, words: philox.WordStream) -> int:
        return (int(math.exp(words.double() * self.log_range)) - 1) % self.range_max

    def probability(self, value: int) -> np.float32:
        return np.float32(math.log((value + 2.0) / (value + 1.0)) / self.log_range)


class _Uniform:
    def __init__(self, range_max):
        self.range_max = range_max

    def sample(self, words: philox.WordStream) -> int:
        return words.uint64() % self.range_max

    def probability(self, value: int) -> np.float32:
        return np.float32(1.0 / self.range_max)


def _libm_float_functions():
    """glibc's log1pf and expm1f, which TF's kernel calls: neither is always correctly rounded, so a float32 of
    the double result can differ from them in the last bit. Without a C library, (log1p, expm1) in double."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        functions = (libm.log1pf, libm.expm1f)
    except (OSError, AttributeError):
        return math.log1p, math.expm1
    for f in functions:
        f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
    return functions


_log1pf, _expm1f = _libm_float_functions()


def _expected_count(p: np.float32, batch_size: int, tries: int) -> np.float32:
    """TF's ExpectedCountHelper, in float32: p * batch without rejection, else 1 - (1 - p)^tries, each step
    rounded to float32 as C's log1pf and expm1f round it."""
    if tries == batch_size:
        return np.float32(p * np.float32(batch_size))
    log_miss = np.float32(_log1pf(-float(p)))
    return np.float32(-_expm1f(float(np.float32(np.float32(tries) * log_miss))))


def _check_true_classes(true_classes, num_true, range_max):
    classes = np.asarray(true_classes)
    if classes.ndim != 2:
        raise InvalidArgumentError("true_classes must be a matrix")
    if classes.shape[1] != num_true:
        raise InvalidArgumentError(f"true_classes must have num_true columns, expected: {classes.shape[1]} was: "
                                   f"{num_true}")
    bad = classes[(classes < 0) | (classes >= range_max)]
    if bad.size:
        raise InvalidArgumentError(f"`true_candidate` out of range [0, {range_max}), received {bad[0]}")
    return classes


def _sampler_kernel(sampler_class, kernel_name):
    def kernel(true_classes, *, num_true, num_sampled, unique, range_max, stream):
        classes = _check_true_classes(true_classes, num_true, range_max)
        if unique and num_sampled > range_max:
            raise InvalidArgumentError("Sampler's range is too small.")
        sampler = sampler_class(range_max)
        # TF caches one kernel (and generator) per distinct attribute set: the attributes name the generator
        kernel_key = f"{kernel_name}/{num_true}/{num_sampled}/{unique}/{range_max}"
        generator = stream.generator_for(kernel_key, np.int64)
        words = philox.WordStream(generator.key, generator.reserve(-(-_SAMPLES32_PER_CANDIDATE * num_sampled // 4)))
        picked, used, tries = [], set(), 0
        while len(picked) < num_sampled:
            tries += 1
            value = sampler.sample(words)
            if not unique or value not in used:
                used.add(value)
                picked.append(value)
        expected = [_expected_count(sampler.probability(v), num_sampled, tries) for v in picked]
        true_expected = [_expected_count(sampler.probability(int(v)), num_sampled, tries) for v in classes.ravel()]
        return (np.array(picked, np.int64), np.array(true_expected, np.float32).reshape(classes.shape),
                np.array(expected, np.float32))
    return kernel


def _all_kernel(true_classes, *, num_true, num_sampled, unique, range_max, stream):
    classes = _check_true_classes(true_classes, num_true, num_sampled)
    return (np.arange(num_sampled, dtype=np.int64), np.ones(classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


def _infer_sampler(true_classes, *, num_true, num_sampled, unique, range_max, stream):
    if true_classes.dtype is not dtypes.int64:
        raise TypeError(f"true_classes must be int64, got {true_classes.dtype.name}")
    shape = true_classes._shape
    if shape is not None and len(shape) != 2:
        raise ValueError(f"true_classes must be a matrix [batch_size, num_true], got shape {list(shape)}")
    batch = None if shape is None else shape[0]
    return [(dtypes.int64, (num_sampled,)), (dtypes.float32, (batch, num_true)), (dtypes.float32, (num_sampled,))]


def _sampler_op(name, kernel, doc):
    return register(OpDef(name, kernel, _infer_sampler, stateful=True, differentiable=False, doc=doc))


uniform_candidate_sampler_op = _sampler_op(
    "uniform_candidate_sampler", _sampler_kernel(_Uniform, "uniform_candidate_sampler"),
    "TF's UniformCandidateSampler: num_sampled classes drawn uniformly from [0, range_max)")
log_uniform_candidate_sampler_op = _sampler_op(
    "log_uniform_candidate_sampler", _sampler_kernel(_LogUniform, "log_uniform_candidate_sampler"),
    "TF's LogUniformCandidateSampler: classes drawn with P(c) = log((c + 2) / (c + 1)) / log(range_max + 1)")
all_candidate_sampler_op = _sampler_op("all_candidate_sampler", _all_kernel,
                                       "TF's AllCandidateSampler: every class 0..num_sampled - 1")


def _sample(op, true_classes, num_true, num_sampled, unique, range_max, seed, name):
    if num_sampled < 1 or num_true < 1:
        raise ValueError(f"num_sampled and num_true must be >= 1, got {num_sampled} and {num_true}")
    if range_max <= 0:
        raise InvalidArgumentError("range_max must be positive")
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max), "stream": stream_for(seed)}
    return apply(op, (convert_to_tensor(true_classes, dtypes.int64),), attrs, name=name)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """`tf.random.uniform_candidate_sampler`: (sampled_candidates, true_expected_count, sampled_expected_count)."""
    return _sample(uniform_candidate_sampler_op, true_classes, num_true, num_sampled, unique, range_max, seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """`tf.random.log_uniform_candidate_sampler`: classes drawn from the Zipfian distribution
    P(c) = log((c + 2) / (c + 1)) / log(range_max + 1), and their expected counts."""
    return _sample(log_uniform_candidate_sampler_op, true_classes, num_true, num_sampled, unique, range_max, seed,
                   name)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """`tf.random.all_candidate_sampler`: all classes 0..num_sampled - 1, each expected once."""
    return _sample(all_candidate_sampler_op, true_classes, num_true, num_sampled, unique, num_sampled, seed, name)


# --- accidental hits ---------------------------------------------------------------------------------------
def _accidental_hits_kernel(true_classes, sampled_candidates, *, num_true):
    classes = np.asarray(true_classes)
    position = {int(c): i for i, c in enumerate(np.asarray(sampled_candidates).tolist())}  # the last one wins
    rows, ids = [], []
    for i, row in enumerate(classes.tolist()):
        for c in row:
            if c in position:
                rows.append(i)
                ids.append(position[c])
    return (np.array(rows, np.int32), np.array(ids, np.int64),
            np.full(len(rows), -np.finfo(np.float32).max, np.float32))


def _infer_accidental_hits(true_classes, sampled_candidates, *, num_true):
    shape = true_classes._shape
    if shape is not None and (len(shape) != 2 or shape[1] not in (None, num_true)):
        raise ValueError("true_candidates must be a batch_size * num_true matrix")
    if sampled_candidates._shape is not None and len(sampled_candidates._shape) != 1:
        raise ValueError("sampled_candidates must be a vector, which is typically an output from CandidateSampler")
    return [(dtypes.int32, (None,)), (dtypes.int64, (None,)), (dtypes.float32, (None,))]


compute_accidental_hits_op = register(OpDef(
    "compute_accidental_hits", _accidental_hits_kernel, _infer_accidental_hits, differentiable=False,
    doc="TF's ComputeAccidentalHits: (row, sampled position, -FLT_MAX) where a true class was also sampled"))


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """`tf.nn.compute_accidental_hits`: (indices, ids, weights) of the sampled candidates that are true classes,
    the weights -FLT_MAX, to add to their logits."""
    get_seed(seed)  # unused by the kernel, but TF derives it: with a global seed it takes the next op seed
    return apply(compute_accidental_hits_op, (convert_to_tensor(true_classes, dtypes.int64),
                                              convert_to_tensor(sampled_candidates, dtypes.int64)),
                 {"num_true": int(num_true)}, name=name)
