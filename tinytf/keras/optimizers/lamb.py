"""LAMB (layer-wise adaptive moments), Keras 3's update: Adam's direction rescaled per variable by the trust
ratio ||w|| / ||update||."""

from __future__ import annotations

from tinytf._ops import greater, pow, reduce_sum, sqrt, square, where

from .optimizer import Optimizer, as_dtype_constant


class Lamb(Optimizer):
    """m, v as Adam; u = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + eps);
    w -= r lr u with r = ||w|| / ||u|| when both norms are positive, else 1."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _slot_specs(self):
        return [("momentum", 0), ("velocity", 0)]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        step = self._local_step(dtype)
        beta_1_power = pow(as_dtype_constant(self.beta_1, dtype), step)
        beta_2_power = pow(as_dtype_constant(self.beta_2, dtype), step)
        slots = self._slots_for(variable)
        m, v = slots["momentum"], slots["velocity"]
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((self._square(gradient) - v) * (1 - self.beta_2))
        update = (m / (1.0 - beta_1_power)) / (sqrt(v / (1.0 - beta_2_power)) + self.epsilon)
        w_norm = sqrt(reduce_sum(square(variable)))
        g_norm = sqrt(reduce_sum(square(update)))
        one = as_dtype_constant(1.0, dtype)
        ratio = where(greater(w_norm, 0), where(greater(g_norm, 0), w_norm / g_norm, one), one)
        variable.assign_sub(ratio * lr * update)

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
