"""conv2d's input gradient and filter gradient as one op (made by the conv_backprop_pair pass).

A training step differentiates conv2d(x, w) into conv2d_backprop_input(g, w) and conv2d_backprop_filter(x, g):
two kernels that read the same output gradient g. In the frequency domain (fft_conv_kernels.py) each starts
by transforming g (a batch-last copy and two batched DFT GEMMs: about 2 ms of CPU, a tenth of the pair, for
the CNN step's second conv); as one op the spectrum is computed once and serves both products. Other convs
run the two kernels one after the other, as before.

The filter gradient also transforms x, which the forward conv transformed already: conv2d_input_spectrum(x)
computes that spectrum once, as a value of the graph (in a planned buffer), and conv2d_epilogue_spectral (the
forward conv with its epilogue) and the pair take it as an extra input. When the conv goes direct at run time
(TINYTF_CONV_ALGO changed since the trace) the spectrum is zeros and the kernels, which ask the same rule, work
from x as before.

All are made by the conv_backprop_pair pass after differentiation, so none is ever differentiated."""

from __future__ import annotations

from ..registry import OpDef, register
from . import conv, conv_fused, conv_kernels, fft_conv_kernels


def _kernel(x, g, filters, *spectrum, strides, padding, dilations, out=None, scratch=None):
    """(dx, dw); `spectrum`: none, or x's (conv2d_input_spectrum); `out`: an optional buffer for dx; `scratch`
    is accepted and not needed."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d_backprop(x, g, filters, geo, out, spectrum[0] if spectrum else None)


def _infer(x, g, filters, *spectrum, strides, padding, dilations):
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


def _spectrum_kernel(x, *, filter_shape, strides, padding, dilations, out=None, scratch=None):
    """`out`: an optional planned buffer; `scratch` is accepted and not needed."""
    geo = conv.conv_geometry(x.shape[1:3], filter_shape[:2], strides, dilations, padding)
    return conv_kernels.input_spectrum(x, filter_shape, geo, out)


def _infer_spectrum(x, *, filter_shape, strides, padding, dilations):
    """(Vf, 2 P, C * N) (fft_conv_kernels.spectrum_shape), for a fully known x."""
    if x._shape is None or None in x._shape or None in filter_shape:
        raise ValueError(f"the input's shape must be known, got {x._shape}")
    geo = conv.conv_geometry(x._shape[1:3], filter_shape[:2], strides, dilations, padding)
    return x.dtype, fft_conv_kernels.spectrum_shape(tuple(x._shape), tuple(filter_shape), geo)


conv2d_input_spectrum_op = register(OpDef(
    "conv2d_input_spectrum", _spectrum_kernel, _infer_spectrum, differentiable=False,
    doc="a conv input's half spectrum in the frequency domain's layout (fft_conv_kernels), shared by the "
        "forward conv and its filter gradient (made by the conv_backprop_pair pass); zeros when the conv goes "
        "direct"))


def _epilogue_kernel(x, filters, spectrum, *bias, strides, padding, dilations, relu, pool, out=None,
                     scratch=None):
    """conv2d_epilogue's kernel with x's spectrum (conv2d_input_spectrum) given."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d(x, filters, geo, out, bias=bias[0] if bias else None, relu=relu, pool=pool,
                               x_spectrum=spectrum)


def _infer_epilogue(x, filters, spectrum, *bias, **attrs):
    return conv_fused._infer(x, filters, *bias, **attrs)


conv2d_epilogue_spectral_op = register(OpDef(
    "conv2d_epilogue_spectral", _epilogue_kernel, _infer_epilogue, differentiable=False,
    doc="conv2d_epilogue (conv2d, + bias, relu, tiled max pool) from x's spectrum when it goes by the frequency "
        "domain (made by the conv_backprop_pair pass)"))
