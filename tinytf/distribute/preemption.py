"""tf.distribute.experimental.PreemptionCheckpointHandler, TerminationConfig and PreemptionWatcher, as TF 2.21
runs them off Google Cloud (its "Borg" configuration, the one a plain machine gets):

- The handler restores the latest checkpoint (with its own `checkpointed_runs` counter) when it is made, and
  watches for SIGTERM (its handler replaces the process's), or polls `termination_watcher_fn` once a second
  in a thread when the config gives one.
- `handler.run(train_fn, *args)` runs one step and counts it; once a termination notice has arrived, every
  worker saves a checkpoint at the same run count (the count after the step that was running, as TF's), then
  calls `exit_fn` (default: `sys.exit(42)`, TF's restartable code) unless a `grace_period` keeps training,
  which then saves once more shortly before it ends. `save_checkpoint_if_preempted()` is the same check for
  loops that call the step themselves.
- With several MultiWorkerMirroredStrategy workers they agree on the step through the strategy's all-reduce
  (each run() adds up who has seen a notice; TF uses its coordination service's key-value store): the chief
  writes to `checkpoint_dir`, the other workers to `<parent>/workertemp_<task_id>/`, removed before exiting.
- PreemptionWatcher only works on Google's internal TPUs in TF: elsewhere it logs that the environment is not
  supported, its preemption_message stays None and block_until_worker_exit() returns at once."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import sys
import threading
import time

import numpy as np

_ITERATION_VARIABLE = "checkpointed_runs"
_log = logging.getLogger("tinytf.distribute")


class TerminationConfig:
    """TerminationConfig(termination_watcher_fn=None, exit_fn=None, grace_period=None, save_fn=None)."""

    def __init__(self, termination_watcher_fn=None, exit_fn=None, grace_period=None, save_fn=None):
        self.termination_watcher_fn = termination_watcher_fn
        self.exit_fn = exit_fn
        self.grace_period = grace_period
        self.save_fn = save_fn


def _completed(config):
    """TF's BorgTerminationConfig: the defaults of a machine that is not a GCE VM."""
    config = config or TerminationConfig()
    return (config.termination_watcher_fn, config.exit_fn or (lambda: sys.exit(42)), config.grace_period or 0,
            config.save_fn)


def _non_chief_checkpoint_dir(checkpoint_dir, task_id) -> str:
    folder = os.path.join(os.path.dirname(checkpoint_dir), f"workertemp_{task_id}")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, os.path.basename(checkpoint_dir))


class PreemptionCheckpointHandler:
    """PreemptionCheckpointHandler(cluster_resolver, checkpoint_or_checkpoint_manager, checkpoint_dir=None,
    termination_config=None): see the module."""

    def __init__(self, cluster_resolver, checkpoint_or_checkpoint_manager, checkpoint_dir=None,
                 termination_config=None):
        import tinytf as tf
        from tinytf.runtime.errors import InvalidArgumentError

        if isinstance(checkpoint_or_checkpoint_manager, tf.train.Checkpoint) and not checkpoint_dir:
            raise InvalidArgumentError("When a checkpoint is passed, a checkpoint_dir must be passed as well.")
        self._cluster_resolver = cluster_resolver
        self._termination_config = termination_config
        self._checkpoint_or_checkpoint_manager = checkpoint_or_checkpoint_manager
        self._checkpoint_dir = checkpoint_dir
        self._termination_watcher_fn, self._exit_fn, self._grace_period, self._save_fn = \
            _completed(termination_config)
        spec = cluster_resolver.cluster_spec() if cluster_resolver else None
        if spec and "ps" in spec.as_dict():
            raise NotImplementedError("PreemptionCheckpointHandler does not supportusage with "
                                      "tf.distribute.experimental.ParameterServerStrategy.")
        self._strategy = None
        if not spec or not spec.jobs:
            self._local_mode, self._id_in_cluster, self._is_chief = True, "single_worker", True
        else:
            from .multi_worker import worker_tasks

            tasks = worker_tasks(spec)
            task = (cluster_resolver.task_type, cluster_resolver.task_id)
            self._local_mode = len(tasks) < 2
            self._id_in_cluster = str(tasks.index(task)) if task in tasks else task[0]
            self._is_chief = not tasks or tasks.index(task) == 0 if task in tasks else False
            if not self._local_mode:
                self._strategy = _cluster_strategy(tasks, spec)
        self._checkpointed_runs = tf.Variable(tf.constant(0, tf.int64), trainable=False, name=_ITERATION_VARIABLE)
        self._make_checkpoint_managers(tf)
        for manager in (self._write_checkpoint_manager, self._read_checkpoint_manager):
            if not hasattr(manager._checkpoint, _ITERATION_VARIABLE):
                setattr(manager._checkpoint, _ITERATION_VARIABLE, self._checkpointed_runs)
        self._read_checkpoint_manager.restore_or_initialize()
        self._final_checkpoint_countdown = False
        self._target_time_for_termination = 0.0
        self._estimated_run_time = 0.0
        self._run_counter = int(self._checkpointed_runs.numpy())
        self._received_own_sigterm = threading.Event()
        self._received_own_sigterm_time = None
        self._step_to_checkpoint = None
        self._poll_thread = None
        if self._termination_watcher_fn:
            self._stop_polling = threading.Event()
            self._poll_thread = threading.Thread(target=self._poll_termination_signal, daemon=True,
                                                 name=f"WorkerTerminationSignalWatcher-{self._id_in_cluster}")
            self._poll_thread.start()
        else:
            signal.signal(signal.SIGTERM, self._sigterm_handler_fn)

    def _make_checkpoint_managers(self, tf):
        given = self._checkpoint_or_checkpoint_manager
        if isinstance(given, tf.train.CheckpointManager):
            self._read_checkpoint_manager = self._write_checkpoint_manager = given
            self._api_made_checkpoint_manager = False
            return
        self._api_made_checkpoint_manager = True
        self._read_checkpoint_manager = tf.train.CheckpointManager(given, directory=self._checkpoint_dir,
                                                                   max_to_keep=1)
        if self._is_chief:
            self._write_checkpoint_manager = self._read_checkpoint_manager
        else:
            self._write_checkpoint_manager = tf.train.CheckpointManager(
                given, _non_chief_checkpoint_dir(self._checkpoint_dir, self._cluster_resolver.task_id), max_to_keep=1)

    # --- the termination notice ---------------------------------------------------------------------------
    def _sigterm_handler_fn(self, signum, frame):
        self._received_own_sigterm_time = time.time()
        self._received_own_sigterm.set()

    def _poll_termination_signal(self):
        while not self._stop_polling.is_set() and not self._final_checkpoint_countdown:
            if self._termination_watcher_fn():
                self._sigterm_handler_fn(None, None)
                return
            self._stop_polling.wait(1.0)

    def _stop_poll_thread(self):
        if self._poll_thread is not None:
            self._stop_polling.set()
            self._poll_thread.join()
            self._poll_thread = None

    def __del__(self):
        with contextlib.suppress(Exception):
            self._stop_poll_thread()

    # --- the steps ----------------------------------------------------------------------------------------
    @property
    def total_run_calls(self) -> int:
        """The run() calls so far, those before the restored checkpoint included (deprecated in TF: keep a
        step variable in the checkpoint)."""
        return self._run_counter

    def run(self, distributed_train_function, *args, **kwargs):
        """distributed_train_function(*args, **kwargs), after saving a checkpoint (and exiting) if a termination
        notice asks for one at this run count."""
        self._check_preemption_and_maybe_checkpoint()
        start = time.time()
        result = distributed_train_function(*args, **kwargs)
        self._run_counter += 1
        self._estimated_run_time += (time.time() - start - self._estimated_run_time) / self._run_counter
        return result

    def save_checkpoint_if_preempted(self, *args, **kwargs):
        """For a loop that runs its steps itself: call once per step; args go to the checkpoint's save."""
        self._check_preemption_and_maybe_checkpoint(*args, **kwargs)
        self._run_counter += 1
        self._estimated_run_time = 0

    @contextlib.contextmanager
    def watch_preemption_scope(self):
        yield

    def _agreed(self, *flags) -> list:
        """Each flag summed over the workers (this worker's alone when it is the only one): every worker then
        takes the same decision at the same run count."""
        if self._strategy is None:
            return [float(f) for f in flags]
        summed = self._strategy._collective.sum(self._strategy._worker_index, [np.array(flags, np.float64)])
        return [float(f) for f in summed[0]]

    def _check_preemption_and_maybe_checkpoint(self, *args, **kwargs):
        if self._step_to_checkpoint is not None:
            if self._step_to_checkpoint == self._run_counter:
                self._save_checkpoint(*args, **kwargs)
                self._step_to_checkpoint = None
                if self._grace_period <= 0 or self._final_checkpoint_countdown:
                    self._stop_poll_thread()
                    if self._api_made_checkpoint_manager and not self._is_chief:
                        shutil.rmtree(os.path.dirname(self._write_checkpoint_manager.directory), ignore_errors=True)
                    _log.info("PreemptionCheckpointHandler: checkpoint saved. Exiting.")
                    self._exit_fn()
                else:
                    _log.info("Continue training for the grace period.")
                    self._final_checkpoint_countdown = True
            return
        told = self._received_own_sigterm.is_set()
        due = self._final_checkpoint_countdown and time.time() > self._target_time_for_termination
        anyone_told, anyone_due = self._agreed(told, due)
        if not anyone_told or (self._final_checkpoint_countdown and not anyone_due):
            return
        self._step_to_checkpoint = self._run_counter + 1  # the same count on every worker: saved at the next call
        if self._grace_period > 0 and not self._final_checkpoint_countdown:  # TF's margin: 3 x 2 step times
            notice = self._received_own_sigterm_time or time.time()
            self._target_time_for_termination = notice + self._grace_period - 3 * self._estimated_run_time * 2

    def _save_checkpoint(self, *args, **kwargs):
        self._checkpointed_runs.assign(self._run_counter)
        if self._save_fn:
            self._save_fn(*args, **kwargs)
        else:
            self._write_checkpoint_manager.save(*args, **kwargs)
        _log.info("Checkpoint finished at path %s", self._write_checkpoint_manager.directory)


def _cluster_strategy(tasks, spec):
    """The MultiWorkerMirroredStrategy of this process for the cluster: its all-reduce carries the workers'
    agreement on when to save (TF: the coordination service, which tinytf's workers do not run)."""
    from .multi_worker import latest_multi_worker_strategy

    strategy = latest_multi_worker_strategy()
    if strategy is None or strategy._tasks != tasks:
        raise ValueError("PreemptionCheckpointHandler with several workers: make the MultiWorkerMirroredStrategy of "
                         "this cluster first (its connections carry the workers' agreement on when to save)")
    return strategy


class PreemptionWatcher:
    """tf.distribute.experimental.PreemptionWatcher(): TF supports it only on Google's internal TPU platform."""

    def __init__(self):
        self._preemption_message = None
        _log.warning("Preemption watcher does not support environment: PlatformDevice.INTERNAL_CPU")

    @property
    def preemption_message(self):
        return self._preemption_message

    def block_until_worker_exit(self):
        return
