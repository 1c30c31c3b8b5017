"""Every API TF 2.21 lists as elementwise runs on a RaggedTensor's flat values (TF's ragged dispatch): string
ops (lower, to_hash_bucket_fast, length, to_number, substr), math (erf, xlogy, floordiv, ...), nn activations,
casts, and the binary ones on two ragged operands of one partition; eagerly and inside tf.function."""

from __future__ import annotations

from . import program


def _rows(rt):
    def plain(x):
        if isinstance(x, list):
            return [plain(v) for v in x]
        return x.decode() if isinstance(x, bytes) else x
    return plain(rt.to_list())


@program
def p_ragged_string_elementwise_apis(tf):
    rt = tf.ragged.constant([["Hi", "there", " x "], ["Who", "is"], []])
    nums = tf.ragged.constant([["1.5", "2"], ["-3"]])
    out = [_rows(tf.strings.lower(rt)), _rows(tf.strings.upper(rt)), _rows(tf.strings.to_hash_bucket_fast(rt, 10)),
           _rows(tf.strings.to_hash_bucket_strong(rt, 7, [1, 2])), _rows(tf.strings.length(rt)),
           _rows(tf.strings.strip(rt)), _rows(tf.strings.substr(rt, 0, 2)), _rows(tf.strings.to_number(nums)),
           _rows(tf.strings.regex_full_match(rt, "[A-Z].*")), _rows(tf.strings.regex_replace(rt, "i", "!"))]
    graph = tf.function(lambda r: tf.strings.to_hash_bucket_fast(tf.strings.lower(r), 100))(rt)
    return out + [_rows(graph)]


@program
def p_ragged_math_elementwise_apis(tf):
    a = tf.ragged.constant([[0.5, 2.0], [3.0], [], [1.25, -0.75, 4.0]])
    b = tf.ragged.constant([[1.5, 0.5], [2.0], [], [0.25, 2.0, -1.0]])
    unary = [tf.math.erf, tf.math.erfc, tf.math.lgamma, tf.math.digamma, tf.math.log1p, tf.math.expm1,
             tf.math.rint, tf.nn.relu6, tf.nn.elu, tf.nn.selu, tf.nn.softsign, tf.nn.gelu, tf.math.log_sigmoid,
             tf.math.reciprocal_no_nan, tf.math.is_finite]
    out = [_rows(f(a)) for f in unary]
    binary = [tf.math.xlogy, tf.math.xdivy, tf.math.floordiv, tf.math.floormod, tf.math.squared_difference,
              tf.math.atan2, tf.math.divide_no_nan, tf.math.multiply_no_nan, tf.math.xlog1py, tf.math.greater_equal]
    out += [_rows(f(a, b)) for f in binary]
    out += [_rows(tf.cast(a, tf.int32)), _rows(tf.dtypes.saturate_cast(a * 100.0, tf.int8)),
            _rows(tf.clip_by_value(a, 0.0, 2.0)), _rows(tf.math.angle(tf.cast(a, tf.complex64)))]
    graph = tf.function(lambda x, y: tf.math.xlogy(tf.nn.relu6(x), y))(a, b)
    return out + [_rows(graph)]
