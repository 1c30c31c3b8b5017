"""tf.math.sobol_sample: points of the Sobol low-discrepancy sequence in [0, 1)^dim, as TF's SobolSample kernel
gives them (the first point, all zeros, is never returned: point i of the result is the sequence's point
skip + i + 1). The direction numbers are Joe and Kuo's (new-joe-kuo-6.21201, S. Joe and F. Y. Kuo, "Constructing
Sobol sequences with better two-dimensional projections", SIAM J. Sci. Comput. 30, 2635-2654, 2008; BSD-style
licence), stored in sobol_joe_kuo.bin as zlib-compressed varints: per dimension its primitive polynomial (with
its leading and trailing terms, as SciPy's copy of the table stores it) and its initial direction integers m_k.
Points are built with 32-bit integers from the Gray code of their index, so they match TF's bit for bit."""

from __future__ import annotations

import os
import zlib

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .static_value import constant_value

MAX_DIM = 21200  # TF's limit (the table has one row more)
_BITS = 32
_TABLE = os.path.join(os.path.dirname(__file__), "sobol_joe_kuo.bin")
_cache: dict = {}


def _table() -> tuple[list, list]:
    """(polynomials, initial direction integers) of every dimension, decoded once."""
    if "table" not in _cache:
        raw = np.frombuffer(zlib.decompress(open(_TABLE, "rb").read()), np.uint8)
        ends = (raw & 0x80) == 0
        group = np.concatenate([[0], np.cumsum(ends)[:-1]])
        starts = np.flatnonzero(np.concatenate([[True], ends[:-1]]))
        shift = np.arange(len(raw)) - starts[group]
        values = np.zeros(int(ends.sum()), np.int64)
        np.add.at(values, group, (raw & 0x7F).astype(np.int64) << (7 * shift))
        values = values.tolist()
        polys, inits, i = [], [], 0
        while i < len(values):
            poly = values[i]
            degree = max(poly.bit_length() - 1, 1)
            polys.append(poly)
            inits.append(values[i + 1:i + 1 + degree])
            i += 1 + degree
        _cache["table"] = (polys, inits)
    return _cache["table"]


def directions(dim: int) -> np.ndarray:
    """The (dim, 32) direction numbers v_k = m_k << (32 - k): dimension 0 is van der Corput's (every m_k = 1),
    the others follow their polynomial's recurrence from their initial m_k."""
    cached = _cache.get("directions")
    if cached is not None and cached.shape[0] >= dim:
        return cached[:dim]
    polys, inits = _table()
    degrees = np.array([p.bit_length() - 1 for p in polys[:dim]])
    m = np.zeros((dim, _BITS), np.uint64)
    m[0] = 1
    for d in range(1, dim):
        m[d, :degrees[d]] = inits[d][:degrees[d]]
    rows = np.arange(dim)
    poly = np.array(polys[:dim], np.uint64)
    for k in range(1, _BITS):
        grow = (rows > 0) & (k >= degrees)
        if not grow.any():
            continue
        r, s = rows[grow], degrees[grow]
        prior = m[r, k - s]
        new = prior ^ (prior << s.astype(np.uint64))
        for j in range(1, int(s.max())):
            use = (j < s) & (((poly[grow] >> (s - j).astype(np.uint64)) & np.uint64(1)) == 1)
            if use.any():
                new[use] ^= m[r[use], k - j] << np.uint64(j)
        m[r, k] = new
    v = m << (np.uint64(_BITS - 1) - np.arange(_BITS, dtype=np.uint64))
    _cache["directions"] = v
    return v


def _kernel(dim, num_results, skip, *, dtype):
    dim, count, skip = int(dim), int(num_results), int(skip)
    _check(dim, count, skip)
    v = directions(dim)
    index = np.arange(skip + 1, skip + count + 1, dtype=np.uint64)
    gray = index ^ (index >> np.uint64(1))
    points = np.zeros((count, dim), np.uint64)
    for j in range(_BITS):
        bit = (gray >> np.uint64(j)) & np.uint64(1)
        if bit.any():
            points ^= bit[:, None] * v[:, j]  # v_j where bit j of the Gray code is set, 0 elsewhere
    return (points / 2.0 ** _BITS).astype(dtype.np)


def _check(dim, count, skip):
    if dim < 1:
        raise InvalidArgumentError("dim must be at least one")
    if dim > MAX_DIM:
        raise InvalidArgumentError(f"dim must be at most {MAX_DIM}")
    if count < 1:
        raise InvalidArgumentError("num_results must be at least one")
    if skip < 0:
        raise InvalidArgumentError("skip must be non-negative")


def _infer(dim, num_results, skip, *, dtype):
    if dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"Value for attr 'dtype' of {dtype.name} is not in the list of allowed values: float, "
                        "double")
    for name, t in (("dim", dim), ("num_results", num_results), ("skip", skip)):
        if t.dtype is not dtypes.int32 or t._shape not in (None, ()):
            raise ValueError(f"SobolSample: {name} must be an int32 scalar, got {shapes.typed(t.dtype, t._shape)}")
    known = [constant_value(t) for t in (dim, num_results, skip)]
    if all(k is not None for k in known):
        _check(*(int(k) for k in known))
    rows = None if known[1] is None else int(known[1])
    cols = None if known[0] is None else int(known[0])
    return dtype, (rows, cols)


sobol_sample_op = register(OpDef("sobol_sample", _kernel, _infer, differentiable=False, typed_attrs=("dtype",),
                                 doc="points of the Sobol sequence (Joe-Kuo direction numbers)"))


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    """`tf.math.sobol_sample`: `num_results` points of the `dim`-dimensional Sobol sequence after skipping `skip`,
    a float32 or float64 tensor of shape [num_results, dim]."""
    inputs = [convert_to_tensor(v, dtypes.int32) for v in (dim, num_results, skip)]
    return apply(sobol_sample_op, inputs, {"dtype": dtypes.as_dtype(dtype)}, name=name)
