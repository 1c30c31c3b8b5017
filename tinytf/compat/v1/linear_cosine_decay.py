"""tf.compat.v1.train.linear_cosine_decay and noisy_linear_cosine_decay (Bello et al., 2017): a linear decay
times a cosine, plus `beta`; the noisy form adds Gaussian noise whose variance decays with the step. TF 2.21
computes them with schedules that Keras 3 dropped (LinearCosineDecay, NoisyLinearCosineDecay), so they live
here; like the other decay functions they give a tensor in a graph and a function of no arguments eagerly."""

from __future__ import annotations

import math

from .learning_rate_decay import _decayed


def _tf():
    import tinytf

    return tinytf


class _LinearCosine:
    """lr * ((alpha + linear + noise) * cosine + beta), with linear = (decay_steps - t) / decay_steps and
    cosine = 0.5 * (1 + cos(pi * 2 * num_periods * t / decay_steps)), t = min(step, decay_steps)."""

    def __init__(self, learning_rate, decay_steps, num_periods, alpha, beta, name, variance=None):
        self.learning_rate, self.decay_steps, self.num_periods = learning_rate, decay_steps, num_periods
        self.alpha, self.beta, self.name, self.variance = alpha, beta, name, variance

    def __call__(self, step):
        tf = _tf()
        with tf.name_scope(self.name):
            learning_rate = tf.convert_to_tensor(self.learning_rate, name="initial_learning_rate")
            dtype = learning_rate.dtype
            decay_steps = tf.cast(self.decay_steps, dtype)
            step = tf.minimum(tf.cast(step, dtype), decay_steps)
            linear = (decay_steps - step) / decay_steps
            if self.variance is not None:
                initial_variance, variance_decay = self.variance
                variance = tf.cast(initial_variance, dtype) / tf.pow(1.0 + step, tf.cast(variance_decay, dtype))
                linear = linear + tf.random.normal(linear.shape, stddev=tf.sqrt(variance), dtype=dtype)
            fraction = 2.0 * tf.cast(self.num_periods, dtype) * (step / decay_steps)
            # TF's own constant(math.pi) is float32, so a float64 learning rate fails there as it does here
            cosine = 0.5 * (1.0 + tf.cos(tf.constant(math.pi) * fraction))
            decayed = (tf.cast(self.alpha, dtype) + linear) * cosine + tf.cast(self.beta, dtype)
            return tf.multiply(learning_rate, decayed)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001,
                        name=None):
    """The learning rate decayed linearly times a cosine of `num_periods` periods over `decay_steps`."""
    return _decayed(_LinearCosine(learning_rate, decay_steps, num_periods, alpha, beta,
                                  name or "LinearCosineDecay"), global_step)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """linear_cosine_decay with N(0, initial_variance / (1 + step) ** variance_decay) added to the linear part."""
    return _decayed(_LinearCosine(learning_rate, decay_steps, num_periods, alpha, beta,
                                  name or "NoisyLinearCosineDecay", variance=(initial_variance, variance_decay)),
                    global_step)


__all__ = ["linear_cosine_decay", "noisy_linear_cosine_decay"]
