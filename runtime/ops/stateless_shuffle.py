"""StatelessShuffle (tf.random.experimental.stateless_shuffle): the first dimension permuted by the Fisher-Yates
walk of TF's RandomShuffle kernel, drawing from the Philox generator TF's stateless kernels derive from the
seed, so a seed gives TF's own permutation. A scalar comes back as it is, as in TF."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from . import philox
from .stateless_random import _check_seed, generator_from_seed


def _infer(value, seed):
    _check_seed(seed)
    return value.dtype, value._shape


def _kernel(value, seed):
    value = np.asarray(value)
    if value.ndim == 0:
        return value
    order = philox.shuffle_permutation(generator_from_seed(seed), value.shape[0])
    return value[order]


stateless_shuffle_op = register(OpDef("stateless_shuffle", _kernel, _infer, differentiable=False,
                                      doc="the first dimension shuffled, determined by a seed"))


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value` shuffled along its first dimension, the same permutation for the same seed (TF's exactly)."""
    if alg not in ("auto_select", "philox", 1, 3) and getattr(alg, "name", "").lower() not in ("philox", "auto_select"):
        raise ValueError(f"Unsupported algorithm for stateless_shuffle: {alg!r} (tinytf implements Philox, TF's "
                         "choice on CPU)")
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        seed = convert_to_tensor(seed, dtypes.int64)
    return apply(stateless_shuffle_op, (convert_to_tensor(value), seed), name=name)
