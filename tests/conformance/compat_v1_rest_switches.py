"""TF1's opt-outs, autograph's TF1 signatures and the per-channel fake-quant gradient (helper v1rest). The opt-outs
are undone at the end of each program (TF's really switch; tinytf keeps v2 and warns): the numbers a TF1 graph
computes after them are the same either way, and those are compared."""

from __future__ import annotations

import numpy as np

from . import program, val


def graph_numbers(tf):
    """A TF1 graph with a cond, a while_loop, a variable and static shapes, run in a Session."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 3])
        v = v1.get_variable("v", initializer=np.float32(2.0))
        branch = tf.cond(tf.reduce_sum(x) > 0, lambda: x * v, lambda: x - v)
        _, total = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + tf.reduce_sum(branch)),
                                 [tf.constant(0), tf.constant(0.0)])
        rows = int(x.shape[0])
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        return [rows, sess.run(total, {x: np.ones((2, 3), np.float32)}).item(),
                sess.run(total, {x: -np.ones((2, 3), np.float32)}).item()]


@program
def p_v1rest_switch_offs(tf):
    v1 = tf.compat.v1
    try:
        v1.disable_control_flow_v2()
        v1.disable_resource_variables()
        v1.disable_v2_tensorshape()
        v1.experimental.output_all_intermediates(True)
        numbers = graph_numbers(tf)
    finally:
        v1.enable_control_flow_v2()
        v1.enable_resource_variables()
        v1.enable_v2_tensorshape()
        v1.experimental.output_all_intermediates(None)
    return {"numbers": numbers, "after": [v1.control_flow_v2_enabled(), v1.resource_variables_enabled()]}


def absolute(x):
    if x < 0:
        x = -x
    return x


@program
def p_v1rest_autograph_v1_signatures(tf):
    v1 = tf.compat.v1
    code = v1.autograph.to_code(absolute, arg_values={}, arg_types={}, indentation="    ")
    converted = v1.autograph.to_graph(absolute, arg_values={}, arg_types={})
    return {"code": ["def tf__absolute(x)" in code, "ag__" in code], "eager": val(converted(tf.constant(-3.0))),
            "function": val(tf.function(converted)(tf.constant(-4)))}


@program
def p_v1rest_fake_quant_per_channel_gradient(tf):
    v1 = tf.compat.v1
    inputs = tf.constant([[-1.0, 0.3, 2.5], [0.1, 5.0, -0.2]])
    grads = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    result = v1.fake_quant_with_min_max_vars_per_channel_gradient(grads, inputs, [-0.5, 0.0, -1.0], [1.0, 4.0, 2.0],
                                                                  num_bits=8)
    return {"same": v1.fake_quant_with_min_max_vars_per_channel_gradient
            is tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient, "values": [val(t) for t in result]}
