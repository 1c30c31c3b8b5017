"""TF1's loss scaling (tf.compat.v1.mixed_precision, tf.compat.v1.train.experimental): LossScale, FixedLossScale,
DynamicLossScale, MixedPrecisionLossScaleOptimizer (a TF1 optimizer wrapper: the loss times the scale, the
gradients divided by it; a dynamic scale skips the update when a gradient is not finite, halves the scale, and
doubles it after `increment_period` finite steps) and enable/disable_mixed_precision_graph_rewrite, as TF's
training/experimental/loss_scale*.py and mixed_precision.py."""

from __future__ import annotations

import abc

from tinytf.runtime import nest

from .optimizer import Optimizer

_REWRITE = {"enabled": False}  # TF's mixed_precision_global_state flag


def _tf():
    import tinytf

    return tinytf


class LossScale(metaclass=abc.ABCMeta):
    """Base class of TF1's loss scales: `scale()` is the current scale (a float32 tensor), `update(grads)` gives
    (the op that updates it, whether the gradients should be applied)."""

    def __init__(self):
        self._weights = {}

    @abc.abstractmethod
    def __call__(self):
        """The current loss scale, a float32 scalar tensor."""

    @abc.abstractmethod
    def update(self, grads):
        """(update op, should-apply-gradients bool) for these gradients."""

    def _add_weight(self, name, initial_value, dtype=None):
        tf = _tf()
        variable = tf.compat.v1.Variable(initial_value, name=name, dtype=dtype, trainable=False)
        if name in self._weights:
            raise RuntimeError(f"Duplicate variables detected. {(name, None)}")
        self._weights[name] = variable
        return variable

    @abc.abstractmethod
    def get_config(self):
        """The constructor's arguments."""

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class FixedLossScale(LossScale):
    """A loss scale that never changes."""

    def __init__(self, loss_scale_value):
        super().__init__()
        if not isinstance(loss_scale_value, (int, float)):
            raise ValueError("loss_scale_value must be a Python int or float.")
        if loss_scale_value < 1:
            raise ValueError("loss_scale_value must be at least 1.")
        self._loss_scale_value = float(loss_scale_value)

    def __call__(self):
        return _tf().convert_to_tensor(self._loss_scale_value)

    def update(self, grads):
        return _tf().no_op(), True

    def __repr__(self):
        return f"FixedLossScale({self._loss_scale_value})"

    def get_config(self):
        return {"loss_scale_value": self._loss_scale_value}


def _all_finite(grads):
    tf = _tf()
    flags = [tf.reduce_all(tf.math.is_finite(getattr(g, "values", g))) for g in grads if g is not None]
    return tf.reduce_all(tf.stack(flags))


class DynamicLossScale(LossScale):
    """A loss scale that halves on a non-finite gradient and doubles (times `multiplier`) after
    `increment_period` finite steps in a row."""

    def __init__(self, initial_loss_scale=2 ** 15, increment_period=2000, multiplier=2.0):
        super().__init__()
        tf = _tf()
        self._initial_loss_scale = float(initial_loss_scale)
        self._increment_period = int(increment_period)
        self._multiplier = float(multiplier)
        self._current_loss_scale = self._add_weight("current_loss_scale", self._initial_loss_scale, tf.float32)
        self._num_good_steps = self._add_weight("good_steps", 0, tf.int64)

    @property
    def initial_loss_scale(self):
        return self._initial_loss_scale

    @property
    def increment_period(self):
        return self._increment_period

    @property
    def multiplier(self):
        return self._multiplier

    def __call__(self):
        return _tf().convert_to_tensor(self._current_loss_scale)

    def update(self, grads):
        tf = _tf()
        is_finite = _all_finite(nest.flatten(grads))
        scale, good = self._current_loss_scale, self._num_good_steps
        # the new (scale, good steps) as values, assigned once: the same numbers as TF's nested conds
        grown = scale * self._multiplier
        increment = good + 1 >= self._increment_period
        finite_scale = tf.where(increment & tf.math.is_finite(grown), grown, scale)
        finite_good = tf.where(increment, tf.constant(0, tf.int64), good + 1)
        new_scale = tf.where(is_finite, finite_scale, tf.maximum(scale / self._multiplier, 1.0))
        new_good = tf.where(is_finite, finite_good, tf.constant(0, tf.int64))
        update = tf.group(scale.assign(new_scale), good.assign(new_good))
        return update, is_finite

    def __repr__(self):
        tf = _tf()
        if tf.executing_eagerly():
            return (f"DynamicLossScale(current_loss_scale={self._current_loss_scale.numpy()}, "
                    f"num_good_steps={self._num_good_steps.numpy()}, initial_loss_scale={self.initial_loss_scale}, "
                    f"increment_period={self.increment_period}, multiplier={self.multiplier})")
        return (f"DynamicLossScale(initial_loss_scale={self.initial_loss_scale}, "
                f"increment_period={self.increment_period}, multiplier={self.multiplier})")

    def get_config(self):
        return {"initial_loss_scale": self.initial_loss_scale, "increment_period": self.increment_period,
                "multiplier": self.multiplier}


def get(identifier):
    """A LossScale from a number, "dynamic", a LossScale or None (TF's loss_scale.get)."""
    if isinstance(identifier, (int, float)):
        return FixedLossScale(identifier)
    if identifier == "dynamic":
        return DynamicLossScale()
    if isinstance(identifier, LossScale) or identifier is None:
        return identifier
    raise ValueError(f"Could not interpret loss scale identifier: {identifier}")


class MixedPrecisionLossScaleOptimizer(Optimizer):
    """A TF1 optimizer that scales the loss up and the gradients back down; with a dynamic loss scale it applies
    the gradients only when all are finite."""

    def __init__(self, opt, loss_scale):
        if not isinstance(opt, Optimizer):
            raise ValueError(f'"opt" must be an instance of Optimizer, but got: {type(opt)}')
        super().__init__(getattr(opt, "_learning_rate", None), name=opt._name)
        self._optimizer = opt
        self._loss_scale = get(loss_scale)
        if self._loss_scale is None:
            raise ValueError("loss_scale cannot be None")

    def get_name(self):
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=1, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        tf = _tf()
        scale = self._loss_scale()
        scaled = loss * tf.cast(scale, loss.dtype)
        grads_and_vars = self._optimizer.compute_gradients(scaled, var_list)
        reciprocal = 1 / scale
        return [(None if g is None else g * tf.cast(reciprocal, g.dtype), v) for g, v in grads_and_vars]

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        tf = _tf()
        grads_and_vars = tuple(grads_and_vars)
        if not isinstance(self._loss_scale, DynamicLossScale):
            return self._optimizer.apply_gradients(grads_and_vars, global_step, name)
        name = name if name is not None else self._name
        update, should_apply = self._loss_scale.update([g for g, _ in grads_and_vars])
        # the update's new values read the gradients before any variable moves (TF groups both the same way)
        def apply():
            with tf.control_dependencies([self._optimizer.apply_gradients(grads_and_vars, global_step,
                                                                          name + "-wrapped")]):
                return tf.constant(True)

        maybe_apply = tf.cond(should_apply, apply, lambda: tf.constant(False))
        return tf.group(maybe_apply, update, name=name)

    def minimize(self, loss, global_step=None, var_list=None, name=None, **kwargs):
        return self.apply_gradients(self.compute_gradients(loss, var_list), global_step, name)

    def variables(self):
        inner = self._optimizer.variables() if hasattr(self._optimizer, "variables") else []
        return list(inner) + list(self._loss_scale._weights.values())


def enable_mixed_precision_graph_rewrite(opt, loss_scale="dynamic"):
    """Wrap a TF1 optimizer in MixedPrecisionLossScaleOptimizer and set the rewrite flag. TF's rewrite changes
    float32 ops to float16 on NVIDIA GPUs only ("the parts of the graph on CPUs and TPUs are untouched"); tinytf
    runs on the CPU, so, as TF on a CPU, the graph's numbers stay float32 and only the loss scaling applies."""
    if isinstance(opt, MixedPrecisionLossScaleOptimizer):
        raise ValueError('"opt" must not already be an instance of a MixedPrecisionLossScaleOptimizer. '
                         "`enable_mixed_precision_graph_rewrite` will automatically wrap the optimizer with a "
                         "MixedPrecisionLossScaleOptimizer.")
    if not isinstance(opt, Optimizer):
        raise ValueError('"opt" must be an instance of a tf.train.Optimizer or a tf.keras.optimizers.Optimizer, '
                         f"but got: {opt}")
    opt = MixedPrecisionLossScaleOptimizer(opt, loss_scale)
    _REWRITE["enabled"] = True
    return opt


def disable_mixed_precision_graph_rewrite():
    """Clear the rewrite flag (TF warns when it was not set); wrapped optimizers keep scaling, as in TF."""
    if not _REWRITE["enabled"]:
        import logging

        logging.getLogger("tensorflow").warning("disable_mixed_precision_graph_rewrite() called when mixed "
                                                "precision is already disabled.")
    _REWRITE["enabled"] = False


NAMES = {"LossScale": LossScale, "FixedLossScale": FixedLossScale, "DynamicLossScale": DynamicLossScale,
         "MixedPrecisionLossScaleOptimizer": MixedPrecisionLossScaleOptimizer,
         "enable_mixed_precision_graph_rewrite": enable_mixed_precision_graph_rewrite,
         "disable_mixed_precision_graph_rewrite": disable_mixed_precision_graph_rewrite}
EXPERIMENTAL = ("LossScale", "FixedLossScale", "DynamicLossScale")
