"""tf.sigmoid as TensorFlow 2.21 computes it across the whole range, the negative tail included (values down to
1e-38, where (tanh(x / 2) + 1) / 2 cancels to 0), eagerly, in a tf.function (a fused block of 4096 elements and
a scalar) and through its gradient, in float32 and float64; tf.nn.silu (x * sigmoid(beta * x)) likewise. The log
of the tail makes a relative difference visible to the absolute float tolerance of the comparison."""

from __future__ import annotations

import numpy as np

from . import program, val

_TAIL = [-87.0, -60.0, -30.0, -20.0, -17.0, -16.0, -12.0, -10.0, -7.5, -5.0, -2.0, -0.5, 0.0, 0.25, 3.0, 9.0, 17.0,
         40.0]
_SPECIAL = [float("inf"), float("-inf"), float("nan"), -1000.0, 1000.0, -0.0]


@program
def p_sigmoid_tail_values(tf):
    out = []
    for dtype in (tf.float32, tf.float64):
        x = tf.constant(_TAIL, dtype)
        out += [val(tf.sigmoid(x)), val(tf.math.log(tf.sigmoid(x))), val(tf.nn.sigmoid(tf.constant(_SPECIAL, dtype)))]
    half = tf.constant(_TAIL[3:] + _SPECIAL, tf.float16)
    return out + [val(tf.cast(tf.sigmoid(half), tf.float32)), val(tf.function(lambda v: tf.sigmoid(v * 1.0))(half))]


@program
def p_sigmoid_in_a_function(tf):
    # 4096 elements: a block the code generator writes through `out=` buffers; then a scalar, an expression
    x = np.linspace(-40.0, 12.0, 4096).astype(np.float32).reshape(64, 64)

    @tf.function
    def gates(v):
        s = tf.sigmoid(v * 1.5 - 2.0)
        return tf.math.log(s) + s * v, tf.sigmoid(v[0, 0] - 3.0)

    block, scalar = gates(tf.constant(x))
    return [val(block[::7, ::5]), val(tf.reduce_sum(block)), val(scalar)]


@program
def p_sigmoid_gradients(tf):
    x = tf.constant([-30.0, -16.0, -3.0, 0.0, 2.5, 20.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log(tf.sigmoid(x))
    return [val(y), val(tape.gradient(y, x))]


@program
def p_silu_tail(tf):
    x = tf.constant(_TAIL)
    out = [val(tf.nn.silu(x)), val(tf.math.log(-tf.nn.silu(x[:10]))), val(tf.nn.silu(x, beta=0.5)),
           val(tf.function(lambda v: tf.nn.silu(v * 1.0) + 0.0)(x))]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.silu(x)
    return out + [val(tape.gradient(y, x))]
