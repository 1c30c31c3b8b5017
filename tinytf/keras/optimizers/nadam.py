"""Nadam (Adam with Nesterov momentum), with Keras 3's momentum schedule u_t = beta_1 (1 - 0.5 * 0.96^t) and
the running product of the u_t kept in one variable shared by every trained variable."""

from __future__ import annotations

import numpy as np

from tinytf._ops import cast, pow, sqrt
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .optimizer import Optimizer, as_dtype_constant


class Nadam(Optimizer):
    """m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2);
    m_hat = u_{t+1} m / (1 - prod_{t+1}) + (1 - u_t) g / (1 - prod_t); v_hat = v / (1 - beta_2^t);
    w -= lr m_hat / (sqrt(v_hat) + epsilon)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self._u_product = None
        # Keras' Nadam makes u_product a plain attribute: tracked as one of its variables, except when a
        # LossScaleOptimizer builds it (Keras builds the inner optimizer with tracking off)
        self._track_u_product = True

    def _slot_specs(self):
        return [("momentum", 0), ("velocity", 0)]

    def _make_u_product(self, variables):
        """The running product, after the slots as Keras' build makes it, in the first variable's dtype."""
        if self._u_product is None and variables:
            dtype = variables[0].dtype
            with init_scope():
                self._u_product = Variable(np.asarray(1.0, dtype.np), name=f"{self.name}/u_product",
                                           trainable=False, dtype=dtype)
            if self._track_u_product:
                self._variables.append(self._u_product)

    def build(self, var_list) -> None:
        super().build(var_list)
        self._make_u_product(list(var_list))

    def _before_updates(self, trainable_variables):
        self._make_u_product(trainable_variables)
        dtype = self._u_product.dtype
        step = cast(self._iterations + 1, dtype)
        self._u_product.assign(self._u_product * self.beta_1 * (1.0 - 0.5 * pow(as_dtype_constant(0.96, dtype),
                                                                                   step)))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        local_step = self._local_step(dtype)
        next_step = local_step + 1
        decay = as_dtype_constant(0.96, dtype)
        beta_1 = as_dtype_constant(self.beta_1, dtype)
        beta_2 = as_dtype_constant(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * pow(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * pow(decay, next_step))
        u_product_t = cast(self._u_product, dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = pow(beta_2, local_step)
        slots = self._slots_for(variable)
        m, v = slots["momentum"], slots["velocity"]
        m.assign_add((gradient - m) * (1 - beta_1))
        v.assign_add((self._square(gradient) - v) * (1 - beta_2))
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * gradient / (1 - u_product_t)
        v_hat = v / (1 - beta_2_power)
        variable.assign_sub(m_hat * lr / (sqrt(v_hat) + self.epsilon))

    def get_config(self):
        return dict(super().get_config(), beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
