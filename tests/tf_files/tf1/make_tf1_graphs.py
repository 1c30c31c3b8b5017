"""Write the TF1 GraphDefs of tests/test_tf1_graph_import.py with real TensorFlow (2.21), and record what TF
computes with them into tests/tf_reference/tf1_graph_import.json. TF1 style throughout: graph mode, reference
variables (VariableV2 / Assign), control flow v1 (Switch / Merge; Enter / Exit / NextIteration / LoopCond).

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python /path/to/tests/tf_files/tf1/make_tf1_graphs.py"""

from __future__ import annotations

import json
import os

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, os.pardir, os.pardir, "tf_reference", "tf1_graph_import.json")
X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)


def save(name, graph):
    with open(os.path.join(HERE, f"{name}.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())


def variables_v2():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(None, 3), name="x")
        w = v1.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 4.0, name="W")
        b = v1.get_variable("b", shape=[2], initializer=v1.constant_initializer(0.5))
        tf.nn.relu(tf.matmul(x, w) + b, name="y")
        v1.assign_add(w, tf.ones([3, 2]) * 0.1, name="step")
        v1.global_variables_initializer()
    save("variables_v2", graph)
    with v1.Session(graph=graph) as sess:
        sess.run("init")
        first = sess.run("y:0", {"x:0": X})
        sess.run("step")
        sess.run("step")
        second = sess.run("y:0", {"x:0": X})
    ops = sorted({n.op for n in graph.as_graph_def().node})
    return {"ops": ops, "first": first.tolist(), "after_two_steps": second.tolist()}


def resource_variables():
    """The same model with TF2's resource variables in a TF1 graph (VarHandleOp, AssignVariableOp,
    ReadVariableOp, VarIsInitializedOp), saved with a TF1 Saver: its MetaGraphDef and checkpoint."""
    with v1.variable_scope("", use_resource=True):
        graph = v1.Graph()
        with graph.as_default():
            x = v1.placeholder(tf.float32, shape=(None, 3), name="x")
            w = v1.get_variable("W", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 4.0,
                                use_resource=True)
            b = v1.get_variable("b", shape=[2], initializer=v1.constant_initializer(0.5), use_resource=True)
            y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
            loss = tf.reduce_sum(tf.square(y), name="loss")
            v1.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
            init = v1.global_variables_initializer()
            saver = v1.train.Saver()
    save("resource_variables", graph)
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        first = sess.run(y, {x: X})
        for _ in range(3):
            sess.run("train", {x: X})
        trained = sess.run(y, {x: X})
        os.makedirs(os.path.join(HERE, "saver"), exist_ok=True)
        cwd = os.getcwd()
        os.chdir(os.path.join(HERE, "saver"))  # a relative prefix: the `checkpoint` file names "model", not a path
        try:
            saver.save(sess, "model", write_meta_graph=True)
        finally:
            os.chdir(cwd)
    ops = sorted({n.op for n in graph.as_graph_def().node})
    return {"ops": ops, "first": first.tolist(), "trained": trained.tolist()}


def cond_v1():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(), name="x")
        v = v1.placeholder(tf.float32, shape=(3,), name="v")
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0, name="simple")
        a, b = tf.cond(x > 1, lambda: (v * x, tf.reduce_sum(v)), lambda: (v - x, tf.constant(7.0)), name="pair")
        nested = tf.cond(x > 0,
                         lambda: tf.cond(x > 2, lambda: x * 10.0, lambda: x + 100.0, name="inner_true"),
                         lambda: tf.cond(x < -2, lambda: -x, lambda: x * x, name="inner_false"), name="outer")
        tf.identity(y, name="y")
        tf.identity(a, name="a")
        tf.identity(b, name="b")
        tf.identity(nested, name="nested")
    save("cond_v1", graph)
    results = {}
    with v1.Session(graph=graph) as sess:
        for value in (-3.0, -1.0, 0.5, 1.5, 3.0):
            out = sess.run(["y:0", "a:0", "b:0", "nested:0"], {"x:0": value, "v:0": [1.0, 2.0, 3.0]})
            results[str(value)] = [np.asarray(o).tolist() for o in out]
    ops = sorted({n.op for n in graph.as_graph_def().node})
    return {"ops": ops, "results": results}


def while_v1():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(), name="x")
        n = v1.placeholder(tf.int32, shape=(), name="n")
        _, acc = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc * x + 1.0),
                               [tf.constant(0), tf.constant(0.0)], name="horner")
        vec = tf.while_loop(lambda s: tf.reduce_sum(s) < 50.0, lambda s: s * 2.0 + x,
                            [tf.constant([1.0, 2.0])], name="doubling")
        tf.identity(acc, name="acc")
        tf.identity(vec, name="vec")
    save("while_v1", graph)
    results = {}
    with v1.Session(graph=graph) as sess:
        for xv, nv in ((0.5, 0), (0.5, 3), (2.0, 5), (-1.5, 4)):
            out = sess.run(["acc:0", "vec:0"], {"x:0": xv, "n:0": nv})
            results[f"{xv},{nv}"] = [np.asarray(o).tolist() for o in out]
    ops = sorted({n.op for n in graph.as_graph_def().node})
    return {"ops": ops, "results": results}


def nchw():
    """Conv and pools in NCHW: TF's CPU kernels run only NHWC, so the reference is the NHWC twin's output
    transposed (the GraphDef itself keeps NCHW, as a GPU-trained TF1 model would)."""
    image = (np.sin(np.arange(2 * 3 * 6 * 6)) * 0.5).astype(np.float32).reshape(2, 3, 6, 6)  # NCHW
    kernel = (np.cos(np.arange(3 * 3 * 3 * 4)) * 0.3).astype(np.float32).reshape(3, 3, 3, 4)
    bias = np.array([0.1, -0.2, 0.3, 0.0], np.float32)

    def build(layout):
        graph = v1.Graph()
        with graph.as_default():
            x = v1.placeholder(tf.float32, shape=image.shape if layout == "NCHW" else (2, 6, 6, 3), name="x")
            strides = [1, 1, 1, 1]
            h = tf.nn.conv2d(x, kernel, strides=strides, padding="SAME", data_format=layout)
            h = tf.nn.bias_add(h, bias, data_format=layout)
            h = tf.nn.relu(h)
            window = [1, 1, 2, 2] if layout == "NCHW" else [1, 2, 2, 1]
            tf.nn.max_pool2d(h, ksize=window, strides=window, padding="VALID", data_format=layout, name="max")
            tf.nn.avg_pool2d(h, ksize=window, strides=window, padding="VALID", data_format=layout, name="avg")
        return graph

    save("nchw", build("NCHW"))
    with v1.Session(graph=build("NHWC")) as sess:
        out = sess.run(["max:0", "avg:0"], {"x:0": image.transpose(0, 2, 3, 1)})
    return {"image": image.tolist(), "max": out[0].transpose(0, 3, 1, 2).tolist(),
            "avg": out[1].transpose(0, 3, 1, 2).tolist()}


def main():
    v1.disable_eager_execution()
    v1.disable_resource_variables()
    v1.disable_control_flow_v2()
    reference = {"tensorflow": tf.__version__, "x": X.tolist(), "variables_v2": variables_v2(),
                 "resource_variables": resource_variables(), "cond_v1": cond_v1(),
                 "while_v1": while_v1(), "nchw": nchw()}
    with open(REFERENCE, "w") as f:
        json.dump(reference, f, indent=1)
    print("wrote", sorted(f for f in os.listdir(HERE) if f.endswith(".pb")), "and", REFERENCE)


if __name__ == "__main__":
    main()
