"""keras.quantizers.abs_max_quantize_grouped_with_zero_point against Keras 3.15 on TF 2.21: the tensor and numpy
paths, groups that divide the rows and groups that need zero padding, a constant group (widened by the tensor
path only), another value range, and the docstring's shapes (random kernel replaced
by deterministic data of the same shape)."""

from __future__ import annotations

import numpy as np

from . import data, program, val


@program
def p_keras_gaps_quantize_grouped_zero_point(tf):
    q = tf.keras.quantizers.abs_max_quantize_grouped_with_zero_point
    kernel = data((10, 3), seed=4) * 2.0 + 0.3
    constant = np.concatenate([np.full((4, 3), 0.5, "float32"), data((4, 3), seed=5)], axis=0)
    out = {"blocks_4": val(q(kernel, block_size=4)),
           "blocks_5_numpy": val(q(kernel, block_size=5, to_numpy=True)),
           "padded_numpy": val(q(kernel, block_size=4, to_numpy=True)),
           "one_group": val(q(kernel, block_size=16)),
           "uint_range": val(q(kernel, block_size=5, value_range=(-128, 127))),
           "constant_tensor": val(q(constant, block_size=4)),
           "constant_numpy": val(q(constant, block_size=4, to_numpy=True))}
    # (inside tf.function Keras 3.15 fails: its `if ops.size(x) == 0` reads a symbolic tensor as a bool;
    # tinytf's runs there, see tests/test_keras_gaps_quantizers.py)
    # the docstring's shapes
    quantized, scale, zero_point = q(data((512, 256), seed=1), block_size=128, value_range=(-8, 7))
    out["docstring"] = [list(quantized.shape), list(scale.shape), list(zero_point.shape), zero_point.dtype.name]
    return out
