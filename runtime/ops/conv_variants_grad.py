"""Gradients of depthwise_conv2d and of its two gradient ops (ops/conv_variants.py). All three are bilinear
in their two inputs, so each gradient is one of the three ops again, and gradients can be taken again.
(conv1d and conv2d_transpose are conv2d and conv2d_backprop_input: their rules are in nn_grad.py.)"""

from __future__ import annotations

from .. import shapes
from ..dispatch import apply
from ..registry import gradient, wants
from .conv_variants import depthwise_backprop_filter_op, depthwise_backprop_input_op, depthwise_conv2d_op


def _window_attrs(attrs):
    return {"strides": attrs["strides"], "padding": attrs["padding"], "dilations": attrs["dilations"]}


def _input_grad(g, filters, x, attrs):
    spatial = None if x._shape is None else tuple(x._shape[1:])
    if spatial is None or None in spatial:
        raise ValueError(f"the gradient of depthwise_conv2d needs the input's height, width and depth to be "
                         f"known, got {shapes.fmt(x._shape)}")
    return apply(depthwise_backprop_input_op, (g, filters), {"shape": spatial, **_window_attrs(attrs)})


def _filter_grad(x, g, filters, attrs):
    shape = filters._shape
    if shape is None or None in shape:
        raise ValueError(f"the gradient of depthwise_conv2d needs the filter shape to be known, got "
                         f"{shapes.fmt(shape)}")
    return apply(depthwise_backprop_filter_op, (x, g), {"filter_shape": tuple(shape), **_window_attrs(attrs)})


@gradient(depthwise_conv2d_op)
def _depthwise_grad(record, g):
    x, filters = record.inputs
    return (_input_grad(g, filters, x, record.attrs) if wants(record, 0) else None,
            _filter_grad(x, g, filters, record.attrs) if wants(record, 1) else None)


@gradient(depthwise_backprop_input_op)
def _depthwise_input_grad(record, dy):
    g, filters = record.inputs
    attrs = _window_attrs(record.attrs)
    return (apply(depthwise_conv2d_op, (dy, filters), attrs) if wants(record, 0) else None,  # linear in g
            _filter_grad(dy, g, filters, record.attrs) if wants(record, 1) else None)  # dy plays the input


@gradient(depthwise_backprop_filter_op)
def _depthwise_filter_grad(record, dy):
    x, g = record.inputs
    return (_input_grad(g, dy, x, record.attrs) if wants(record, 0) else None,
            apply(depthwise_conv2d_op, (x, dy), _window_attrs(record.attrs)) if wants(record, 1) else None)
