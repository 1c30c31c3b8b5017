"""tf.RegisterGradient / tf.no_gradient (their errors: a type that has a gradient, a name that is no string, a
second registration), tf.Operation (what a function graph's get_operations() returns, with TF's types,
node_def and get_attr), tf.import_graph_def at the top level, and tf.conv (TF's generic N-D convolution).
Gradients actually registered for an op type are tested in tests/test_toplevel2_graph_ops.py, which can undo
them (a registration is process-wide, in TF as here)."""

from __future__ import annotations

import itertools

from . import outcome, program, val

_fresh = itertools.count()


@program
def p_register_gradient_errors(tf):
    name = f"TopLevelTwoCustomOp{next(_fresh)}"  # a type no op has: TF keeps the registration, as tinytf does
    registered = tf.RegisterGradient(name)(lambda op, grad: grad)
    return [callable(registered), outcome(lambda: tf.RegisterGradient(name)(lambda op, grad: grad), "two gradient"),
            outcome(lambda: tf.RegisterGradient("Sqrt")(lambda op, grad: grad), "Registering two gradient"),
            outcome(lambda: tf.no_gradient("Sqrt"), "Registering two gradient"),
            outcome(lambda: tf.RegisterGradient(3), "op_type must be a string"),
            outcome(lambda: tf.no_gradient(3), "op_type must be a string"),
            tf.compat.v1.NotDifferentiable is tf.no_gradient, tf.compat.v1.NoGradient is tf.no_gradient,
            tf.compat.v1.RegisterGradient is tf.RegisterGradient]


@program
def p_operation_class(tf):
    x = tf.constant([1.0, 2.0])
    graph = tf.function(lambda x: tf.reduce_sum(x * 2.0, axis=0, keepdims=True)).get_concrete_function(x).graph
    ops = graph.get_operations()
    by_name = {o.name: o for o in ops}
    mul, total = by_name["mul"], by_name["Sum"]
    return [all(isinstance(o, tf.Operation) for o in ops), [o.type for o in ops if o.name != "Sum/reduction_indices"],
            repr(mul.get_attr("T")), repr(total.get_attr("T")), total.get_attr("keep_dims"),
            repr(total.get_attr("Tidx")), repr(by_name["x"].get_attr("dtype")),
            [d.size for d in by_name["x"].get_attr("shape").dim], type(by_name["mul/y"].get_attr("value")).__name__,
            mul.node_def.op, mul.node_def.name, list(mul.node_def.input),
            outcome(lambda: by_name["mul/y"].get_attr("T"), "has no attr named 'T'"),
            tf.compat.v1.Operation is tf.Operation]


@program
def p_import_graph_def_top_level(tf):
    graph_def = tf.function(lambda x: x * 2.0 + 1.0).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph.as_graph_def()

    @tf.function
    def imported(v):
        (out,) = tf.import_graph_def(graph_def, input_map={"x:0": v}, return_elements=["Identity:0"], name="imp")
        return out
    return [tf.import_graph_def is tf.graph_util.import_graph_def, val(imported(tf.constant([1.0, -3.0])))]


def _conv_inputs(tf):
    x = tf.reshape(tf.range(2 * 5 * 5 * 3, dtype=tf.float32) / 50.0, [2, 5, 5, 3])
    w = tf.reshape(tf.range(3 * 3 * 3 * 4, dtype=tf.float32) / 100.0, [3, 3, 3, 4])
    return x, w


@program
def p_conv_generic(tf):
    x, w = _conv_inputs(tf)
    x3 = tf.reshape(tf.range(2 * 4 * 4 * 4 * 2, dtype=tf.float32) / 50.0, [2, 4, 4, 4, 2])
    w3 = tf.reshape(tf.range(2 * 2 * 2 * 2 * 3, dtype=tf.float32) / 30.0, [2, 2, 2, 2, 3])
    return [val(tf.conv(x, w, [1, 1, 1, 1], "SAME")), val(tf.conv(x, w, [1, 2, 2, 1], "VALID")),
            val(tf.conv(x, w, [1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 1])),
            val(tf.conv(tf.reshape(x, [1, 2, 5, 5, 3]), w, [1, 1, 1, 1], "VALID", batch_dims=2)),
            val(tf.conv(x, w, [1, 2, 2, 1], "EXPLICIT", explicit_paddings=[0, 0, 1, 1, 2, 2, 0, 0])),
            val(tf.conv(x3, w3, [1, 1, 2, 1, 1], "SAME")),
            val(tf.function(lambda a, b: tf.conv(a, b, [1, 1, 1, 1], "SAME"))(x, w)),
            outcome(lambda: tf.conv(tf.transpose(x, [0, 3, 1, 2]), w, [1, 1, 1, 1], "SAME",
                                    data_format="CHANNELS_FIRST"), "NHWC"),
            outcome(lambda: tf.conv(x, tf.ones([3, 3, 1, 4]), [1, 1, 1, 1], "SAME", groups=3), "Grouped"),
            outcome(lambda: tf.conv(tf.ones([2, 7, 2]), tf.ones([3, 2, 5]), [1, 1, 1], "VALID"), "2 or 3 spatial"),
            outcome(lambda: tf.conv(x, w, [1, 1, 1, 1, 1], "SAME"), "must specify 4 dimensions")]
