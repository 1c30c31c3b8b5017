"""tf.random_index_shuffle: where `index` lands in a pseudorandom permutation of [0, max_index], keyed by a seed,
as TF's RandomIndexShuffle kernel computes it: a Simon block cipher (TF's fixed key schedule, `rounds` rounds) on
blocks of the smallest even bit width >= 16 holding max_index, cycle-walked until the value falls in range. Each
element is computed in Python integers with the cipher's word width masked in, which reproduces TF's values."""

from __future__ import annotations

import math

import numpy as np

from ..errors import InvalidArgumentError
from ..registry import OpDef, register

_INDEX_DTYPES = ("int32", "int64", "uint32", "uint64")


def _rotl(x, r, w, mask):
    return ((x << r) | (x >> (w - r))) & mask


def _rotr(x, r, w, mask):
    return ((x >> r) | (x << (w - r))) & mask


def _key_schedule(key, rounds, w):
    mask = (1 << w) - 1
    c, z = 0xFFFFFFFC & mask, 0x7369F885192C0EF5 & mask
    keys = [k & mask for k in key]
    for i in range(3, rounds):
        keys.append(c ^ (z & 1) ^ keys[i - 3] ^ _rotr(keys[i - 1], 3, w, mask) ^ _rotr(keys[i - 1], 4, w, mask))
        z >>= 1
    return keys


def _simon_f(x, w, mask):
    return (_rotl(x, 1, w, mask) & _rotl(x, 8, w, mask)) ^ _rotl(x, 2, w, mask)


def _encrypt(value, keys, w):
    mask = (1 << w) - 1
    left, right = (value >> w) & mask, value & mask
    for i in range(0, len(keys) - 1, 2):
        left ^= _simon_f(right, w, mask)
        left ^= keys[i]
        right ^= _simon_f(left, w, mask)
        right ^= keys[i + 1]
    return (left << w) | right


def index_shuffle(index: int, key, max_index: int, rounds: int) -> int:
    if max_index == 0:
        return 0
    block = math.ceil(math.log2(max_index))  # TF's: in doubles, so a power of two's own bit is left out
    block = min(max(block + block % 2, 16), 64)
    keys = _key_schedule(key, rounds, block // 2)
    value = index
    while True:
        value = _encrypt(value, keys, block // 2)
        if value <= max_index:
            return value


def _kernel(index, seed, max_index, *, rounds):
    index, seed, max_index = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    count = max(index.size, max_index.size, seed.size // 3)
    if index.ndim > 1 or (index.ndim == 1 and index.size != count):
        raise InvalidArgumentError("Index bust be a scalar or vector.")
    if not (seed.shape == (3,) or seed.shape == (count, 3)):
        raise InvalidArgumentError(f"Seed must be a vector of size [3] or a matrix of size [{count}, 3] but got "
                                   f"{list(seed.shape)}.")
    if max_index.ndim > 1 or (max_index.ndim == 1 and max_index.size != count):
        raise InvalidArgumentError(f"Maxval must be a scalar or a vector of the same size as index but got "
                                   f"{list(max_index.shape)}")
    seeds = seed.reshape(-1, 3).astype(np.int64).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    out = np.empty(count, index.dtype)
    for i in range(count):
        row = seeds[0 if seed.ndim == 1 else i]
        at = int(index.reshape(-1)[i if index.ndim else 0]) & 0xFFFFFFFFFFFFFFFF
        top = int(max_index.reshape(-1)[i if max_index.ndim else 0]) & 0xFFFFFFFFFFFFFFFF
        out[i] = index_shuffle(at, [int(k) for k in row], top, rounds)
    all_scalar = index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0
    return out.reshape(()) if all_scalar else out


def _infer(index, seed, max_index, *, rounds):
    if index.dtype.name not in _INDEX_DTYPES:
        raise TypeError(f"Value for attr 'dtype' of {index.dtype.name} is not in the list of allowed values: "
                        "int32, int64, uint32, uint64")
    if max_index.dtype is not index.dtype:
        raise TypeError(f"max_index must have the dtype of index ({index.dtype.name}), got {max_index.dtype.name}")
    if seed.dtype.name not in _INDEX_DTYPES:
        raise TypeError(f"Invalid seed type: {seed.dtype.name}")
    if rounds < 4 or rounds % 2:
        raise ValueError(f"rounds must be an even number >= 4, got {rounds}")
    ranks = [None if t._shape is None else len(t._shape) for t in (index, seed, max_index)]
    if ranks == [0, 1, 0]:
        return index.dtype, ()
    return index.dtype, (None,)


random_index_shuffle_op = register(OpDef(
    "random_index_shuffle", _kernel, _infer, differentiable=False,
    doc="the position of index in a seeded pseudorandom permutation of [0, max_index]"))
