"""Adagrad, as Keras 3 updates it: the accumulator starts at initial_accumulator_value, epsilon inside the root."""

from __future__ import annotations

from tinytf._ops import sqrt

from .optimizer import Optimizer


class Adagrad(Optimizer):
    """acc += g^2; w -= lr * g / sqrt(acc + epsilon)."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_specs(self):
        return [("accumulator", self.initial_accumulator_value)]

    def update_step(self, gradient, variable, learning_rate):
        lr = self._cast_learning_rate(learning_rate, variable.dtype)
        accumulator = self._slots_for(variable)["accumulator"]
        accumulator.assign_add(self._square(gradient))
        variable.assign_sub(lr * gradient / sqrt(accumulator + self.epsilon))

    def get_config(self):
        return dict(super().get_config(), initial_accumulator_value=self.initial_accumulator_value,
                    epsilon=self.epsilon)
