"""Adamax: Adam's variant on the infinity norm, with Keras 3's update."""

from __future__ import annotations

from tinytf._ops import abs, maximum, pow

from .optimizer import Optimizer, as_dtype_constant


class Adamax(Optimizer):
    """m += (g - m)(1 - beta_1); u = max(beta_2 u, |g|); w -= lr m / ((1 - beta_1^t)(u + epsilon))."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _slot_specs(self):
        return [("momentum", 0), ("norm", 0)]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        beta_1_power = pow(as_dtype_constant(self.beta_1, dtype), self._local_step(dtype))
        slots = self._slots_for(variable)
        m, u = slots["momentum"], slots["norm"]
        m.assign_add((gradient - m) * (1 - self.beta_1))
        u.assign(maximum(self.beta_2 * u, abs(gradient)))
        variable.assign_sub(lr * m / ((1 - beta_1_power) * (u + self.epsilon)))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
