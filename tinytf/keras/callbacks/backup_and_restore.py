"""BackupAndRestore: fit keeps its weights (and optimizer state) and the epoch reached in `backup_dir`; a fit
that was interrupted and is started again resumes from there. Keras 3's files: latest.weights.h5 and
training_metadata.json (with ".bkp" copies of the previous backup when double_checkpoint is on)."""

from __future__ import annotations

import json
import os
import shutil

from . import worker_paths
from .callback import Callback
from .model_checkpoint import BatchCounter, check_save_freq


class BackupAndRestore(Callback):
    """Back up the training state every epoch (or every `save_freq` batches) and restore it when fit starts."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        check_save_freq(save_freq, f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. "
                                   f"Expected either 'epoch' or an integer value.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq, self.double_checkpoint, self.delete_checkpoint = save_freq, double_checkpoint, \
            delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._prev_weights_path = self._weights_path + ".bkp"
        self._prev_metadata_path = self._metadata_path + ".bkp"
        self._counter = BatchCounter(save_freq, last_seen=0) if save_freq != "epoch" else None
        self._current_epoch = 0

    def on_train_begin(self, logs=None):
        try:
            self._load()
        except (OSError, ValueError):
            if not os.path.exists(self._prev_weights_path):
                raise
            # the latest backup is damaged (killed while writing): fall back to the one before it
            shutil.copyfile(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_metadata_path):
                shutil.copyfile(self._prev_metadata_path, self._metadata_path)
            elif os.path.exists(self._metadata_path):
                os.remove(self._metadata_path)
            self._load()

    def _load(self) -> None:
        if not self.model.built:
            raise ValueError(f"To use the BackupAndRestore callback, you model must be built before you call "
                             f"`fit()`. Model {self.model} is unbuilt. You can build it beforehand by calling it on "
                             f"a batch of data.")
        if os.path.exists(self._weights_path):
            optimizer = getattr(self.model, "optimizer", None)
            if optimizer is not None and not optimizer.built:
                optimizer.build(self.model.trainable_variables)
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path) as f:
                self.model._initial_epoch = json.load(f)["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        if self._counter is not None:
            self._counter.last_seen = 0
        if self.save_freq == "epoch":
            self._save()

    def on_train_batch_end(self, batch, logs=None):
        if self._counter is not None and self._counter.due(batch):
            self._save()

    def _save(self) -> None:
        # a non-chief worker of a multi-worker strategy writes a temporary copy and removes it (worker_paths.py):
        # the chief's backup in backup_dir is the one every worker restores from
        folder = worker_paths.write_dirpath(self.backup_dir, self.model)
        weights, metadata = (os.path.join(folder, os.path.basename(p)) for p in (self._weights_path,
                                                                                 self._metadata_path))
        os.makedirs(folder, exist_ok=True)
        if self.double_checkpoint and os.path.exists(weights):
            shutil.copyfile(weights, weights + ".bkp")
        if self.double_checkpoint and os.path.exists(metadata):
            shutil.copyfile(metadata, metadata + ".bkp")
        self.model.save_weights(weights, overwrite=True)
        last_batch = self._counter.last_seen if self._counter is not None else 0
        with open(metadata, "w") as f:
            f.write(json.dumps({"epoch": self._current_epoch, "batch": last_batch}))
        if folder != self.backup_dir:
            worker_paths.remove_temp_dirpath(folder, self.model)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and worker_paths.is_chief(self.model) and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
