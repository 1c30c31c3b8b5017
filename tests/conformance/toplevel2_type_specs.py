"""tf.TypeSpec and the specs TF exports beside it (tf.NoneTensorSpec, tf.OptionalSpec, tf.TensorArraySpec):
isinstance as in TF, _serialize, equality and hashing, is_compatible_with, is_subtype_of and
most_specific_common_supertype, for TensorSpec and the composites' specs too."""

from __future__ import annotations

from . import outcome, program, val


@program
def p_type_spec_hierarchy(tf):
    specs = [tf.TensorSpec([2, None], tf.float32), tf.RaggedTensorSpec([2, None]), tf.SparseTensorSpec([3, 4]),
             tf.IndexedSlicesSpec([None, 2]), tf.NoneTensorSpec(), tf.TensorArraySpec([2], tf.int32),
             tf.OptionalSpec(tf.TensorSpec([], tf.int32))]
    return [[isinstance(s, tf.TypeSpec) for s in specs], isinstance(tf.constant(1.0), tf.TypeSpec),
            [repr(s) for s in specs[4:]]]


@program
def p_tensor_spec_as_type_spec(tf):
    s = tf.TensorSpec([2, None], tf.float32)
    named = tf.TensorSpec([2, 3], tf.float32, name="x")
    return [repr(s._serialize()), repr(s.most_specific_common_supertype([tf.TensorSpec([3, 4], tf.float32)])),
            repr(s.most_specific_common_supertype([tf.TensorSpec([3], tf.float32)])),
            s.most_specific_common_supertype([tf.TensorSpec([2, 1], tf.int32)]),
            repr(s.most_specific_common_supertype([tf.TensorSpec([2, 7], tf.float32), tf.TensorSpec([2, 1])])),
            repr(named.most_specific_common_supertype([tf.TensorSpec([2, 3], tf.float32, name="x")])),
            repr(named.most_specific_common_supertype([tf.TensorSpec([2, 3], tf.float32, name="y")])),
            s.value_type.__name__ in ("Tensor",),
            s.is_subtype_of(tf.TensorSpec(None, tf.float32)), tf.TensorSpec(None).is_subtype_of(s),
            tf.TensorSpec([2, 5]).is_subtype_of(s), tf.TensorSpec([2, 5], tf.int32).is_subtype_of(s),
            repr(s.most_specific_compatible_type(tf.TensorSpec([2, 8])))]


@program
def p_none_tensor_spec(tf):
    n = tf.NoneTensorSpec()
    return [repr(n), n._serialize(), n == tf.NoneTensorSpec(), n != tf.NoneTensorSpec(),
            hash(n) == hash(tf.NoneTensorSpec()), n.is_compatible_with(tf.NoneTensorSpec()),
            repr(n.most_specific_common_supertype([tf.NoneTensorSpec()])), n.is_subtype_of(tf.NoneTensorSpec()),
            n.is_compatible_with(tf.TensorSpec([])), n.most_specific_common_supertype([tf.TensorSpec([])]),
            repr(tf.type_spec_from_value(None)), n.value_type.__name__]


@program
def p_tensor_array_spec(tf):
    t = tf.TensorArraySpec([2], tf.int32, dynamic_size=True)
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    grown = tf.TensorArray(tf.int32, size=0, dynamic_size=True, infer_shape=False)
    return [repr(t), repr(t._serialize()), t.value_type.__name__,
            t.is_compatible_with(tf.TensorArraySpec([2], tf.int32, True)),
            t.is_compatible_with(tf.TensorArraySpec(None, tf.int32, True)),
            t.is_compatible_with(tf.TensorArraySpec([3], tf.int32, True)),
            t.is_compatible_with(tf.TensorArraySpec([2], tf.int32, False)),
            t.is_compatible_with(tf.TensorArraySpec([2], tf.float32, True)),
            t.most_specific_common_supertype([tf.TensorArraySpec([3], tf.int32, False)]),
            t.most_specific_common_supertype([tf.TensorArraySpec([2], tf.float32, True)]),
            repr(t.most_specific_common_supertype([tf.TensorArraySpec([2], tf.int32, True, False)])),
            repr(tf.TensorArraySpec.from_value(ta)), repr(tf.type_spec_from_value(ta)),
            repr(tf.type_spec_from_value(grown)), t == tf.TensorArraySpec([2], tf.int32, True),
            hash(t) == hash(tf.TensorArraySpec([2], tf.int32, True)), t == tf.TensorArraySpec([2], tf.int32),
            outcome(lambda: tf.TensorArraySpec.from_value(tf.constant(1)), "TensorArray")]


@program
def p_optional_spec(tf):
    o = tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    opt = tf.experimental.Optional.from_value(tf.constant(3))
    pair = tf.experimental.Optional.from_value((tf.constant([1.0, 2.0]), {"a": tf.constant("x")}))
    return [repr(o), repr(o._serialize()), o.is_compatible_with(tf.OptionalSpec(tf.TensorSpec(None, tf.int32))),
            o.is_compatible_with(tf.OptionalSpec(tf.TensorSpec([], tf.float32))),
            repr(o.most_specific_common_supertype([tf.OptionalSpec(tf.TensorSpec([2], tf.int32))])),
            o.most_specific_common_supertype([tf.OptionalSpec(tf.TensorSpec([2], tf.float32))]),
            o.is_subtype_of(tf.OptionalSpec(tf.TensorSpec(None, tf.int32))),
            tf.OptionalSpec(tf.TensorSpec(None, tf.int32)).is_subtype_of(o),
            repr(tf.OptionalSpec.from_value(opt)), repr(tf.type_spec_from_value(opt)),
            tf.OptionalSpec.from_value(opt) == o, hash(tf.OptionalSpec.from_value(opt)) == hash(o),
            repr(tf.OptionalSpec.from_value(pair)),
            tf.OptionalSpec.from_value(pair).is_compatible_with(tf.OptionalSpec(
                (tf.TensorSpec([None], tf.float32), {"a": tf.TensorSpec([], tf.string)}))),
            repr(tf.OptionalSpec.from_value(pair).most_specific_common_supertype([tf.OptionalSpec(
                (tf.TensorSpec([5], tf.float32), {"a": tf.TensorSpec([], tf.string)}))]))]


@program
def p_composite_specs_as_type_specs(tf):
    r = tf.RaggedTensorSpec([2, None, 3])
    sp = tf.SparseTensorSpec([2, 3])
    return [repr(r.most_specific_common_supertype([tf.RaggedTensorSpec([4, None, 3])])),
            r.is_subtype_of(tf.RaggedTensorSpec([None, None, 3])),
            tf.RaggedTensorSpec([None, None, 3]).is_subtype_of(r),
            repr(sp.most_specific_common_supertype([tf.SparseTensorSpec([2, 4])])),
            sp.most_specific_common_supertype([tf.SparseTensorSpec([2, 4], tf.int32)]),
            sp.is_subtype_of(tf.SparseTensorSpec([None, 3])),
            val(sp.is_compatible_with(tf.SparseTensorSpec([2, None])))]
