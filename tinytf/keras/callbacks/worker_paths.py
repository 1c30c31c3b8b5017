"""Where a checkpointing callback writes under a multi-worker strategy (tf.keras 2's distributed_file_utils,
the rule TF's multi-worker tutorial describes): the chief (strategy.extended.should_checkpoint) writes to the
path asked for; every other worker writes the same file under `<folder>/workertemp_<task_id>/` and removes
that folder at once, so that workers never contend for the chief's files. Without a strategy, or with one
worker, every path is the chief's."""

from __future__ import annotations

import os
import shutil


def _strategy(model):
    active = getattr(model, "_active_strategy", None)  # the model's strategy, else a current scope's
    return active() if active is not None else getattr(model, "_distribute_strategy", None)


def is_chief(model) -> bool:
    strategy = _strategy(model)
    return strategy is None or bool(strategy.extended.should_checkpoint)


def write_dirpath(dirpath: str, model) -> str:
    if is_chief(model):
        return dirpath
    task_id = getattr(getattr(_strategy(model), "cluster_resolver", None), "task_id", None)
    return os.path.join(dirpath, f"workertemp_{task_id}")


def write_filepath(filepath: str, model) -> str:
    return os.path.join(write_dirpath(os.path.dirname(filepath), model), os.path.basename(filepath))


def remove_temp_dirpath(dirpath: str, model) -> None:
    """After a non-chief worker's write: its temporary folder (the one write_dirpath gave) is removed."""
    if not is_chief(model):
        shutil.rmtree(dirpath, ignore_errors=True)
