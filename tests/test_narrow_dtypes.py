"""TF 2.21's narrow dtypes (float8_*, float4_e2m1fn, int4/uint4/int2/uint2) and tf.resource/tf.variant (helper
gapsa): what TF allows on them (storage, shape ops, some casts) and what it refuses (arithmetic, other casts).
TF's values are in conformance narrow_dtypes."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import tinytf as tf

E = tf.dtypes.experimental
NAMES = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
         "float4_e2m1fn", "int4", "uint4", "int2", "uint2"]
ENUMS = [25, 24, 26, 28, 27, 33, 29, 30, 31, 32]


@pytest.mark.parametrize("name,enum", zip(NAMES, ENUMS))
def test_dtype_objects_match_tf(name, enum):
    d = getattr(E, name)
    assert d is getattr(tf.experimental, name) and tf.as_dtype(name) is d and tf.as_dtype(enum) is d
    assert repr(d) == f"tf.{name}" and str(d) == f"<dtype: '{name}'>" and d.as_datatype_enum == enum
    assert d.as_numpy_dtype is getattr(ml_dtypes, name) and d.size == 1
    assert tf.as_dtype(np.dtype(getattr(ml_dtypes, name))) is d
    assert d.is_floating == name.startswith("float") and d.is_integer == ("int" in name)
    assert d.is_unsigned == name.startswith("u")
    info = ml_dtypes.finfo(d.as_numpy_dtype) if d.is_floating else ml_dtypes.iinfo(d.as_numpy_dtype)
    assert d.max == float(info.max) and d.min == float(info.min)


def test_int_limits():
    assert (E.int4.min, E.int4.max, E.uint2.min, E.uint2.max, E.int2.min) == (-8, 7, 0, 3, -2)


def test_resource_and_variant():
    assert tf.resource is tf.dtypes.resource and tf.variant is tf.dtypes.variant
    assert repr(tf.resource) == "tf.resource" and str(tf.variant) == "<dtype: 'variant'>"
    assert (tf.resource.as_datatype_enum, tf.variant.as_datatype_enum) == (20, 21)
    assert not tf.resource.is_numpy_compatible and tf.resource.size == 0 and not tf.variant.is_floating
    with pytest.raises(TypeError, match="Cannot find minimum value"):
        _ = tf.resource.min
    assert tf.as_dtype("resource") is tf.resource


def _run_both(fn, *args):
    return fn(*args), tf.function(fn)(*args)


def test_float8_storage_and_shape_ops_eager_and_graph():
    x = tf.cast(tf.constant([1.5, 2.3, -100.0]), E.float8_e4m3fn)
    want = np.array([1.5, 2.3, -100.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
    assert x.dtype is E.float8_e4m3fn and x.numpy().dtype == want.dtype
    np.testing.assert_array_equal(x.numpy().astype(np.float32), want.astype(np.float32))
    assert tf.cast(x, tf.float32).numpy().tolist() == [1.5, 2.25, -96.0]
    for out in _run_both(lambda a: tf.transpose(tf.reshape(tf.concat([a, a], 0), [2, 3])), x):
        assert out.dtype is E.float8_e4m3fn and out.shape == (3, 2)
        assert out.numpy().astype(np.float32)[:, 1].tolist() == [1.5, 2.25, -96.0]
    assert "dtype=float8_e4m3fn" in repr(x) and "-96" in repr(x)
    v = tf.Variable(x)
    assert v.dtype is E.float8_e4m3fn


def test_int4_cast_wraps_like_tf():
    i = tf.cast(tf.constant([1, 7, 9, -9]), E.int4)
    assert i.numpy().astype(np.int32).tolist() == [1, 7, -7, 7]
    assert tf.cast(i, E.uint4).dtype is E.uint4 and tf.cast(i, tf.int64).numpy().tolist() == [1, 7, -7, 7]


@pytest.mark.parametrize("op", [lambda a: a + a, lambda a: a * a, tf.reduce_sum, tf.abs, tf.nn.relu, tf.sigmoid,
                                lambda a: tf.matmul(tf.reshape(a, [1, 3]), tf.reshape(a, [3, 1]))])
def test_arithmetic_refused_as_tf(op):
    x = tf.cast(tf.constant([1.0, 2.0, 3.0]), E.float8_e5m2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="float8_e5m2"):
        op(x)
    with pytest.raises(TypeError, match="float8_e5m2"):
        tf.function(op)(x)


@pytest.mark.parametrize("source,target", [(tf.int32, E.float8_e4m3fn), (tf.float32, E.float4_e2m1fn),
                                           (tf.int32, E.int2), (tf.float32, E.int4), (tf.float32, E.float8_e4m3fnuz)])
def test_unsupported_casts_raise_unimplemented(source, target):
    with pytest.raises(tf.errors.UnimplementedError, match=f"Cast {source.name} to {target.name} is not supported"):
        tf.cast(tf.constant([1], source), target)


def test_supported_casts():
    x = tf.cast(tf.constant([1.5, 2.3]), E.float8_e4m3fn)
    assert tf.cast(x, E.float8_e5m2).dtype is E.float8_e5m2
    assert tf.cast(x, tf.int32).numpy().tolist() == [1, 2] and tf.cast(x, tf.bool).dtype is tf.bool
    assert tf.cast(tf.constant([1.0], tf.bfloat16), E.float8_e5m2).dtype is E.float8_e5m2
