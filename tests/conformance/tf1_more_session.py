"""TF1 session extras (helper v1more): persistent session tensors (get_session_handle / get_session_tensor /
delete_session_tensor and TensorHandle), conditional accumulators (staleness by local step, averaging and
summing, sparse ones row by row), with TF's errors."""

from __future__ import annotations

from . import outcome, program


def _floats(x):
    return [float(v) for v in x.reshape(-1)]


@program
def p_tf1_session_handles(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        a, b = tf.constant(10.0), tf.constant(5.0)
        handle_op = v1.get_session_handle(a * b)
        with v1.Session() as sess:
            kept = sess.run(handle_op)
            holder, value = v1.get_session_tensor(kept.handle, tf.float32)
            times_ten = value * 10.0
            out = {"type": type(kept).__name__, "handle": kept.handle, "str": str(kept),
                   "holder": [holder.dtype.name, holder.shape.rank], "value": [value.dtype.name, value.shape.rank],
                   "fed": float(sess.run(times_ten, feed_dict={holder: kept.handle})), "eval": float(kept.eval()),
                   "in_dict": type(sess.run({"x": handle_op})["x"]).__name__,
                   "handle_dtype": [handle_op.dtype.name, handle_op.shape.as_list()]}
            deleter_holder, deleter = v1.delete_session_tensor(kept.handle)
            sess.run(deleter, feed_dict={deleter_holder: kept.handle})
            out["deleted"] = outcome(lambda: sess.run(times_ten, feed_dict={holder: kept.handle}),
                                     "is not in the session store")
            # a loop that keeps its state in the session: x <- x + 1, three times
            state = sess.run(v1.get_session_handle(tf.constant([1, 2])))
            p, x = v1.get_session_tensor(state.handle, tf.int32)
            step = v1.get_session_handle(x + 1)
            handles = [state.handle]
            for _ in range(3):
                state = sess.run(step, feed_dict={p: state.handle})
                handles.append(state.handle)
            out["loop"] = state.eval().tolist()
            out["distinct"] = len(set(handles))
            state.delete()
            out["after_delete"] = outcome(state.eval, "may have already been deleted")
            out["twice"] = outcome(state.delete, "may have already been deleted")
            wrong_holder, wrong = v1.get_session_tensor(handles[0], tf.float32)
            first = sess.run(v1.get_session_handle(tf.constant([7, 8])))
            out["wrong_dtype"] = outcome(lambda: sess.run(wrong, feed_dict={wrong_holder: first.handle}),
                                         "does not match declared output type")
            raw = first.get_raw_handle()
            out["raw"] = [raw == first.handle, outcome(first.eval, "may have already been deleted")]
        with v1.Session() as other:  # another Session of the graph keeps its own values
            out["other_session"] = outcome(lambda: other.run(times_ten, feed_dict={holder: kept.handle}),
                                           "is not in the session store")
        out["closed"] = outcome(lambda: sess.run(times_ten, feed_dict={holder: kept.handle}), "closed Session")
    return out


@program
def p_tf1_conditional_accumulator(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        acc = v1.ConditionalAccumulator(tf.float32, shape=[2], name="acc")
        grad = v1.placeholder(tf.float32, [2])
        step = v1.placeholder(tf.int64, [])
        apply_op = acc.apply_grad(grad, local_step=step)
        count = acc.num_accumulated()
        take = acc.take_grad(2)
        out = {"name": acc.name, "dtype": acc.dtype.name, "take": [take.dtype.name, take.shape.as_list()],
               "count_dtype": count.dtype.name, "apply_type": type(apply_op).__name__}
        with v1.Session() as sess:
            sess.run(apply_op, {grad: [1.0, 2.0], step: 0})
            sess.run(apply_op, {grad: [3.0, 6.0], step: 0})
            out["count"] = int(sess.run(count))
            out["mean"] = sess.run(take).tolist()
            out["emptied"] = int(sess.run(count))
            sess.run(apply_op, {grad: [1.0, 1.0], step: 0})  # stale: taking advanced the global step to 1
            out["stale"] = int(sess.run(count))
            sess.run(apply_op, {grad: [2.0, 2.0], step: 1})
            sess.run(apply_op, {grad: [4.0, 4.0], step: 3})
            out["second"] = sess.run(take).tolist()
            sess.run(acc.set_global_step(5))
            sess.run(apply_op, {grad: [9.0, 9.0], step: 4})
            out["behind_set_step"] = int(sess.run(count))
            out["bad_feed"] = outcome(lambda: sess.run(apply_op, {grad: [1.0, 2.0, 3.0], step: 9}), "Cannot feed value")
            out["bad_shape"] = outcome(lambda: acc.apply_grad([1.0, 2.0, 3.0]), "are incompatible")
            out["bad_dtype"] = outcome(lambda: acc.apply_grad(tf.constant([1, 2])), "Tensor conversion requested")
            out["negative"] = outcome(lambda: sess.run(acc.take_grad(-1)), "must be positive, but was -1")
            out["zero"] = outcome(lambda: sess.run(acc.take_grad(0)), "must be positive, but was 0")
            summing = v1.ConditionalAccumulator(tf.float64, shape=None, reduction_type="SUM")
            sess.run(summing.apply_grad(tf.constant([[1.0, 2.0]], tf.float64)))
            sess.run(summing.apply_grad(tf.constant([[3.0, 4.0]], tf.float64)))
            out["sum"] = sess.run(summing.take_grad(1)).tolist()
        out["bad_reduction"] = outcome(lambda: v1.ConditionalAccumulator(tf.float32, reduction_type="MAX"),
                                       "not in")
    return out


@program
def p_tf1_sparse_conditional_accumulator(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        acc = v1.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
        first = acc.apply_indexed_slices_grad(tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                                               tf.constant([0, 2], tf.int64),
                                                               tf.constant([4, 2], tf.int64)))
        second = acc.apply_grad(grad_indices=[2, 3], grad_values=[[5.0, 6.0], [7.0, 8.0]], grad_shape=[4, 2])
        with v1.Session() as sess:
            sess.run([first])
            sess.run([second])
            out = {"count": int(sess.run(acc.num_accumulated()))}
            taken = sess.run(acc.take_indexed_slices_grad(2))
            out["slices"] = [type(taken).__name__, taken.indices.tolist(), taken.values.tolist(),
                             taken.dense_shape.tolist()]
            sess.run(acc.apply_grad(grad_indices=[1], grad_values=[[5.0, 6.0]], local_step=1))
            triple = sess.run(acc.take_grad(1))
            out["triple"] = [type(triple).__name__, triple.indices.tolist(), triple.values.tolist(),
                             triple.shape.tolist()]
            sess.run(acc.apply_grad(grad_indices=[3, 1], grad_values=[[1.0, 1.0], [2.0, 0.0]], local_step=2))
            out["dense"] = sess.run(tf.convert_to_tensor(acc.take_indexed_slices_grad(1))).tolist()
            sess.run(acc.apply_grad(grad_indices=[0], grad_values=[[1.0, 1.0]], local_step=0))
            out["stale"] = int(sess.run(acc.num_accumulated()))
    return out
