"""keras.ops names TF 2.21 has that tinytf lacked: the bitwise functions and shifts, erfinv, i0, nextafter, view,
and keras.ops(.linalg) eig, eigh, qr, svd, lstsq, pinv, matrix_rank: values and dtypes eagerly and in
tf.function, their docstrings' examples, their errors, gradients where TF has them, and each on Keras tensors
(the Operation of Keras' class, with its config)."""

from __future__ import annotations

import json

import numpy as np

from . import data, outcome, program, val


@program
def p_keras_ops_more_bitwise(tf):
    ops = tf.keras.ops
    x, y = tf.constant([12, 10, -7, 255], dtype="int32"), tf.constant([10, 3, 2, 1], dtype="int32")
    small = tf.constant([1, 2, 3], dtype="uint8")
    out = {}
    for name in ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
                 "left_shift", "right_shift"]:
        fn = getattr(ops, name)
        out[name] = [val(fn(x, y)), val(tf.function(fn)(x, y)), val(fn(small, tf.constant([1, 1, 1], "int16"))),
                     val(fn(x, 2))]
    out["invert"] = [val(ops.bitwise_invert(x)), val(ops.bitwise_not(small))]
    out["invert_bool"] = outcome(lambda: ops.bitwise_invert(True), "")
    out["python"] = val(ops.bitwise_and(12, 10))
    out["float"] = outcome(lambda: ops.bitwise_and(tf.constant([1.5]), tf.constant([2.5])), "")
    return out


@program
def p_keras_ops_more_special(tf):
    ops = tf.keras.ops
    x = np.array([-0.5, -0.2, -0.1, 0.0, 0.3])
    out = {"erfinv_doc": val(ops.erfinv(x)), "erfinv_f32": val(ops.erfinv(tf.constant(x, "float32"))),
           "erfinv_graph": val(tf.function(ops.erfinv)(tf.constant(x, "float32"))),
           "i0": [val(ops.i0(tf.constant([0.0, 1.0, -2.5]))), val(ops.i0(tf.constant([1, 2], "int32"))),
                  val(ops.i0(tf.constant([1, 2], "int64"))), val(ops.i0(np.array([0.5])))],
           "nextafter": [val(ops.nextafter(tf.constant([1.0, 2.0]), tf.constant([2.0, 0.0]))),
                         val(ops.nextafter(np.array([1.0]), np.array([2.0]))),
                         val(ops.nextafter(tf.constant([1], "int32"), tf.constant([2], "int32")))],
           "view_doc": val(ops.view(tf.constant([1, 2, 3]), dtype="float32")),
           "view_narrow": val(ops.view(tf.constant([[1.0, -2.0]]), "int16")),
           "view_wide": val(ops.view(tf.constant([[1, 2, 3, 4]], "int16"), "int32")),
           "view_same": val(ops.view(tf.constant([1.5]))),
           "view_graph": val(tf.function(lambda t: ops.view(t, "uint8"))(tf.constant([[1.0]]))),
           "view_bad": outcome(lambda: ops.view(tf.constant([1, 2, 3], "int16"), "int32"), "divisible")}
    with tf.GradientTape() as tape:
        t = tf.constant([0.1, -0.4, 0.7])
        tape.watch(t)
        total = tf.reduce_sum(ops.erfinv(t) + ops.i0(t))
    out["grad"] = val(tape.gradient(total, t))
    return out


@program
def p_keras_ops_more_linalg(tf):
    ops = tf.keras.ops
    a = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    sym = tf.constant([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    q, r = ops.qr(a)
    qc, rc = ops.linalg.qr(a, mode="complete")
    u, s, vh = ops.svd(a)
    us, ss, vhs = ops.svd(a, full_matrices=False)
    w, v = ops.eigh(sym)
    ew, ev = ops.eig(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
    return {
        "qr_doc": [val(q), val(r)], "qr_complete": [list(qc.shape), list(rc.shape),
                                                    val(tf.abs(tf.matmul(qc, rc)))],
        "svd_s": val(s), "svd_shapes": [list(u.shape), list(vh.shape), list(us.shape), list(vhs.shape)],
        "svd_rebuilt": val(tf.matmul(us * ss, vhs)), "svd_only_s": val(ops.svd(a, compute_uv=False)),
        "eigh_values": val(w), "eigh_check": val(tf.matmul(sym, v) - v * w),
        "eig": [val(tf.math.real(ew)), val(tf.math.imag(ew)), ev.dtype.name, val(tf.abs(ev))],
        "lstsq": [val(ops.lstsq(a, tf.constant([1.0, 2.0, 2.0]))), val(ops.lstsq(a, tf.ones((3, 2)), rcond=0.5)),
                  val(ops.linalg.lstsq(a, tf.ones((3, 2))))],
        "matrix_rank_doc": val(ops.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))),
        "matrix_rank_tol": val(ops.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=1e-2)),
        "pinv_doc": val(tf.round(tf.matmul(ops.pinv(a), a) * 1e4) / 1e4), "pinv": val(ops.pinv(a, rcond=1e-3)),
        "graph": val(tf.function(lambda t: ops.lstsq(t, tf.constant([1.0, 2.0, 2.0])))(a)),
        "errors": {"qr_mode": outcome(lambda: ops.qr(a, mode="raw"), "`mode` argument value not supported"),
                   "eigh_square": outcome(lambda: ops.eigh(a), "Expected a square matrix"),
                   "svd_rank": outcome(lambda: ops.svd(tf.constant([1.0, 2.0])), "rank >= 2"),
                   "lstsq_rows": outcome(lambda: ops.lstsq(a, tf.ones((2,))), "Leading dimensions")}}


@program
def p_keras_ops_more_linalg_gradients(tf):
    ops = tf.keras.ops
    a = tf.constant([[2.0, 0.5], [0.3, 1.5], [1.0, -1.0]])
    sym = tf.constant([[2.0, 0.5], [0.5, 1.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, sym])
        svd_loss = tf.reduce_sum(ops.svd(a, compute_uv=False))
        pinv_loss = tf.reduce_sum(ops.pinv(a) * tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]))
        eigh_loss = tf.reduce_sum(ops.eigh(sym)[0] * tf.constant([1.0, 3.0]))
        q, r = ops.qr(a)
        qr_loss = tf.reduce_sum(r * tf.constant([[1.0, 2.0], [0.0, 3.0]]))
        lstsq_loss = tf.reduce_sum(ops.lstsq(a, tf.constant([1.0, 2.0, 2.0])))
    return {name: val(tape.gradient(loss, source)) for name, loss, source in [
        ("svd", svd_loss, a), ("pinv", pinv_loss, a), ("eigh", eigh_loss, sym), ("qr", qr_loss, a),
        ("lstsq", lstsq_loss, a)]}


@program
def p_keras_ops_more_names_as_operations(tf):
    keras, ops = tf.keras, tf.keras.ops
    i, j = keras.Input((3,), dtype="int32"), keras.Input((3,), dtype="int32")
    f, m = keras.Input((3,)), keras.Input((3, 3))
    outputs = [ops.bitwise_and(i, j), ops.bitwise_or(i, j), ops.bitwise_xor(i, j), ops.bitwise_invert(i),
               ops.bitwise_not(i), ops.left_shift(i, j), ops.right_shift(i, 1), ops.bitwise_left_shift(i, j),
               ops.bitwise_right_shift(i, j), ops.erfinv(f * 0.5), ops.i0(f), ops.nextafter(f, f + 1.0),
               ops.view(f, "int32"), ops.qr(m)[1], ops.svd(m)[1], ops.eigh(m + ops.transpose(m, (0, 2, 1)))[0],
               ops.matrix_rank(m), ops.pinv(m)]
    model = keras.Model([i, j, f, m], outputs)
    x = [tf.constant([[1, 6, 12]]), tf.constant([[3, 2, 1]]), tf.constant(data((1, 3), scale=0.9)),
         tf.constant(data((1, 3, 3), seed=1) + np.eye(3, dtype="float32"))]
    return {"operations": [[op.name, type(op).__name__] for op in model.operations[4:]],
            "configs": [e["config"] for e in json.loads(json.dumps(model.get_config()))["layers"][4:]],
            "values": val(model(x))}
