"""Lion (EvoLved Sign Momentum), Keras 3's update: the step is the sign of an interpolation of momentum and
gradient, so every coordinate moves by exactly the learning rate."""

from __future__ import annotations

from tinytf._ops import sign

from .optimizer import Optimizer, as_dtype_constant


class Lion(Optimizer):
    """w -= lr sign(beta_1 m + (1 - beta_1) g); m = beta_2 m + (1 - beta_2) g."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")

    def _slot_specs(self):
        return [("momentum", 0)]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        beta_1 = as_dtype_constant(self.beta_1, dtype)
        beta_2 = as_dtype_constant(self.beta_2, dtype)
        m = self._slots_for(variable)["momentum"]
        variable.assign_sub(lr * sign(m * beta_1 + gradient * (1.0 - beta_1)))
        m.assign(m * beta_2 + gradient * (1.0 - beta_2))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2)
