"""tf.math.sobol_sample: the Sobol sequence with Joe and Kuo's direction numbers, bit for bit as TF 2.21 gives it
(float32 and float64, skips, low and high dimensions up to TF's limit of 21200), eagerly and inside tf.function,
and TF's errors."""

from __future__ import annotations

from . import outcome, program, val


@program
def p_sobol_small(tf):
    return [val(tf.math.sobol_sample(3, 5)), val(tf.math.sobol_sample(2, 4, skip=3, dtype=tf.float64)),
            val(tf.math.sobol_sample(1, 9, skip=100)), val(tf.math.sobol_sample(12, 33, skip=7, dtype=tf.float64))]


@program
def p_sobol_high_dimensions(tf):
    columns = [0, 1, 2, 99, 1110, 5000, 12345, 21199]
    wide = tf.math.sobol_sample(21200, 6, skip=4097, dtype=tf.float64)
    mid = tf.math.sobol_sample(1500, 64, skip=123456)
    return [val(tf.gather(wide, columns, axis=1)), val(tf.gather(mid, [0, 7, 700, 1499], axis=1)),
            val(tf.reduce_sum(tf.cast(mid, tf.float64), axis=0)[1400:1410])]


@program
def p_sobol_in_function(tf):
    @tf.function
    def points(dim, count, skip):
        return tf.math.sobol_sample(dim, count, skip=skip, dtype=tf.float64)

    @tf.function
    def static():
        return tf.math.sobol_sample(4, 3)
    return [val(points(tf.constant(3), tf.constant(4), tf.constant(10))), val(points(2, 2, 0)), val(static()),
            static.get_concrete_function().structured_outputs.shape.as_list()]


@program
def p_sobol_errors(tf):
    return [outcome(lambda: tf.math.sobol_sample(0, 2), "dim must be at least one"),
            outcome(lambda: tf.math.sobol_sample(21201, 2), "dim must be at most 21200"),
            outcome(lambda: tf.math.sobol_sample(2, 0), "num_results must be at least one"),
            outcome(lambda: tf.math.sobol_sample(2, 3, skip=-1), "skip must be non-negative"),
            outcome(lambda: tf.math.sobol_sample(2, 3, dtype=tf.int32), "dtype")]
