"""tf.OptionalSpec and tf.NoneTensorSpec as tf.function arguments, as TensorFlow 2.21 takes them: an Optional
through an input_signature (with and without a value, a dict element), Optionals as ordinary arguments (keyed by
their element spec: same shape, no retrace), a concrete function of an OptionalSpec, an Optional returned,
NoneTensorSpec in an input_signature (the function sees None, whatever is passed there) and the errors."""

from __future__ import annotations

from . import outcome, program, val


@program
def p_function_optional_spec_signature(tf):
    spec = tf.OptionalSpec(tf.TensorSpec([], tf.int32))

    @tf.function(input_signature=[spec])
    def doubled(opt):
        return tf.cond(opt.has_value(), lambda: opt.get_value() * 2, lambda: tf.constant(-1))

    full = doubled(tf.experimental.Optional.from_value(21))
    empty = doubled(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)))
    signature = doubled.get_concrete_function().structured_input_signature
    dict_spec = tf.OptionalSpec({"a": tf.TensorSpec([2], tf.float32), "b": tf.TensorSpec([None], tf.int64)})

    @tf.function(input_signature=[dict_spec])
    def parts(opt):
        value = opt.get_value()
        return value["a"] * 2.0, tf.reduce_sum(value["b"])

    got = parts(tf.experimental.Optional.from_value({"a": tf.constant([1.0, 2.0]),
                                                     "b": tf.constant([3, 4, 5], tf.int64)}))
    return [val(full), val(empty), repr(signature), val(list(got)),
            outcome(lambda: doubled(tf.constant(3)), ""),
            outcome(lambda: doubled(tf.experimental.Optional.from_value(1.5)), "")]


@program
def p_function_optional_arguments(tf):
    @tf.function
    def plus(opt, x):
        return opt.get_value() + x

    first = plus(tf.experimental.Optional.from_value(tf.constant([1.0, 2.0])), 1.0)
    once = plus.experimental_get_tracing_count()
    second = plus(tf.experimental.Optional.from_value(tf.constant([3.0, 4.0])), 1.0)
    same = plus.experimental_get_tracing_count()
    third = plus(tf.experimental.Optional.from_value(tf.constant([3.0, 4.0, 5.0])), 1.0)
    counts = [once, same, plus.experimental_get_tracing_count()]
    spec = tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    has = tf.function(lambda o: o.has_value()).get_concrete_function(spec)
    made = tf.function(lambda x: tf.experimental.Optional.from_value(x * 3))(tf.constant(2))
    return [val(first), val(second), val(third), counts,
            val(has(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)))),
            val(has(tf.experimental.Optional.from_value(5))),
            val(made.has_value()), val(made.get_value()), repr(made.element_spec)]


@program
def p_function_none_tensor_spec(tf):
    traces = []

    @tf.function(input_signature=[tf.NoneTensorSpec(), tf.TensorSpec([], tf.float32)])
    def pick(n, x):
        traces.append(n is None)
        return x if n is None else x * 2

    @tf.function
    def plain(n, x):
        traces.append(type(n).__name__)
        return x + 1

    plain(None, tf.constant(1.0))
    plain(None, tf.constant(2.0))
    return [val(pick(None, tf.constant(2.0))), repr(pick.get_concrete_function().structured_input_signature),
            val(pick(tf.constant(1.0), tf.constant(3.0))), plain.experimental_get_tracing_count(), traces]
