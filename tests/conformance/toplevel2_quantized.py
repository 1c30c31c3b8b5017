"""TF's quantized dtypes (tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32, tf.dtypes.QUANTIZED_DTYPES) and
tf.quantization.quantize / dequantize / quantized_concat: every mode, round mode and narrow_range, per-axis
ranges, eagerly and inside tf.function. TF's oneDNN build computes three combinations differently from TF's
reference kernels (quint8 MIN_FIRST without narrow_range, SCALED HALF_TO_EVEN without narrow_range for qint8, and
qint32 SCALED, which it refuses): those are left out here; tests/test_toplevel2_quantized.py checks them against numbers
recorded from TF with TF_ENABLE_ONEDNN_OPTS=0."""

from __future__ import annotations

from . import outcome, program, val

_X = [1.0, -2.0, 3.5, -4.5, 0.3, 7.0, -0.0196, 0.1254]
_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")


def _onednn_differs(name, mode, round_mode, narrow_range):
    if narrow_range:
        return False
    return (name, mode) == ("quint8", "MIN_FIRST") or (mode, round_mode) == ("SCALED", "HALF_TO_EVEN") and \
        name in ("qint8", "qint32")


def _types(tf):
    return [tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32]


@program
def p_quantized_dtypes(tf):
    import numpy as np

    rows = []
    for d in _types(tf):
        rows.append([d.name, repr(d), str(d), d.as_datatype_enum, d.is_quantized, d.is_integer, d.is_floating,
                     d.size, str(d.as_numpy_dtype), d.is_numpy_compatible, tf.as_dtype(d.as_numpy_dtype) == d,
                     tf.as_dtype(d.name) == d, d in tf.dtypes.QUANTIZED_DTYPES, d == tf.as_dtype(d.as_datatype_enum),
                     outcome(lambda d=d: d.min, "quantized type")])
    return [rows, tf.int8 in tf.dtypes.QUANTIZED_DTYPES, tf.dtypes.qint8 is tf.qint8, tf.float32.is_quantized,
            tf.as_dtype(np.int8) == tf.qint8, tf.qint8 == tf.int8]


@program
def p_quantized_tensors(tf):
    q = tf.constant([1, -2, 3], tf.qint8)
    c = tf.cast(tf.constant([[1, 2], [3, 4]]), tf.quint8)
    return [val(q), val(c), val(tf.reshape(c, [4])), val(tf.identity(q)), val(tf.concat([q, q], 0)),
            outcome(lambda: q + q, "qint8")]


@program
def p_quantize_every_mode(tf):
    x = tf.constant(_X)
    rows = []
    for T in _types(tf):
        for mode in _MODES:
            for round_mode in ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"):
                for narrow_range in (False, True):
                    if _onednn_differs(T.name, mode, round_mode, narrow_range):
                        continue
                    rows.append([T.name, mode, round_mode, narrow_range, outcome(
                        lambda T=T, m=mode, r=round_mode, n=narrow_range: tf.quantization.quantize(
                            x, -4.0, 4.0, T, mode=m, round_mode=r, narrow_range=n), "HALF_TO_EVEN")])
    return rows


@program
def p_dequantize_every_mode(tf):
    x = tf.constant(_X)
    rows = []
    for T in _types(tf):
        for mode in _MODES:
            for narrow_range in (False, True):
                if _onednn_differs(T.name, mode, "HALF_TO_EVEN", narrow_range) or \
                        (T.name, mode) == ("qint32", "SCALED"):
                    continue
                q = tf.quantization.quantize(x, -4.0, 4.0, T, mode=mode, narrow_range=narrow_range)
                for low, high in ((q.output_min, q.output_max), (-1.5, 2.5), (0.0, 0.0)):
                    rows.append([T.name, mode, narrow_range, val(tf.quantization.dequantize(
                        q.output, low, high, mode=mode, narrow_range=narrow_range))])
    return rows


@program
def p_quantize_ranges(tf):
    x = tf.constant(_X)
    rows = []
    for low, high in ((1.0, 1.0), (-0.001, 0.001), (3.0, 5.0), (-100.0, -50.0)):
        for T in (tf.qint8, tf.quint8):
            rows.append(val(tf.quantization.quantize(x, low, high, T)))
            rows.append(val(tf.quantization.quantize(x, low, high, T, ensure_minimum_range=0.5)))
            rows.append(val(tf.quantization.quantize(x, low, high, T, mode="SCALED", ensure_minimum_range=0.0)))
    rows.append(outcome(lambda: tf.quantization.quantize(x, 2.0, 1.0, tf.qint8), "must be larger"))
    rows.append(outcome(lambda: tf.quantization.quantize(x, -1.0, 1.0, tf.qint8, round_mode="HALF_TO_EVEN"),
                        "only supported for mode 'SCALED'"))
    rows.append(val(tf.quantization.dequantize(tf.quantization.quantize(x, -4.0, 4.0, tf.qint8).output, -4.0, 4.0,
                                               dtype=tf.bfloat16)))
    return rows


@program
def p_quantize_per_axis(tf):
    y = tf.constant([[1.0, -2.0, 3.5], [0.25, 0.5, -0.75]])
    rows = []
    for mode in ("MIN_COMBINED", "SCALED", "MIN_FIRST"):
        for axis in (0, 1, -1):
            n = 2 if axis == 0 else 3
            lows, highs = [-4.0, -1.0, -0.5][:n], [4.0, 1.0, 2.0][:n]

            def both(lows=lows, highs=highs, mode=mode, axis=axis):
                q = tf.quantization.quantize(y, lows, highs, tf.qint8, mode=mode, axis=axis)
                return [q, tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode=mode, axis=axis)]
            rows.append(outcome(both, "MIN_FIRST"))
    return rows


@program
def p_quantize_in_function(tf):
    @tf.function
    def round_trip(x, low, high):
        q = tf.quantization.quantize(x, low, high, tf.quint8)
        s = tf.quantization.quantize(x, low, high, tf.qint16, mode="SCALED", narrow_range=True)
        back = tf.quantization.dequantize(q.output, q.output_min, q.output_max)
        return q.output, back, tf.quantization.dequantize(s.output, s.output_min, s.output_max, mode="SCALED",
                                                          narrow_range=True)
    return val(round_trip(tf.constant([[0.5, -1.25], [2.0, 9.0]]), tf.constant(-2.0), tf.constant(3.0)))


@program
def p_quantized_concat(tf):
    rows = []
    for T in (tf.quint8, tf.qint32):
        a = tf.quantization.quantize(tf.constant([[1.0, -2.0], [0.5, 3.0]]), -3.0, 3.0, T)
        b = tf.quantization.quantize(tf.constant([[0.1, 5.0], [-0.7, 1.0]]), -1.0, 5.0, T)
        for axis in (0, 1):
            c = tf.quantization.quantized_concat(axis, [a.output, b.output], [a.output_min, b.output_min],
                                                 [a.output_max, b.output_max])
            rows.append([val(c), val(tf.quantization.dequantize(c.output, c.output_min, c.output_max))])
        rows.append(val(tf.quantization.quantized_concat(0, [a.output, a.output], [a.output_min, a.output_min],
                                                         [a.output_max, a.output_max])))
        rows.append(outcome(lambda a=a, b=b: tf.quantization.quantized_concat(
            -1, [a.output, b.output], [a.output_min, b.output_min], [a.output_max, b.output_max]),
            "concatenating dimensions"))

    @tf.function
    def joined(x, y):
        qx, qy = tf.quantization.quantize(x, -1.0, 1.0, tf.quint8), tf.quantization.quantize(y, 0.0, 6.0, tf.quint8)
        return tf.quantization.quantized_concat(1, [qx.output, qy.output], [qx.output_min, qy.output_min],
                                                [qx.output_max, qy.output_max])
    rows.append(val(joined(tf.constant([[0.5], [-0.25]]), tf.constant([[5.5, 1.0], [2.0, 0.0]]))))
    return rows


def _quint8_inputs(tf):
    import numpy as np

    rng = np.random.default_rng(5)
    x = tf.constant(rng.uniform(-1, 3, (2, 5, 6, 3)).astype(np.float32))
    w = tf.constant(rng.uniform(-0.5, 0.7, (3, 2, 3, 4)).astype(np.float32))
    return tf.quantization.quantize(x, -1.0, 3.0, tf.quint8), tf.quantization.quantize(w, -0.5, 0.7, tf.quint8)


@program
def p_quantized_conv2d(tf):
    qx, qw = _quint8_inputs(tf)
    rows = []
    for strides, padding in (([1, 1, 1, 1], "VALID"), ([1, 1, 1, 1], "SAME"), ([1, 2, 2, 1], "SAME")):
        rows.append(val(tf.compat.v1.nn.quantized_conv2d(qx.output, qw.output, qx.output_min, qx.output_max,
                                                         qw.output_min, qw.output_max, strides, padding)))
    rows.append(outcome(lambda: tf.compat.v1.nn.quantized_conv2d(
        qx.output, qw.output, qx.output_min, qx.output_max, qw.output_min, qw.output_max, [1, 2, 1, 1], "VALID"),
        "equal length strides"))
    return rows


@program
def p_quantized_max_pool(tf):
    qx, _ = _quint8_inputs(tf)
    rows = []
    for ksize, strides, padding in (([1, 3, 2, 1], [1, 2, 2, 1], "SAME"), ([1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
                                    ([1, 3, 3, 1], [1, 3, 3, 1], "SAME")):
        rows.append(val(tf.compat.v1.nn.quantized_max_pool(qx.output, qx.output_min, qx.output_max, ksize, strides,
                                                           padding)))
    return rows
