"""Adadelta, as Keras 3 updates it (the learning rate multiplies the Adadelta step; Keras' default is 0.001)."""

from __future__ import annotations

from tinytf._ops import sqrt, square

from .optimizer import Optimizer


class Adadelta(Optimizer):
    """E[g^2] = rho E[g^2] + (1 - rho) g^2; d = -sqrt(E[d^2] + eps) g / sqrt(E[g^2] + eps);
    E[d^2] = rho E[d^2] + (1 - rho) d^2; w += lr d."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def _slot_specs(self):
        return [("accumulated_grad", 0), ("accumulated_delta_var", 0)]

    def update_step(self, gradient, variable, learning_rate):
        lr = self._cast_learning_rate(learning_rate, variable.dtype)
        rho = self.rho
        slots = self._slots_for(variable)
        accumulated_grad, accumulated_delta = slots["accumulated_grad"], slots["accumulated_delta_var"]
        accumulated_grad.assign(rho * accumulated_grad + (1 - rho) * self._square(gradient))
        delta = -(sqrt(accumulated_delta + self.epsilon) * gradient) / sqrt(accumulated_grad + self.epsilon)
        accumulated_delta.assign(rho * accumulated_delta + (1 - rho) * square(delta))
        variable.assign_add(lr * delta)

    def get_config(self):
        return dict(super().get_config(), rho=self.rho, epsilon=self.epsilon)
