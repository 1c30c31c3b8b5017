"""TF1 graph helpers (helper v1rest): ragged.placeholder fed with a RaggedTensorValue, graph_util's
convert_variables_to_constants (frozen GraphDef re-imported and run) and must_run_on_cpu."""

from __future__ import annotations

import numpy as np

from . import outcome, program


@program
def p_v1rest_ragged_placeholder(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        ragged = v1.ragged.placeholder(tf.float32, 1, [3])
        two = v1.ragged.placeholder(tf.int32, 2, [])
        dense = v1.ragged.placeholder(tf.int32, 0, [2])
        unknown = v1.ragged.placeholder(tf.int64, 1)
        info = [[type(ragged).__name__, str(ragged.shape), ragged.ragged_rank, ragged.dtype.name,
                 str(ragged.flat_values.shape), ragged.row_splits.dtype.name],
                [str(two.shape), two.ragged_rank], [type(dense).__name__ == type(ragged).__name__, str(dense.shape)],
                str(unknown.shape)]
        sums = tf.reduce_sum(ragged, axis=1)
        rows = two.row_lengths()
    value = v1.ragged.RaggedTensorValue(np.arange(9, dtype=np.float32).reshape(3, 3), np.array([0, 1, 1, 3], np.int64))
    nested = v1.ragged.RaggedTensorValue(
        v1.ragged.RaggedTensorValue(np.arange(5, dtype=np.int32), np.array([0, 2, 5], np.int64)),
        np.array([0, 1, 2], np.int64))
    with v1.Session(graph=graph) as sess:
        return {"info": info, "sums": sess.run(sums, {ragged: value}).tolist(),
                "rows": sess.run(rows, {two: nested}).tolist()}


@program
def p_v1rest_freeze_graph(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        w = v1.get_variable("w", initializer=np.array([1.0, 2.0], np.float32))
        b = v1.get_variable("b", initializer=np.float32(0.5))
        x = v1.placeholder(tf.float32, [2], name="x")
        tf.identity(tf.reduce_sum(w * x) + b, name="y")
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            sess.run(init)
            sess.run(b.assign(1.5))
            frozen = v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["y"])
            kept = v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["y"],
                                                                variable_names_blacklist=["b"])
            only_w = v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(), ["y"],
                                                                  variable_names_whitelist=["w"])
            missing = outcome(lambda: v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(),
                                                                                   ["nope"]), "not in graph")
    out = {"frozen": sorted([n.name, n.op] for n in frozen.node), "kept": sorted([n.name, n.op] for n in kept.node),
           "only_w": sorted([n.name, n.op] for n in only_w.node), "missing": missing,
           "identity_T": [n.attr["T"].type for n in frozen.node if n.name == "add/ReadVariableOp"]}
    fresh = tf.Graph()
    with fresh.as_default():
        tf.import_graph_def(frozen, name="")
        with v1.Session() as sess:
            out["run"] = float(sess.run("y:0", {"x:0": [3.0, 4.0]}))
    return out


@program
def p_v1rest_must_run_on_cpu(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        ops = [tf.constant(1.0).op, tf.constant([1, 2]).op, tf.constant("s").op, v1.placeholder(tf.string).op,
               tf.cast(tf.constant([1, 2]), tf.float32).op, tf.cast(tf.constant([1.0]), tf.int32).op,
               tf.add(tf.constant(1.0), 2.0).op]
        v1.get_variable("v", initializer=1.0)
        handle = [n for n in tf.compat.v1.get_default_graph().as_graph_def().node if n.op == "VarHandleOp"][0]
        return {"ops": [[op.type, v1.graph_util.must_run_on_cpu(op)] for op in ops],
                "node_def": v1.graph_util.must_run_on_cpu(ops[1].node_def),
                "variable": [v1.graph_util.must_run_on_cpu(handle), v1.graph_util.must_run_on_cpu(handle, True)]}
