"""The last plain names of tf.compat.v1 (helper v1more): sparse_placeholder fed whole, sparse_merge,
add_check_numerics_ops, assert_variables_initialized, TF1's DeviceSpec and VariableAggregation, device and
container scopes, the build constants, and namespaces whose names are TF2's (sets, spectral, manip, audio)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_tf1_sparse_placeholder(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        free = v1.sparse_placeholder(tf.float32)
        known = v1.sparse_placeholder(tf.float32, shape=[3, 4], name="sp2")
        partial = v1.sparse_placeholder(tf.int32, shape=[None, 4])
        total = tf.sparse.reduce_sum(free, axis=1)
        dense = tf.sparse.to_dense(known)
        out = {"free": [free.indices.shape.as_list() if free.indices.shape.rank is not None else None,
                        free.values.shape.as_list(), free.dense_shape.shape.as_list(), free.shape.rank],
               "known": [known.indices.shape.as_list(), known.dense_shape.shape.as_list(), known.shape.as_list(),
                         known.indices.name, known.values.name, known.dense_shape.name],
               "partial": [partial.indices.shape.as_list(), partial.shape.as_list()]}
        with v1.Session() as sess:
            value = v1.SparseTensorValue([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
            out["value_feed"] = sess.run(total, {free: value}).tolist()
            out["triple_feed"] = sess.run(total, {free: ([[0, 1], [1, 1]], [3.0, 4.0], [2, 2])}).tolist()
            out["known_default"] = sess.run(dense, {known: v1.SparseTensorValue([[0, 0], [2, 3]], [5.0, 6.0],
                                                                                 [3, 4])}).tolist()
            fetched = sess.run(free, {free: value})
            out["fetched"] = [type(fetched).__name__, fetched.indices.tolist(), fetched.values.tolist(),
                              fetched.dense_shape.tolist()]
            out["partial_feed"] = sess.run(tf.sparse.to_dense(partial), {partial: ([[0, 1]], [7], [1, 4])}).tolist()
            out["unfed"] = outcome(lambda: sess.run(total), "You must feed a value for placeholder")
    return out


@program
def p_tf1_sparse_merge(tf):
    v1 = tf.compat.v1
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], tf.constant([4, 1, 2, 1, 0], tf.int64), [3, 2])
    values = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 2])
    merged = v1.sparse_merge(ids, values, 5)
    second = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], tf.constant([1, 0, 2, 0, 1], tf.int64),
                             [3, 2])
    both = v1.sparse_merge([ids, second], values, [5, 3])
    unsorted = v1.sparse_merge(ids, values, 5, already_sorted=True)
    return {"merged": [val(merged.indices), val(merged.values), val(merged.dense_shape)],
            "dense": val(tf.sparse.to_dense(merged)),
            "both": [val(both.indices), val(both.values), val(both.dense_shape)],
            "unsorted": val(unsorted.indices),
            "lengths": outcome(lambda: v1.sparse_merge([ids, second], values, [5]), "equal lengths"),
            "vocab_type": outcome(lambda: v1.sparse_merge(ids, values, 5.0), "vocab_size has to be")}


@program
def p_tf1_graph_checks(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2])
        y = tf.math.log(x) * 2.0
        check = v1.add_check_numerics_ops()
        w = v1.get_variable("w", [3], initializer=v1.zeros_initializer())
        v1.get_variable("u", [2, 2], initializer=v1.ones_initializer())
        ready = v1.assert_variables_initialized()
        only_w = v1.assert_variables_initialized([w])
        with v1.Session() as sess:
            out = {"fine": sess.run([y, check], {x: [1.0, 2.0]})[0].tolist(),
                   "nan": outcome(lambda: sess.run(check, {x: [-1.0, 2.0]}), "Tensor had NaN values"),
                   "inf": outcome(lambda: sess.run(check, {x: [0.0, 2.0]}), "Tensor had Inf values"),
                   "uninitialized": sess.run(ready).tolist()}  # TF 2.21 reads no resource variable here
            sess.run(v1.global_variables_initializer())
            out["ranks"] = sess.run(ready).tolist()
            out["one"] = int(sess.run(only_w))
    empty = v1.Graph()
    with empty.as_default():
        out["none"] = v1.assert_variables_initialized() is None
    out["eager"] = outcome(v1.add_check_numerics_ops, "not compatible with eager execution")
    return out


@program
def p_tf1_device_names(tf):
    v1 = tf.compat.v1
    spec = v1.DeviceSpec(job="ps", task=0, device_type="CPU")
    first = spec.to_string()
    spec.job = "worker"
    spec.replica = 2
    second = spec.to_string()
    spec.parse_from_string("/job:a/task:3/device:GPU:1")
    third = [spec.to_string(), spec.device_index, spec.job]
    merged = v1.DeviceSpec(job="x", device_type="CPU")
    merged.merge_from(v1.DeviceSpec(task=4, device_index=0))
    graph = v1.Graph()
    with graph.as_default():
        with v1.device("/cpu:0"), v1.container("experiment0"):
            z = tf.constant(2.0) * 3.0
        with v1.device(lambda op: "/cpu:0"):
            z2 = z + 1.0
        with v1.Session() as sess:
            values = sess.run([z, z2])
    A = v1.VariableAggregation
    return {"specs": [first, second, third, merged.to_string(), v1.DeviceSpec.from_string("/cpu:0").to_string()],
            "hash": hash(v1.DeviceSpec.from_string("/job:a")) == hash(v1.DeviceSpec(job="a")),
            "values": [float(v) for v in values],
            "aggregation": [A.NONE == tf.VariableAggregation.NONE, A.MEAN == tf.VariableAggregation.MEAN,
                            A.ONLY_FIRST_TOWER == A.ONLY_FIRST_REPLICA, A.SUM == tf.VariableAggregation.SUM],
            "constants": [v1.CXX11_ABI_FLAG, v1.MONOLITHIC_BUILD, v1.CXX_VERSION],
            "eager_function": outcome(lambda: v1.device(lambda op: "/cpu:0").__enter__(),
                                      "does not support functions")}


@program
def p_tf1_namespaces(tf):
    v1 = tf.compat.v1
    a = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([[1, 7, 3], [9, 5, 2]])
    signal = tf.constant(np.sin(np.arange(8.0)).astype(np.float32))
    return {"sets": [val(tf.sparse.to_dense(v1.sets.set_union(a, b))),
                     val(tf.sparse.to_dense(v1.sets.set_intersection(a, b))), val(v1.sets.set_size(
                         v1.sets.set_difference(a, b)))],
            "spectral": val(tf.abs(v1.spectral.rfft(signal))),
            "manip": [val(v1.manip.roll([1, 2, 3, 4], 1, 0)), val(v1.manip.tile([[1, 2]], [2, 1]))],
            "audio": val(v1.audio.decode_wav(v1.audio.encode_wav(tf.constant([[0.5], [-0.25]]), 8000))[0]),
            "signal": val(v1.signal.hann_window(5))}
