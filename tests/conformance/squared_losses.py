"""Sums of squares as TensorFlow 2.21 computes them: reduce_sum(y * y), reduce_sum(square(y)) and l2_loss of
arrays large enough for tinytf's sum_of_squares kernel (over 128k values), eagerly and inside tf.function, with
their gradients, in float32 and float64."""

from __future__ import annotations

from . import data, program, val


def _summary(tf, t):
    """A large tensor as a few of its values and the sum of their magnitudes (the reference file stays small)."""
    if t.shape.rank == 0:
        return val(t)
    corner = t[0, :2, :3] if t.shape.rank == 4 else t
    return [val(corner), val(tf.reduce_sum(tf.abs(t)))]


def _losses(tf, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * 3.0
        total = tf.reduce_sum(y * y) * 0.5 + tf.reduce_sum(tf.square(x), axis=[0, 1, 2]) + tf.nn.l2_loss(y - x)
    return [total, tape.gradient(total, x)]


@program
def p_sums_of_squares_eager_and_in_function(tf):
    out = []
    for dtype in ("float32", "float64"):
        x = tf.constant(data([8, 40, 50, 16], seed=3, scale=2.0, dtype=dtype))  # 256k values
        eager = _losses(tf, x)
        graph = tf.function(lambda x: _losses(tf, x))(x)
        out.append([_summary(tf, t) for t in eager + graph])
    return out


@program
def p_sums_of_squares_of_a_conv_output(tf):
    """The depthwise benchmark's loss on a smaller batch: sum(y * y) / 2 of a depthwise conv, in a tf.function."""
    x = tf.constant(data([4, 32, 32, 16], seed=5))
    f = tf.constant(data([3, 3, 16, 2], seed=6, scale=0.3))

    @tf.function
    def step(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME")
            loss = tf.reduce_sum(y * y) * 0.5
        return [loss] + tape.gradient(loss, [x, f])

    return [_summary(tf, t) for t in step(x, f)]
