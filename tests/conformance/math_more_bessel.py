"""tf.math.bessel_i0, bessel_i0e, bessel_i1, bessel_i1e: TF's docstring examples (through tf.math rather than
tf.math.special), float32 and float64 over small, large, infinite and NaN arguments, gradients (with TF's imputed
values at 0), eagerly and in a tf.function."""

from __future__ import annotations

import numpy as np

from . import program, val

_ARGS = [-800.0, -100.0, -31.0, -30.0, -29.9, -5.5, -1.0, -1e-3, 0.0, 1e-5, 0.3, 1.0, 2.5, 7.9, 8.1, 15.0, 29.99,
         30.0, 45.0, 100.0, 500.0, 713.0, 720.0, np.inf, -np.inf, np.nan]


def _functions(tf):
    return [tf.math.bessel_i0, tf.math.bessel_i0e, tf.math.bessel_i1, tf.math.bessel_i1e]


@program
def p_bessel_docstring(tf):
    x = [-1.0, -0.5, 0.5, 1.0]
    return [val(f(x)) for f in _functions(tf)]


@program
def p_bessel_values(tf):
    out = []
    for dtype in (tf.float64, tf.float32):
        x = tf.constant(_ARGS, dtype)
        out.append([val(f(x)) for f in _functions(tf)])
    graph = tf.function(lambda t: [f(t) for f in _functions(tf)])
    out.append([val(t) for t in graph(tf.constant(_ARGS[5:15], tf.float32))])
    return out


@program
def p_bessel_gradients(tf):
    x = tf.constant([-3.0, -0.5, 0.0, 0.7, 4.0, 35.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ys = [f(x) for f in _functions(tf)]
    return [val(tape.gradient(y, x)) for y in ys]
