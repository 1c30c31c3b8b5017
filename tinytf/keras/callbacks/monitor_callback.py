"""What the callbacks that watch a logged quantity share (Keras 3's MonitorCallback: EarlyStopping,
ReduceLROnPlateau, ModelCheckpoint): which way the quantity improves, decided when the first epoch ends (the
compiled metrics are built by then), and the improvement test with its `min_delta`."""

from __future__ import annotations

import warnings

import numpy as np

from .callback import Callback


def monitor_direction(callback_name: str, model, monitor: str, mode: str):
    """np.less or np.greater: the `mode`; in "auto" mode Keras 3's rule: "loss" (or "val_loss") is minimized,
    any other name must be one of the compiled metrics, whose `_direction` ("up" or "down") decides. A metric
    that is not compiled, or has no direction (a Mean, a plain function), is Keras 3's ValueError."""
    if mode == "min":
        return np.less
    if mode == "max":
        return np.greater
    name = monitor.removeprefix("val_")
    direction = np.less if name == "loss" else None
    compiled = getattr(model, "_compiled_metrics", []) + getattr(model, "_weighted_metrics", [])
    for entry in compiled:  # the last one of that name decides, as in Keras
        metric = getattr(entry, "metric", None)
        if metric is not None and metric.name == name and metric._direction is not None:
            direction = np.greater if metric._direction == "up" else np.less
    if direction is None:
        raise ValueError(f"{callback_name} callback received monitor={monitor}, but Keras isn't able to "
                         f"automatically determine whether that metric should be maximized or minimized. Pass "
                         f"`mode='max'` in order to monitor based on the highest metric value, or pass "
                         f"`mode='min'` in order to use the lowest value.")
    return direction


class MonitorCallback(Callback):
    """A callback that compares `monitor` with its best value so far."""

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=3)
            mode = "auto"
        self.monitor, self.mode, self.best = monitor, mode, baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self) -> None:
        self.monitor_op = monitor_direction(type(self).__name__, self.model, self.monitor, self.mode)
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference) -> bool:
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))
