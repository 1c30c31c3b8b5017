"""keras.dtype_policies' quantized policies and DTypePolicyMap against Keras 3.15 on TF 2.21: names, dtypes,
quantization modes, configs, equality, keras.dtype_policies.get of "<mode>_from_<source>" names, the checks of
each mode string (their ValueErrors), and a DTypePolicyMap's regex lookup, default policy and errors. (A layer
given a quantized policy is not compared: Keras makes quantized kernels, tinytf refuses with
NotImplementedError; see tests/test_keras_gaps_dtype_policies.py.)"""

from __future__ import annotations

from . import outcome, program


def _describe(policy):
    return {"class": type(policy).__name__, "name": policy.name, "compute": policy.compute_dtype,
            "variable": policy.variable_dtype, "mode": policy.quantization_mode, "config": policy.get_config()}


@program
def p_keras_gaps_quantized_dtype_policies(tf):
    P = tf.keras.dtype_policies
    made = {"int8": P.QuantizedDTypePolicy("int8", "float32"),
            "int8_mixed": P.QuantizedDTypePolicy("int8", "mixed_bfloat16"),
            "int4_plain": P.QuantizedDTypePolicy("int4", "float32"),
            "float8": P.QuantizedFloat8DTypePolicy("float8", "mixed_float16", amax_history_length=16),
            "int4": P.Int4DTypePolicy("int4/64", "float32"),
            "int4_channel": P.Int4DTypePolicy("int4/-1", "bfloat16"),
            "gptq": P.GPTQDTypePolicy("gptq/3/128", "float32"),
            "awq": P.AWQDTypePolicy("awq/4/-1", "float32"),
            "default_source": P.QuantizedDTypePolicy("int8")}
    out = {k: _describe(v) for k, v in made.items()}
    out["float8_history"] = made["float8"].amax_history_length
    out["int4_block"] = made["int4"].block_size
    out["gptq_bits"] = [made["gptq"].weight_bits, made["gptq"].group_size, made["gptq"].mode]
    out["from_get"] = {name: _describe(P.get(name)) for name in
                       ("int8_from_float32", "int4_from_mixed_float16", "int4/32_from_float32",
                        "gptq/4/64_from_bfloat16", "awq/4/128_from_float32", "float8_from_float32")}
    out["equal"] = [made["int8"] == P.get("int8_from_float32"), made["int8"] == made["int8_mixed"],
                    made["int4"] == P.Int4DTypePolicy("int4/64", "float32"),
                    made["int4"] == P.Int4DTypePolicy("int4/32", "float32"),
                    made["gptq"] == P.GPTQDTypePolicy("gptq/3/128", "float32")]
    out["from_config"] = _describe(P.Int4DTypePolicy.from_config(made["int4"].get_config()))
    out["serialized"] = P.serialize(made["gptq"])
    out["repr"] = [repr(made["int8"]), repr(made["awq"])]
    errors = {"bad_mode": (lambda: P.QuantizedDTypePolicy("int2", "float32"), "Invalid quantization mode"),
              "int8_fp16": (lambda: P.QuantizedDTypePolicy("int8", "float16"), "float16"),
              "bad_source": (lambda: P.QuantizedDTypePolicy("int8", "int32"), "Cannot convert"),
              "int4_format": (lambda: P.Int4DTypePolicy("int4", "float32"), "Expected format"),
              "int4_block": (lambda: P.Int4DTypePolicy("int4/x", "float32"), "must be an integer"),
              "int4_zero": (lambda: P.Int4DTypePolicy("int4/0", "float32"), "Invalid block_size"),
              "gptq_bits": (lambda: P.GPTQDTypePolicy("gptq/5/128", "float32"), "weight_bits"),
              "gptq_group": (lambda: P.GPTQDTypePolicy("gptq/4/-2", "float32"), "group_size"),
              "gptq_format": (lambda: P.GPTQDTypePolicy("gptq/4", "float32"), "Expected format"),
              "awq_bits": (lambda: P.AWQDTypePolicy("awq/8/128", "float32"), "only supports 4-bit"),
              "float8_history": (lambda: P.QuantizedFloat8DTypePolicy("float8", "float32", 2.5), "integer"),
              "get_pair": (lambda: P.get("int8_float32"), "valid pair")}
    out["errors"] = {k: outcome(fn, phrase) for k, (fn, phrase) in errors.items()}
    return out


@program
def p_keras_gaps_dtype_policy_map(tf):
    P = tf.keras.dtype_policies
    policies = P.DTypePolicyMap(default_policy="mixed_float16")
    policies["encoder/dense"] = "bfloat16"
    policies["decoder/.*"] = P.DTypePolicy("float16")
    out = {"name": policies.name, "compute": policies.compute_dtype, "variable": policies.variable_dtype,
           "mode": policies.quantization_mode, "len": len(policies), "keys": list(policies),
           "lookup": {k: policies[k].name for k in ("encoder/dense", "decoder/dense_1", "other", "xdecoder/d")},
           "contains": ["encoder/dense" in policies, "decoder/dense_1" in policies],
           "default_class": type(policies.default_policy).__name__,
           "is_policy": isinstance(policies, P.DTypePolicy)}
    quantized = P.DTypePolicyMap(policy_map={"dense": P.get("int8_from_float32")})
    out["quantized_default"] = [quantized.name, quantized["dense"].name, quantized["conv"].name]
    del policies["encoder/dense"]
    out["after_delete"] = [len(policies), policies["encoder/dense"].name]
    ambiguous = P.DTypePolicyMap()
    ambiguous["a.*"] = "float16"
    ambiguous[".*b"] = "bfloat16"

    def duplicate():
        policies["decoder/.*"] = "float32"

    out["errors"] = {"ambiguous": outcome(lambda: ambiguous["ab"], "matches multiple"),
                     "duplicate": outcome(duplicate, "already exist"),
                     "bad_value": outcome(lambda: policies.__setitem__("x", 3.5), "Cannot interpret"),
                     "nested": outcome(lambda: P.DTypePolicyMap(default_policy=P.DTypePolicyMap()), "cannot be"),
                     "not_dict": outcome(lambda: P.DTypePolicyMap(policy_map=[("a", "float32")]), "must be a dict")}
    config = P.DTypePolicyMap(default_policy="float32", policy_map={"x": P.DTypePolicy("float16")}).get_config()
    out["config"] = config
    restored = P.DTypePolicyMap.from_config(config)
    out["restored"] = [restored.name, restored["x"].name, type(restored["x"]).__name__]
    return out


@program
def p_keras_gaps_dtype_policy_map_docstring(tf):
    # DTypePolicyMap's docstring example
    dtype_policies = tf.keras.dtype_policies
    bfloat16 = dtype_policies.DTypePolicy("bfloat16")
    float16 = dtype_policies.DTypePolicy("float16")
    float32 = dtype_policies.DTypePolicy("float32")
    policy_map = dtype_policies.DTypePolicyMap(default_policy=float32)
    policy_map["encoder/layer_0/dense"] = bfloat16
    policy_map["encoder/.*"] = float16
    policy_map["decoder"] = bfloat16
    names = [policy_map["encoder/layer_0/dense"].name, policy_map["encoder/attention/query"].name,
             policy_map["decoder/attention"].name]
    policy_map["encoder/attention/.*"] = bfloat16
    return {"names": names,
            "ambiguous": outcome(lambda: policy_map["encoder/attention/query"], "matches multiple dtype policy")}
