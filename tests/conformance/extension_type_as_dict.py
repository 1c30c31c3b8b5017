"""tf.experimental.extension_type.as_dict: the fields of an ExtensionType value or Spec as a dict (one level:
nested extension types stay objects), and AttributeError for values that are no extension type.
(No `from __future__ import annotations` here: the classes' annotations name the `tf` each program gets.)"""

from . import outcome, program, val


@program
def p_as_dict_value_and_spec(tf):
    class Inner(tf.experimental.ExtensionType):
        x: tf.Tensor

    class Outer(tf.experimental.ExtensionType):
        values: tf.Tensor
        inner: Inner
        name: str = "outer"
        shape: tf.TensorShape = tf.TensorShape([2])

    value = Outer([1, 2], Inner(3.5))
    d = tf.experimental.extension_type.as_dict(value)
    spec = tf.experimental.extension_type.as_dict(value._type_spec)
    return [type(d).__name__, list(d), val(d["values"]), type(d["inner"]).__name__, d["name"], repr(d["shape"]),
            d["inner"] is value.inner, list(spec), repr(spec["values"]), type(spec["inner"]).__name__,
            repr(tf.experimental.extension_type.as_dict(value.inner)["x"])]


@program
def p_as_dict_errors_and_structured(tf):
    st = tf.experimental.StructuredTensor.from_pyval({"a": 1, "b": [1, 2]})
    d = tf.experimental.extension_type.as_dict(st)
    return [sorted(d), sorted(d["_fields"]), val(d["_fields"]["b"]), d["_ragged_shape"].rank,
            outcome(lambda: tf.experimental.extension_type.as_dict(3), "_tf_extension_type_fields"),
            outcome(lambda: tf.experimental.extension_type.as_dict(tf.constant(1)), "")]
