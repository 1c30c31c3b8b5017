"""tf.distribute.experimental.RayStrategy(num_workers=N): data-parallel training on Ray. Each worker is a Ray
actor holding one replica; the model (with its optimizer) and step functions reach the workers by cloudpickle,
once, and each worker traces its own tf.function on first use. Every step each worker computes gradients on
its shard of the global batch, the gradients are all-reduced through Ray's object store (ray_worker.py), and
every worker applies the same update to its own copy, so the copies stay identical. After each strategy.run
(and each fit epoch) the driver's variables are refreshed from worker 0, so driver code (checkpoints,
evaluation) sees the trained weights."""

from __future__ import annotations

import itertools
import os

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest

from .input import DistributedDataset, split_sizes
from .strategy import Strategy
from .values import regroup
from .worker_shards import per_worker_datasets

_tokens = itertools.count()


def _ray():
    try:
        import ray
    except ImportError:  # pragma: no cover - exercised only without the extra
        raise ImportError("RayStrategy needs Ray: pip install 'tinytf[distributed]'") from None
    return ray


class RayStrategy(Strategy):
    """num_workers Ray actors, one replica each (num_replicas_in_sync == num_workers). `transport` chooses
    how gradients are summed: "collective" (gloo via ray.util.collective; needs torch), "object_store", or
    "auto" (the collective when torch is importable): see ray_transports.py for the measurements."""

    _merges_updates = False  # on the driver nothing is merged: the workers do it

    def __init__(self, num_workers: int = 1, cpus_per_worker: float | None = None, transport: str = "auto"):
        ray = _ray()
        if not isinstance(num_workers, int) or num_workers < 1:
            raise ValueError(f"RayStrategy: num_workers must be a positive int, got {num_workers!r}")
        from .ray_transports import resolve  # (imports ray)

        self.transport = resolve(transport)
        if not ray.is_initialized():
            ray.init()
        from .ray_worker import Rendezvous, Worker  # ray_worker imports ray: loaded when a strategy starts

        if cpus_per_worker is None:  # fit N workers in the CPUs still free (none free: unreserved, num_cpus=0)
            free = ray.available_resources().get("CPU", 0.0)
            cpus_per_worker = max(0.0, min(1.0, int(100 * free / num_workers) / 100))
        self._num_replicas = num_workers
        self._cpus_per_worker = cpus_per_worker
        self._classes = (Rendezvous, Worker)
        self.allreduce_seconds: list = []  # per all-reduce, worker 0's wall time (put, exchange, read, sum)
        self._start_workers()

    def _start_workers(self) -> None:
        rendezvous_class, worker_class = self._classes
        n = self._num_replicas
        self._rendezvous = rendezvous_class.options(num_cpus=0).remote(n)
        self._workers = [worker_class.options(num_cpus=self._cpus_per_worker).remote(i, n, self._rendezvous)
                         for i in range(n)]
        self._shipped: dict = {}  # id(driver object) -> (token, driver object, its ShippedObject)
        ray = _ray()
        ray.get([w.pid.remote() for w in self._workers])  # fail here, not at the first step
        if self.transport == "collective" and n > 1:  # a fresh group name: a restart must not meet the old one
            group = f"tinytf-ray-strategy-{os.getpid()}-{id(self)}-{next(_tokens)}"
            ray.get([w.join_collective_group.remote(group) for w in self._workers])

    def restart_workers(self) -> None:
        """Replace every worker (after one died: Ray raises RayActorError from the step). The workers get
        the driver's objects again on the next run or fit, so restore a checkpoint on the driver first."""
        self.shutdown()
        self._start_workers()

    @property
    def workers(self) -> list:
        return list(self._workers)

    def _ship(self, obj):
        """Send `obj` (and the variables it reaches) to every worker once; returns its token."""
        key = id(obj)
        shipped = self._shipped.get(key)
        if shipped is not None and shipped[1] is obj:
            return shipped[0]
        from .ray_worker import pack_with_variables  # (imports ray)
        from .shipped_state import ShippedObject  # (imports ray)

        payload, variables = pack_with_variables(obj)
        token = f"obj{next(_tokens)}"
        ray = _ray()
        payload_ref = ray.put(payload)
        ray.get([w.load.remote(token, payload_ref) for w in self._workers])
        self._shipped[key] = (token, obj, ShippedObject(obj, variables))
        return token

    def _gather(self, calls: list) -> list:
        """The results of one call per worker. If any worker fails (or dies), the others would wait at the
        all-reduce forever: stop them all and raise that error; restart_workers() brings up new ones."""
        ray = _ray()
        pending = list(calls)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                ray.get(ready[0])
            except Exception:
                self.shutdown()
                raise
        return ray.get(calls)

    def _pull_variables(self, token: str, values=None, new_slots=()) -> None:
        """Refresh the driver's variables from worker 0 (all workers hold the same values), after making the
        optimizer slots the workers created in this run (`new_slots`, worker 0's descriptors)."""
        shipped = next(entry[2] for entry in self._shipped.values() if entry[0] == token)
        if new_slots:
            with self.scope():  # the driver's twins are made as the workers' were: under this strategy (its check)
                shipped.adopt_slots(new_slots)
        variables = shipped.variables
        if values is None:
            values = _ray().get(self._workers[0].variable_values.remote(token))
        for variable, value in zip(variables, values):
            variable.assign(value)

    def _collect_timings(self) -> None:
        self.allreduce_seconds.extend(_ray().get(self._workers[0].take_allreduce_seconds.remote()))

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each Ray worker is a worker in TF's multi-worker sense: the dataset is auto-sharded over them by
        its auto_shard_policy (worker_shards.py); DATA (and AUTO without files) splits each global batch."""
        return DistributedDataset(dataset, self._num_replicas, options,
                                  per_worker=per_worker_datasets(dataset, self._num_replicas))

    # --- strategy.run --------------------------------------------------------------------------------------------
    def _run_replicas(self, fn, args, kwargs):
        from .ray_worker import shard_args  # (imports ray)

        token = self._ship(fn)
        per_args, per_kwargs = shard_args(args, self._num_replicas), shard_args(kwargs, self._num_replicas)
        calls = [w.run.remote(token, per_args[i], per_kwargs[i], i == 0) for i, w in enumerate(self._workers)]
        outcomes = self._gather(calls)
        _, new_slots, values = outcomes[0]
        self._pull_variables(token, values, new_slots)
        self._collect_timings()
        results = [nest.map_structure(lambda a: _tf.convert_to_tensor(a) if isinstance(a, np.ndarray) else a, r)
                   for r, _, _ in outcomes]
        return regroup(results)

    # --- Keras fit -----------------------------------------------------------------------------------------------
    def _fit(self, model, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
             shuffle=True, sample_weight=None, class_weight=None, initial_epoch=0, steps_per_epoch=None,
             validation_split=0.0, validation_data=None, validation_steps=None, validation_batch_size=None,
             validation_freq=1):
        """model.fit under this strategy's scope: each global batch split over the workers, one all-reduced
        step per batch; logs combine the workers' metrics exactly (sum of totals over sum of counts), after
        every batch as Keras reports them. Validation runs on the driver once its weights are refreshed: the
        same model, so the same numbers as validating on the workers, without shipping the validation data."""
        from tinytf.keras.callbacks import History
        from tinytf.keras.models import data_adapter
        from tinytf.keras.models.trainer import _validates_at

        ray = _ray()
        verbose = model._verbose(verbose)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.split_validation(x, y, sample_weight,
                                                                                   validation_split)
        model.optimizer.build(model.trainable_variables)  # slots exist before shipping: driver and workers agree
        sharded = _sharded_fit_input(x, self._num_replicas, steps_per_epoch)
        if not model.metrics or any(m.metric is None for m in model._compiled_metrics):
            if sharded is not None:  # a worker's batch (a HINT pipeline cannot be read unsharded)
                first = next(part for part in next(iter(sharded.batches())).parts
                             if np.shape(nest.flatten(part[0])[0])[0])
            else:
                first = next(iter(data_adapter.make_batches(x, y, sample_weight, batch_size, False, class_weight,
                                                            steps_per_epoch).batches()))
            model.compute_metrics(first[0], first[1], model(first[0], training=False), first[2])  # build metrics
        token = self._ship(model)
        train = sharded or data_adapter.make_batches(x, y, sample_weight, batch_size, shuffle, class_weight,
                                                     steps_per_epoch)
        history = History()
        callback_list = model._callbacks([*(callbacks or []), history], verbose, epochs=epochs, steps=train.steps)
        model.stop_training = False
        callback_list.on_train_begin()
        epoch_logs = {}
        for epoch in range(initial_epoch, epochs):
            ray.get([w.fit_begin_epoch.remote(token) for w in self._workers])
            callback_list.on_epoch_begin(epoch)
            step, logs = -1, {}
            for step, batch in enumerate(train.batches()):
                callback_list.on_train_batch_begin(step)
                logs = self._fit_step(token, batch)
                callback_list.on_train_batch_end(step, logs)
                if model.stop_training:
                    break
            if step < 0:
                raise ValueError("The training data produced no batches")
            epoch_logs = dict(logs)
            self._pull_variables(token)
            self._collect_timings()
            if validation_data is not None and _validates_at(epoch, validation_freq):
                epoch_logs.update(_validation_logs(model, validation_data, validation_batch_size or batch_size,
                                                   validation_steps))
            callback_list.on_epoch_end(epoch, epoch_logs)
            if model.stop_training:
                break
        callback_list.on_train_end(epoch_logs)
        model.history = history
        history.params = {"verbose": verbose, "epochs": epochs, "steps": train.steps}
        return history

    def _fit_step(self, token, batch) -> dict:
        """One all-reduced train step on a global batch (split here, DATA) or on the workers' own batches (a
        WorkerBatches from FILE, HINT or OFF sharding); the logs of the epoch so far, over all workers."""
        to_numpy = lambda t: np.asarray(t.numpy() if hasattr(t, "numpy") else t)
        if isinstance(batch, WorkerBatches):
            shards = [tuple(None if part is None else nest.map_structure(to_numpy, part) for part in own)
                      for own in batch.parts]
            counts = [int(np.shape([leaf for leaf in nest.flatten(own) if leaf is not None][0])[0])
                      for own in shards]
        else:
            leaves = [leaf for leaf in nest.flatten(batch) if leaf is not None]
            bounds = np.cumsum([0] + split_sizes(int(np.shape(leaves[0])[0]), self._num_replicas))
            shards, counts = [], []
            for i in range(self._num_replicas):
                lo, hi = int(bounds[i]), int(bounds[i + 1])
                shards.append(tuple(None if part is None else
                                    nest.map_structure(lambda t, lo=lo, hi=hi: to_numpy(t)[lo:hi], part)
                                    for part in batch))
                counts.append(hi - lo)
        global_count = sum(counts)
        calls = [worker.fit_step.remote(token, shard, count, global_count)
                 for worker, shard, count in zip(self._workers, shards, counts)]
        return _combined_logs(self._gather(calls))

    def allreduce_stats(self) -> dict:
        """Per-step all-reduce time measured on worker 0 (seconds): count, mean, median."""
        times = np.asarray(self.allreduce_seconds) if self.allreduce_seconds else np.zeros(0)
        return {"count": int(times.size), "mean": float(times.mean()) if times.size else 0.0,
                "median": float(np.median(times)) if times.size else 0.0}

    def shutdown(self) -> None:
        """Stop the worker actors (the strategy is unusable afterwards)."""
        ray = _ray()
        for actor in [*self._workers, self._rendezvous]:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001 - already dead
                pass
        self._workers, self._shipped = [], {}

    def __reduce__(self):
        # A model compiled under the scope refers to its strategy; on a worker that reference becomes None
        # (the worker is one replica; its merges go through the worker's own replica context).
        return (_no_strategy, ())


class WorkerBatches:
    """One step's input when the workers read their own shards: worker i's (x, y, sample_weight)."""

    def __init__(self, parts: list):
        self.parts = parts


class _ShardedFitInput:
    """fit's batches from a dataset sharded over the workers by its auto_shard_policy (FILE, HINT, OFF, or AUTO
    finding files; worker_shards.py): per step one batch from each worker's pipeline, read in lockstep, each
    rebatched to the worker's share of the global batch; a worker whose shard ran out trains on an empty batch
    (its gradients count zero) until every shard has ended, as experimental_distribute_dataset does."""

    def __init__(self, dataset, pipelines: list, steps_per_epoch):
        self.dataset, self.pipelines, self.steps = dataset, pipelines, steps_per_epoch

    def batches(self):
        from tinytf.data.structure import pack
        from tinytf.keras.models import data_adapter

        from .input import lockstep

        spec = self.dataset.element_spec
        for step, items in enumerate(lockstep(self.pipelines)):
            if self.steps is not None and step >= self.steps:
                return
            yield WorkerBatches([tuple(data_adapter.unpack(pack(spec, item))) for item in items])


def _sharded_fit_input(x, num_workers: int, steps_per_epoch):
    """The per-worker input of fit for a tf.data dataset whose policy makes the workers read their own shards;
    None when the driver splits every global batch (DATA, AUTO without files, arrays and generators)."""
    from tinytf.data.dataset import DatasetV2

    if not isinstance(x, DatasetV2):
        return None
    pipelines = per_worker_datasets(x, num_workers)
    return None if pipelines is None else _ShardedFitInput(x, pipelines, steps_per_epoch)


def _combined_logs(per_worker: list) -> dict:
    """The workers' metric parts as one set of logs: a mean metric exactly (sum of totals over sum of
    counts), any other metric as the workers' average."""
    logs = {}
    for name in per_worker[0]:
        parts = [logs_i[name] for logs_i in per_worker]
        if all(p[1] is not None for p in parts):
            count = sum(p[2] for p in parts)
            logs[name] = sum(p[1] for p in parts) / count if count else 0.0
        else:
            logs[name] = float(np.mean([p[0] for p in parts]))
    return dict(sorted(logs.items()))


def _validation_logs(model, validation_data, batch_size, steps) -> dict:
    """Keras' `val_` logs: the driver's model evaluated as fit does it (training metrics left untouched)."""
    from tinytf.keras.models import data_adapter

    vx, vy, vsw = (data_adapter.unpack(validation_data) if isinstance(validation_data, tuple)
                   else (validation_data, None, None))
    logs = model.evaluate(vx, vy, sample_weight=vsw, batch_size=batch_size, steps=steps, verbose=0,
                          return_dict=True, _internal=True)
    return {f"val_{k}": v for k, v in sorted(logs.items())}


def _no_strategy():
    return None
