"""tf.compat.v1.train's learning-rate decay functions: the decayed rate at `global_step`, a tensor of the graph
being built (it follows the global step each time a session runs it), or eagerly a function of no arguments
that reads the step when called, as TF 2.21 returns it. The formulas are the Keras schedules'."""

from __future__ import annotations

import functools

from tinytf.runtime.context import state


def _decayed(schedule, global_step):
    if state.graph is not None:
        if global_step is None:  # TF converts it to a tensor here
            raise ValueError("None values not supported.")
        return schedule(global_step)
    return functools.partial(schedule, global_step)


def _schedules():
    from tinytf.keras.optimizers import schedules

    return schedules


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * decay_rate ** (global_step / decay_steps) (the exponent floored when staircase)."""
    return _decayed(_schedules().ExponentialDecay(learning_rate, decay_steps, decay_rate, staircase=staircase,
                                                  name=name or "ExponentialDecay"), global_step)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps)."""
    import tinytf as tf

    rate = tf.exp(tf.negative(tf.convert_to_tensor(decay_rate, tf.float32)))
    return _decayed(_schedules().ExponentialDecay(learning_rate, decay_steps, rate, staircase=staircase,
                                                  name=name or "ExponentialDecay"), global_step)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps)."""
    return _decayed(_schedules().InverseTimeDecay(learning_rate, decay_steps, decay_rate, staircase=staircase,
                                                  name=name or "InverseTimeDecay"), global_step)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    return _decayed(_schedules().PolynomialDecay(learning_rate, decay_steps, end_learning_rate=end_learning_rate,
                                                 power=power, cycle=cycle, name=name or "PolynomialDecay"),
                    global_step)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    return _decayed(_schedules().CosineDecay(learning_rate, decay_steps, alpha=alpha, name=name or "CosineDecay"),
                    global_step)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    return _decayed(_schedules().CosineDecayRestarts(learning_rate, first_decay_steps, t_mul=t_mul, m_mul=m_mul,
                                                     alpha=alpha, name=name or "SGDRDecay"), global_step)


def piecewise_constant(x, boundaries, values, name=None):
    """values[i] while x is in (boundaries[i-1], boundaries[i]]; TF's dtype checks."""
    import tinytf as tf

    boundaries = [tf.convert_to_tensor(b) for b in boundaries]
    values = [tf.convert_to_tensor(v) for v in values]
    x_tensor = tf.convert_to_tensor(x)
    for i, b in enumerate(boundaries):
        if b.dtype != x_tensor.dtype:
            if b.dtype == tf.int32 and x_tensor.dtype == tf.int64:
                boundaries[i] = tf.cast(b, tf.int64)
            else:
                raise ValueError(f"Boundaries ({b.dtype}) must have the same dtype as x ({x_tensor.dtype}).")
    for v in values[1:]:
        if v.dtype != values[0].dtype:
            raise ValueError(f"Values must have elements all with the same dtype ({values[0].dtype} vs {v.dtype}).")
    return _decayed(_schedules().PiecewiseConstantDecay(boundaries, values, name=name or "PiecewiseConstant"), x)


piecewise_constant_decay = piecewise_constant
