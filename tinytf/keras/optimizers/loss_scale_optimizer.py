"""LossScaleOptimizer: Keras 3's dynamic loss scaling for float16 training. The loss is multiplied by a scale
before differentiation; the gradients are divided by it before the wrapped optimizer applies them. A step
whose gradients hold an inf or a NaN is skipped and halves the scale; `dynamic_growth_steps` finite steps in a
row double it."""

from __future__ import annotations

import numpy as np

from tinytf._ops import cast, cond, equal, is_finite, reduce_all, stack
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .optimizer import Optimizer

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}


class LossScaleOptimizer(Optimizer):
    """Wraps `inner_optimizer` with a dynamic loss scale (`scale_loss(loss)` multiplies by it)."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000, name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        # configs written by older Keras carry the base arguments at their defaults: accepted, nothing else
        for arg_name, default in _BASE_DEFAULTS.items():
            if arg_name in kwargs and kwargs.pop(arg_name) != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg_name}`. Instead, set `{arg_name}` on "
                                 "the `inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`.")
        if not isinstance(inner_optimizer, Optimizer):
            raise ValueError("`inner_optimizer` must be an instance of keras.optimizers.Optimizer. Received: "
                             f"inner_optimizer={inner_optimizer!r}")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.step_counter = None
        self.dynamic_scale = None

    def build(self, var_list) -> None:
        if self.step_counter is None:
            with init_scope():
                self.step_counter = Variable(np.int64(0), name=f"{self.name}/step_counter", trainable=False,
                                             dtype=dtypes.int64)
                self.dynamic_scale = Variable(np.float32(self.initial_scale), name=f"{self.name}/dynamic_scale",
                                              trainable=False, dtype=dtypes.float32)
            self._variables += [self.step_counter, self.dynamic_scale]
        if not self.inner_optimizer.built and hasattr(self.inner_optimizer, "_track_u_product"):
            self.inner_optimizer._track_u_product = False  # Keras builds the inner optimizer untracked
        self.inner_optimizer.build(var_list)
        self.built = True

    @property
    def variables(self) -> list:
        return self._variables + self.inner_optimizer.variables

    def finalize_variable_values(self, var_list) -> None:
        self.inner_optimizer.finalize_variable_values(var_list)

    def check_finite(self, grads):
        """True when every gradient is free of inf and NaN (one scalar bool tensor)."""
        finite = [reduce_all(is_finite(convert_to_tensor(g))) for g in grads if g is not None]
        return reduce_all(stack(finite))

    def apply(self, grads, trainable_variables) -> None:
        grads, trainable_variables = list(grads), list(trainable_variables)
        if not self.built or any(v.ref() not in self.inner_optimizer._slots for v in trainable_variables):
            self.build(trainable_variables)  # slots exist before the cond below, whose branches only assign
        cond(self.check_finite(grads), lambda: self._finite_step(grads, trainable_variables), self._skip_step)

    def _finite_step(self, grads, trainable_variables):
        scale = self.dynamic_scale
        unscaled = [g if g is None else convert_to_tensor(g) / _as(scale, g) for g in grads]
        self.inner_optimizer.apply(unscaled, trainable_variables)

        def upscale():
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale * 2.0)

        def increment():
            self.step_counter.assign_add(1)

        cond(equal(self.step_counter, self.dynamic_growth_steps - 1), upscale, increment)

    def _skip_step(self):
        self.step_counter.assign(0)
        self.dynamic_scale.assign(self.dynamic_scale * 0.5)

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        if hasattr(self, "inner_optimizer"):
            self.inner_optimizer.learning_rate = learning_rate
        else:  # the base constructor's own (unused) rate
            Optimizer.learning_rate.fset(self, learning_rate)

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        scale = self.dynamic_scale if self.built else self.initial_scale
        return loss * _as(scale, loss)

    def get_config(self):
        from . import serialize

        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize

        config = dict(config)
        inner = deserialize(config.pop("inner_optimizer"), custom_objects=custom_objects)
        return cls(inner, **config)


def _as(scale, like):
    """The scale in the dtype of `like` (a float16 loss or gradient is scaled in float16, as Keras' ops do)."""
    like = convert_to_tensor(like)
    value = scale.read_value() if isinstance(scale, Variable) else scale
    if isinstance(value, float):
        return convert_to_tensor(value, like.dtype)
    return value if value.dtype is like.dtype else cast(value, like.dtype)
