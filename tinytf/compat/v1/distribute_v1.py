"""tf.compat.v1.distribute: TF1's strategy classes (TF's StrategyV1 family). Each is tinytf's TF2 strategy plus
TF1's methods: make_dataset_iterator / make_input_fn_iterator (iterators a Session initializes, see
data_iterator_v1.py), experimental_run, experimental_make_numpy_dataset, update_config_proto; `extended` adds
StrategyExtendedV1's non_slot_devices, update_non_slot, experimental_between_graph. get_loss_reduction tells a
TF1 optimizer how to combine per-replica losses.

Known difference: TF's V1 classes are not subclasses of tf.distribute.Strategy; here they are (they share its
implementation), so `isinstance(v1_strategy, tf.distribute.Strategy)` is True."""

from __future__ import annotations

import copy

from tinytf.runtime.context import state

from ...distribute import context as _context
from ...distribute import extended as _extended_module
from ...distribute.central_storage import CentralStorageStrategy as _CentralStorage
from ...distribute.mirrored import MirroredStrategy as _Mirrored
from ...distribute.multi_worker import MultiWorkerMirroredStrategy as _MultiWorker
from ...distribute.one_device import OneDeviceStrategy as _OneDevice
from ...distribute.tpu import TPUStrategyV1 as _TPU


def _tf():
    import tinytf

    return tinytf


class StrategyExtendedV1(_extended_module.StrategyExtended):
    """tf.compat.v1.distribute.StrategyExtended: TF2's extended plus TF1's non-slot variables and graph flags."""

    _between_graph = False

    @property
    def experimental_between_graph(self) -> bool:
        """Whether each worker builds its own graph (multi-worker strategies) or one graph holds all replicas."""
        return self._between_graph

    def non_slot_devices(self, var_list):
        """The devices of variables not tied to one model variable (an optimizer's step counters)."""
        return tuple(self.parameter_devices if self.parameter_devices else self.worker_devices)[:1]

    def update_non_slot(self, colocate_with, fn, args=(), kwargs=None, group=True):
        """Run fn once (non-slot variables are not replicated per model variable)."""
        result = fn(*args, **(kwargs or {}))
        if group and state.graph is not None and result is not None and not isinstance(result, (list, tuple)):
            return _tf().group(result)
        return result

    def experimental_make_numpy_dataset(self, numpy_input, session=None):
        from .data_v1 import DatasetV1

        return DatasetV1.from_tensor_slices(numpy_input)


class StrategyV1:
    """tf.compat.v1.distribute.Strategy: the TF1 methods every V1 strategy adds to its TF2 implementation."""

    _between_graph = False

    @property
    def extended(self):
        extended = self.__dict__.get("_extended")
        if extended is None:
            base = getattr(_extended_module, self._extended_class)
            kind = _extended_classes.get(base)
            if kind is None:
                kind = _extended_classes[base] = type(base.__name__, (StrategyExtendedV1, base), {})
            extended = self._extended = kind(self)
            extended._between_graph = self._between_graph
        return extended

    def make_dataset_iterator(self, dataset):
        """An iterator over `dataset` (batched by the global batch size): each get_next gives every replica its
        slice of one batch. In a TF1 graph run `initialize()` (or `initializer`) first, as in TF."""
        return DatasetIterator(self, [dataset], split=True)

    def make_input_fn_iterator(self, input_fn, replication_mode=None):
        """An iterator over the dataset `input_fn(input_context)` returns (one input pipeline on this worker)."""
        tf = _tf()
        context = tf.distribute.InputContext(num_input_pipelines=1, input_pipeline_id=0,
                                             num_replicas_in_sync=self.num_replicas_in_sync)
        return InputFunctionIterator(self, [input_fn(context)], split=False)

    def experimental_make_numpy_dataset(self, numpy_input, session=None):
        """A dataset of the rows of `numpy_input` (TF copies it to the input devices; one host here)."""
        return self.extended.experimental_make_numpy_dataset(numpy_input, session=session)

    def experimental_run(self, fn, input_iterator=None):
        """fn on each replica, with one get_next of `input_iterator` as its input (TF1's form of `run`)."""
        if input_iterator is None:
            return self.run(fn)
        return self.run(fn, args=(input_iterator.get_next(),))

    def update_config_proto(self, config_proto):
        """A copy of `config_proto` for this strategy (a one-host strategy needs no change)."""
        return copy.deepcopy(config_proto)


_extended_classes: dict = {}


class DatasetIterator:
    """TF's DatasetIterator / InputFunctionIterator: `get_next()` gives each replica its input."""

    def __init__(self, strategy, datasets, split: bool):
        from .data import make_initializable_iterator

        self._strategy = strategy
        self._replicas = strategy.num_replicas_in_sync
        self._split = split  # one global batch split across replicas, or one element per replica
        self._dataset = datasets[0]
        self._graph = state.graph is not None
        self._iterator = make_initializable_iterator(self._dataset) if self._graph else iter(self._dataset)

    def initialize(self):
        """The op that starts the iterator (eagerly there is nothing to run: an empty list, as TF's)."""
        return self.initializer if self._graph else []

    @property
    def initializer(self):
        return self._iterator.initializer if self._graph else None

    def get_next(self, name=None):
        """Each replica's input: its slice of one global batch (the first replicas get one row more when the
        batch does not divide evenly, as TF's rebatching), or its own element of an input_fn's dataset."""
        from tinytf.runtime import nest

        from ...distribute.values import PerReplica

        def pull():
            return self._iterator.get_next(name=name) if self._graph else next(self._iterator)

        if self._replicas == 1:
            return pull()
        if not self._split:
            return PerReplica([pull() for _ in range(self._replicas)])
        tf, batch, n = _tf(), pull(), self._replicas

        def part(t, i):
            per = (tf.shape(t)[0] + n - 1) // n
            return t[i * per:(i + 1) * per]

        return PerReplica([nest.map_structure(lambda t, i=i: part(t, i), batch) for i in range(n)])


class InputFunctionIterator(DatasetIterator):
    """The iterator of make_input_fn_iterator: each replica reads whole elements of its input_fn's dataset."""


class MirroredStrategyV1(StrategyV1, _Mirrored):
    """tf.compat.v1.distribute.MirroredStrategy (TF's MirroredStrategyV1)."""


class OneDeviceStrategyV1(StrategyV1, _OneDevice):
    """tf.compat.v1.distribute.OneDeviceStrategy (TF's OneDeviceStrategyV1)."""


class CentralStorageStrategyV1(StrategyV1, _CentralStorage):
    """tf.compat.v1.distribute.experimental.CentralStorageStrategy: variables on one device, compute on the
    others. (TF 2.21's V1 class fails on a machine without GPUs, `min() arg is an empty sequence`; tinytf's
    computes on the CPU, as TF documents.)"""


class CollectiveAllReduceStrategyV1(StrategyV1, _MultiWorker):
    """tf.compat.v1.distribute.experimental.MultiWorkerMirroredStrategy (TF's CollectiveAllReduceStrategyV1):
    each worker builds its own graph (between-graph replication)."""

    _between_graph = True

    def __init__(self, communication=None, cluster_resolver=None, communication_options=None):
        if communication is not None and communication_options is None:
            tf = _tf()
            communication_options = tf.distribute.experimental.CommunicationOptions(implementation=communication)
        super().__init__(cluster_resolver=cluster_resolver, communication_options=communication_options)


class ParameterServerStrategyV1(StrategyV1, _CentralStorage):
    """tf.compat.v1.distribute.experimental.ParameterServerStrategy. Without a cluster (TF's local mode) it keeps
    the variables on this host's CPU and computes there, like CentralStorageStrategy; TF1's multi-worker form
    (between-graph sessions against ps tasks) is not supported: tinytf's parameter servers are TF2's
    (tf.distribute.experimental.ParameterServerStrategy with a ClusterCoordinator). (TF 2.21's V1 class fails on a
    machine without GPUs, `min() arg is an empty sequence`.)"""

    def __init__(self, cluster_resolver=None):
        if cluster_resolver is not None and cluster_resolver.cluster_spec():
            raise NotImplementedError("tf.compat.v1.distribute.experimental.ParameterServerStrategy with a cluster "
                                      "(TF1 between-graph training) is not supported by tinytf; use "
                                      "tf.distribute.experimental.ParameterServerStrategy with a ClusterCoordinator")
        super().__init__()


class TPUStrategyV1(StrategyV1, _TPU):
    """tf.compat.v1.distribute.experimental.TPUStrategy: there is no TPU here (see tinytf/distribute/tpu.py)."""

    def __init__(self, tpu_cluster_resolver=None, steps_per_run=None, device_assignment=None):
        super().__init__(tpu_cluster_resolver, device_assignment)


class ReplicaContextV1(_context.ReplicaContext):
    """tf.compat.v1.distribute.ReplicaContext: the TF2 replica context (TF's V1 class adds no method)."""


def get_loss_reduction():
    """The ReduceOp a TF1 optimizer uses for per-replica losses: SUM, except under an Estimator that scales the
    loss (MEAN unless the graph's last loss reduction was SUM), as TF's distribute_utils.get_loss_reduction."""
    tf = _tf()
    if not getattr(tf.distribute.get_strategy(), "_scale_loss_for_estimator", False):
        return tf.distribute.ReduceOp.SUM
    from .graph import get_default_graph

    last = getattr(get_default_graph(), "_last_loss_reduction", None)
    return tf.distribute.ReduceOp.SUM if last in (tf.compat.v1.losses.Reduction.SUM, "sum") else \
        tf.distribute.ReduceOp.MEAN


NAMES = {"MirroredStrategy": MirroredStrategyV1, "OneDeviceStrategy": OneDeviceStrategyV1, "Strategy": StrategyV1,
         "StrategyExtended": StrategyExtendedV1, "ReplicaContext": ReplicaContextV1,
         "get_loss_reduction": get_loss_reduction}
EXPERIMENTAL = {"CentralStorageStrategy": CentralStorageStrategyV1,
                "MultiWorkerMirroredStrategy": CollectiveAllReduceStrategyV1,
                "ParameterServerStrategy": ParameterServerStrategyV1, "TPUStrategy": TPUStrategyV1}
