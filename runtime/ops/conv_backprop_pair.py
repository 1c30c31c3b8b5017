"""conv2d's input gradient and filter gradient as one op (made by the conv_backprop_pair pass).

A training step differentiates conv2d(x, w) into conv2d_backprop_input(g, w) and conv2d_backprop_filter(x, g):
two kernels that read the same output gradient g. In the frequency domain (fft_conv_kernels.py) each starts
by transforming g (a batch-last copy and two batched DFT GEMMs: about 2 ms of CPU, a tenth of the pair, for
the CNN step's second conv); as one op the spectrum is computed once and serves both products. Other convs
run the two kernels one after the other, as before. Made after differentiation, never differentiated."""

from __future__ import annotations

from ..registry import OpDef, register
from . import conv, conv_kernels


def _kernel(x, g, filters, *, strides, padding, dilations, out=None, scratch=None):
    """(dx, dw); `out`: an optional buffer for dx; `scratch` is accepted and not needed."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d_backprop(x, g, filters, geo, out)


def _infer(x, g, filters, *, strides, padding, dilations):
    dtype, out_shape = conv._infer_conv2d(x, filters, strides=strides, padding=padding, dilations=dilations)
    if g.dtype is not dtype:
        raise TypeError(f"the output gradient must be {dtype.name}, got {g.dtype.name}")
    if g._shape is not None and None not in out_shape and tuple(g._shape) != tuple(out_shape):
        raise ValueError(f"the output gradient of a conv of output shape {out_shape} "
                         f"must have that shape, got {g._shape}")
    return [(dtype, x._shape), (dtype, filters._shape)]


conv2d_backprop_input_filter_op = register(OpDef(
    "conv2d_backprop_input_filter", _kernel, _infer, differentiable=False,
    doc="(conv2d_backprop_input(g, w), conv2d_backprop_filter(x, g)) in one kernel, which transforms g once "
        "in the frequency domain (made by the conv_backprop_pair pass after differentiation, so it is never "
        "differentiated itself)"))
