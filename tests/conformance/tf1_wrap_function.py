"""tf.compat.v1.wrap_function as TensorFlow 2.21 runs it: TF1 code with get_variable lifted into eager variables,
prune by tensors and names (feeding an intermediate tensor, fetching an op), the migrate guide's
import_meta_graph + Saver(sess=None) restore, and the errors of a wrong call."""

from __future__ import annotations

import os
import tempfile

from . import data, outcome, program, val


@program
def p_tf1_wrap_function_variables(tf):
    v1 = tf.compat.v1

    def f(x):
        v = v1.get_variable("v", initializer=2.0)
        w = v1.get_variable("w", shape=[3], initializer=v1.ones_initializer())
        with v1.variable_scope("s"):
            u = v1.get_variable("u", [3], initializer=v1.constant_initializer(data([3])))
        with v1.variable_scope("s", reuse=True):
            again = v1.get_variable("u")
        return x * v + w + u + again

    wf = v1.wrap_function(f, [tf.TensorSpec([3], tf.float32)])
    first = wf(tf.constant([1.0, 2.0, 3.0]))
    wf.variables[0].assign(5.0)
    second = wf([1.0, 2.0, 3.0])
    names = sorted(v.name for v in wf.variables)  # TF's order is its capture bookkeeping's
    return [val(first), val(second), names, sorted(v.name for v in wf.trainable_variables),
            [t.shape.as_list() for t in wf.inputs], len(wf.outputs),
            isinstance(wf, tf.types.experimental.ConcreteFunction)]


@program
def p_tf1_wrap_function_assign_and_structures(tf):
    v1 = tf.compat.v1

    def count():
        c = v1.get_variable("c", [], initializer=v1.zeros_initializer(), trainable=False)
        return c.assign_add(1.0)

    wc = v1.wrap_function(count, [])
    counts = [val(wc()), val(wc())]
    wk = v1.wrap_function(lambda a, b: {"s": a + b, "p": [a * b, b]},
                          [tf.TensorSpec([], tf.int32), tf.TensorSpec([None], tf.int32)])
    return [counts, val(wc.variables[0]), len(wc.trainable_variables), val(wk(tf.constant(2), tf.constant([3, 4])))]


@program
def p_tf1_wrap_function_prune(tf):
    v1 = tf.compat.v1

    def g():
        x = v1.placeholder(tf.float32, [None], name="x")
        y = tf.identity(x * 2.0, name="y")
        z = tf.identity(y + 1.0, name="z")
        v1.add_to_collection("outs", z)
        return z

    wg = v1.wrap_function(g, [])
    by_name = wg.prune("x:0", "y:0")
    graph = wg.graph
    from_y = wg.prune(feeds=[graph.get_tensor_by_name("y:0")], fetches={"z": graph.get_tensor_by_name("z:0")})
    op_fetch = wg.prune("x:0", graph.get_operation_by_name("y"))
    both = wg.prune(["x:0"], ["y:0", graph.get_tensor_by_name("z:0")])
    return [val(by_name(tf.constant([1.0, 2.0]))), val(from_y(tf.constant([1.0, 2.0]))),
            op_fetch(tf.constant([1.0])), val(both(tf.constant([4.0]))),
            outcome(lambda: both([4.0]), "expected argument #0(zero-based) to be a Tensor"),
            [t.name for t in graph.get_collection("outs")],
            [t.name for t in wg.outputs], val(wg.prune([], [])())]


@program
def p_tf1_wrap_function_import_meta_graph(tf):
    """The migrate guide's (saved_model.ipynb) TF1 MetaGraph imported into a wrapped function."""
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[], name="x")
        v = tf.Variable(3.0, name="v")
        tf.multiply(x, v, name="y")
        with v1.Session() as sess:
            sess.run(v.initializer)
            sess.run(v.assign(4.0))
            saver = v1.train.Saver()
            saver.export_meta_graph(os.path.join(folder, "multiply.pb"), as_text=True)
            saver.save(sess, os.path.join(folder, "multiply_values.ckpt"))

    def import_multiply():
        v1.train.import_meta_graph(os.path.join(folder, "multiply.pb"))

    wrapped = v1.wrap_function(import_multiply, [])
    graph = wrapped.graph
    multiply = wrapped.prune(feeds=graph.get_tensor_by_name("x:0"), fetches=graph.get_tensor_by_name("y:0"))
    v1.train.Saver(wrapped.variables).restore(sess=None, save_path=os.path.join(folder, "multiply_values.ckpt"))
    return [val(multiply(tf.constant(5.0))), [v.name for v in wrapped.variables], val(wrapped.variables[0])]


@program
def p_tf1_wrap_function_call_errors(tf):
    v1 = tf.compat.v1
    wp = v1.wrap_function(lambda a, b: a * b, [tf.TensorSpec([None], tf.float32, name="aa"),
                                                tf.TensorSpec([], tf.float32)])
    return [[t.name for t in wp.inputs], val(wp(tf.constant([1.0, 2.0]), tf.constant(3.0))),
            outcome(lambda: wp(a=tf.constant([1.0]), b=tf.constant(3.0)), "Keyword arguments are not supported"),
            outcome(lambda: wp(tf.constant([1, 2]), tf.constant(3)), "Tensor conversion requested dtype float32"),
            outcome(lambda: wp(tf.constant([1.0])), "Signature specifies 2 arguments, got: 1"),
            outcome(lambda: wp.prune("nope:0", "Placeholder:0"), "refers to a Tensor which does not exist")]
