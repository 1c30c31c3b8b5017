"""RMSprop (optionally centered, with momentum), as Keras 3 updates it: epsilon inside the square root."""

from __future__ import annotations

from tinytf._ops import sqrt, square

from .optimizer import Optimizer


class RMSprop(Optimizer):
    """v = rho v + (1 - rho) g^2; centered: a = rho a + (1 - rho) g and the denominator is v - a^2 + eps,
    else v + eps; increment = lr g / sqrt(denominator); with momentum: m = momentum m + increment, w -= m;
    else w -= increment."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _slot_specs(self):
        specs = [("velocity", 0)]
        if self.momentum > 0:
            specs.append(("momentum", 0))
        if self.centered:
            specs.append(("average_gradient", 0))
        return specs

    def update_step(self, gradient, variable, learning_rate):
        lr = self._cast_learning_rate(learning_rate, variable.dtype)
        slots = self._slots_for(variable)
        velocity = slots["velocity"]
        rho = self.rho
        velocity.assign(rho * velocity + (1 - rho) * self._square(gradient))
        if self.centered:
            average_grad = slots["average_gradient"]
            average_grad.assign(rho * average_grad + (1 - rho) * gradient)
            denominator = velocity - square(average_grad) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * gradient / sqrt(denominator)
        if self.momentum > 0:
            momentum = slots["momentum"]
            momentum.assign(self.momentum * momentum + increment)
            variable.assign_sub(momentum)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        return dict(super().get_config(), rho=self.rho, momentum=self.momentum, epsilon=self.epsilon,
                    centered=self.centered)
