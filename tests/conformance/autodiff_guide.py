"""TF's "Advanced automatic differentiation" guide: stop_recording, reset, custom gradients, several tapes,
higher-order gradients, Jacobians, batch Jacobians, and forward mode (tf.autodiff.ForwardAccumulator:
JVPs, Hessian-vector products, unconnected targets, errors), eagerly and inside tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_stop_recording_and_reset(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    stopped = t.gradient(z, {"x": x, "y": y})
    with tf.GradientTape() as t:
        y_sq = y * y
        t.reset()
        z = x * x + y_sq
    reset = t.gradient(z, {"x": x, "y": y})
    return [val(stopped["x"]), stopped["y"] is None, val(reset["x"]), reset["y"] is None]


@program
def p_higher_order_and_input_gradient_penalty(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    kernel = tf.Variable(np.linspace(-1, 1, 50).reshape(5, 10).astype("float32"))
    xs = tf.constant(np.linspace(-2, 2, 35).reshape(7, 5).astype("float32"))
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            t1.watch(xs)
            out = tf.reduce_sum(tf.nn.relu(tf.matmul(xs, kernel)) ** 2)
        g1_mag = tf.norm(t1.gradient(out, xs))
    return [val(dy_dx), val(d2y_dx2), val(t2.gradient(g1_mag, kernel))]


@program
def p_jacobians_and_hessian(tf):
    x = tf.linspace(-10.0, 10.0, 21)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    scalar_source = tape.jacobian(y, delta)
    w1 = tf.Variable(np.linspace(-1, 1, 15).reshape(5, 3).astype("float32"))
    w2 = tf.Variable(np.linspace(1, -1, 6).reshape(3, 2).astype("float32"))
    xs = tf.constant(np.linspace(-2, 2, 20).reshape(4, 5).astype("float32"))
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_mean(tf.nn.relu(tf.matmul(tf.nn.relu(tf.matmul(xs, w1)), w2)) ** 2)
        g = t1.gradient(loss, w1)
    hessian = t2.jacobian(g, w1)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = tf.tanh(tf.matmul(tf.tanh(tf.matmul(xs, w1)), w2))
    full = tape.jacobian(y, xs)
    batch = tape.batch_jacobian(y, xs)
    return [val(scalar_source), val(hessian), val(tf.shape(full)), val(batch),
            val(tf.reduce_max(tf.abs(tf.reduce_sum(full, axis=2) - batch)))]


@program
def p_forward_accumulator_doc(tf):
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    targets = tf.constant([[1.0], [-1.0]])
    kernel = tf.Variable([[0.5], [-0.25]])
    bias = tf.Variable([0.1])
    with tf.autodiff.ForwardAccumulator(primals=kernel, tangents=tf.constant([[1.0], [0.0]])) as acc:
        loss = tf.reduce_sum((tf.matmul(x, kernel) + bias - targets) ** 2.0)
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 10.0])) as hvp_acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.0)
        backward = tape.gradient(y, v)
    return [val(acc.jvp(loss)), val(backward), val(hvp_acc.jvp(backward))]


@program
def p_forward_accumulator_tensors_structures_and_unconnected(tf):
    x = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.sin(x) * x
        z = tf.exp(y)
        w = tf.constant([1.0, 2.0]) * 2.0
    a = tf.constant([1.0, 2.0, 3.0])
    b = tf.constant([[0.5], [2.0]])
    with tf.autodiff.ForwardAccumulator({"a": a, "b": b}, {"a": tf.constant([1.0, 0.0, -1.0]),
                                                            "b": tf.constant([[1.0], [1.0]])}) as pair:
        out = tf.matmul(b, a[None, :]) + tf.reduce_sum(a ** 2)
        sliced = tf.gather(a, [2, 0])
    return [val(acc.jvp(y)), val(acc.jvp(z)), acc.jvp(w) is None,
            val(acc.jvp(w, unconnected_gradients=tf.UnconnectedGradients.ZERO)),
            val(acc.jvp({"y": y, "z": z})["z"]), val(pair.jvp(out)), val(pair.jvp(sliced)),
            acc.jvp(tf.constant([1, 2])) is None]


@program
def p_forward_accumulator_in_function(tf):
    @tf.function
    def jvp(x, direction):
        with tf.autodiff.ForwardAccumulator(x, direction) as acc:
            y = tf.reduce_sum(tf.tanh(x) * x, axis=-1)
        return acc.jvp(y)

    x = tf.constant([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
    return [val(jvp(x, tf.ones_like(x))), val(jvp(x, tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])))]


@program
def p_forward_accumulator_errors(tf):
    return [outcome(lambda: tf.autodiff.ForwardAccumulator(tf.constant([1.0]), tf.constant([1], tf.int32)),
                    "dtype"),
            outcome(lambda: tf.autodiff.ForwardAccumulator([tf.constant(1.0)] * 0 + [x := tf.constant(2.0), x],
                                                           [tf.constant(1.0), tf.constant(2.0)]),
                    "specified as a primal multiple times")]
