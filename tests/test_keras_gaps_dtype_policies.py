"""Quantized dtype policies and DTypePolicyMap: parsing of "<mode>_from_<source>" names (get and the global
policy), equality and config round trips, and layers refusing a quantized policy (tinytf has no quantized
kernels) while a float DTypePolicyMap gives its default dtypes. TF's results are in
conformance/keras_gaps_dtype_policies.py."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
P = keras.dtype_policies


@pytest.mark.parametrize("name, cls, compute", [
    ("int8_from_mixed_bfloat16", P.QuantizedDTypePolicy, "bfloat16"),
    ("int4/256_from_float32", P.Int4DTypePolicy, "float32"),
    ("gptq/8/-1_from_float16", P.GPTQDTypePolicy, "float16"),
    ("awq/4/64_from_mixed_float16", P.AWQDTypePolicy, "float16"),
    ("float8_from_float32", P.QuantizedFloat8DTypePolicy, "float32")])
def test_get_parses_names_and_configs_round_trip(name, cls, compute):
    policy = P.get(name)
    assert type(policy) is cls and policy.name == name and policy.compute_dtype == compute
    assert cls.from_config(policy.get_config()) == policy
    assert P.deserialize(P.serialize(policy)) == policy


def test_layers_refuse_quantized_policies():
    with pytest.raises(NotImplementedError, match="quantized"):
        keras.layers.Dense(2, dtype="int8_from_float32")
    layer = keras.layers.Dense(2)
    with pytest.raises(NotImplementedError, match="int4"):
        layer.dtype_policy = P.Int4DTypePolicy("int4/32", "float32")
    assert layer.dtype_policy.name == "float32"


def test_global_quantized_policy_is_parsed_and_refused_by_new_layers():
    try:
        keras.config.set_dtype_policy("int8_from_float32")
        assert type(keras.config.dtype_policy()) is P.QuantizedDTypePolicy
        with pytest.raises(NotImplementedError):
            keras.layers.Dense(1)
    finally:
        keras.config.set_dtype_policy("float32")


def test_float_policy_map_gives_its_default_to_layers():
    policies = P.DTypePolicyMap(default_policy="mixed_float16", policy_map={"head": P.DTypePolicy("float32")})
    layer = keras.layers.Dense(2, dtype=policies)
    out = layer(np.ones((1, 3), "float32"))
    assert out.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    assert policies["head"].name == "float32" and policies["body"].name == "mixed_float16"


def test_mode_errors():
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        P.QuantizedDTypePolicy("int3", "float32")
    with pytest.raises(ValueError, match="block_size"):
        P.Int4DTypePolicy("int4/-5", "float32")
    with pytest.raises(ValueError, match="4-bit"):
        P.AWQDTypePolicy("awq/3/32", "float32")
