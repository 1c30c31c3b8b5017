"""The TF1 forms of tf.compat.v1.nn: the raw conv gradients (conv2d_backprop_filter / _input and their _v2
forms, conv3d_backprop_filter), conv3d_transpose, depthwise_conv2d_native, fused_batch_norm (training, inference,
running averages, NCHW, gradients), pool, max_pool_with_argmax, dilation2d / erosion2d, space_to_batch,
batch_norm_with_global_normalization, embedding_lookup_sparse, nce_loss / sampled_softmax_loss with fixed samples,
and TF1's ctc_loss and beam search: eagerly and in TF1 sessions."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def r(x, digits=None):
    """Values as lists (the comparison has float32 tolerance; rounding here would split values at a boundary)."""
    return np.asarray(x, np.float64).tolist()


@program
def p_tf1_more_nn_conv_backprops(tf):
    nn = tf.compat.v1.nn
    x = tf.constant(data([2, 5, 6, 3]))
    w = tf.constant(data([3, 2, 3, 4], seed=1))
    y = tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME")
    g = tf.constant(data(y.shape.as_list(), seed=2))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        yy = tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME")
    dx, dw = tape.gradient(yy, [x, w], output_gradients=g)
    filter_grad = nn.conv2d_backprop_filter(x, [3, 2, 3, 4], g, [1, 2, 1, 1], "SAME")
    input_grad = nn.conv2d_backprop_input([2, 5, 6, 3], w, g, [1, 2, 1, 1], "SAME")
    valid = nn.conv2d_backprop_filter(x, tf.constant([2, 2, 3, 1]), tf.ones([2, 2, 3, 1]), [1, 2, 2, 1], "VALID",
                                      dilations=[1, 1, 1, 1])
    return {"filter": r(filter_grad), "input": r(input_grad), "match": [r(dw), r(dx)], "valid": r(valid),
            "shapes": [filter_grad.shape.as_list(), input_grad.shape.as_list()]}


@program
def p_tf1_more_nn_conv3d_and_depthwise(tf):
    nn = tf.compat.v1.nn
    x = tf.constant(data([1, 3, 4, 4, 2]))
    w = tf.constant(data([2, 2, 2, 2, 3], seed=1))
    y = tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID")
    g = tf.constant(data(y.shape.as_list(), seed=3))
    fgrad = nn.conv3d_backprop_filter(x, [2, 2, 2, 2, 3], g, [1, 1, 1, 1, 1], "VALID")
    fgrad_v2 = nn.conv3d_backprop_filter_v2(x, [2, 2, 2, 2, 3], g, [1, 1, 1, 1, 1], "VALID")
    transposed = nn.conv3d_transpose(g, w, [1, 3, 4, 4, 2], [1, 1, 1, 1, 1], "VALID")
    transposed_kw = nn.conv3d_transpose(value=g, filter=w, output_shape=[1, 3, 4, 4, 2], strides=[1, 1, 1, 1, 1],
                                        padding="VALID")
    images = tf.constant(data([1, 5, 5, 2], seed=4))
    kernel = tf.constant(data([3, 3, 2, 2], seed=5))
    depthwise = nn.depthwise_conv2d_native(images, kernel, [1, 1, 1, 1], "SAME")
    dilated = nn.depthwise_conv2d_native(images, kernel, [1, 1, 1, 1], "VALID", dilations=[1, 2, 2, 1])
    return [r(fgrad), r(fgrad_v2), r(transposed), r(transposed_kw), r(depthwise), r(dilated)]


@program
def p_tf1_more_nn_fused_batch_norm(tf):
    nn = tf.compat.v1.nn
    x = tf.constant(data([2, 3, 3, 4], scale=2.0))
    scale, offset = tf.constant([1.0, 0.5, 2.0, 1.5]), tf.constant([0.0, 0.1, -0.2, 0.3])
    y, mean, var = nn.fused_batch_norm(x, scale, offset)
    yi, mi, vi = nn.fused_batch_norm(x, scale, offset, mean=[0.1, 0.2, 0.3, 0.4], variance=[1.0, 2.0, 0.5, 1.5],
                                     is_training=False, epsilon=1e-7)
    ya, ma, va = nn.fused_batch_norm(x, scale, offset, mean=[0.1, 0.2, 0.3, 0.4], variance=[1.0, 2.0, 0.5, 1.5],
                                     exponential_avg_factor=0.25)
    yc, mc, vc = nn.fused_batch_norm(tf.transpose(x, [0, 3, 1, 2]), scale, offset, data_format="NCHW")
    return {"train": [r(y), r(mean), r(var)], "inference": [r(yi), r(mi), r(vi)], "averaged": [r(ya), r(ma), r(va)],
            "nchw": [r(tf.transpose(yc, [0, 2, 3, 1])), r(mc), r(vc)], "dtypes": [y.dtype.name, var.dtype.name]}


@program
def p_tf1_more_nn_fused_batch_norm_graph_gradients(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 2, 2, 3])
        scale = tf.Variable([1.0, 2.0, 0.5])
        offset = tf.Variable([0.1, 0.0, -0.1])
        y, mean, var = v1.nn.fused_batch_norm(x, scale, offset)
        loss = tf.reduce_sum(y * y * tf.constant([1.0, 0.5, 2.0])) + tf.reduce_sum(mean) + tf.reduce_sum(var)
        grads = tf.gradients(loss, [x, scale, offset])
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        out = sess.run([y, mean, var] + grads, {x: data([2, 2, 2, 3], seed=7)})
    return [r(v, 4) for v in out]


@program
def p_tf1_more_nn_pools_and_morphology(tf):
    nn = tf.compat.v1.nn
    x = tf.constant(data([1, 6, 6, 2]))
    pooled = nn.pool(x, [2, 2], "MAX", "SAME", strides=[2, 2])
    averaged = nn.pool(x, [3, 3], "AVG", "VALID", dilation_rate=[1, 1], strides=[1, 2])
    values, argmax = nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", Targmax=tf.int32)
    values64, argmax64 = nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    kernel = tf.constant(data([2, 2, 2], seed=2))
    dilated = nn.dilation2d(x, kernel, [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    dilated_kw = nn.dilation2d(x, filters=kernel, strides=[1, 1, 1, 1], dilations=[1, 2, 2, 1], padding="SAME")
    eroded = nn.erosion2d(x, kernel, [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    s2b = nn.space_to_batch(x, [[0, 0], [0, 0]], 2)
    s2b_top = tf.compat.v1.space_to_batch(x, [[1, 1], [1, 1]], block_size=2)
    b2s = tf.compat.v1.batch_to_space(s2b_top, [[1, 1], [1, 1]], 2)
    m, v, beta, gamma = (tf.constant(c) for c in ([0.1, 0.2], [1.0, 2.0], [0.0, 0.5], [1.5, 1.0]))
    bn = nn.batch_norm_with_global_normalization(x, m, v, beta, gamma, 0.001, True)
    bn_kw = nn.batch_norm_with_global_normalization(input=x, mean=m, variance=v, beta=beta, gamma=gamma,
                                                    variance_epsilon=0.001, scale_after_normalization=False)
    return {"pool": [r(pooled), r(averaged)], "argmax": [r(values), val(argmax), argmax64.dtype.name,
                                                         r(values64)],
            "morphology": [r(dilated), r(dilated_kw), r(eroded)], "space": [r(s2b), r(s2b_top), r(b2s)],
            "bn": [r(bn), r(bn_kw)]}


@program
def p_tf1_more_nn_embeddings_and_sampled(tf):
    nn = tf.compat.v1.nn
    params = tf.constant(data([6, 3]))
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 1]], tf.constant([1, 4, 2, 5], tf.int64), [3, 2])
    weights = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 1]], [0.5, 2.0, 1.0, 3.0], [3, 2])
    looked = nn.embedding_lookup_sparse(params, ids, weights, combiner="sum")
    safe = nn.safe_embedding_lookup_sparse(params, ids, weights, combiner="sqrtn")
    inputs = tf.constant(data([4, 3], seed=2))
    labels = tf.constant([[1], [0], [5], [2]], tf.int64)
    sampled = (tf.constant([3, 4, 0], tf.int64), tf.constant([[0.3], [0.2], [0.4], [0.1]]),
               tf.constant([0.25, 0.2, 0.3]))
    biases = tf.constant([0.1, -0.1, 0.2, 0.0, 0.3, -0.2])
    nce = nn.nce_loss(params, biases, labels, inputs, 3, 6, sampled_values=sampled)
    softmax = nn.sampled_softmax_loss(params, biases, labels, inputs, 3, 6, sampled_values=sampled)
    return {"lookup": r(looked), "safe": r(safe), "nce": r(nce), "sampled_softmax": r(softmax),
            "errors": [outcome(lambda: nn.embedding_lookup_sparse(params, ids, None, partition_strategy="x"),
                               "Unrecognized partition strategy"),
                       outcome(lambda: nn.nce_loss(params, biases, labels, inputs, 3, 6, sampled_values=sampled,
                                                   partition_strategy="x"), "Unrecognized partition strategy")]}


@program
def p_tf1_more_nn_ctc(tf):
    nn = tf.compat.v1.nn
    logits = tf.constant(data([5, 2, 4], scale=2.0))
    labels = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 0], [2, 2])
    lengths = tf.constant([5, 4])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = nn.ctc_loss(labels, logits, lengths)
    grad = tape.gradient(loss, logits)
    batch_major = nn.ctc_loss(labels, tf.transpose(logits, [1, 0, 2]), lengths, time_major=False)
    dense = tf.constant([[1, 2], [3, 0]])
    v2 = nn.ctc_loss_v2(dense, logits, tf.constant([2, 1]), lengths)
    decoded, log_probs = nn.ctc_beam_search_decoder(logits, lengths, beam_width=4, top_paths=2)
    unmerged, unmerged_probs = nn.ctc_beam_search_decoder(logits, lengths, beam_width=4, merge_repeated=False)
    return {"loss": r(loss), "grad": r(grad), "batch_major": r(batch_major), "v2": r(v2),
            "decoded": [[val(d.indices), val(d.values), val(d.dense_shape)] for d in decoded],
            "log_probs": r(log_probs), "unmerged": [val(unmerged[0].values), r(unmerged_probs)],
            "not_sparse": outcome(lambda: nn.ctc_loss(dense, logits, lengths), "to be a SparseTensor")}
