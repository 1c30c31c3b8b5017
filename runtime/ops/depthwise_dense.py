"""Depthwise convolutions of few channels and strides > 1 as ordinary convolutions with block-diagonal filters
(stride 1 takes the einsum kernels, depthwise_einsum.py: 2-3x faster than this way there).

A depthwise convolution's filters (KH, KW, C, M) are those of a dense convolution C -> C * M whose filter
(KH, KW, C, C * M) is zero except where input channel c meets its own outputs c * M .. c * M + M - 1. As a
dense convolution it runs on conv_kernels' im2col + GEMM (and its two gradients on theirs: the filter gradient
keeps the diagonal blocks of the dense one), doing C times the multiply-adds of the direct kernels
(depthwise_kernels.py). But a GEMM does a multiply-add for a small fraction of what a numpy ufunc pass over
memory costs the direct kernels per window offset, so for few channels the waste pays: 32x32x32x16, 3x3,
multiplier 2, CPU time on 1 thread, direct against dense: forward 9.5 -> 5.0 ms, input gradient 8.9 -> 5.9 ms,
filter gradient 7.2 -> 5.1 ms (load 1.5); at 32 channels they were even, at 48 and 64 the direct kernels took
half the time. Hence MAX_CHANNELS.

A zero filter entry times an infinite or NaN input is NaN, which the direct kernels never compute: the
forward and the input gradient take this way only when the sum of their input (x, or the output gradient) is
finite, which it is only when every value is (an overflowing sum of finite values just takes the direct
kernels). The filter gradient's entries are sums of products within one pair of channels, so the blocks it
keeps never meet another channel's values (the invalid-value warnings of the blocks it drops are silenced)."""

from __future__ import annotations

import numpy as np

from . import conv_kernels

MAX_CHANNELS = 16  # input channels up to which the dense convolution's C-fold work costs less (see above)


def applies(channels, dtype, values=None) -> bool:
    """Whether a depthwise kernel of `channels` input channels and result `dtype` takes the dense way;
    `values`: the input whose non-finite entries would meet zero filter entries."""
    if channels > MAX_CHANNELS or np.dtype(dtype) not in (np.float32, np.float64):
        return False
    return values is None or bool(np.isfinite(np.add.reduce(values, axis=None)))


def _dense(filters, dtype):
    """(KH, KW, C, C * M): filters[:, :, c, m] at input channel c, output channel c * M + m; zeros elsewhere."""
    kh, kw, channels, multiplier = filters.shape
    dense = np.zeros((kh, kw, channels, channels, multiplier), dtype)
    dense[:, :, np.arange(channels), np.arange(channels), :] = filters
    return dense.reshape(kh, kw, channels, channels * multiplier)


def forward(x, filters, geo, out=None):
    return conv_kernels.conv2d(x, _dense(filters, np.result_type(x, filters)), geo, out)


def input_grad(g, filters, in_shape, geo, out=None):
    return conv_kernels.conv2d_input_grad(g, _dense(filters, np.result_type(g, filters)), in_shape, geo, out)


def filter_grad(x, g, filter_shape, geo):
    kh, kw, channels, multiplier = filter_shape
    with np.errstate(invalid="ignore"):  # inf - inf in a discarded block (another channel's) is no warning
        dense = conv_kernels.conv2d_filter_grad(x, g, (kh, kw, channels, channels * multiplier), geo)
    blocks = dense.reshape(kh, kw, channels, channels, multiplier)
    return np.ascontiguousarray(blocks[:, :, np.arange(channels), np.arange(channels), :])
