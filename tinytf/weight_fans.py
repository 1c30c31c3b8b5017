"""(fan_in, fan_out) of a weight shape, as TF's and Keras' variance-scaling initializers count them."""

from __future__ import annotations

import math


def compute_fans(shape, input_axes=None, output_axes=None) -> tuple:
    """Over the given input and output axes (Keras' EinsumDense names them); else a matrix's two dimensions,
    or a conv kernel's last two times its receptive field."""
    shape = tuple(int(d) for d in shape)
    if input_axes is not None and output_axes is not None:
        return math.prod(shape[a] for a in input_axes), math.prod(shape[a] for a in output_axes)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive
