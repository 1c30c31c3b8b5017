"""The Keras 2 functions of tf.keras.backend that TF 2.21 keeps (keras.src.legacy.backend): batch_dot, the focal
crossentropies, conv1d/2d/3d, conv2d_transpose, depthwise and separable conv2d, pool2d/3d, resize_images/volumes,
spatial_3d_padding and the random variables: values, shapes and dtypes eagerly and in tf.function, their errors,
and gradients where TF has them."""

from __future__ import annotations

from . import data, outcome, program, val


@program
def p_keras_backend_legacy_batch_dot(tf):
    K = tf.keras.backend
    x, y = tf.constant(data((2, 3, 4))), tf.constant(data((2, 4, 5), seed=1))
    out = {"default": val(K.batch_dot(x, y)), "axes": val(K.batch_dot(x, tf.constant(data((2, 3, 2), seed=2)),
                                                                      axes=[1, 1])),
           "matrices": val(K.batch_dot(tf.constant(data((3, 4))), tf.constant(data((3, 4), seed=3)))),
           "int_axes": val(K.batch_dot(tf.constant(data((2, 3))), tf.constant(data((2, 3), seed=4)), axes=1)),
           "rank4": val(K.batch_dot(tf.constant(data((2, 2, 3, 4))), tf.constant(data((2, 4, 2), seed=5)))),
           "rank4_y": val(K.batch_dot(tf.constant(data((2, 4))), tf.constant(data((2, 4, 2, 3), seed=6)),
                                      axes=(1, 1))),
           "graph": val(tf.function(lambda a, b: K.batch_dot(a, b, axes=(2, 1)))(x, y)),
           "errors": {"rank": outcome(lambda: K.batch_dot(tf.ones((2,)), tf.ones((2, 3))), "rank < 2"),
                      "batch": outcome(lambda: K.batch_dot(tf.ones((2, 3)), tf.ones((3, 3))), "batch sizes"),
                      "axis0": outcome(lambda: K.batch_dot(tf.ones((2, 3)), tf.ones((2, 3)), axes=0), "axis 0"),
                      "dims": outcome(lambda: K.batch_dot(tf.ones((2, 3)), tf.ones((2, 4)), axes=1), "!=")}}
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        loss = tf.reduce_sum(K.batch_dot(x, y) * tf.constant(data((2, 3, 5), seed=7)))
    out["grads"] = val(tape.gradient(loss, [x, y]))
    return out


@program
def p_keras_backend_legacy_focal(tf):
    K = tf.keras.backend
    target = tf.constant([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
    probs = tf.constant([[0.2, 0.7, 0.9], [0.6, 0.3, 0.1]])
    logits = tf.constant([[-1.0, 2.0, 0.5], [0.3, -0.2, 1.5]])
    one_hot = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    out = {"binary": val(K.binary_focal_crossentropy(target, probs)),
           "binary_balanced": val(K.binary_focal_crossentropy(target, probs, apply_class_balancing=True, alpha=0.4,
                                                              gamma=1.5)),
           "binary_logits": val(K.binary_focal_crossentropy(target, logits, from_logits=True)),
           "categorical": val(K.categorical_focal_crossentropy(one_hot, probs)),
           "categorical_logits": val(K.categorical_focal_crossentropy(one_hot, logits, from_logits=True, gamma=1.0)),
           "graph": val(tf.function(lambda t, p: K.categorical_focal_crossentropy(t, p, alpha=0.5))(one_hot, probs)),
           "shape_error": outcome(lambda: K.categorical_focal_crossentropy(tf.ones((2, 2)), probs), "")}
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.reduce_sum(K.binary_focal_crossentropy(target, logits, from_logits=True)) + tf.reduce_sum(
            K.categorical_focal_crossentropy(one_hot, logits, from_logits=True))
    out["grad"] = val(tape.gradient(loss, logits))
    return out


@program
def p_keras_backend_legacy_convolutions(tf):
    K = tf.keras.backend
    x = tf.constant(data((2, 6, 6, 3)))
    kernel = tf.constant(data((3, 3, 3, 4), seed=1, scale=0.5))
    out = {
        "conv2d": val(K.conv2d(x, kernel)), "conv2d_same": val(K.conv2d(x, kernel, strides=(2, 2), padding="same")),
        "conv2d_dilated": val(K.conv2d(x, kernel, dilation_rate=(2, 2))),
        "conv1d": val(K.conv1d(tf.constant(data((2, 7, 3))), tf.constant(data((3, 3, 2), seed=2)), strides=2)),
        "conv1d_causal": val(K.conv1d(tf.constant(data((1, 5, 2))), tf.constant(data((2, 2, 3), seed=3)),
                                      padding="causal", dilation_rate=2)),
        "conv3d": val(K.conv3d(tf.constant(data((1, 4, 4, 4, 2))), tf.constant(data((2, 2, 2, 2, 3), seed=4)),
                               padding="same")),
        "conv2d_transpose": val(K.conv2d_transpose(tf.constant(data((2, 3, 3, 4))), kernel, (2, 6, 6, 3),
                                                   strides=(2, 2), padding="same")),
        "conv2d_transpose_none": val(K.conv2d_transpose(tf.constant(data((2, 3, 3, 4))), kernel, (None, 5, 5, 3))),
        "depthwise": val(K.depthwise_conv2d(x, tf.constant(data((3, 3, 3, 2), seed=5)), padding="same")),
        "separable": val(K.separable_conv2d(x, tf.constant(data((3, 3, 3, 2), seed=5)),
                                            tf.constant(data((1, 1, 6, 4), seed=6)), strides=(2, 2))),
        "graph": val(tf.function(lambda a, k: K.conv2d(a, k, padding="same"))(x, kernel)),
        "errors": {"padding": outcome(lambda: K.conv2d(x, kernel, padding="full"), "Invalid padding"),
                   "format": outcome(lambda: K.conv2d(x, kernel, data_format="nhwc"), "Unknown data_format"),
                   "separable_strides": outcome(lambda: K.separable_conv2d(x, kernel, kernel, strides=(1,)),
                                                "`strides` must be a tuple of 2 integers")}}
    with tf.GradientTape() as tape:
        tape.watch([x, kernel])
        loss = tf.reduce_sum(K.conv2d(x, kernel, padding="same") * tf.constant(data((2, 6, 6, 4), seed=8)))
    out["grads"] = val(tape.gradient(loss, [x, kernel]))
    return out


@program
def p_keras_backend_legacy_pooling_and_resizing(tf):
    K = tf.keras.backend
    x = tf.constant(data((2, 5, 6, 3), scale=2.0))
    v = tf.constant(data((1, 2, 3, 2, 2)))
    out = {
        "max": val(K.pool2d(x, (2, 2), strides=(2, 2))), "avg_same": val(K.pool2d(x, (3, 3), padding="same",
                                                                                   pool_mode="avg")),
        "max3d": val(K.pool3d(tf.constant(data((1, 4, 4, 4, 2))), (2, 2, 2), strides=(2, 2, 2))),
        "avg3d": val(K.pool3d(tf.constant(data((1, 4, 4, 4, 2))), (2, 2, 2), pool_mode="avg", padding="same")),
        "resize": val(K.resize_images(x, 2, 3, "channels_last")),
        "resize_bilinear": val(K.resize_images(x, 2, 2, "channels_last", interpolation="bilinear")),
        "resize_first": val(K.resize_images(tf.constant(data((1, 2, 2, 3))), 2, 1, "channels_first")),
        "volumes": val(K.resize_volumes(v, 2, 1, 2, "channels_last")),
        "volumes_first": val(K.resize_volumes(v, 1, 2, 1, "channels_first")),
        "pad3d": val(K.spatial_3d_padding(v, ((1, 0), (0, 1), (1, 1)))),
        "pad3d_first": val(K.spatial_3d_padding(v, data_format="channels_first")),
        "graph": val(tf.function(lambda t: K.pool2d(t, (2, 2), pool_mode="avg"))(x)),
        "errors": {"pool_size": outcome(lambda: K.pool2d(x, (2,)), "`pool_size` must be a tuple of 2 integers"),
                   "mode": outcome(lambda: K.pool2d(x, (2, 2), pool_mode="sum"), "Invalid pooling mode"),
                   "interpolation": outcome(lambda: K.resize_images(x, 2, 2, "channels_last", "cubic"),
                                            "`interpolation` argument should be one of"),
                   "resize_format": outcome(lambda: K.resize_images(x, 2, 2, "nhwc"), "Invalid `data_format`"),
                   "pad": outcome(lambda: K.spatial_3d_padding(v, ((1, 1), (1, 1))), "Expected `padding`")}}
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(K.pool2d(x, (2, 2), pool_mode="avg") * 2.0) + tf.reduce_sum(
            K.resize_images(x, 2, 2, "channels_last", interpolation="bilinear"))
    out["grad"] = val(tape.gradient(loss, x))
    return out


@program
def p_keras_backend_legacy_random_variables(tf):
    K = tf.keras.backend
    normal = K.random_normal_variable((3, 4), 1.0, 2.0, seed=7)
    uniform = K.random_uniform_variable((2, 5), -1.0, 3.0, dtype="float64", seed=11, name="u")
    unseeded = K.random_uniform_variable((200,), 0.0, 1.0)
    return {"normal": [normal.dtype.name, normal.shape.as_list(), isinstance(normal, tf.Variable)],
            "uniform": [uniform.dtype.name, uniform.shape.as_list(), bool(tf.reduce_all(uniform >= -1.0)),
                        bool(tf.reduce_all(uniform < 3.0))],
            "unseeded_range": [bool(tf.reduce_all(unseeded >= 0.0)), bool(tf.reduce_all(unseeded < 1.0))]}


def _rnn_case(tf, **kwargs):
    last, outputs, states = _rnn_tensors(tf, **kwargs)
    return [val(last), val(outputs), val(list(states))]


def _rnn_tensors(tf, **kwargs):
    K = tf.keras.backend
    w = tf.constant(data((3, 4), seed=1, scale=0.5))
    u = tf.constant(data((4, 4), seed=2, scale=0.5))

    def step(x_t, states):
        h = tf.tanh(tf.matmul(x_t, w) + tf.matmul(states[0], u) + (states[1] if len(states) > 1 else 0.0))
        return h * 2.0, [h]

    x = tf.constant(data((2, 5, 3), scale=1.5))
    if kwargs.pop("time_major", False):
        x = tf.transpose(x, (1, 0, 2))
        kwargs["time_major"] = True
    last, outputs, states = K.rnn(step, x, [tf.zeros((2, 4))], **kwargs)
    return last, outputs, list(states)


@program
def p_keras_backend_legacy_rnn(tf):
    K = tf.keras.backend
    mask = tf.constant([[True, True, False, True, False], [True, False, False, False, False]])
    out = {"loop": _rnn_case(tf), "unroll": _rnn_case(tf, unroll=True),
           "backwards": _rnn_case(tf, go_backwards=True), "backwards_unroll": _rnn_case(tf, go_backwards=True,
                                                                                       unroll=True),
           "mask": _rnn_case(tf, mask=mask), "mask_unroll": _rnn_case(tf, mask=mask, unroll=True),
           "mask_zero": _rnn_case(tf, mask=mask, zero_output_for_mask=True),
           "mask_zero_unroll": _rnn_case(tf, mask=mask, zero_output_for_mask=True, unroll=True),
           "last_only": _rnn_case(tf, return_all_outputs=False),
           "constants": _rnn_case(tf, constants=[tf.constant(0.3)]),
           "time_major": _rnn_case(tf, time_major=True),
           "graph": val(tf.function(lambda: _rnn_tensors(tf, mask=mask))()),
           "rank_error": outcome(lambda: K.rnn(lambda x, s: (x, s), tf.ones((2, 3)), [tf.ones((2,))]), "rank"),
           "unroll_error": outcome(lambda: tf.function(lambda x: K.rnn(lambda a, s: (a, s), x, [x[:, 0]],
                                                                       unroll=True))
                                   .get_concrete_function(tf.TensorSpec((2, None, 3))), "fixed number")}
    x = tf.constant(data((2, 4, 3)))
    w = tf.constant(data((3, 3), seed=3, scale=0.5))
    def step(x_t, states):
        h = tf.tanh(tf.matmul(x_t, w) + states[0])
        return h, [h]

    with tf.GradientTape() as tape:
        tape.watch([x, w])
        last, _, _ = K.rnn(step, x, [tf.zeros((2, 3))])
        loss = tf.reduce_sum(last * tf.constant([1.0, -2.0, 0.5]))
    out["grads"] = val(tape.gradient(loss, [x, w]))
    return out
