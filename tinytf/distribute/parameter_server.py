"""tf.distribute.ParameterServerStrategy (and tf.distribute.experimental.ParameterServerStrategy): asynchronous
data-parallel training. The cluster has "ps" tasks that hold the variables and "worker" tasks that run the
training steps a ClusterCoordinator (coordinator.py) schedules on them; this program is the coordinator ("chief").

- Variables made under `strategy.scope()` go to the ps tasks round robin (ps_variable.py); with a
  `variable_partitioner` (partitioners.py) a tf.Variable whose partitioner asks for several shards along axis 0
  becomes a ShardedVariable whose shards go to the ps tasks round robin.
- Every ps and worker task must be a running tf.distribute.Server: in this process (create_local_cluster, or
  Servers started here), or, for ps tasks, in another process (its variables are then read and written over
  TCP). Step functions run on worker Servers of this process only (see server.py: they close over objects that
  do not pickle).
- `strategy.run(fn)` inside a scheduled function runs fn as the one replica of that worker
  (num_replicas_in_sync is 1: each worker applies its own updates to the shared variables, no all-reduce);
  called on the coordinator it runs there, as TF 2.21 lets it.
- Keras fit / evaluate / predict of a model compiled under the scope raise ValueError, as TF 2.21's Keras 3
  does (it has no parameter-server training); the custom loop with ClusterCoordinator is the way."""

from __future__ import annotations

import contextlib

from tinytf.runtime.errors import UnavailableError

from . import ps_variable
from .strategy import Strategy, run_in_one_replica


class ParameterServerStrategy(Strategy):
    """ParameterServerStrategy(cluster_resolver, variable_partitioner=None): see the module."""

    _extended_class = "ParameterServerStrategyV2Extended"
    _num_replicas = 1
    _places_on_ps = True
    _is_parameter_server_strategy_v2 = True  # what TF's ClusterCoordinator checks

    def __init__(self, cluster_resolver, variable_partitioner=None):
        if cluster_resolver is None:
            raise ValueError("ParameterServerStrategy needs a `tf.distribute.cluster_resolver.ClusterResolver` "
                             "naming its ps and worker tasks (TF_CONFIG: TFConfigClusterResolver())")
        spec = cluster_resolver.cluster_spec()
        if not spec:
            raise ValueError("Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`.")
        for job in spec.jobs:
            if job not in ("chief", "worker", "ps", "evaluator"):
                raise ValueError(f"Unrecognized task_type: {job}, valid task types are: \"chief\", \"worker\", "
                                 "\"evaluator\" and \"ps\".")
        if "ps" not in spec.jobs:
            raise ValueError("There must be at least one ps.")
        if "worker" not in spec.jobs:
            raise ValueError("There must be at least one worker.")
        self._cluster_resolver = cluster_resolver
        self._variable_partitioner = variable_partitioner
        self._ps_addresses = [spec.task_address("ps", i) for i in sorted(spec.task_indices("ps"))]
        self._worker_addresses = [spec.task_address("worker", i) for i in sorted(spec.task_indices("worker"))]
        self._stores = [self._connect_ps(i, address) for i, address in enumerate(self._ps_addresses)]
        self._next_ps = 0
        self._coordinator = None  # the ClusterCoordinator made for this strategy (one per strategy, as TF)
        ps_variable.install()

    @staticmethod
    def _connect_ps(index, address):
        from .server import Connection, local_server

        server = local_server(address)
        if server is not None:
            return ps_variable.LocalStore(server)
        try:
            return ps_variable.RemoteStore(Connection(address, timeout=10.0, who=f"/job:ps/task:{index}"))
        except UnavailableError as e:
            raise UnavailableError(None, None, f"ParameterServerStrategy: {e.message} (start a tf.distribute.Server "
                                               "for every ps task first)") from None

    @property
    def cluster_resolver(self):
        return self._cluster_resolver

    def _place_variable(self):
        """The ps task (index, store) of the next variable: round robin over the ps tasks."""
        index = self._next_ps % len(self._stores)
        self._next_ps += 1
        return index, self._stores[index]

    def _worker_devices(self) -> tuple:
        return ("/device:CPU:0",)  # TF 2.21's worker_devices under this strategy

    def _parameter_devices(self) -> tuple:
        return tuple(f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in range(len(self._ps_addresses)))

    # --- variables: placement, and sharding by the partitioner ----------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        from tinytf.variable_creator import variable_creator_scope

        with super().scope(), variable_creator_scope(self._make_variable):
            yield self

    def _make_variable(self, next_creator, **kwargs):
        from tinytf.variable_creator import class_being_made
        from tinytf.variables import Variable

        partitioner = self._variable_partitioner
        # only a tf.Variable is sharded: a Keras weight is a variable of its own class here, kept whole (TF 2.21's
        # Keras 3 wraps a ShardedVariable in its weight)
        if partitioner is None or kwargs.get("variable_def") is not None or class_being_made() is not Variable:
            return next_creator(**kwargs)
        from tinytf.runtime.dispatch import convert_to_tensor
        from tinytf.runtime.shapes import TensorShape

        from .sharded_variable import ShardedVariable, register, shard_rows

        initial = kwargs["initial_value"]
        if callable(initial):
            initial = initial()
        value = convert_to_tensor(initial, kwargs.get("dtype"))
        shape = TensorShape(value._shape)
        if value._shape is None or len(value._shape) == 0:
            return next_creator(**dict(kwargs, initial_value=value))
        shards = partitioner(shape, value.dtype)[0]
        if shards <= 1:
            return next_creator(**dict(kwargs, initial_value=value))
        register()
        from tinytf.runtime.ops.indexing import slice as slice_op

        parts, start, rest = [], 0, [-1] * (len(value._shape) - 1)
        for rows in shard_rows(int(value._shape[0]), shards):
            piece = slice_op(value, [start] + [0] * len(rest), [rows] + rest)
            parts.append(next_creator(**dict(kwargs, initial_value=piece, shape=None)))
            start += rows
        return ShardedVariable(parts, name=(kwargs.get("name") or "Variable"))

    # --- replica computation ---------------------------------------------------------------------------------
    def _run_replicas(self, fn, args, kwargs):  # on the coordinator too, as TF 2.21 allows
        return run_in_one_replica(self, fn, args, kwargs)

    # --- Keras: TF 2.21's Keras 3 has no parameter-server training; fit/evaluate/predict refuse the data -------
    _wraps_keras_steps = True

    def _keras_step(self, model, kind, function):
        raise ValueError("To use this dataset, you need to pass this dataset to "
                         "ClusterCoordinator.create_per_worker_dataset. (Keras `model.%s` under "
                         "ParameterServerStrategy: TF 2.21's Keras 3 cannot train with it either; write the "
                         "custom loop with ClusterCoordinator.schedule)" % kind.replace("train", "fit"))

    def _merge_apply(self, replica, optimizer, grads, variables) -> None:
        raise NotImplementedError  # one replica: optimizers apply directly (_merges_updates is False)


ParameterServerStrategyV2 = ParameterServerStrategy
