"""Unigram candidate samplers: TF's FixedUnigramCandidateSampler (a fixed distribution from a vocabulary file or
a list of counts, raised to a distortion power, with reserved ids and sharding) and LearnedUnigramCandidateSampler
(a distribution learned from the true classes seen so far), with TF's numbers for the same seeds.

Both draw from the SimplePhilox word stream of candidate_sampling.py. The fixed sampler is TF's
DistributionSampler (Walker's alias method): a float32 from one word, then a bucket by ExactUniformInt over the
next words; the learned one is TF's WeightedPicker: an unbiased uniform integer below the total count, located in
the cumulative counts. The learned sampler's counts, like TF's kernel, persist between runs of the same kernel and
grow by one per true class after each run."""

from __future__ import annotations

import collections

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError, NotFoundError
from ..registry import OpDef, register
from . import philox
from .candidate_sampling import _SAMPLES32_PER_CANDIDATE, _check_true_classes, _expected_count, _infer_sampler
from .random import stream_for

_UINT32_MAX = 0xFFFFFFFF
_FIELDS = ["sampled_candidates", "true_expected_count", "sampled_expected_count"]
FixedUnigramCandidateSampler = collections.namedtuple("FixedUnigramCandidateSampler", _FIELDS)
LearnedUnigramCandidateSampler = collections.namedtuple("LearnedUnigramCandidateSampler", _FIELDS)


def exact_uniform_int(words: philox.WordStream, n: int) -> int:
    """TF's ExactUniformInt on 32-bit words: a mask for a power of two, else rejection of the low remainder."""
    if n & (n - 1) == 0:
        return words.word() & (n - 1)
    rem = _UINT32_MAX % n + 1
    value = words.word()
    while value < rem:
        value = words.word()
    return value % n


def _uint32_to_float(word: int) -> np.float32:
    return np.array([(word & 0x7FFFFF) | 0x3F800000], np.uint32).view(np.float32)[0] - np.float32(1)


class _AliasTable:
    """TF's DistributionSampler: Walker's alias table built in double, its probabilities kept as float32."""

    def __init__(self, weights: np.ndarray):
        n = len(weights)
        total = float(np.sum(weights.astype(np.float64)))
        scaled = [float(w) * n / total for w in weights]
        alt = [-1] * n
        low = [i for i, p in enumerate(scaled) if p < 1.0]
        high = [i for i, p in enumerate(scaled) if p >= 1.0]
        while high and low:
            small, large = low.pop(), high.pop()
            alt[small] = large
            scaled[large] -= 1.0 - scaled[small]
            (low if scaled[large] < 1.0 else high).append(large)
        for i in high + low:  # rounding leaves these near 1: they always pick themselves
            scaled[i], alt[i] = 1.0, i
        self.prob = np.array(scaled, np.float32).tolist()
        self.alt = alt

    def sample(self, words: philox.WordStream) -> int:
        r = _uint32_to_float(words.word())
        bucket = exact_uniform_int(words, len(self.alt))
        return bucket if r < self.prob[bucket] else self.alt[bucket]


class _FixedUnigram:
    """TF's FixedUnigramSampler: weights of the ids of this shard, reserved ids weighing 0."""

    def __init__(self, range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard, unigrams):
        weights = [0.0 for word_id in range(num_reserved_ids) if word_id % num_shards == shard]
        counts = _vocab_counts(vocab_file) if vocab_file else [float(u) for u in unigrams]
        total = np.float32(0)
        # TF numbers the counted ids from the weights kept so far (the reserved ids of this shard), not from
        # num_reserved_ids: with shards, which counts a shard keeps depends on that, so it is followed here
        for word_id, count in enumerate(counts, start=len(weights)):
            if word_id % num_shards == shard:
                w = np.float32(float(np.float32(count)) ** float(np.float32(distortion)))
                total = np.float32(total + w)
                weights.append(w)
        if range_max != len(weights):
            raise InvalidArgumentError(f"range is {range_max} must be equal to weights size  {len(weights)}")
        self.weights = np.array(weights, np.float32)
        self.total = total
        self.table = _AliasTable(self.weights)

    def sample(self, words: philox.WordStream) -> int:
        return self.table.sample(words)

    def probability(self, value: int) -> np.float32:
        if not 0 <= value < len(self.weights):
            return np.float32(0)
        return np.float32(self.weights[value] / self.total)


def _vocab_counts(path: str) -> list:
    """The last comma-separated field of each line of a vocabulary file, as TF's LoadFromFile reads it."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise NotFoundError(f"{path}; No such file or directory") from e
    counts = []
    for line in lines:
        try:
            counts.append(float(line.split(",")[-1]))
        except ValueError:
            raise InvalidArgumentError(f"Wrong vocabulary format at line: {line}") from None
    return counts


class _LearnedUnigram:
    """TF's UnigramSampler: every class starts with count 1; the counts of the true classes grow after each run."""

    def __init__(self, range_max):
        self.counts = np.ones(range_max, np.int64)
        self.cumulative = None

    def _cumulative(self):
        if self.cumulative is None:
            self.cumulative = np.cumsum(self.counts)
        return self.cumulative

    def sample(self, words: philox.WordStream) -> int:
        cumulative = self._cumulative()
        position = exact_uniform_int(words, int(cumulative[-1]))
        return int(np.searchsorted(cumulative, position, side="right"))

    def probability(self, value: int) -> np.float32:
        return np.float32(np.float32(self.counts[value]) / np.float32(self._cumulative()[-1]))

    def update(self, classes: np.ndarray) -> None:
        np.add.at(self.counts, classes.ravel(), 1)
        self.cumulative = None


def _run(sampler, words, classes, num_sampled, unique):
    """RangeSampler::SampleBatchGetExpectedCount: draws (rejecting repeats when unique), expected counts."""
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


def _words(stream, kernel_key, num_sampled):
    generator = stream.generator_for(kernel_key, np.int64)
    return philox.WordStream(generator.key, generator.reserve(-(-_SAMPLES32_PER_CANDIDATE * num_sampled // 4)))


def _fixed_kernel(true_classes, *, num_true, num_sampled, unique, range_max, stream, vocab_file, distortion,
                  num_reserved_ids, num_shards, shard, unigrams):
    # TF builds the distribution once per kernel (the attributes name the kernel and its generator), when it
    # makes the kernel: a bad vocabulary is reported before the inputs are looked at
    kernel_key = (f"fixed_unigram_candidate_sampler/{num_true}/{num_sampled}/{unique}/{range_max}/{vocab_file}/"
                  f"{distortion}/{num_reserved_ids}/{num_shards}/{shard}/{unigrams}")
    sampler = stream.kernel_state(kernel_key, lambda: _FixedUnigram(range_max, vocab_file, distortion,
                                                                    num_reserved_ids, num_shards, shard, unigrams))
    classes = _check_true_classes(true_classes, num_true, range_max)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError("Sampler's range is too small.")
    return _run(sampler, _words(stream, kernel_key, num_sampled), classes, num_sampled, unique)


def _learned_kernel(true_classes, *, num_true, num_sampled, unique, range_max, stream):
    classes = _check_true_classes(true_classes, num_true, range_max)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError("Sampler's range is too small.")
    kernel_key = f"learned_unigram_candidate_sampler/{num_true}/{num_sampled}/{unique}/{range_max}"
    sampler = stream.kernel_state(kernel_key, lambda: _LearnedUnigram(range_max))
    result = _run(sampler, _words(stream, kernel_key, num_sampled), classes, num_sampled, unique)
    sampler.update(classes)
    return result


def _infer_fixed(true_classes, **attrs):
    return _infer_sampler(true_classes, **{k: attrs[k] for k in ("num_true", "num_sampled", "unique",
                                                                 "range_max", "stream")})


fixed_unigram_candidate_sampler_op = register(OpDef(
    "fixed_unigram_candidate_sampler", _fixed_kernel, _infer_fixed, stateful=True, differentiable=False,
    doc="TF's FixedUnigramCandidateSampler: classes drawn in proportion to given counts ** distortion"))
learned_unigram_candidate_sampler_op = register(OpDef(
    "learned_unigram_candidate_sampler", _learned_kernel, _infer_sampler, stateful=True, differentiable=False,
    doc="TF's LearnedUnigramCandidateSampler: classes drawn in proportion to 1 + how often each was a true class"))


def _check_counts(num_true, num_sampled, range_max):
    if num_sampled < 1 or num_true < 1:
        raise ValueError(f"num_sampled and num_true must be >= 1, got {num_sampled} and {num_true}")
    if range_max <= 0:
        raise InvalidArgumentError("range_max must be positive")


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """`tf.random.fixed_unigram_candidate_sampler`: classes drawn with P(c) proportional to count(c) ** distortion
    (counts from `unigrams` or the last CSV field of each line of `vocab_file`, after `num_reserved_ids` ids of
    weight 0; with num_shards > 1, the ids i with i % num_shards == shard), and their expected counts."""
    _check_counts(num_true, num_sampled, range_max)
    unigrams = tuple(float(u) for u in unigrams)
    vocab_file = vocab_file.decode() if isinstance(vocab_file, bytes) else str(vocab_file)
    if vocab_file and unigrams:
        raise InvalidArgumentError("Must only provide one of vocab_file and unigrams.")
    if not vocab_file and not unigrams:
        raise InvalidArgumentError("Must provide either vocab_file or unigrams.")
    if not 0 <= shard < num_shards:
        raise InvalidArgumentError(f"shard must be in [0, num_shards), got shard {shard} of {num_shards}")
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max), "stream": stream_for(seed), "vocab_file": vocab_file,
             "distortion": float(distortion), "num_reserved_ids": int(num_reserved_ids),
             "num_shards": int(num_shards), "shard": int(shard), "unigrams": unigrams}
    return FixedUnigramCandidateSampler(*apply(fixed_unigram_candidate_sampler_op,
                                               (convert_to_tensor(true_classes, dtypes.int64),), attrs, name=name))


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """`tf.random.learned_unigram_candidate_sampler`: classes drawn with P(c) proportional to 1 + the number of
    times c was a true class in earlier runs of this op, and their expected counts."""
    _check_counts(num_true, num_sampled, range_max)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max), "stream": stream_for(seed)}
    return LearnedUnigramCandidateSampler(*apply(learned_unigram_candidate_sampler_op,
                                                 (convert_to_tensor(true_classes, dtypes.int64),), attrs, name=name))
