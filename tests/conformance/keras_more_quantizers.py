"""keras.quantizers as TF 2.21's Keras 3.15 runs them: absmax int8 quantization (per axis, numpy path, the
quantizer object and its config), the int4 packing of its docstring, fake quantization with its gradients
(per tensor and per channel), the float8 scale helpers; eagerly and inside tf.function."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_quantizers_abs_max_quantize(tf):
    q = tf.keras.quantizers
    x = tf.constant(data((3, 4), scale=2.0))
    eager = q.abs_max_quantize(x, axis=-1)
    axis0 = q.abs_max_quantize(x, axis=0, value_range=(-8, 7))
    host = q.abs_max_quantize(x, axis=-1, to_numpy=True)
    traced = tf.function(lambda t: q.abs_max_quantize(t, axis=[0, 1]))(x)
    return [val(eager), val(axis0), val(host), val(traced)]


@program
def p_quantizers_abs_max_quantizer_object(tf):
    q = tf.keras.quantizers
    quantizer = q.AbsMaxQuantizer(axis=0)
    x = tf.constant(data((2, 5), scale=3.0))
    config = quantizer.get_config()
    again = q.AbsMaxQuantizer.from_config(config)
    return [val(quantizer(x)), val(quantizer(x, axis=1)), val(again(x)),
            {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(config.items())},
            type(q.get("abs_max_quantizer")).__name__, q.get(None), tf.keras.Quantizer is q.Quantizer,
            outcome(lambda: q.AbsMaxQuantizer(value_range=(-200, 127)), "requires value_range"),
            outcome(lambda: q.get(3), "Could not interpret quantizer identifier"),
            outcome(lambda: q.Quantizer().get_config(), "does not implement get_config")]


@program
def p_quantizers_pack_unpack_int4_docstring(tf):
    q = tf.keras.quantizers
    out = []
    for array, axis in ((np.array([[-3, 7], [2, -8], [1, 0]], dtype=np.int8), 0),
                        (np.array([[-3, 7, 2], [-8, 1, 0]], dtype=np.int8), 1)):
        packed, packed_shape, orig_len = q.pack_int4(array, axis=axis)
        unpacked = q.unpack_int4(packed, orig_len, axis=axis)
        out.append([val(packed), list(packed_shape), orig_len, val(unpacked)])
    u = np.array([[3, 7, 2], [15, 1, 0]], dtype=np.uint8)
    packed, _, n = q.pack_int4(u, axis=-1, dtype="uint8")
    out.append([val(packed), val(q.unpack_int4(packed, n, axis=-1, dtype="uint8"))])
    out.append(outcome(lambda: q.pack_int4(np.zeros((2,), np.int32)), "Expected int8 tensor for packing"))
    out.append(outcome(lambda: q.pack_int4(np.zeros((2,), np.int8), dtype="int4"), "Expected dtype"))
    return out


@program
def p_quantizers_fake_quant_values_and_gradients(tf):
    q = tf.keras.quantizers
    x = tf.constant(data((2, 6), scale=1.5))
    lo, hi = tf.Variable(-1.0), tf.Variable(0.9)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = q.fake_quant_with_min_max_vars(x, lo, hi, num_bits=4)
        loss = tf.reduce_sum(y * tf.constant(data((2, 6), seed=3)))
    grads = tape.gradient(loss, [x, lo, hi])
    narrow = q.fake_quant_with_min_max_vars(x, -0.7, 1.1, num_bits=8, narrow_range=True)
    lo_c, hi_c = tf.Variable([-1.0, -0.5]), tf.Variable([0.5, 1.2])
    with tf.GradientTape() as tape:
        yc = q.fake_quant_with_min_max_vars(x, lo_c, hi_c, num_bits=3, axis=0)
        loss_c = tf.reduce_sum(yc * yc)
    grads_c = tape.gradient(loss_c, [lo_c, hi_c])
    traced = tf.function(lambda t: q.fake_quant_with_min_max_vars(t, -1.0, 0.9, num_bits=4))(x)
    return [val(y), val(grads), val(narrow), val(yc), val(grads_c), val(traced)]


@program
def p_quantizers_float8_helpers(tf):
    q = tf.keras.quantizers
    amax = tf.constant([2.0, 0.0, float("inf"), 0.5])
    scale = tf.constant([1.0, 2.0, 4.0, 0.25])
    history = tf.constant([1.0, 2.0, 3.0, 4.0])
    new_history = q.compute_float8_amax_history(tf.constant(data((3, 3), scale=5.0)), history)
    traced = tf.function(lambda a, s: q.compute_float8_scale(a, s, 448.0, margin=1))(amax, scale)
    qd = q.quantize_and_dequantize(tf.constant(data((4,), scale=1e5)), 0.5, "float16", "float32")
    return [val(q.compute_float8_scale(amax, scale, 448.0)), val(traced), val(new_history), val(qd),
            outcome(lambda: q.quantize_and_dequantize(tf.constant([1.0]), 0.5, "int8", "float32"), "not inexact")]
