"""keras.quantizers.abs_max_quantize_grouped_with_zero_point and the QuantizationConfig classes (modes, configs,
round trips, checks) against Keras 3.15 on TF 2.21. The quantize function: the tensor and numpy
paths, groups that divide the rows and groups that need zero padding, a constant group (widened by the tensor
path only), another value range, and the docstring's shapes (random kernel replaced
by deterministic data of the same shape)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


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


@program
def p_keras_gaps_quantization_configs(tf):
    Q = tf.keras.quantizers
    int8 = Q.Int8QuantizationConfig()
    int8_custom = Q.Int8QuantizationConfig(weight_quantizer=Q.AbsMaxQuantizer(value_range=(-100, 100)),
                                           activation_quantizer=None)
    int4 = Q.Int4QuantizationConfig()
    int4_channel = Q.Int4QuantizationConfig(weight_quantizer=Q.AbsMaxQuantizer(value_range=(-8, 7)), block_size=-1)
    gptq = Q.GPTQConfig(dataset=["some text"], tokenizer=None, weight_bits=3, group_size=64, symmetric=True)
    awq = Q.AWQConfig(dataset=None, tokenizer=None, group_size=-1, num_grid_points=8)
    configs = {"int8": int8, "int8_custom": int8_custom, "int4": int4, "int4_channel": int4_channel,
               "float8": Q.Float8QuantizationConfig(), "gptq": gptq, "awq": awq}
    out = {k: {"mode": c.mode, "config": c.get_config(), "class": type(c).__name__} for k, c in configs.items()}
    out["activation_default"] = type(int8.activation_quantizer).__name__
    out["int4_activation"] = int4.activation_quantizer
    out["round_trip"] = {k: type(c).from_config(c.get_config()).get_config() == c.get_config()
                         for k, c in configs.items()}
    out["policy_strings"] = [gptq.dtype_policy_string(), awq.dtype_policy_string()]
    out["defaults"] = [Q.QuantizationConfig.weight_quantizer_or_default(int8, "d"),
                       Q.QuantizationConfig.activation_quantizer_or_default(None, "d"),
                       type(Q.QuantizationConfig.activation_quantizer_or_default(int8, "d")).__name__]
    errors = {"base_mode": (lambda: Q.QuantizationConfig().mode, "Subclasses"),
              "int8_dtype": (lambda: Q.Int8QuantizationConfig(Q.AbsMaxQuantizer(output_dtype="int16")), "int8"),
              "int4_block": (lambda: Q.Int4QuantizationConfig(block_size=0), "block_size"),
              "int4_custom_sub": (lambda: Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(value_range=(-8, 7))),
                                  "sub-channel"),
              "int4_range": (lambda: Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(), block_size=None), "value_range"),
              "gptq_bits": (lambda: Q.GPTQConfig(None, None, weight_bits=5), "weight_bits"),
              "gptq_damping": (lambda: Q.GPTQConfig(None, None, hessian_damping=2.0), "hessian_damping"),
              "gptq_samples": (lambda: Q.GPTQConfig(None, None, num_samples=0), "num_samples"),
              "gptq_group": (lambda: Q.GPTQConfig(None, None, group_size=0), "group_size"),
              "awq_bits": (lambda: Q.AWQConfig(None, None, weight_bits=8), "4-bit"),
              "awq_grid": (lambda: Q.AWQConfig(None, None, num_grid_points=0), "num_grid_points"),
              "awq_length": (lambda: Q.AWQConfig(None, None, sequence_length=-1), "sequence_length")}
    out["errors"] = {k: outcome(fn, phrase) for k, (fn, phrase) in errors.items()}
    return out
