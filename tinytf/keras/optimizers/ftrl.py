"""FTRL-Proximal ("Follow The Regularized Leader"), with Keras 3's update and argument checks."""

from __future__ import annotations

from tinytf._ops import clip_by_value, pow, square

from .optimizer import Optimizer


class Ftrl(Optimizer):
    """n' = n + g^2; z += g + 2 l2_shrinkage w - (n'^-p - n^-p) / lr * w;
    w = (clip(z, -l1, l1) - z) / (n'^-p / lr + 2 (l2 + beta / (2 lr))); n = n' (p = learning_rate_power)."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        checks = [("initial_accumulator_value", initial_accumulator_value < 0.0, "positive or zero"),
                  ("learning_rate_power", learning_rate_power > 0.0, "negative or zero"),
                  ("l1_regularization_strength", l1_regularization_strength < 0.0, "positive or zero"),
                  ("l2_regularization_strength", l2_regularization_strength < 0.0, "positive or zero"),
                  ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength < 0.0,
                   "positive or zero")]
        values = dict(initial_accumulator_value=initial_accumulator_value, learning_rate_power=learning_rate_power,
                      l1_regularization_strength=l1_regularization_strength,
                      l2_regularization_strength=l2_regularization_strength,
                      l2_shrinkage_regularization_strength=l2_shrinkage_regularization_strength)
        for name_, bad, wanted in checks:
            if bad:
                raise ValueError(f"`{name_}` needs to be {wanted}. Received: {name_}={values[name_]}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _slot_specs(self):
        return [("accumulator", self.initial_accumulator_value), ("linear", 0)]

    def update_step(self, gradient, variable, learning_rate):
        lr = self._cast_learning_rate(learning_rate, variable.dtype)
        slots = self._slots_for(variable)
        accum, linear = slots["accumulator"], slots["linear"]
        lr_power = self.learning_rate_power
        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = gradient + 2 * self.l2_shrinkage_regularization_strength * variable
        new_accum = accum + square(gradient)
        linear.assign_add(grad_to_use - (pow(new_accum, -lr_power) - pow(accum, -lr_power)) / lr * variable)
        quadratic = pow(new_accum, -lr_power) / lr + 2 * l2_reg
        l1 = self.l1_regularization_strength
        linear_clipped = clip_by_value(linear, -l1, l1)
        variable.assign((linear_clipped - linear) / quadratic)
        accum.assign(new_accum)

    def get_config(self):
        return dict(super().get_config(), learning_rate_power=self.learning_rate_power,
                    initial_accumulator_value=self.initial_accumulator_value,
                    l1_regularization_strength=self.l1_regularization_strength,
                    l2_regularization_strength=self.l2_regularization_strength,
                    l2_shrinkage_regularization_strength=self.l2_shrinkage_regularization_strength, beta=self.beta)
