"""Muon (MomentUm Orthogonalized by Newton-Schulz), Keras 3.15's update: a 2-D weight takes its (Nesterov)
momentum orthogonalised by five quintic Newton-Schulz steps, scaled by sqrt(max(rows, cols)) * rms_rate (the
Moonlight adjustment); every other variable (biases, embeddings, layers matched by `exclude_layers`) takes an
AdamW step at `learning_rate * adam_lr_ratio`. Weight decay is decoupled, `weight_decay` for Muon's variables
and `adam_weight_decay` for AdamW's."""

from __future__ import annotations

import re

from tinytf._ops import matmul, maximum, reduce_sum, sqrt, transpose
from tinytf.runtime.ops.math import cast
from tinytf.train.checkpoint import restore_pending

from .optimizer import Optimizer, as_dtype_constant


def _swap_last_axes(x):
    rank = x.shape.rank
    return transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


class Muon(Optimizer):
    """Muon for 2-D weights, AdamW for the rest."""

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999, adam_weight_decay=0.004,
                 epsilon=1e-7, weight_decay=0.004, clipnorm=None, clipvalue=None, global_clipnorm=None, name=None,
                 exclude_layers=None, exclude_embeddings=True, muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315,
                 adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True, rms_rate=0.2, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.adam_beta_1, self.adam_beta_2, self.epsilon = adam_beta_1, adam_beta_2, epsilon
        self.muon_a, self.muon_b, self.muon_c = muon_a, muon_b, muon_c
        self.adam_lr_ratio, self.momentum, self.ns_steps, self.nesterov = adam_lr_ratio, momentum, ns_steps, nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    def _should_use_adamw(self, variable) -> bool:
        if variable.shape.rank != 2:
            return True
        path = getattr(variable, "path", variable.name)
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(keyword, path) for keyword in self.exclude_layers)

    def _slots_for(self, variable) -> dict:
        """Keras' slots: a momentum for every variable, and a velocity for those AdamW updates."""
        key = variable.ref()
        slots = self._slots.get(key)
        if slots is None:
            slots = {"momentum": self.add_variable_from_reference(variable, "momentum")}
            if self._should_use_adamw(variable):
                slots["velocity"] = self.add_variable_from_reference(variable, "velocity")
            self._slots[key] = slots
            restore_pending(self._variables)
        return slots

    def update_step(self, gradient, variable, learning_rate):
        slots = self._slots_for(variable)
        if "velocity" in slots:
            self._adamw_step(gradient, variable, learning_rate * self.adam_lr_ratio, slots["momentum"],
                             slots["velocity"])
        else:
            self._muon_step(gradient, variable, learning_rate, slots["momentum"])

    def _muon_step(self, gradient, variable, learning_rate, m):
        dtype = variable.dtype
        momentum = as_dtype_constant(self.momentum, dtype)
        m.assign_add(gradient + m * (momentum - 1))
        g = gradient + momentum * m if self.nesterov else m.read_value()
        update = self.zeropower_via_newtonschulz5(g, self.ns_steps)
        variable.assign_sub(self.lr_adjust(self._cast_learning_rate(learning_rate, dtype) * update))

    def _adamw_step(self, gradient, variable, learning_rate, m, v):
        dtype = variable.dtype
        lr = as_dtype_constant(learning_rate, dtype)
        step = cast(self.iterations + 1, dtype)
        beta_1_power = as_dtype_constant(self.adam_beta_1, dtype) ** step
        beta_2_power = as_dtype_constant(self.adam_beta_2, dtype) ** step
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((gradient - m) * (1 - self.adam_beta_1))
        v.assign_add((gradient * gradient - v) * (1 - self.adam_beta_2))
        variable.assign_sub((m * alpha) / (sqrt(v) + self.epsilon))

    def lr_adjust(self, x):
        """The Moonlight scaling: x * sqrt(max(rows, cols)) * rms_rate (None: unscaled)."""
        if self.rms_rate is None:
            return x
        rows, cols = x.shape.as_list()[:2]
        return x * sqrt(cast(maximum(rows, cols), x.dtype)) * self.rms_rate

    def zeropower_via_newtonschulz5(self, x, steps: int):
        """An approximate U V^T of x's SVD: x normalised by its Frobenius norm, then `steps` quintic iterations
        x <- a x + (b A + c A A) x with A = x x^T, on the wide orientation of x."""
        shape = x.shape.as_list()
        if len(shape) < 2:
            raise ValueError(f"Expected gradient or momentum to have at least 2 dimensions. Received: shape="
                             f"{tuple(shape)}")
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        tall = shape[-2] > shape[-1]
        if tall:
            x = _swap_last_axes(x)
        x = x / (sqrt(reduce_sum(x * x, axis=[-2, -1], keepdims=True)) + 1e-7)
        for _ in range(steps):
            temp_a = matmul(x, _swap_last_axes(x))
            temp_b = b * temp_a + matmul(c * temp_a, temp_a)
            x = a * x + matmul(temp_b, x)
        return _swap_last_axes(x) if tall else x

    def _apply_weight_decay(self, variables, learning_rate) -> None:
        """Decoupled decay before the update: Muon's rate for 2-D weights, adam_weight_decay for the rest."""
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            rate = self.adam_weight_decay if self._should_use_adamw(variable) else self.weight_decay
            if rate is None:
                continue
            lr = self._cast_learning_rate(learning_rate, variable.dtype)
            variable.assign(variable - variable * as_dtype_constant(rate, variable.dtype) * lr)

    def get_config(self):
        return dict(super().get_config(), adam_beta_1=self.adam_beta_1, adam_beta_2=self.adam_beta_2,
                    epsilon=self.epsilon, exclude_layers=self.exclude_layers, muon_a=self.muon_a,
                    muon_b=self.muon_b, muon_c=self.muon_c, adam_lr_ratio=self.adam_lr_ratio,
                    momentum=self.momentum, ns_steps=self.ns_steps, nesterov=self.nesterov,
                    exclude_embeddings=self.exclude_embeddings, adam_weight_decay=self.adam_weight_decay,
                    rms_rate=self.rms_rate)
