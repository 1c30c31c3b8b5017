"""The rest of TF1's optimizers (tf.compat.v1.train): FTRL, proximal Adagrad and Adagrad dual averaging, on the
slot machinery of slot_optimizers.py and the formulas of TF's kernels (ApplyFtrl, ApplyFtrlV2,
ApplyProximalAdagrad, ApplyAdagradDA). Their slots are named as TF1 names them (`w/Ftrl`, `w/Ftrl_1`, ...), so
TF1 checkpoints restore into them."""

from __future__ import annotations

import numpy as np

from ... import math as tfmath
from .slot_optimizers import SlotOptimizer, _ops_in_order, _variable


class _NamedSlotOptimizer(SlotOptimizer):
    """A slot optimizer whose slots may carry names of their own (`_slot_names`: slot -> name or None for the
    optimizer's name), as TF1's Ftrl names its accumulators after `accum_name` and `linear_name`."""

    _slot_names: dict = {}

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        for grad, var in grads_and_vars:
            if grad is None:
                continue
            for slot_name, fill in self._slot_specs:
                slots = self._slots.setdefault(slot_name, {})
                if id(var) not in slots:
                    prefix = self._slot_names.get(slot_name) or self._name
                    slots[id(var)] = _variable(np.full(var.shape.as_list(), fill, var.dtype.as_numpy_dtype),
                                               f"{var.name.split(':')[0]}/{prefix}", trainable=False)
        return super().apply_gradients(grads_and_vars, global_step, name)


def _not_negative(value, what):
    if value < 0.0:
        raise ValueError(f"{what} {value:f} needs to be positive or zero")


class FtrlOptimizer(_NamedSlotOptimizer):
    """FTRL-Proximal (McMahan et al., 2013), TF's ApplyFtrl: accum' = accum + g**2;
    linear += g - (accum'**-p - accum**-p) / lr * var; var = (clip(linear, -l1, l1) - linear) /
    (accum'**-p / lr + 2 * l2). With l2 shrinkage (ApplyFtrlV2) `linear` sees g + 2 * l2_shrinkage * var; `beta`
    adds beta / (2 * lr) to l2."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0, beta=None):
        super().__init__(learning_rate, use_locking, name)
        _not_negative(initial_accumulator_value, "initial_accumulator_value")
        if learning_rate_power > 0.0:
            raise ValueError(f"learning_rate_power {learning_rate_power:f} needs to be negative or zero")
        _not_negative(l1_regularization_strength, "l1_regularization_strength")
        _not_negative(l2_regularization_strength, "l2_regularization_strength")
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError(f"l2_shrinkage_regularization_strength {l2_shrinkage_regularization_strength:f} needs "
                             "to be positive or zero")
        self._power = learning_rate_power
        self._l1 = l1_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2 = l2_regularization_strength
        self._shrinkage = l2_shrinkage_regularization_strength
        self._slot_specs = (("accum", initial_accumulator_value), ("linear", 0.0))
        self._slot_names = {"accum": accum_name, "linear": linear_name}

    def _update(self, grad, var):
        accum, linear = self._slot("accum", var), self._slot("linear", var)
        lr = self._learning_rate
        l2 = self._l2 + self._beta / (2.0 * tfmath.maximum(lr, 1e-36)) if self._beta else self._l2
        old_accum, value = accum.read_value(), var.read_value()
        new_accum = old_accum + grad * grad
        shrunk_grad = grad + 2.0 * self._shrinkage * value if self._shrinkage > 0.0 else grad
        if self._power == -0.5:
            growth = tfmath.sqrt(new_accum) - tfmath.sqrt(old_accum)
            new_accum_power = tfmath.sqrt(new_accum)
        else:
            new_accum_power = tfmath.pow(new_accum, -self._power)
            growth = new_accum_power - tfmath.pow(old_accum, -self._power)
        new_linear = linear.read_value() + shrunk_grad - growth / lr * value
        quadratic = new_accum_power / lr + 2.0 * l2
        clipped = tfmath.minimum(tfmath.maximum(new_linear, -self._l1), self._l1)
        return _ops_in_order(linear.assign(new_linear), var.assign((clipped - new_linear) / quadratic),
                             accum.assign(new_accum))


class ProximalAdagradOptimizer(SlotOptimizer):
    """Adagrad with FOBOS' proximal step (TF's ApplyProximalAdagrad): accum += g**2; lr' = lr / sqrt(accum);
    prox = var - lr' * g; var = sign(prox) * max(|prox| - lr' * l1, 0) / (1 + lr' * l2)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate, use_locking, name)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._slot_specs = (("accumulator", initial_accumulator_value),)

    def _update(self, grad, var):
        accum = self._slot("accumulator", var)
        new_accum = accum.read_value() + grad * grad
        lr = self._learning_rate * tfmath.rsqrt(new_accum)
        prox = var.read_value() - lr * grad
        if self._l1 > 0:
            prox = tfmath.sign(prox) * tfmath.maximum(tfmath.abs(prox) - lr * self._l1, 0.0)
        return _ops_in_order(accum.assign(new_accum), var.assign(prox / (1.0 + self._l2 * lr)))


class AdagradDAOptimizer(_NamedSlotOptimizer):
    """Adagrad dual averaging (TF's ApplyAdagradDA), for sparse linear models: with t = global_step + 1,
    g_acc += g; gg_acc += g**2; var = -lr * shrink(g_acc) / (l2 * t * lr + sqrt(gg_acc)), where
    shrink(a) = sign(a) * max(|a| - l1 * t, 0) when l1 > 0, else a."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False,
                 name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(learning_rate, use_locking, name)
        self._global_step = global_step
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._slot_specs = (("gradient_accumulator", 0.0),
                            ("gradient_squared_accumulator", initial_gradient_squared_accumulator_value))

    def _update(self, grad, var):
        import tinytf as tf

        g_acc, gg_acc = self._slot("gradient_accumulator", var), self._slot("gradient_squared_accumulator", var)
        step = tf.cast(tf.identity(self._global_step) + 1, var.dtype)
        new_g = g_acc.read_value() + grad
        new_gg = gg_acc.read_value() + grad * grad
        shrunk = new_g
        if self._l1 > 0:
            shrunk = tfmath.sign(new_g) * tfmath.maximum(tfmath.abs(new_g) - self._l1 * step, 0.0)
        lr = self._learning_rate
        value = -lr * shrunk / (self._l2 * step * lr + tfmath.sqrt(new_gg))
        return _ops_in_order(g_acc.assign(new_g), gg_acc.assign(new_gg), var.assign(value))


__all__ = ["AdagradDAOptimizer", "FtrlOptimizer", "ProximalAdagradOptimizer"]
