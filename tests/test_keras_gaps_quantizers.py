"""abs_max_quantize_grouped_with_zero_point against a numpy statement of Keras' formulas, its numpy path, and in
tf.function (where Keras 3.15 itself fails). TF's numbers: conformance/keras_gaps_quantizers.py."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

q = tf.keras.quantizers.abs_max_quantize_grouped_with_zero_point


def _numpy_reference(kernel, block, qmin, qmax, eps=1e-7):
    n_groups = -(-kernel.shape[0] // block)
    padded = np.concatenate([kernel, np.zeros((n_groups * block - kernel.shape[0], kernel.shape[1]), kernel.dtype)])
    groups = padded.reshape(n_groups, block, -1)
    low, high = groups.min(1), groups.max(1)
    scale = (high - low + eps) / (qmax - qmin)
    zero = np.clip(np.round(-low / scale) + qmin, qmin, qmax)
    out = np.clip(np.round(groups / scale[:, None]) + zero[:, None], qmin, qmax)
    return out.reshape(-1, kernel.shape[1])[:kernel.shape[0]].astype("int8"), scale, zero.astype("int8")


def test_tensor_path_against_numpy_and_in_tf_function():
    kernel = np.random.default_rng(0).normal(size=(11, 4)).astype("float32")
    want = _numpy_reference(kernel, 4, -8, 7)
    for got in (q(kernel, block_size=4), tf.function(lambda k: q(k, block_size=4))(tf.constant(kernel))):
        np.testing.assert_array_equal(got[0].numpy(), want[0])
        np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-6)
        np.testing.assert_array_equal(got[2].numpy(), want[2])
        assert got[0].dtype == tf.int8 and got[2].dtype == tf.int8


def test_numpy_path_matches_tensor_path_on_varied_groups():
    kernel = np.random.default_rng(1).normal(size=(16, 3)).astype("float32")
    for a, b in zip(q(kernel, 8), q(kernel, 8, to_numpy=True)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_dequantized_values_are_close_to_the_kernel():
    kernel = np.random.default_rng(2).normal(size=(64, 8)).astype("float32")
    quantized, scale, zero = q(kernel, block_size=16, value_range=(-128, 127))
    groups = (quantized.numpy().astype("float32").reshape(4, 16, 8) - zero.numpy()[:, None]) * scale.numpy()[:, None]
    np.testing.assert_allclose(groups.reshape(64, 8), kernel, atol=scale.numpy().max())


def test_quantization_configs_round_trip_and_check_their_arguments():
    Q = tf.keras.quantizers
    int8 = Q.Int8QuantizationConfig()
    assert int8.mode == "int8" and isinstance(int8.activation_quantizer, Q.AbsMaxQuantizer)
    again = Q.Int8QuantizationConfig.from_config(int8.get_config())
    assert again.get_config() == int8.get_config()
    int4 = Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(value_range=(-8, 7)), block_size=None)
    assert Q.Int4QuantizationConfig.from_config(int4.get_config()).weight_quantizer.value_range == (-8, 7)
    gptq = Q.GPTQConfig(dataset=["text"], tokenizer=len, weight_bits=8, group_size=-1)
    assert gptq.get_config()["dataset"] is None and gptq.dtype_policy_string() == "gptq/8/-1"
    assert tf.keras.dtype_policies.get(gptq.dtype_policy_string() + "_from_float32").weight_bits == 8
    with pytest.raises(ValueError, match="sub-channel"):
        Q.Int4QuantizationConfig(Q.AbsMaxQuantizer(value_range=(-8, 7)), block_size=64)
    with pytest.raises(ValueError, match="hessian_damping"):
        Q.GPTQConfig(None, None, hessian_damping=-0.1)
