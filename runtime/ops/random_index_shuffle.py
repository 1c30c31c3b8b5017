"""tf.random_index_shuffle: where `index` lands in a pseudorandom permutation of [0, max_index], keyed by a seed,
as TF's RandomIndexShuffle kernel computes it: a Simon block cipher (TF's fixed key schedule, `rounds` rounds) on
blocks of the smallest even bit width >= 16 holding max_index, cycle-walked until the value falls in range. Each
elements are ciphered together as numpy uint64 words masked to the cipher's width, which reproduces TF's values."""

from __future__ import annotations

import math

import numpy as np

from ..errors import InvalidArgumentError
from ..registry import OpDef, register

_INDEX_DTYPES = ("int32", "int64", "uint32", "uint64")


def _rotl(x, r, w, mask):
    return ((x << np.uint64(r)) | (x >> np.uint64(w - r))) & mask


def _rotr(x, r, w, mask):
    return ((x >> np.uint64(r)) | (x << np.uint64(w - r))) & mask


def _key_schedule(key, rounds, w):
    """TF's Simon key schedule on `w`-bit words; `key` is a [3, n] uint64 array (one key per element)."""
    mask = np.uint64((1 << w) - 1)
    c, z = np.uint64(0xFFFFFFFC) & mask, 0x7369F885192C0EF5 & ((1 << w) - 1)
    keys = [k & mask for k in key]
    for i in range(3, rounds):
        keys.append(c ^ np.uint64(z & 1) ^ keys[i - 3] ^ _rotr(keys[i - 1], 3, w, mask)
                    ^ _rotr(keys[i - 1], 4, w, mask))
        z >>= 1
    return keys


def _simon_f(x, w, mask):
    return (_rotl(x, 1, w, mask) & _rotl(x, 8, w, mask)) ^ _rotl(x, 2, w, mask)


def _encrypt(value, keys, w):
    mask = np.uint64((1 << w) - 1)
    left, right = (value >> np.uint64(w)) & mask, value & mask
    for i in range(0, len(keys) - 1, 2):
        left = left ^ _simon_f(right, w, mask) ^ keys[i]
        right = right ^ _simon_f(left, w, mask) ^ keys[i + 1]
    return (left << np.uint64(w)) | right


def _block_size(max_index: int) -> int:
    block = math.ceil(math.log2(max_index))  # TF's: in doubles, so a power of two's own bit is left out
    return min(max(block + block % 2, 16), 64)


def _walk_tables(index, key, max_index, rounds):
    """Cycle walking on 16-bit blocks: one table of the cipher per distinct key, walked in Python."""
    out = np.empty_like(index)
    tables = {}
    everything = np.arange(1 << 16, dtype=np.uint64)
    for i, (start, top, words) in enumerate(zip(index.tolist(), max_index.tolist(), key.T.tolist())):
        table = tables.get(tuple(words))
        if table is None:
            keys = _key_schedule(np.array(words, np.uint64)[:, None], rounds, 8)
            table = tables[tuple(words)] = _encrypt(everything, [k[0] for k in keys], 8).tolist()
        value = table[start & 0xFFFF]  # the cipher reads only a block's bits, as TF's bitsets do
        while value > top:
            value = table[value]
        out[i] = value
    return out


def index_shuffle(index, key, max_index, rounds):
    """uint64 arrays index [n], key [3, n], max_index [n] -> each index's position in its permutation (the
    cipher applied again while the value is past max_index: cycle walking)."""
    out = np.zeros_like(index)
    for block in {_block_size(int(m)) for m in max_index if m}:
        rows = np.array([bool(m) and _block_size(int(m)) == block for m in max_index])
        if block == 16:  # max_index below 2**14: walks are long, so walk a table of the whole 16-bit cipher
            out[rows] = _walk_tables(index[rows], key[:, rows], max_index[rows], rounds)
            continue
        keys = _key_schedule(key[:, rows], rounds, block // 2)
        value, top, pending = index[rows], max_index[rows], np.ones(int(rows.sum()), bool)
        while pending.any():
            value = np.where(pending, _encrypt(value, keys, block // 2), value)
            pending &= value > top
        out[rows] = value
    return out


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
    # TF casts each seed word to uint32 and each index to uint64 (two's complement for negative ones)
    key = np.broadcast_to(seed.reshape(-1, 3).astype(np.int64).view(np.uint64) & np.uint64(0xFFFFFFFF),
                          (count, 3)).T
    wide = [np.broadcast_to(v.astype(np.int64).view(np.uint64) if v.dtype.kind == "i" else v.astype(np.uint64),
                            (count,)) for v in (index.reshape(-1), max_index.reshape(-1))]
    out = index_shuffle(wide[0], key, wide[1], rounds).astype(index.dtype)
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
