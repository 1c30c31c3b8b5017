"""The small names of tf.compat.v1: make_template sharing variables, op_scope / variable_op_scope, get_seed,
setdiff1d, batch_gather, scatter_nd_* on variables, sparse_to_dense, the sparse_* functions with TF1 arguments,
clip_by_average_norm, verify_tensor_all_finite, hessians, convert_to_tensor_or_*, SparseTensorValue, the
always-on switches and the protocol buffer classes: in TF1 sessions and eagerly."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_tf1_more_make_template(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        def scale_by_y(x, offset=0.0):
            y = v1.get_variable("y", initializer=np.array([2.0, 3.0], np.float32))
            return x * y + offset

        template = v1.make_template("scale_by_y", scale_by_y, offset=1.0)
        first = template(tf.constant([1.0, 1.0]))
        second = template(tf.constant([2.0, 0.5]))
        other = v1.make_template("scale_by_y", scale_by_y)
        third = other(tf.constant([1.0, 1.0]))
        early = v1.make_template("early", scale_by_y, create_scope_now_=True)
        early_scope = early.variable_scope_name
        fourth = early(tf.constant([1.0, 0.0]))
        names = [v.name for v in v1.global_variables()]
        template_vars = [v.name for v in template.variables]

        def bad(x):
            return x * tf.Variable(1.0, name="not_shared")

        bad_template = v1.make_template("bad", bad)
        bad_template(tf.constant(1.0))
        error = outcome(lambda: bad_template(tf.constant(2.0)), "Trainable variable created when calling a template")
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        values = sess.run([first, second, third, fourth])
    return {"values": [v.tolist() for v in values], "names": names, "template": template_vars,
            "scopes": [template.variable_scope_name, other.variable_scope_name, early_scope], "name": template.name,
            "reuse_error": error}


@program
def p_tf1_more_old_scopes_and_seeds(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = tf.constant(1.0)
        with v1.op_scope([x], "outer", "unused"):
            inner = tf.identity(x, name="inner")
        with v1.op_scope([x], None, "default"):
            defaulted = tf.identity(x, name="inner")
        with v1.variable_op_scope([x], None, "layer"):
            w = v1.get_variable("w", [2])
        with v1.variable_op_scope([x], "named"):
            u = v1.get_variable("u", [1])
        with v1.colocate_with(x):
            colocated = tf.add(x, 1.0, name="colocated")
        unseeded = v1.get_seed(None)
        op_only = v1.get_seed(5)
    with v1.Graph().as_default():
        v1.set_random_seed(7)
        both = v1.get_seed(3)
    return {"names": [inner.name, defaulted.name, w.name, u.name, colocated.name], "seeds": [list(unseeded),
            list(op_only), list(both)],
            "switches": [v1.control_flow_v2_enabled(), v1.resource_variables_enabled()]}


@program
def p_tf1_more_array_functions(tf):
    v1 = tf.compat.v1
    out, idx = v1.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5])
    out64, idx64 = v1.setdiff1d(tf.constant([4.0, 1.0, 4.0, 2.0]), [2.0], index_dtype=tf.int64)
    gathered = v1.batch_gather(tf.constant(data([2, 4, 3])), tf.constant([[0, 3], [2, 2]]))
    dense = v1.sparse_to_dense([[0, 1], [2, 0]], [3, 3], [5, 7], default_value=-1)
    dense_1d = v1.sparse_to_dense([0, 3], [5], 2.5)
    dense_scalar = v1.sparse_to_dense(2, [4], 9)
    clipped = v1.clip_by_average_norm(tf.constant([[3.0, 4.0], [0.0, 0.0]]), 0.5)
    unclipped = v1.clip_by_average_norm(tf.constant([0.1, -0.1]), 10.0)
    checked = v1.verify_tensor_all_finite(tf.constant([1.0, 2.0]), "fine")
    bad = outcome(lambda: v1.verify_tensor_all_finite(tf.constant([1.0, np.inf]), "found a bad value"),
                  "found a bad value")
    return [val(out), val(idx), val(out64), val(idx64), val(gathered), val(dense), val(dense_1d), val(dense_scalar),
            val(clipped), val(unclipped), val(checked), bad]


@program
def p_tf1_more_variable_scatter_nd(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        ref = tf.Variable([1.0, 2.0, 3.0, 4.0])
        add = v1.scatter_nd_add(ref, [[0], [2]], [10.0, 20.0])
        sub = v1.scatter_nd_sub(ref, [[1]], [5.0])
        update = v1.scatter_nd_update(ref, [[3]], [-1.0])
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        values = [sess.run(add).tolist(), sess.run(sub).tolist(), sess.run(update).tolist()]
    eager = tf.Variable([[1, 2], [3, 4]])
    v1.scatter_nd_add(eager, [[1, 0]], [10])
    return {"graph": values, "eager": val(eager.read_value())}


@program
def p_tf1_more_sparse_functions(tf):
    v1 = tf.compat.v1
    a = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    b = tf.SparseTensor([[0, 0], [0, 1]], [3.0, -1.0], [2, 3])

    def dense(sp):
        return val(tf.sparse.to_dense(tf.sparse.reorder(sp)))

    added = v1.sparse_add(a, b, thresh=0.5)
    concat = v1.sparse_concat(1, [a, b])
    concat_old = v1.sparse_concat(None, [a, b], concat_dim=0)
    matmul = v1.sparse_matmul(tf.constant([[1.0, 0.0], [0.0, 2.0]]), tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                              a_is_sparse=True)
    reduce_max = v1.sparse_reduce_max(a, axis=1)
    reduce_sum = v1.sparse_reduce_sum(a, reduction_axes=0, keep_dims=True)
    reduce_sum_sparse = v1.sparse_reduce_sum_sparse(a, 1)
    reduce_max_sparse = v1.sparse_reduce_max_sparse(a, 1)  # every row has entries (see docs/tf1.md)
    data_t = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    segments = [v1.sparse_segment_sum(data_t, [0, 1, 2], [0, 0, 1]), v1.sparse_segment_mean(data_t, [0, 2], [0, 0]),
                v1.sparse_segment_sqrt_n(data_t, [0, 1, 2], [0, 0, 0], num_segments=2)]
    split = v1.sparse_split(sp_input=a, num_split=3, axis=1)
    split_old = outcome(lambda: v1.sparse_split(sp_input=a, num_split=2, split_dim=0), "axis is required")
    value = v1.SparseTensorValue([[0, 1]], [4], [2, 2])
    converted = v1.convert_to_tensor_or_sparse_tensor(value)
    return {"add": dense(added), "concat": [dense(concat), dense(concat_old)], "matmul": val(matmul),
            "reduce": [val(reduce_max), val(reduce_sum), dense(reduce_sum_sparse), dense(reduce_max_sparse)],
            "segments": val(segments), "split": [dense(s) for s in split] + [split_old],
            "value": [list(value._fields), dense(converted), type(converted).__name__],
            "keywords": outcome(lambda: v1.sparse_split(a, 2, 1), "Keyword arguments are required"),
            "indexed": type(v1.convert_to_tensor_or_indexed_slices(tf.IndexedSlices(tf.ones([1, 2]), [0]))).__name__,
            "tensor": val(v1.convert_to_tensor_or_indexed_slices([1, 2]))}


@program
def p_tf1_more_hessians(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3])
        m = v1.placeholder(tf.float32, [2, 2])
        y = tf.reduce_sum(x ** 3) + x[0] * x[1] + tf.reduce_sum(tf.matmul(m, m))
        hx, hm = v1.hessians(y, [x, m])
    with v1.Session(graph=graph) as sess:
        out = sess.run([hx, hm], {x: [1.0, 2.0, -1.0], m: [[1.0, 2.0], [0.5, -1.0]]})
    return [o.tolist() for o in out] + [hx.shape.as_list(), hm.shape.as_list()]


@program
def p_tf1_more_protos(tf):
    v1 = tf.compat.v1
    node = v1.NodeDef(name="a", op="Const")
    node.attr["dtype"].type = 1
    graph_def = v1.GraphDef()
    graph_def.node.add().CopyFrom(node)
    meta = v1.MetaGraphDef()
    meta.graph_def.CopyFrom(graph_def)
    info = v1.TensorInfo(name="x:0", dtype=1)
    attr = v1.AttrValue(func=v1.NameAttrList(name="f"))
    log = v1.LogMessage(level=v1.LogMessage.INFO, message="hi")
    saver_def = v1.train.SaverDef(filename_tensor_name="save/Const:0", max_to_keep=3,
                                  version=v1.train.SaverDef.V2)
    return {"graph_def": list(graph_def.SerializeToString()), "meta": len(meta.SerializeToString()),
            "info": list(info.SerializeToString()), "attr": list(attr.SerializeToString()),
            "log": list(log.SerializeToString()),
            "saver_def": list(saver_def.SerializeToString()), "newaxis": v1.newaxis is None}
