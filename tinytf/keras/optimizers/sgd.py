"""Stochastic gradient descent, with optional (Nesterov) momentum, as Keras 3 updates it."""

from __future__ import annotations

import numbers

from .optimizer import Optimizer, as_dtype_constant


class SGD(Optimizer):
    """Without momentum: w -= lr * g. With momentum: m = momentum * m - lr * g, then w += m, or with
    nesterov w += momentum * m - lr * g (using the new m)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        if not isinstance(momentum, numbers.Real) or isinstance(momentum, bool) or not 0 <= momentum <= 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _slot_specs(self):
        return [("momentum", 0)] if self.momentum != 0 else []

    def update_step(self, gradient, variable, learning_rate):
        lr = self._cast_learning_rate(learning_rate, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(gradient * lr)
            return
        m = self._slots_for(variable)["momentum"]
        momentum = as_dtype_constant(self.momentum, variable.dtype)
        m.assign(m * momentum - gradient * lr)
        if self.nesterov:
            variable.assign_add(m * momentum - gradient * lr)
        else:
            variable.assign_add(m)

    def get_config(self):
        return dict(super().get_config(), momentum=self.momentum, nesterov=self.nesterov)
