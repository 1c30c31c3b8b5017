"""TF1's checkpoint-file helpers (tf.compat.v1.train / tf.train): the `checkpoint` state file of a folder
(get_checkpoint_state, update_checkpoint_state), whether a prefix exists, their modification times, removal,
and checkpoints_iterator, which yields each new checkpoint of a folder as a trainer writes it."""

from __future__ import annotations

import glob
import os
import time

from ...train.state_file import CheckpointState as _State
from ...train.state_file import read_state, write_state


class CheckpointState:
    """TF's CheckpointState proto: model_checkpoint_path and all_model_checkpoint_paths (absolute when the
    file stores them relative to the folder, as TF's get_checkpoint_state returns them)."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(), all_model_checkpoint_timestamps=(),
                 last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and vars(self) == vars(other)

    def __str__(self):
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The folder's CheckpointState, or None when it has no `checkpoint` file."""
    folder = os.fspath(checkpoint_dir)
    state = read_state(folder)
    if state is None:
        return None

    def absolute(path):
        return path if os.path.isabs(path) else os.path.join(folder, path)

    return CheckpointState(absolute(state.latest), [absolute(p) for p in state.kept], state.timestamps,
                           state.last_preserved)


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    return CheckpointState(model_checkpoint_path, paths, list(all_model_checkpoint_timestamps or []),
                           last_preserved_timestamp or 0.0)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
    """Write the folder's `checkpoint` file (paths inside the folder are stored relative to it, as TF)."""
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps, last_preserved_timestamp)
    folder = os.fspath(save_dir)

    def relative(path):
        return os.path.relpath(path, folder) if os.path.isabs(path) and os.path.dirname(path) == \
            os.path.abspath(folder) else path

    write_state(folder, _State(relative(state.model_checkpoint_path),
                               [relative(p) for p in state.all_model_checkpoint_paths],
                               state.all_model_checkpoint_timestamps, state.last_preserved_timestamp or time.time()))


def checkpoint_exists(checkpoint_prefix) -> bool:
    """Whether a V2 checkpoint (its `.index` file) or a V1 checkpoint file exists for the prefix or pattern."""
    prefix = os.fspath(checkpoint_prefix)
    return bool(glob.glob(prefix + ".index") or glob.glob(prefix))


def get_checkpoint_mtimes(checkpoint_prefixes) -> list:
    times = []
    for prefix in checkpoint_prefixes:
        for path in glob.glob(os.fspath(prefix) + ".index") or glob.glob(os.fspath(prefix)):
            times.append(os.path.getmtime(path))
    return times


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    prefix = os.fspath(checkpoint_prefix)
    for path in glob.glob(prefix + ".index") + glob.glob(prefix + ".data-*") + glob.glob(
            f"{prefix}.{meta_graph_suffix}"):
        os.remove(path)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir`; after `timeout` seconds without one, stop (or ask
    timeout_fn whether to go on waiting)."""
    from ...train.state_file import latest_checkpoint

    last = None
    while True:
        start = time.time()
        deadline = None if timeout is None else start + timeout
        path = latest_checkpoint(checkpoint_dir)
        while path is None or path == last:
            if deadline is not None and time.time() + 0.1 > deadline:
                path = None
                break
            time.sleep(0.1)
            path = latest_checkpoint(checkpoint_dir)
        if path is None:
            if not timeout_fn or timeout_fn():
                return
            continue
        last = path
        yield path
        remaining = start + min_interval_secs - time.time()
        if remaining > 0:
            time.sleep(remaining)


__all__ = ["CheckpointState", "checkpoint_exists", "checkpoints_iterator", "generate_checkpoint_state_proto",
           "get_checkpoint_mtimes", "get_checkpoint_state", "remove_checkpoint", "update_checkpoint_state"]
