"""conv2d with its epilogue: conv2d -> + bias -> relu -> tiled max pool, as one op (conv_epilogue pass).

A Conv2D layer's bias add and relu, and the 2x2 pool after it, each pass over the whole conv output: for the
CNN step's first conv, 6.4 MB written by the GEMM, read and written back by the bias add, again by the relu,
read once more by the pool, single-threaded, after the chunks' threads are done. Here they run on each
chunk's rows while the GEMM has just left them in L2, on the chunk's thread (conv_kernels.conv2d), and with
the pool fused the full-size output is never written at all. The op is made by a pass after differentiation
(a training step's gradients are already in the graph), so it is never differentiated itself."""

from __future__ import annotations

import numpy as np

from ..registry import OpDef, register
from . import conv, conv_kernels
from .common import require


def _conv2d_epilogue_kernel(x, filters, *bias, strides, padding, dilations, relu, pool, out=None, scratch=None):
    """`bias`: none, or the (C,) bias; `pool`: None or the (KH, KW) of a max pool whose windows tile the
    output; `out`: an optional planned buffer for the result; `scratch` is accepted and not needed."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d(x, filters, geo, out, bias=bias[0] if bias else None, relu=relu, pool=pool)


def _infer(x, filters, *bias, strides, padding, dilations, relu, pool):
    dtype, (n, height, width, channels) = conv._infer_conv2d(x, filters, strides=strides, padding=padding,
                                                             dilations=dilations)
    if bias:
        require(bias[0].dtype, "float", "conv2d_epilogue")
        if bias[0].dtype is not dtype or (bias[0]._shape is not None and bias[0]._shape != (channels,)):
            raise ValueError(f"conv2d_epilogue: the bias must be a {dtype.name} vector of the {channels} output "
                             f"channels, got {bias[0].dtype.name} of shape {bias[0]._shape}")
    if pool is not None:
        height = None if height is None else height // pool[0]
        width = None if width is None else width // pool[1]
    return dtype, (n, height, width, channels)


conv2d_epilogue_op = register(OpDef(
    "conv2d_epilogue", _conv2d_epilogue_kernel, _infer, differentiable=False,
    doc="conv2d, then + bias, relu and a tiled max pool on each chunk of its output (made by the "
        "conv_epilogue pass after differentiation, so it is never differentiated itself)"))


def _conv2d_epilogue_pooled_kernel(x, filters, *bias, strides, padding, dilations, relu, pool, out=None):
    """(the full conv2d_epilogue result, its tiled max pool): `out` an optional planned buffer for the first."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    dtype = np.result_type(x, filters)
    height, width = geo.out_hw
    pooled = np.empty((x.shape[0], height // pool[0], width // pool[1], filters.shape[3]), dtype)
    full = conv_kernels.conv2d(x, filters, geo, out, bias=bias[0] if bias else None, relu=relu, pool=pool,
                               pooled=pooled)
    return full, pooled


def _infer_pooled(x, filters, *bias, strides, padding, dilations, relu, pool):
    if pool is None:
        raise ValueError("conv2d_epilogue_pooled: needs the (KH, KW) of its pool")
    dtype, full = _infer(x, filters, *bias, strides=strides, padding=padding, dilations=dilations, relu=relu,
                         pool=None)
    _, pooled = _infer(x, filters, *bias, strides=strides, padding=padding, dilations=dilations, relu=relu,
                       pool=pool)
    return [(dtype, full), (dtype, pooled)]


conv2d_epilogue_pooled_op = register(OpDef(
    "conv2d_epilogue_pooled", _conv2d_epilogue_pooled_kernel, _infer_pooled, differentiable=False,
    doc="(conv2d -> + bias -> relu, its tiled max pool): conv2d_epilogue whose full-size output is also read "
        "elsewhere (a training step's pool gradient), the pool run on each chunk's rows while they are in "
        "cache (made by the conv_epilogue pass after differentiation, so never differentiated itself)"))
