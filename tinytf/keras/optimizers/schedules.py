"""tf.keras.optimizers.schedules: learning rates as functions of the optimizer's step (its `iterations`).

Schedules are computed with tinytf ops, so inside @tf.function they read the step variable in the graph
and the learning rate changes from call to call without retracing.
"""

from __future__ import annotations

import math

from tinytf._ops import cast, ceil, cos, equal, floor, log, minimum, pow, where
from tinytf.runtime.dispatch import convert_to_tensor


class LearningRateSchedule:
    """Base class: subclasses implement `__call__(step)` (returning a scalar tensor) and `get_config`."""

    def __call__(self, step):
        raise NotImplementedError(f"The `__call__()` method hasn't been implemented. You should implement the "
                                  f"`__call__()` method in your subclass of {type(self).__name__}")

    def get_config(self) -> dict:
        raise NotImplementedError(f"The `get_config()` method hasn't been implemented. You should implement the "
                                  f"`get_config()` method in your subclass of {type(self).__name__}")

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps); with staircase, the exponent is floored."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        initial_learning_rate = convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        decay_steps = cast(self.decay_steps, dtype)
        decay_rate = cast(self.decay_rate, dtype)
        p = cast(step, dtype) / decay_steps
        if self.staircase:
            p = floor(p)
        return initial_learning_rate * pow(decay_rate, p)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] while step <= boundaries[0], values[i] while boundaries[i-1] < step <= boundaries[i],
    values[-1] after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        boundaries, values = list(boundaries), list(values)
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        step = convert_to_tensor(step)
        boundaries = [cast(b, step.dtype) for b in self.boundaries]
        values = [convert_to_tensor(v) for v in self.values]
        dtype = values[0].dtype
        # Each interval's indicator (0 or 1) times its value; the intervals are disjoint and cover every step.
        result = cast(step <= boundaries[0], dtype) * values[0]
        result = result + cast(step > boundaries[-1], dtype) * values[-1]
        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            inside = (step > low) & (step <= high)
            result = result + cast(inside, dtype) * value
        return result

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


def _positive_steps(name: str, steps) -> None:
    if steps <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={steps}")


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps) ** power + end, the step held at decay_steps; with `cycle`,
    decay_steps grows to the next multiple of itself past the step instead."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def __call__(self, step):
        initial = convert_to_tensor(self.initial_learning_rate)
        dtype = initial.dtype
        end, power = cast(self.end_learning_rate, dtype), cast(self.power, dtype)
        step, decay_steps = cast(step, dtype), cast(self.decay_steps, dtype)
        if self.cycle:
            decay_steps = decay_steps * where(equal(step, 0), cast(1.0, dtype), ceil(step / self.decay_steps))
        else:
            step = minimum(step, decay_steps)
        return (initial - end) * pow(1 - step / decay_steps, power) + end

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps); with staircase the ratio is floored."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        initial = convert_to_tensor(self.initial_learning_rate)
        dtype = initial.dtype
        p = cast(step, dtype) / cast(self.decay_steps, dtype)
        if self.staircase:
            p = floor(p)
        return initial / (cast(1, dtype) + cast(self.decay_rate, dtype) * p)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Half a cosine from the rate down to alpha times it over decay_steps; with warmup_target, first a linear
    warmup from initial_learning_rate to warmup_target over warmup_steps, then the cosine from the target."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = (initial_learning_rate, decay_steps,
                                                                                alpha, name)
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decayed(self, step, decay_steps, start, dtype):
        cosine = 0.5 * (1.0 + cos(cast(math.pi, dtype) * (step / decay_steps)))
        return start * ((1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        initial = convert_to_tensor(self.initial_learning_rate)
        dtype = initial.dtype
        decay_steps, step = cast(self.decay_steps, dtype), cast(step, dtype)
        if self.warmup_target is None:
            return self._decayed(minimum(step, decay_steps), decay_steps, initial, dtype)
        target, warmup_steps = cast(self.warmup_target, dtype), cast(self.warmup_steps, dtype)
        step = minimum(step, decay_steps + warmup_steps)
        warming = (target - initial) * (step / warmup_steps) + initial
        return where(step < warmup_steps, warming, self._decayed(step - warmup_steps, decay_steps, target, dtype))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay restarted (SGDR): the i-th period lasts first_decay_steps * t_mul**i steps and starts from
    the rate times m_mul**i."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        _positive_steps("first_decay_steps", first_decay_steps)
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, first_decay_steps
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        initial = convert_to_tensor(self.initial_learning_rate)
        dtype = initial.dtype
        alpha, t_mul, m_mul = cast(self.alpha, dtype), cast(self._t_mul, dtype), cast(self._m_mul, dtype)
        fraction = cast(step, dtype) / cast(self.first_decay_steps, dtype)
        if self._t_mul == 1.0:  # periods of equal length
            restart = floor(fraction)
            fraction = fraction - restart
        else:  # geometric periods: which one the step is in, and how far into it
            restart = floor(log(1.0 - fraction * (1.0 - t_mul)) / log(t_mul))
            elapsed = (1.0 - pow(t_mul, restart)) / (1.0 - t_mul)
            fraction = (fraction - elapsed) / pow(t_mul, restart)
        cosine = 0.5 * pow(m_mul, restart) * (1.0 + cos(cast(math.pi, dtype) * fraction))
        return initial * ((1 - alpha) * cosine + alpha)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = {cls.__name__: cls for cls in (ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
                                            InverseTimeDecay, CosineDecay, CosineDecayRestarts)}


def serialize(schedule: LearningRateSchedule) -> dict:
    """{"class_name": ..., "config": ...}, the form optimizers' get_config uses for a schedule."""
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}


def deserialize(config: dict, custom_objects=None) -> LearningRateSchedule:
    known = dict(_SCHEDULES, **(custom_objects or {}))
    cls = known.get(config.get("class_name"))
    if cls is None:
        raise ValueError(f"Unknown learning rate schedule: {config.get('class_name')!r}")
    return cls.from_config(config.get("config", {}))


__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "serialize", "deserialize"]
