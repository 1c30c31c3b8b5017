"""ScheduleFreeAdamW (Defazio et al., 2024), as Keras 3.15 writes it: no learning-rate schedule, an Adam-style
step on a "z" sequence kept in the momentum slot (starting as a copy of the variable), and the variable moved
to an interpolation of z and the running average x of the z's: with t = iterations + 1,
v += (g^2 - v)(1 - beta_2); z -= lr * g / (sqrt(v / (1 - beta_2^t)) + epsilon);
x_old = (y - (1 - beta_1) z) / beta_1; x = (1 - 1/t) x_old + z / t; y = (1 - beta_1) z + beta_1 x.
`warmup_steps` scales lr by min(t / warmup_steps, 1); weight_decay is the decoupled one of the base class."""

from __future__ import annotations

from tinytf._ops import minimum, pow, sqrt

from .optimizer import Optimizer, as_dtype_constant


class ScheduleFreeAdamW(Optimizer):
    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8, warmup_steps=0,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def _slot_specs(self):
        return [("momentum", 0), ("velocity", 0)]

    def _slots_for(self, variable) -> dict:
        key = variable.ref()
        if key in self._slots:
            return self._slots[key]
        slots = super()._slots_for(variable)
        # Keras' build assigns z = a copy of the variable as an op of its own: eagerly it runs at once; when the
        # slots are made while a tf.function traces its first call, TF runs the variables' initializers (zeros)
        # but not that trace's assign, so z starts at zero there, and tinytf does as TF
        slots["momentum"].assign(variable)
        return slots

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        step = self._local_step(dtype)
        beta_1 = as_dtype_constant(self.beta_1, dtype)
        beta_2 = as_dtype_constant(self.beta_2, dtype)
        if self.warmup_steps > 0:
            lr = lr * minimum(step / as_dtype_constant(self.warmup_steps, dtype), as_dtype_constant(1.0, dtype))
        slots = self._slots_for(variable)
        momentum, velocity = slots["momentum"], slots["velocity"]
        bias_correction_2 = 1 - pow(beta_2, step)
        velocity.assign_add((gradient * gradient - velocity) * (1 - beta_2))
        denominator = sqrt(velocity / bias_correction_2) + as_dtype_constant(self.epsilon, dtype)
        momentum.assign_sub(lr * gradient / denominator)
        weight = 1.0 / step
        # Keras reads "momentum_old" as `momentum.value`, which on TF is the variable itself, so it is read
        # after the update above: x_old uses the new z (what TF 2.21 computes, kept for its numbers)
        x_old = (variable - (1 - beta_1) * momentum) / beta_1
        x_new = (1 - weight) * x_old + weight * momentum
        variable.assign((1 - beta_1) * momentum + beta_1 * x_new)

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
                    warmup_steps=self.warmup_steps)
