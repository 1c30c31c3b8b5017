"""Adafactor, Keras 3's update: the second moment of a matrix-like variable is kept factored, as a row and a
column average over its last two dimensions, so it costs O(n + m) memory instead of O(n m)."""

from __future__ import annotations

import contextlib

import numpy as np

from tinytf._ops import cast, expand_dims, maximum, minimum, pow, reduce_mean, sqrt, square
from tinytf.runtime import dtypes
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .optimizer import Optimizer, as_dtype_constant


def _rms(x):
    return sqrt(reduce_mean(square(x)))


class Adafactor(Optimizer):
    """rho = min(lr, 1 / sqrt(t)); alpha = max(epsilon_2, rms(w)) rho; beta_2 = 1 - t^beta_2_decay;
    r, c: running means of g^2 + epsilon_1 over the last / second-last axis; v = (r / mean(r))[..., None] c[None];
    (v itself for variables of rank < 2); u = g / sqrt(v); w -= alpha u / max(1, rms(u) / clip_threshold)."""

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0,
                 relative_step=True, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 name=None, **kwargs):
        super().__init__(learning_rate, weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, name=name, **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def _new_slot(self, reference, name, shape, dtype=None):
        base = reference.name.split(":")[0].replace("/", "_")
        dtype = dtype or reference.dtype
        # Keras 3 makes only the velocity with add_variable_from_reference (colocated: the strategy check)
        with (self._new_slot_scope(reference) if name == "velocity" else contextlib.nullcontext()), init_scope():
            variable = Variable(np.zeros(shape, dtype.np), name=f"{self.name}/{base}_{name}", trainable=False,
                                dtype=dtype)
        self._variables.append(variable)
        return variable

    def _slots_for(self, variable):
        key = variable.ref()
        slots = self._slots.get(key)
        if slots is None:
            shape = tuple(np.shape(np.asarray(variable)))
            slots = {}
            if len(shape) >= 2:  # always factor the last two dimensions
                slots["r"] = self._new_slot(variable, "r", shape[:-1])
                slots["c"] = self._new_slot(variable, "c", shape[:-2] + shape[-1:])
            else:  # Keras keeps two int32 scalar placeholders here, so saved optimizer files line up
                slots["unused_r"] = self._new_slot(variable, "r", (), dtypes.int32)
                slots["unused_c"] = self._new_slot(variable, "c", (), dtypes.int32)
            slots["velocity"] = self._new_slot(variable, "velocity", shape)
            self._slots[key] = slots
        return slots

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = self._cast_learning_rate(learning_rate, dtype)
        local_step = self._local_step(dtype)
        one = as_dtype_constant(1.0, dtype)
        if isinstance(self._learning_rate, Variable) and self.relative_step:
            lr = minimum(lr, one / sqrt(local_step))
        slots = self._slots_for(variable)
        v = slots["velocity"]
        rho_t = minimum(lr, one / sqrt(local_step))
        alpha_t = maximum(as_dtype_constant(self.epsilon_2, dtype), _rms(variable)) * rho_t
        regulated_grad_square = square(gradient) + cast(self.epsilon_1, dtype)
        beta_2_t = 1 - pow(local_step, as_dtype_constant(self.beta_2_decay, dtype))
        if "r" in slots:
            r, c = slots["r"], slots["c"]
            r.assign(beta_2_t * r + (1 - beta_2_t) * reduce_mean(regulated_grad_square, axis=-1))
            c.assign(beta_2_t * c + (1 - beta_2_t) * reduce_mean(regulated_grad_square, axis=-2))
            v.assign(expand_dims(r / reduce_mean(r, axis=-1, keepdims=True), -1) * expand_dims(c, -2))
        else:
            v.assign(beta_2_t * v + (1 - beta_2_t) * regulated_grad_square)
        u_t = gradient / sqrt(v)
        u_t_hat = u_t / maximum(one, _rms(u_t) / self.clip_threshold)
        variable.assign_sub(alpha_t * u_t_hat)

    def get_config(self):
        return dict(super().get_config(), beta_2_decay=self.beta_2_decay, epsilon_1=self.epsilon_1,
                    epsilon_2=self.epsilon_2, clip_threshold=self.clip_threshold, relative_step=self.relative_step)
