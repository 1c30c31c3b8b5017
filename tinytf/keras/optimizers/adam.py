"""Adam (optionally AMSGrad), with Keras 3's update: bias corrections folded into the step size, epsilon
added after the square root ("epsilon hat" of the paper)."""

from __future__ import annotations

from tinytf._ops import maximum, pow, sqrt

from .optimizer import Optimizer, as_dtype_constant


class Adam(Optimizer):
    """m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2);
    w -= m * lr * sqrt(1 - beta_2^t) / (1 - beta_1^t) / (sqrt(v) + epsilon), with t = iterations + 1.
    With amsgrad, v is replaced by the running maximum of v."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def _slot_specs(self):
        specs = [("momentum", 0), ("velocity", 0)]
        return specs + [("velocity_hat", 0)] if self.amsgrad else specs

    def _step_size(self, learning_rate, dtype):
        """lr * sqrt(1 - beta_2^t) / (1 - beta_1^t): shared by every variable of this dtype in the step."""

        def make():
            lr = self._cast_learning_rate(learning_rate, dtype)
            step = self._local_step(dtype)
            beta_1_power = pow(as_dtype_constant(self.beta_1, dtype), step)
            beta_2_power = pow(as_dtype_constant(self.beta_2, dtype), step)
            return lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)

        return self._per_step(("adam_alpha", dtype), make)

    def update_step(self, gradient, variable, learning_rate):
        alpha = self._step_size(learning_rate, variable.dtype)
        slots = self._slots_for(variable)
        m, v = slots["momentum"], slots["velocity"]
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((self._square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = slots["velocity_hat"]
            v_hat.assign(maximum(v_hat, v))
            v = v_hat
        variable.assign_sub((m * alpha) / (sqrt(v) + self.epsilon))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
                    amsgrad=self.amsgrad)
