"""Callbacks that watch a logged quantity: EarlyStopping, ReduceLROnPlateau, LearningRateScheduler, and
CSVLogger, which writes the epoch logs to a file."""

from __future__ import annotations

import csv
import warnings

import numpy as np

from ..config_logging import print_msg
from .callback import Callback
from .monitor_callback import MonitorCallback


class EarlyStopping(MonitorCallback):
    """Stops fit when `monitor` has not improved by min_delta for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, baseline, min_delta)
        self.patience, self.verbose = patience, verbose
        self.baseline, self.restore_best_weights, self.start_from_epoch = baseline, restore_best_weights, \
            start_from_epoch
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best_weights = None

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best, self.best_weights = None, None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:  # decided once the compiled metrics exist (Keras 3)
            self._set_monitor_op()
        value = (logs or {}).get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(logs or {})}", stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(value, self.best):
            self.best, self.best_epoch = value, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch start to schedule(epoch, lr)."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        current = float(np.asarray(optimizer.learning_rate))
        try:
            lr = self.schedule(epoch, current)
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, int, np.floating, np.integer)):
            lr = float(np.asarray(lr))
        optimizer.learning_rate = float(lr)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {float(lr)}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by `factor` when `monitor` stalls for `patience` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.patience, self.verbose = factor, patience, verbose
        self.cooldown, self.min_lr = cooldown, min_lr
        self.wait, self.cooldown_counter = 0, 0

    def on_train_begin(self, logs=None):
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:  # decided once the compiled metrics exist (Keras 3)
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        optimizer = self.model.optimizer
        logs["learning_rate"] = float(np.asarray(optimizer.learning_rate))
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs)}.", stacklevel=2)
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(value, self.best):
            self.best, self.wait = value, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = float(np.asarray(optimizer.learning_rate))
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    optimizer.learning_rate = new
                    if self.verbose > 0:
                        print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0


class CSVLogger(Callback):
    """Writes one row per epoch: the epoch number and every logged value, under a header."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.separator, self.append = filename, separator, append
        self._file, self._writer, self._keys = None, None, None

    def on_train_begin(self, logs=None):
        self._file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115 - kept open
        self._writer, self._keys = None, None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            self._writer = csv.DictWriter(self._file, fieldnames=["epoch", *self._keys], delimiter=self.separator)
            if not self.append or self._file.tell() == 0:
                self._writer.writeheader()
        self._writer.writerow({"epoch": epoch, **{k: logs.get(k, "NA") for k in self._keys}})
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
            self._file = None
