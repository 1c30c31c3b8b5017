"""TensorFlow's stateful random numbers in numpy: the Philox4x32-10 generator and the samplers of TF's CPU
kernels (RandomUniform, RandomUniformInt, RandomStandardNormal, TruncatedNormal, RandomShuffle), bit for bit.

Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") maps a 128-bit counter and a
64-bit key to four 32-bit words in ten rounds; consecutive counters give independent blocks, so a whole
tensor is one vectorised evaluation over a range of counters. TF seeds it as PhiloxRandom(seed, seed2): the
key is the op's `seed` attribute, the upper half of the counter its `seed2`. A kernel keeps one generator
and every run reserves 256 counters per output element (room for rejection sampling), so the next run
starts there. Output element groups map to counters as TF's FillPhiloxRandom does.

Normal samples use Box-Muller in float32 through the C library's logf and sincosf (glibc's, on Linux). Their
results are not always correctly rounded, so float64 arithmetic rounded to float32 disagrees in about one
value in a hundred; `_logf` and `_sincosf` evaluate glibc's own algorithms (its tables, polynomials and range
reduction, the published constants of sysdeps/ieee754/flt-32) in float64 numpy, which reproduces every one of
the 2**23 possible inputs exactly. float64 samples call the C library's log, sin and cos through the math
module, which are the same functions TF's BoxMullerDouble calls.
"""

from __future__ import annotations

import math
import secrets
import threading

import numpy as np

from .thread_buffers import workspace

_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # key increments per round (golden ratio, sqrt(3) - 1)
_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_FEW = 8  # up to this many blocks, Python ints beat numpy's per-call overhead
_CHUNK = 1 << 15  # counters per vectorised pass: the working set (1.5 MB) stays in a 2 MiB L2 (2x faster at 1M)
RESERVED_PER_OUTPUT = 256  # counters a kernel run reserves per output element (TF's multiplier)


# --- the generator ----------------------------------------------------------------------------------------
_MULTIPLIERS = np.array([[0xD2511F53], [0xCD9E8D57]], np.uint64)  # round multipliers of words 0 and 2
_local = threading.local()  # each thread's round buffers (thread_buffers.workspace), kept across calls


def _round_keys(key) -> list:
    """The ten rounds' (2, 1) key columns: the key, bumped by the golden ratio and sqrt(3) - 1 each round."""
    k0, k1 = key
    keys = []
    for _ in range(10):
        keys.append(np.array([[k0], [k1]], np.uint32))
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    return keys


def _rounds(a, b, keys, products=None):
    """The ten Philox rounds on words held in pairs: `a` is (2, n) uint32 words (0, 2) of n counters, `b` words
    (1, 3). Both multiplications of a round are one ufunc call on `a` (products in uint64, read back as
    (low, high) uint32 halves through a view, so no masking or shifting), and both xors one more: three
    passes a round instead of six. Returns the final (a, b); `b` is a strided view.

    `products`, two (2, n) uint64 buffers, takes the products (a round's `b` lives in the previous round's, so
    they alternate) and `a` is then overwritten round by round: no array is allocated. Fresh arrays of these
    sizes are mapped and faulted in by the allocator on every call (a Keras Dropout layer's 64x2704 mask drew
    455 minor page faults a training step, 4.2 of its 17.9 ms of CPU)."""
    for r, round_key in enumerate(keys):
        if products is None:
            halves = np.multiply(a, _MULTIPLIERS).view(np.uint32)  # (2, 2n): low, high, low, high, ...
            a = np.bitwise_xor(halves[::-1, 1::2], b)  # word 0 <- high(c2 * M1) ^ c1, word 2 <- high(c0 * M0) ^ c3
        else:  # `a` is read by the multiplication before the xor overwrites it
            halves = np.multiply(a, _MULTIPLIERS, out=products[r & 1]).view(np.uint32)
            np.bitwise_xor(halves[::-1, 1::2], b, out=a)
        a ^= round_key
        b = halves[::-1, 0::2]  # word 1 <- low(c2 * M1), word 3 <- low(c0 * M0)
    return a, b


def _blocks_python(key, counters) -> np.ndarray:
    """The same rounds on Python ints, for a few blocks: ten numpy passes cost more than this below ~8."""
    out = []
    for counter in counters:
        c0, c1, c2, c3 = (counter >> 32 * i & _MASK32 for i in range(4))
        k0, k1 = key
        for _ in range(10):
            p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
            c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & _MASK32
            k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
        out.append((c0, c1, c2, c3))
    return np.array(out, dtype=np.uint32).reshape(-1, 4)


def blocks(key, start: int, offsets) -> np.ndarray:
    """Philox outputs for the counters start + offsets (128-bit arithmetic): an (n, 4) uint32 array.
    `offsets` is a count n (the counters start, start + 1, ..., start + n - 1) or a uint64 array."""
    contiguous = isinstance(offsets, (int, np.integer))
    count = int(offsets) if contiguous else len(offsets)
    if count <= _FEW:
        steps = range(count) if contiguous else offsets.tolist()
        return _blocks_python(key, [(start + step) & _MASK128 for step in steps])
    out = np.empty((count, 4), np.uint32)
    start_low, start_high = start & _MASK64, (start >> 64) & _MASK64
    keys = _round_keys(key)
    for begin in range(0, count, _CHUNK):
        size = min(_CHUNK, count - begin)
        a, b = workspace(_local, "a", (2, size), np.uint32), workspace(_local, "b", (2, size), np.uint32)
        products = (workspace(_local, "products0", (2, size), np.uint64),
                    workspace(_local, "products1", (2, size), np.uint64))
        if contiguous and start_low + begin + size <= _MASK64:  # no carry into the upper half
            low = np.arange(start_low + begin, start_low + begin + size, dtype=np.uint64).view(np.uint32)
            a[1], b[1] = start_high & _MASK32, start_high >> 32
        else:
            part = np.arange(begin, begin + size, dtype=np.uint64) if contiguous else offsets[begin:begin + size]
            low = part + np.uint64(start_low)  # wraps modulo 2**64; a wrap carries into the upper half
            high = ((low < part).astype(np.uint64) + np.uint64(start_high)).view(np.uint32)
            low = low.view(np.uint32)
            a[1], b[1] = high[0::2], high[1::2]
        a[0], b[0] = low[0::2], low[1::2]
        a, b = _rounds(a, b, keys, products)
        chunk = out[begin:begin + size]  # one column at a time: a transposing copy of (2, n) is 4x slower
        chunk[:, 0], chunk[:, 1], chunk[:, 2], chunk[:, 3] = a[0], b[0], a[1], b[1]
    return out


class PhiloxGenerator:
    """One kernel's generator (TF's GuardedPhiloxRandom): a key and a 128-bit counter that each run
    advances by the counters it reserved."""

    __slots__ = ("key", "counter")

    def __init__(self, seed: int, seed2: int):
        if seed == 0 and seed2 == 0:  # TF: both zero means "not seeded", so random seeds
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        self.key = (seed & _MASK32, (seed >> 32) & _MASK32)
        self.counter = (seed2 & _MASK64) << 64

    @classmethod
    def from_key_counter(cls, key: int, counter: int) -> PhiloxGenerator:
        """A generator at an explicit 64-bit key and 128-bit counter (tf.random.Generator's state)."""
        generator = cls.__new__(cls)
        generator.key = (key & _MASK32, (key >> 32) & _MASK32)
        generator.counter = counter & _MASK128
        return generator

    def reserve(self, counters: int) -> int:
        """The counter a run starts from; the generator moves past the `counters` it hands out."""
        start = self.counter
        self.counter = (start + counters) & _MASK128
        return start

    def reserve_outputs(self, count: int) -> int:
        return self.reserve(count * RESERVED_PER_OUTPUT)


class WordStream:
    """TF's SimplePhilox: the 32-bit words of the blocks at counter, counter + 1, ... in order, four a block,
    as a sequential kernel reads them (candidate samplers, multinomial, tf.data's RandomDataset)."""

    __slots__ = ("_key", "_counter", "_words")

    def __init__(self, key, counter: int):
        self._key, self._counter, self._words = key, counter, []

    def word(self) -> int:
        if not self._words:
            self._words = blocks(self._key, self._counter, 64).reshape(-1).tolist()[::-1]
            self._counter = (self._counter + 64) & _MASK128
        return self._words.pop()

    def double(self) -> float:
        """Uint64ToDouble: 20 mantissa bits from the first word, 32 from the second, in [0, 1)."""
        high, low = self.word(), self.word()
        return float.fromhex("1." + format(((high & 0xFFFFF) << 32) | low, "013x")) - 1.0

    def uint64(self) -> int:
        low, high = self.word(), self.word()
        return low | high << 32


# --- bits to numbers (TF's Uint32ToFloat, Uint64ToDouble, Uint16ToHalf) -----------------------------------
def _float_from_bits(words, in_place=False):
    """[0, 1) from 23 random mantissa bits: the float in [1, 2) with that mantissa, minus 1. `in_place` reuses
    the caller's words (a third fewer passes over memory)."""
    words = words if in_place else words.copy()
    words &= np.uint32(0x7FFFFF)
    words |= np.uint32(0x3F800000)
    values = words.view(np.float32)
    values -= np.float32(1)
    return values


def _double_from_bits(high, low):
    """[0, 1) from 52 mantissa bits: 20 from `high`, 32 from `low`."""
    bits = ((high.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | low.astype(np.uint64)
    return (bits | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def _half_from_bits(words):
    """[0, 1) from the 10 low bits, as a float16 in [1, 2) minus 1."""
    return ((words.astype(np.uint16) & np.uint16(0x3FF)) | np.uint16(0x3C00)).view(np.float16) - np.float16(1)


# --- glibc's logf and sincosf, evaluated in float64 ---------------------------------------------------------
_LOG_INVC, _LOG_LOGC = (np.array([float.fromhex(v) for v in column.split()]) for column in (
    "0x1.661ec79f8f3bep+0 0x1.571ed4aaf883dp+0 0x1.49539f0f010bp+0 0x1.3c995b0b80385p+0 "
    "0x1.30d190c8864a5p+0 0x1.25e227b0b8eap+0 0x1.1bb4a4a1a343fp+0 0x1.12358f08ae5bap+0 "
    "0x1.0953f419900a7p+0 0x1p+0 0x1.e608cfd9a47acp-1 0x1.ca4b31f026aap-1 0x1.b2036576afce6p-1 "
    "0x1.9c2d163a1aa2dp-1 0x1.886e6037841edp-1 0x1.767dcf5534862p-1",
    "-0x1.57bf7808caadep-2 -0x1.2bef0a7c06ddbp-2 -0x1.01eae7f513a67p-2 -0x1.b31d8a68224e9p-3 "
    "-0x1.6574f0ac07758p-3 -0x1.1aa2bc79c81p-3 -0x1.a4e76ce8c0e5ep-4 -0x1.1973c5a611cccp-4 "
    "-0x1.252f438e10c1ep-5 0x0p+0 0x1.aa5aa5df25984p-5 0x1.c5e53aa362eb4p-4 0x1.526e57720db08p-3 "
    "0x1.bc2860d22477p-3 0x1.1058bc8a07ee1p-2 0x1.4043057b6ee09p-2"))
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOG_A0, _LOG_A1, _LOG_A2 = (float.fromhex(v) for v in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2",
                                                        "-0x1.ffffef20a4123p-2"))


def _logf(x):
    """glibc's logf for normal positive float32 x: x = 2**k * z with z near one of 16 centres c, and
    log(x) = k*ln2 + log(c) + log1p(z/c - 1), the last by a degree-4 polynomial."""
    ix = x.view(np.uint32).astype(np.int64)
    tmp = ix - 0x3F330000
    index = (tmp >> 19) & 15
    k = tmp >> 23  # arithmetic shift: the exponent relative to the table's range
    z = (ix - (tmp & (0x1FF << 23))).astype(np.uint32).view(np.float32).astype(np.float64)
    r = z * _LOG_INVC[index] - 1
    y0 = _LOG_LOGC[index] + k * _LN2
    r2 = r * r
    y = _LOG_A1 * r + _LOG_A2
    y = _LOG_A0 * r2 + y
    y = y * r2 + (y0 + r)
    result = y.astype(np.float32)
    result[ix == 0x3F800000] = 0  # log(1) is exactly 0
    return result


_HALF_PI_INV_2_24 = float.fromhex("0x1.45F306DC9C883p+23")  # 2/pi scaled by 2**24: the quadrant in bits 24+
_HALF_PI = float.fromhex("0x1.921FB54442D18p0")
_COS = [float.fromhex(v) for v in ("0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5",
                                   "-0x1.6c087e89a359dp-10", "0x1.99343027bf8c3p-16")]
_SIN = [float.fromhex(v) for v in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13")]


def _sincosf(y):
    """glibc's sincosf for float32 y in [0, 120): below 0.75 the polynomials directly, above, one reduction by
    the nearest multiple q of pi/2 into [-pi/4, pi/4]; the quadrant q then swaps sine and cosine and sets
    their signs. (glibc folds those signs into the polynomials; negation is exact, so applying them to the
    rounded results gives the same values. Below 2**-12, where glibc returns y and 1, the polynomials round
    to exactly those.)"""
    x = y.astype(np.float64)
    quadrant = ((x * _HALF_PI_INV_2_24).astype(np.int32) + 0x800000) >> 24
    quadrant[(y.view(np.uint32) >> 20) < 0x3F4] = 0  # below 0.75 (glibc compares exponent and 3 bits)
    r = x - quadrant * _HALF_PI  # exact for quadrant 0
    r2 = r * r
    r4 = r2 * r2
    r3 = r2 * r
    sine = (r + r3 * _SIN[0]) + (r3 * r2) * (_SIN[1] + r2 * _SIN[2])
    cosine = ((_COS[0] + r2 * _COS[1]) + r4 * _COS[2]) + (r4 * r2) * (_COS[3] + r2 * _COS[4])
    sine, cosine = sine.astype(np.float32), cosine.astype(np.float32)
    quadrant &= 3
    odd = (quadrant & 1).astype(bool)
    sin_y, cos_y = np.where(odd, cosine, sine), np.where(odd, sine, cosine)
    np.negative(sin_y, out=sin_y, where=quadrant >= 2)  # quadrants 2 and 3: sine negative
    np.negative(cos_y, out=cos_y, where=(quadrant == 1) | (quadrant == 2))  # 1 and 2: cosine negative
    return sin_y, cos_y


# --- Box-Muller (TF's BoxMullerFloat and BoxMullerDouble) -----------------------------------------------
_TWO_PI = 2 * math.pi  # TF multiplies by 2.0f * M_PI, which is a double
_C_LOG, _C_SIN, _C_COS = (np.frompyfunc(f, 1, 1) for f in (math.log, math.sin, math.cos))


def box_muller_float(x0, x1):
    """Two float32 standard normals per pair of words: radius sqrt(-2 log u1) (u1 at least 1e-7) times the
    sine and the cosine of the angle 2 pi u2. Computed a cache-sized chunk at a time (2x faster at 1M)."""
    sines, cosines = np.empty(len(x0), np.float32), np.empty(len(x0), np.float32)
    for begin in range(0, len(x0), _CHUNK):
        end = begin + _CHUNK
        u1 = np.maximum(_float_from_bits(x0[begin:end]), np.float32(1e-7))
        angle = (_TWO_PI * _float_from_bits(x1[begin:end]).astype(np.float64)).astype(np.float32)
        radius = np.sqrt(np.float32(-2) * _logf(u1))
        sine, cosine = _sincosf(angle)
        np.multiply(sine, radius, out=sines[begin:end])
        np.multiply(cosine, radius, out=cosines[begin:end])
    return sines, cosines


def _c_double(function, values):
    return function(values).astype(np.float64) if values.size else values


def box_muller_double(x0, x1, x2, x3):
    """Two float64 standard normals per four words (52-bit uniforms from (x0, x1) and (x2, x3))."""
    u1 = np.maximum(_double_from_bits(x0, x1), 1e-7)
    angle = _TWO_PI * _double_from_bits(x2, x3)
    radius = np.sqrt(-2.0 * _c_double(_C_LOG, u1))
    return _c_double(_C_SIN, angle) * radius, _c_double(_C_COS, angle) * radius


def _interleave(first, second):
    out = np.empty(first.size * 2, first.dtype)
    out[0::2], out[1::2] = first, second
    return out


# --- samplers: one kernel run each (the generator reserves, then the values follow TF's group layout) ------
def _words(generator, count, per_block):
    """The words of the first ceil(count / per_block) blocks after a reservation of `count` outputs."""
    start = generator.reserve_outputs(count)
    return blocks(generator.key, start, -(-count // per_block))


def uniform(generator, count: int, dtype) -> np.ndarray:
    """RandomUniform: float32 and float16 take one word per value, float64 two (four values a block)."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        words = _words(generator, count, 2).reshape(-1, 2)[:count]
        return _double_from_bits(words[:, 0], words[:, 1])
    words = _words(generator, count, 4).reshape(-1)[:count]
    return _half_from_bits(words) if dtype == np.float16 else _float_from_bits(words, in_place=True)


def uniform_int(generator, count: int, low: int, high: int, dtype) -> np.ndarray:
    """RandomUniformInt: low + (random bits mod (high - low)); int64 takes 64 bits from two words."""
    dtype = np.dtype(dtype)
    if count == 0:  # TF's kernel returns before reserving anything
        return np.empty(0, dtype)
    if dtype == np.int32:
        words = _words(generator, count, 4).reshape(-1)[:count]
        return (low + (words % np.uint32((high - low) & _MASK32)).astype(np.int64)).astype(np.int32)
    words = _words(generator, count, 2).reshape(-1, 2)[:count].astype(np.uint64)
    bits = words[:, 0] | (words[:, 1] << np.uint64(32))
    return (np.uint64(low & _MASK64) + bits % np.uint64((high - low) & _MASK64)).view(np.int64)


def normal(generator, count: int, dtype) -> np.ndarray:
    """RandomStandardNormal: a block gives four float32 values (two Box-Muller pairs) or two float64."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        words = _words(generator, count, 2)
        return _interleave(*box_muller_double(*words.T))[:count]
    words = _words(generator, count, 4).reshape(-1)
    values = _interleave(*box_muller_float(words[0::2], words[1::2]))[:count]
    return values.astype(np.float16) if dtype == np.float16 else values


def truncated_normal(generator, count: int, dtype) -> np.ndarray:
    """TruncatedNormal: groups of four values (two for float64), each from its own run of 256 reserved
    counters per value, drawing Box-Muller pairs in order and keeping values with |x| < 2 until the group
    is full. Vectorised over the groups still short of values, one block at a time."""
    dtype = np.dtype(dtype)
    double = dtype == np.float64
    group = 2 if double else 4
    groups = -(-count // group)
    stride = np.uint64(group * RESERVED_PER_OUTPUT // 4)  # counters between the starts of two groups
    start = generator.reserve_outputs(count)
    out = np.empty((groups, group), np.float64 if double else np.float32)
    filled = np.zeros(groups, np.int64)
    pending = np.arange(groups, dtype=np.int64)
    block = 0
    while pending.size:
        words = blocks(generator.key, start, pending.astype(np.uint64) * stride + np.uint64(block))
        if double:
            candidates = np.stack(box_muller_double(*words.T), axis=1)
        else:
            first, second = box_muller_float(words[:, 0::2].ravel(), words[:, 1::2].ravel())
            candidates = np.stack([first, second], axis=1).reshape(-1, 4)
        keep = np.abs(candidates) < 2
        if block == 0:  # most groups fill up from their first block: copy those whole
            full = keep.all(axis=1)
            out[full] = candidates[full]
            filled[full] = group
            partial = ~full
            candidates, keep, pending = candidates[partial], keep[partial], pending[partial]
        position = filled[pending][:, None] + np.cumsum(keep, axis=1) - 1
        rows, columns = np.nonzero(keep & (position < group))
        out[pending[rows], position[rows, columns]] = candidates[rows, columns]
        filled[pending] += keep.sum(axis=1)
        pending = pending[filled[pending] < group]
        block += 1
    out = out.reshape(-1)
    return out[:count].astype(np.float16) if dtype == np.float16 else out[:count]


def shuffle_permutation(generator, size: int) -> np.ndarray:
    """RandomShuffle's order of the first dimension: Fisher-Yates where step i swaps i with
    i + word_i mod (size - i). Sizes 0 and 1 reserve nothing (TF returns the input as it is)."""
    if size <= 1:
        return np.arange(size)
    start = generator.reserve(-(-(size - 1) // 4))
    words = blocks(generator.key, start, -(-(size - 1) // 4)).reshape(-1)[:size - 1]
    steps = np.arange(size - 1, dtype=np.int64)
    targets = (steps + words.astype(np.int64) % (size - steps)).tolist()
    order = list(range(size))
    for i, j in enumerate(targets):  # sequential by nature: each swap sees the previous ones
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)
