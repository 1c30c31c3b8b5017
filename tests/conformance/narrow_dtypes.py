"""TF 2.21's narrow dtypes (tf.experimental.float8_*, float4_e2m1fn, int4, uint4, int2, uint2) and tf.resource /
tf.variant (helper gapsa): their attributes, the casts TF's kernel accepts and their rounding and wrapping, the
ops that refuse them, and shape ops on them eagerly and in tf.function."""

from __future__ import annotations

from . import outcome, program, val

_NAMES = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
          "float4_e2m1fn", "int4", "uint4", "int2", "uint2"]


def _wide(tf, x):
    """The values of a narrow tensor, widened for JSON (float32 or int32, as TF allows)."""
    target = tf.float32 if x.dtype.is_floating else tf.int32
    return [x.dtype.name, x.shape.as_list(), tf.cast(x, target).numpy().tolist()]


@program
def p_narrow_dtype_attributes(tf):
    rows = []
    for name in _NAMES:
        d = getattr(tf.experimental, name)
        rows.append([repr(d), str(d), d.as_datatype_enum, d.is_floating, d.is_integer, d.is_unsigned, d.size,
                     float(d.min), float(d.max), d is getattr(tf.dtypes.experimental, name), d.name])
    return rows


@program
def p_resource_variant_dtypes(tf):
    return [repr(tf.resource), str(tf.variant), tf.resource.as_datatype_enum, tf.variant.as_datatype_enum,
            tf.resource.is_numpy_compatible, tf.resource.size, tf.variant.is_floating,
            tf.as_dtype("resource") == tf.resource, tf.dtypes.variant == tf.variant,
            outcome(lambda: tf.resource.min, "Cannot find minimum value")]


@program
def p_float8_rounding_and_back(tf):
    x = tf.constant([1.5, 2.3, -100.0, 300.0, 0.017, 1e6])
    out = []
    for name in ["float8_e4m3fn", "float8_e5m2"]:
        y = tf.cast(x, getattr(tf.experimental, name))
        out += [_wide(tf, y), val(tf.cast(y, tf.int32)), val(tf.cast(y, tf.uint8)), val(tf.cast(y, tf.float64))]
    y = tf.cast(x, tf.experimental.float8_e4m3fn)
    out.append(_wide(tf, tf.cast(y, tf.experimental.float8_e5m2)))
    return out


@program
def p_int4_wrapping(tf):
    i = tf.cast(tf.constant([1, 7, 9, -9, 16, -1]), tf.experimental.int4)
    u = tf.cast(tf.constant([1, 7, 9, -9, 16, -1]), tf.experimental.uint4)
    return [_wide(tf, i), _wide(tf, u), _wide(tf, tf.cast(i, tf.experimental.uint4)), val(tf.cast(u, tf.int64))]


@program
def p_narrow_shape_ops_eager_and_function(tf):
    x = tf.cast(tf.constant([[1.5, 2.25, -3.0], [4.0, 0.5, 8.0]]), tf.experimental.float8_e5m2)
    i = tf.cast(tf.constant([[1, -2], [3, 4]]), tf.experimental.int4)

    def float_shapes(a):  # TF 2.21's CPU kernels for float8 (int4 lacks Transpose, ConcatV2, Pack, StridedSlice...)
        return [tf.transpose(a), tf.reshape(a, [-1]), tf.concat([a, a], 0), tf.stack([a, a]), a[1], tf.identity(a),
                tf.gather(a, [1, 0]), tf.expand_dims(a, 0), tf.split(a, 2)[1]]

    def int_shapes(a):
        return [tf.reshape(a, [-1]), tf.identity(a), tf.expand_dims(a, 0), tf.split(a, 2)[1]]

    out = []
    for fn in (float_shapes, tf.function(float_shapes)):
        out.append([_wide(tf, t) for t in fn(x)])
    for fn in (int_shapes, tf.function(int_shapes)):
        out.append([_wide(tf, t) for t in fn(i)])
    return out


@program
def p_narrow_refusals(tf):
    x = tf.cast(tf.constant([1.0, 2.0, 3.0]), tf.experimental.float8_e4m3fn)
    i = tf.cast(tf.constant([1, 2]), tf.experimental.int4)
    return [outcome(lambda: x + x, "float8_e4m3fn"), outcome(lambda: x * x, "float8_e4m3fn"),
            outcome(lambda: tf.reduce_sum(x), "float8_e4m3fn"), outcome(lambda: tf.abs(x), "float8_e4m3fn"),
            outcome(lambda: i + i, "int4"),
            outcome(lambda: tf.cast(tf.constant([1]), tf.experimental.float8_e5m2), "not supported"),
            outcome(lambda: tf.cast(tf.constant([1.0]), tf.experimental.float4_e2m1fn), "not supported"),
            outcome(lambda: tf.cast(tf.constant([1]), tf.experimental.int2), "not supported"),
            outcome(lambda: tf.cast(i, tf.experimental.float8_e5m2), "not supported")]
