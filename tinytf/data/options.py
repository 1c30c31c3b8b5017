"""tf.data.Options and its groups (tf.data.experimental.AutotuneOptions, DistributeOptions, OptimizationOptions,
ThreadingOptions): typed settings, as TF checks them (an unknown name is an AttributeError, a wrong type a
TypeError). Options merge: a setting made later (with_options on a later dataset) wins over an earlier one;
unset ones keep their defaults.

What tinytf acts on: `deterministic` (parallel map and interleave order), `experimental_distribute.
auto_shard_policy` (tf.distribute's sharding). The others are accepted and kept, as TF keeps settings whose
optimization a given pipeline does not use: tinytf's pipelines run each stage as written (no static graph
rewrites, no autotuning model), so they change no result."""

from __future__ import annotations

import enum

from .autoshard import AutoShardPolicy


class ExternalStatePolicy(enum.Enum):
    """What saving an iterator does with state outside the pipeline (`experimental_external_state_policy`)."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    """The autotuning algorithm TF would use (`autotune.autotune_algorithm`)."""

    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class _OptionsBase:
    """A group of typed settings: `_fields` maps each name to (its type, its default); a setting is None or
    of its type (an int for a float, as TF accepts)."""

    _fields: dict = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})
        for name, (kind, _) in self._fields.items():
            if isinstance(kind, type) and issubclass(kind, _OptionsBase):
                self._values[name] = kind()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        fields = type(self)._fields
        if name not in fields:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return self._values.get(name, fields[name][1])

    def __setattr__(self, name, value):
        fields = type(self)._fields
        if name not in fields:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = fields[name][0]
        if value is not None and not _is_a(value, kind):
            raise TypeError(f"Property \"{name}\" must be of type {kind}, got: {value} (type: {type(value)})")
        self._values[name] = value

    def _merged(self, other):
        merged = type(self)()
        for source in (self, other):
            for name, value in source._values.items():
                if isinstance(value, _OptionsBase):
                    merged._values[name] = merged._values[name]._merged(value)
                elif value is not None:
                    merged._values[name] = value
        return merged

    def _as_dict(self):
        return {k: (v._as_dict() if isinstance(v, _OptionsBase) else v) for k, v in self._values.items()
                if v is not None}

    def __eq__(self, other):
        return type(other) is type(self) and self._as_dict() == other._as_dict()

    def __ne__(self, other):
        return not self == other

    __hash__ = None


def _is_a(value, kind) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(kind, type) and issubclass(kind, enum.Enum) and isinstance(value, int):
        return value in {m.value for m in kind}
    return isinstance(value, kind)


class ThreadingOptions(_OptionsBase):
    """`tf.data.ThreadingOptions`: `max_intra_op_parallelism`, `private_threadpool_size`."""

    _fields = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class AutotuneOptions(_OptionsBase):
    """`tf.data.experimental.AutotuneOptions`: TF's autotuning settings (tinytf has no autotuning model; a
    parallel stage uses the machine's cores, or the number given)."""

    _fields = {"enabled": (bool, None), "cpu_budget": (int, None), "ram_budget": (int, None),
               "autotune_algorithm": (AutotuneAlgorithm, None), "initial_parallelism": (int, None),
               "min_parallelism": (int, None)}


class DistributeOptions(_OptionsBase):
    """`tf.data.experimental.DistributeOptions`: `auto_shard_policy` (tf.distribute honours it), `num_devices`."""

    _fields = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO), "num_devices": (int, None)}


class OptimizationOptions(_OptionsBase):
    """`tf.data.experimental.OptimizationOptions`: TF's static graph rewrites, each on/off (they change speed,
    never results, and tinytf runs each stage as written)."""

    _fields = {name: (bool, None) for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
        "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


class ServiceOptions(_OptionsBase):
    """`tf.data.experimental.ServiceOptions` (`Options().experimental_service`): `pinned`, which in TF puts
    the tf.data service's elements in pinned memory for faster copies to a GPU; kept, and without effect on
    tinytf's one device, the CPU."""

    _fields = {"pinned": (bool, None)}


class Options(_OptionsBase):
    """`tf.data.Options()`: `deterministic`, `threading`, `autotune`, `experimental_optimization`,
    `experimental_distribute`, and TF's other settings."""

    _fields = {
        "autotune": (AutotuneOptions, None), "dataset_name": (str, None), "deterministic": (bool, None),
        "experimental_deterministic": (bool, None), "experimental_distribute": (DistributeOptions, None),
        "experimental_external_state_policy": (ExternalStatePolicy, None),
        "experimental_optimization": (OptimizationOptions, None), "experimental_slack": (bool, None),
        "experimental_service": (ServiceOptions, None),
        "experimental_symbolic_checkpoint": (bool, None), "threading": (ThreadingOptions, None),
        "experimental_warm_start": (bool, None), "framework_type": (list, None),
    }

    def __getattr__(self, name):
        if name == "experimental_threading":  # TF's older name of the same group
            return self.threading
        return super().__getattr__(name)

    def __setattr__(self, name, value):
        if name == "experimental_threading":
            name = "threading"
        super().__setattr__(name, value)

    def merge(self, other: Options) -> Options:
        merged = self._merged(other)
        if merged.experimental_deterministic is not None and merged.deterministic is None:
            merged.deterministic = merged.experimental_deterministic
        return merged
