"""tf.experimental.extension_type.as_dict on values, specs, nested extension types and StructuredTensors."""

import numpy as np
import pytest

import tinytf as tf


class Inner(tf.experimental.ExtensionType):
    x: tf.Tensor


class Outer(tf.experimental.ExtensionType):
    values: tf.Tensor
    inner: Inner
    name: str = "outer"


def test_as_dict_is_one_level_and_keeps_field_order():
    value = Outer([1, 2], Inner(3.0))
    d = tf.experimental.extension_type.as_dict(value)
    assert type(d) is dict and list(d) == ["values", "inner", "name"]
    assert d["inner"] is value.inner and d["name"] == "outer"
    np.testing.assert_array_equal(d["values"].numpy(), [1, 2])
    spec = tf.experimental.extension_type.as_dict(value._type_spec)
    assert spec["values"] == tf.TensorSpec([2], tf.int32) and type(spec["inner"]).__name__ == "Inner.Spec"


def test_as_dict_inside_tf_function_and_errors():
    @tf.function
    def total(v):
        fields = tf.experimental.extension_type.as_dict(v)
        return tf.reduce_sum(fields["values"]) + tf.cast(fields["inner"].x, tf.int32)

    assert int(total(Outer([1, 2], Inner(3.0)))) == 6
    with pytest.raises(AttributeError):
        tf.experimental.extension_type.as_dict(3)


def test_as_dict_of_structured_tensor():
    st = tf.experimental.StructuredTensor.from_pyval([{"a": 1}, {"a": 2}])
    d = tf.experimental.extension_type.as_dict(st)
    assert sorted(d) == ["_fields", "_ragged_shape"] and d["_ragged_shape"].rank == 1
