"""keras.quantizers beyond the recorded conformance programs: against plain numpy, eagerly and in tf.function
(the conformance test runs the recorded programs with passes on and off)."""

import numpy as np
import pytest

import tinytf as tf

q = tf.keras.quantizers
RNG = np.random.default_rng(7)


def _numpy_abs_max(x, axis):
    scale = np.float32(127) / (np.max(np.abs(x), axis=axis, keepdims=True) + np.float32(1e-7))
    return np.clip(np.round(x * scale), -127, 127).astype(np.int8), scale


@pytest.mark.parametrize("axis", [0, -1, (0, 1)])
def test_abs_max_quantize_matches_numpy_eager_and_traced(axis):
    x = RNG.normal(size=(5, 7)).astype(np.float32)
    want, want_scale = _numpy_abs_max(x, axis)
    for fn in (q.abs_max_quantize, tf.function(q.abs_max_quantize)):
        got, scale = fn(tf.constant(x), axis)
        assert got.dtype == tf.int8 and np.array_equal(got.numpy(), want)
        np.testing.assert_allclose(scale.numpy(), want_scale, rtol=1e-6)


def test_int4_round_trip_every_axis_and_odd_lengths():
    for shape in ((5,), (3, 4), (2, 5, 3)):
        x = RNG.integers(-8, 8, size=shape).astype(np.int8)
        for axis in range(-len(shape), len(shape)):
            packed, packed_shape, n = q.pack_int4(x, axis=axis)
            assert packed_shape[axis] == (shape[axis] + 1) // 2 and n == shape[axis]
            assert np.array_equal(q.unpack_int4(packed, n, axis=axis).numpy(), x)
            traced = tf.function(lambda p, a=axis, m=n: q.unpack_int4(p, m, axis=a))(packed)
            assert np.array_equal(traced.numpy(), x)


def _numpy_fake_quant(x, lo, hi, bits, narrow):
    qmin, qmax = (1.0 if narrow else 0.0), float(2 ** bits - 1)
    scale = np.float32((hi - lo) / (qmax - qmin))
    zp = np.floor(np.clip(qmin - lo / scale, qmin, qmax) + 0.5)
    nmin, nmax = (qmin - zp) * scale, (qmax - zp) * scale
    return np.floor((np.clip(x, nmin, nmax) - nmin) / scale + 0.5) * scale + nmin


@pytest.mark.parametrize("bits,narrow", [(8, False), (4, True), (2, False)])
def test_fake_quant_matches_numpy_and_passes_gradient_inside_the_range(bits, narrow):
    x = RNG.uniform(-2, 2, size=(4, 6)).astype(np.float32)
    want = _numpy_fake_quant(x, -1.2, 0.8, bits, narrow)
    for fn in (q.fake_quant_with_min_max_vars, tf.function(q.fake_quant_with_min_max_vars)):
        got = fn(tf.constant(x), -1.2, 0.8, bits, narrow)
        np.testing.assert_allclose(got.numpy(), want, atol=1e-6)
    xt = tf.constant(x)
    lo, hi = tf.Variable(-1.2), tf.Variable(0.8)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = q.fake_quant_with_min_max_vars(xt, lo, hi, bits, narrow)
    gx, glo, ghi = tape.gradient(y, [xt, lo, hi])
    nmin, nmax = np.min(want), np.max(want)
    assert np.array_equal(gx.numpy(), ((x >= nmin) & (x <= nmax)).astype(np.float32))
    assert float(glo) == np.sum(x < nmin) and float(ghi) == np.sum(x > nmax)


def test_quantizer_serialization_round_trip_and_errors():
    quantizer = q.AbsMaxQuantizer(axis=(0,), value_range=(-8, 7), output_dtype="int8")
    again = q.deserialize(q.serialize(quantizer))
    assert isinstance(again, q.AbsMaxQuantizer) and again.get_config() == quantizer.get_config()
    with pytest.raises(ValueError, match="value_range"):
        q.AbsMaxQuantizer(value_range=(-127, 300))
    with pytest.raises(TypeError, match="float8"):
        q.quantize_and_dequantize(tf.constant([1.0]), 1.0, "float8_e4m3fn", "float32")
