"""More of TF1's optimizers, on the slot machinery of slot_optimizers.py and TF1's kernels' formulas
(ApplyAdadelta, ApplyProximalGradientDescent)."""

from __future__ import annotations

from ... import math as tfmath
from .optimizer import Optimizer
from .slot_optimizers import SlotOptimizer, _ops_in_order


class AdadeltaOptimizer(SlotOptimizer):
    """accum = rho * accum + (1 - rho) * grad**2; update = sqrt(accum_update + eps) / sqrt(accum + eps) * grad;
    accum_update = rho * accum_update + (1 - rho) * update**2; var -= lr * update."""

    _slot_specs = (("accum", 0.0), ("accum_update", 0.0))

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name="Adadelta"):
        super().__init__(learning_rate, use_locking, name)
        self._rho, self._epsilon = rho, epsilon

    def _update(self, grad, var):
        accum, accum_update = self._slot("accum", var), self._slot("accum_update", var)
        new_accum = self._rho * accum.read_value() + (1 - self._rho) * grad * grad
        update = tfmath.sqrt(accum_update.read_value() + self._epsilon) * tfmath.rsqrt(new_accum + self._epsilon) * grad
        new_accum_update = self._rho * accum_update.read_value() + (1 - self._rho) * update * update
        return _ops_in_order(accum.assign(new_accum), accum_update.assign(new_accum_update),
                             var.assign_sub(self._learning_rate * update))


class ProximalGradientDescentOptimizer(Optimizer):
    """prox = var - lr * grad; var = sign(prox) / (1 + lr * l2) * max(|prox| - lr * l1, 0) (FOBOS)."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(learning_rate, use_locking, name)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _update(self, grad, var):
        from tinytf.runtime.context import state

        from .ops import last_op

        lr = self._learning_rate
        prox = var.read_value() - lr * grad
        shrunk = tfmath.maximum(tfmath.abs(prox) - lr * self._l1, 0.0)
        var.assign(tfmath.sign(prox) / (1.0 + lr * self._l2) * shrunk)
        return last_op(state.graph)
