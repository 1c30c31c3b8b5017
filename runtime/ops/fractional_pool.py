"""tf.nn.fractional_max_pool / fractional_avg_pool (Graham's fractional max-pooling): pooling regions whose sizes
are k or k + 1 along height and width so that the output is input / pooling_ratio, drawn as TF's kernels draw them
(fractional_pool_common.cc) from the op's Philox generator: with pseudo_random, a_i = ceil(alpha * (i + u)) for
one u (RandDouble of two words, scaled to TF's bound); otherwise the k + 1 regions placed by TF's RandomShuffle
(one word modulo the remaining length each). Rows first, then columns; with a seed every run starts from it, as
TF's deterministic kernel does."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register
from . import philox
from .random import RandomStream, get_seed


def _pseudo_random_diff(n_in, n_out, words):
    alpha = n_in / n_out
    k = n_in // n_out
    u_max1 = (k + 2) / alpha - 1
    u_max2 = (n_in + 1 - k) / alpha - (n_out - 1)
    u = words.double() * min(u_max1, u_max2)
    cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
    return [cum[i + 1] - cum[i] for i in range(n_out)]


def _random_diff(n_in, n_out, words):
    """The k + 1 regions first, then TF's RandomShuffle: element i swapped with i + word % (n - i)."""
    k = n_in // n_out
    diff = [k + 1 if i < n_in % n_out else k for i in range(n_out)]
    for i in range(n_out - 1):
        j = i + words.word() % (n_out - i)
        diff[i], diff[j] = diff[j], diff[i]
    return diff


def pooling_sequence(n_in, n_out, generator, pseudo_random):
    """TF's GeneratePoolingSequence: the cumulative region boundaries [0, ..., n_in] (the generator is drawn from
    even when n_out divides n_in, as TF's kernel does)."""
    if pseudo_random:
        diff = _pseudo_random_diff(n_in, n_out, philox.WordStream(generator.key, generator.reserve(1)))
    else:
        words = philox.WordStream(generator.key, generator.reserve(-(-n_out // 4)))
        diff = _random_diff(n_in, n_out, words)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _regions(seq, size, overlapping):
    """(start, stop) of each region: [seq[i], seq[i + 1]) widened by one when overlapping, inside the input."""
    ends = seq[1:] + (1 if overlapping else 0)
    return [(int(s), int(min(e, size))) for s, e in zip(seq[:-1], ends)]


def _output_sizes(shape, pooling_ratio):
    sizes = [int(math.floor(np.float32(shape[i]) / np.float32(pooling_ratio[i]))) for i in range(4)]
    if min(sizes[1:3]) <= 0:
        raise InvalidArgumentError(f"fractional pooling: the output of input shape {list(shape)} with pooling_ratio "
                                   f"{list(pooling_ratio)} would be empty")
    return sizes


def _pool_kernel(x, *, pooling_ratio, pseudo_random, overlapping, stream, reduce):
    sizes = _output_sizes(x.shape, pooling_ratio)
    if stream.seed is not None:  # deterministic: TF's kernel starts a generator from the seeds on every run
        generator = philox.PhiloxGenerator(*stream.seed)
    else:  # seed 0: the kernel's own generator, randomly seeded once
        generator = stream.generator_for(f"fractional_{reduce}_pool/{pooling_ratio}/{pseudo_random}/{overlapping}",
                                         x.dtype)
    rows = pooling_sequence(x.shape[1], sizes[1], generator, pseudo_random)
    cols = pooling_sequence(x.shape[2], sizes[2], generator, pseudo_random)
    out = np.empty((x.shape[0], sizes[1], sizes[2], x.shape[3]), x.dtype)
    for i, (r0, r1) in enumerate(_regions(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, x.shape[2], overlapping)):
            block = x[:, r0:r1, c0:c1, :]
            out[:, i, j, :] = block.max(axis=(1, 2)) if reduce == "max" else block.mean(axis=(1, 2))
    return out, rows, cols


def _infer_pool(x, *, pooling_ratio, pseudo_random, overlapping, stream, reduce):
    if x._shape is not None and len(x._shape) != 4:
        raise ValueError(f"fractional_{reduce}_pool: input must be 4-D NHWC, got shape {list(x._shape)}")
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"fractional_{reduce}_pool: input must be real, got {x.dtype.name}")
    out = None
    if x._shape is not None:
        out = tuple(None if d is None else int(math.floor(np.float32(d) / np.float32(r)))
                    for d, r in zip(x._shape, pooling_ratio))
    rows = None if out is None or out[1] is None else out[1] + 1
    cols = None if out is None or out[2] is None else out[2] + 1
    return [(x.dtype, out), (dtypes.int64, (rows,)), (dtypes.int64, (cols,))]


fractional_pool_op = register(OpDef(
    "fractional_pool", _pool_kernel, _infer_pool, stateful=True,
    doc="TF's FractionalMaxPool / FractionalAvgPool: pooling over regions of k or k + 1 rows and columns"))


def _pool_grad_kernel(x, g, rows, cols, *, overlapping, reduce):
    """FractionalMaxPoolGrad (each region's gradient to its first maximum) or FractionalAvgPoolGrad (shared
    evenly by the region's elements)."""
    d = np.zeros(x.shape, np.float64)
    for i, (r0, r1) in enumerate(_regions(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, x.shape[2], overlapping)):
            if reduce == "avg":
                d[:, r0:r1, c0:c1, :] += g[:, i:i + 1, j:j + 1, :] / ((r1 - r0) * (c1 - c0))
                continue
            block = x[:, r0:r1, c0:c1, :].reshape(x.shape[0], -1, x.shape[3])
            first = np.argmax(block, axis=1)  # the first maximum in row-major order
            width = c1 - c0
            for b in range(x.shape[0]):
                for c in range(x.shape[3]):
                    p = first[b, c]
                    d[b, r0 + p // width, c0 + p % width, c] += g[b, i, j, c]
    return d.astype(x.dtype)


def _infer_pool_grad(x, g, rows, cols, *, overlapping, reduce):
    return x.dtype, x._shape


fractional_pool_grad_op = register(OpDef(
    "fractional_pool_grad", _pool_grad_kernel, _infer_pool_grad, differentiable=False,
    doc="The gradient of fractional pooling wrt its input (TF registers no gradient of it)"))


@gradient(fractional_pool_op)
def _fractional_pool_grad(record, g, g_rows, g_cols):
    x = record.inputs[0]
    _, rows, cols = record.outputs
    return apply(fractional_pool_grad_op, (x, g, rows, cols),
                 {"overlapping": record.attrs["overlapping"], "reduce": record.attrs["reduce"]})


def _ratio(pooling_ratio, what):
    ratio = [float(pooling_ratio)] if isinstance(pooling_ratio, (int, float)) else [float(r) for r in pooling_ratio]
    if len(ratio) == 1:
        ratio = [1.0, ratio[0], ratio[0], 1.0]
    elif len(ratio) == 2:
        ratio = [1.0, *ratio, 1.0]
    if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0:
        raise InvalidArgumentError(f"{what}: pooling_ratio must be [1.0, height ratio, width ratio, 1.0] (pooling "
                                   f"over batch and channels is not allowed), got {ratio}")
    if min(ratio[1:3]) < 1.0:
        raise InvalidArgumentError(f"{what}: pooling_ratio should be >= 1.0, got {ratio}")
    return tuple(ratio)


def _fractional_pool(value, pooling_ratio, pseudo_random, overlapping, seed, reduce, name):
    what = f"fractional_{reduce}_pool"
    # seed 0: TF's kernel takes random seeds; otherwise the pair get_seed derives (a kernel of its own)
    seeds = get_seed(seed) if seed else None
    stream = RandomStream(seeds, shared=False)
    attrs = {"pooling_ratio": _ratio(pooling_ratio, what), "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "stream": stream, "reduce": reduce}
    return tuple(apply(fractional_pool_op, (convert_to_tensor(value),), attrs, name=name))


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """`tf.nn.fractional_max_pool`: (output, row_pooling_sequence, col_pooling_sequence): the maximum over
    regions of k or k + 1 rows and columns, so that each spatial size shrinks by its pooling_ratio (1 to 2)."""
    return _fractional_pool(value, pooling_ratio, pseudo_random, overlapping, seed, "max", name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """`tf.nn.fractional_avg_pool`: as fractional_max_pool, with the mean of each region."""
    return _fractional_pool(value, pooling_ratio, pseudo_random, overlapping, seed, "avg", name)
