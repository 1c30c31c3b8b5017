"""Small programs from TF's tf.function and tensor guides on TF 2.21: a concrete function called with another
dtype (TF's InvalidArgumentError), and tf.linalg.band_part with its gradient in a traced function."""

from __future__ import annotations

from . import program, val


@program
def p_concrete_function_called_with_another_dtype(tf):
    @tf.function
    def double(a):
        return a + a

    concrete = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))
    try:
        concrete(tf.constant(1))
        raised = None
    except Exception as error:  # noqa: BLE001 - the class TF raises is the result
        raised = type(error).__name__
    return [concrete(tf.constant("b")).numpy().decode(), raised]


@program
def p_linalg_band_part(tf):
    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    parts = [val(tf.linalg.band_part(x, lower, upper)) for lower, upper in
             [(0, -1), (-1, 0), (1, 1), (0, 0), (2, 1), (-1, -1)]]

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32), tf.TensorSpec([], tf.int64)])
    def banded(m, k):
        with tf.GradientTape() as tape:
            tape.watch(m)
            y = tf.linalg.band_part(m, k, 0)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, m)

    return [parts, val(banded(tf.ones([3, 3]), tf.constant(1, tf.int64))),
            val(tf.linalg.band_part(tf.constant([[1, 2], [3, 4]]), 0, -1))]
