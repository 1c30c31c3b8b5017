"""ModelCheckpoint: save the model (a .keras file) or its weights (.weights.h5) during fit, every epoch or
every N batches, to a path that may name the epoch, batch and logged values ("w.{epoch:02d}-{val_loss:.2f}
.keras"), optionally only when the monitored value improves (Keras 3's rules and messages)."""

from __future__ import annotations

import os
import warnings

import numpy as np

from ..config_logging import print_msg
from . import worker_paths
from .callback import Callback
from .monitor_callback import monitor_direction


class BatchCounter:
    """Counts batches across epochs for save_freq=N (a batch index that does not grow starts a new epoch)."""

    def __init__(self, every: int, last_seen=None):
        self.every, self.since_last, self.last_seen = every, 0, last_seen

    def due(self, batch: int) -> bool:
        if self.last_seen is None or batch <= self.last_seen:
            added = batch + 1
        else:
            added = batch - self.last_seen  # with steps_per_execution, batches arrive N at a time
        self.since_last += added
        self.last_seen = batch
        if self.since_last >= self.every:
            self.since_last = 0
            return True
        return False


def check_save_freq(save_freq, message: str):
    if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool)):
        raise ValueError(message)


class ModelCheckpoint(Callback):
    """Saves the model or its weights at the end of every epoch (or every `save_freq` batches)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"ModelCheckpoint mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.filepath = os.fspath(filepath)
        self.monitor, self.mode, self.verbose = monitor, mode, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.save_freq = save_freq
        self.best = initial_value_threshold
        self.monitor_op = None
        self._current_epoch = 0
        check_save_freq(save_freq, f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or "
                                   f"integer values")
        self._counter = BatchCounter(save_freq) if save_freq != "epoch" else None
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(f"When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             f"end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._counter is not None and self._counter.due(batch):
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self.monitor_op = monitor_direction("ModelCheckpoint", self.model, self.monitor, self.mode)
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _file_path(self, epoch, batch, logs) -> str:
        """The filepath template filled with the 1-based epoch (and batch) and the logged values."""
        logs = dict(logs or {})
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as error:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {error}') from None

    def _should_save(self, epoch, logs, filepath) -> bool:
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=3)
            return True
        if np.ndim(current) > 0:
            warnings.warn(f"Can save best model only when `monitor` is a scalar value. Received: {current}. "
                          f"Falling back to `save_best_only=False`.", stacklevel=3)
            return True
        if self.monitor_op is None:  # a batch-level save before the first epoch ended
            self.monitor_op = monitor_direction("ModelCheckpoint", self.model, self.monitor, self.mode)
        best_text = "None" if self.best is None else f"{self.best:.5f}"
        if self.best is None or self.monitor_op(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best_text} to {current:.5f}, saving "
                      f"model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best_text}")
        return False

    def _save(self, epoch, batch, logs) -> None:
        filepath = self._file_path(epoch, batch, logs)
        if os.path.isdir(filepath):
            raise OSError(f"Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an "
                          f"existing directory: {filepath}")
        if not self._should_save(epoch, logs, filepath):
            return
        written = worker_paths.write_filepath(filepath, self.model)  # a non-chief worker: a temporary copy
        folder = os.path.dirname(written)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(written, overwrite=True)
        else:
            self.model.save(written, overwrite=True)
        if written != filepath:
            worker_paths.remove_temp_dirpath(folder, self.model)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")
