"""tf.train.experimental: PythonState (Python values saved in checkpoints) and the checkpoint-sharding policy
classes (ShardingCallback, ShardByTaskPolicy, MaxShardSizePolicy, ShardableTensor).

PythonState objects take part in tf.train.Checkpoint as TF's do: serialize() is saved as a string tensor under
the object's `.ATTRIBUTES/py_state` key, and deserialize() receives it on restore. The sharding policies compute
TF's shards (lists of {checkpoint key: {slice spec: tensor}}) and CheckpointOptions accepts them; tinytf's
bundle writer then writes the checkpoint as one data shard (the same tensors, readable by TF and tinytf)."""

from __future__ import annotations

import abc
import dataclasses

import numpy as np

PYTHON_STATE = "py_state"  # TF's attribute name for a PythonState's string


class PythonState(metaclass=abc.ABCMeta):
    """Subclass and implement serialize() -> str/bytes and deserialize(string)."""

    @abc.abstractmethod
    def serialize(self):
        """The object's state as a string."""

    @abc.abstractmethod
    def deserialize(self, string_value):
        """Set the object's state from what serialize() returned."""

    def _checkpoint_children(self):
        return []

    def _checkpoint_state(self) -> dict:
        value = self.serialize()
        return {PYTHON_STATE: np.array(value if isinstance(value, bytes) else str(value).encode(), dtype=object)}

    def _restore_checkpoint_state(self, state: dict) -> None:
        value = np.asarray(state[PYTHON_STATE], dtype=object)[()]
        self.deserialize(value.decode() if isinstance(value, bytes) else value)


@dataclasses.dataclass
class ShardableTensor:
    """One tensor (or a slice of a partitioned variable) as a sharding callback sees it."""

    _tensor_save_spec: object
    tensor: object
    dtype: object
    device: object
    name: str
    shape: object
    slice_spec: object
    checkpoint_key: str
    trackable: object

    def __hash__(self):
        return id(self)


class ShardingCallback(abc.ABC):
    """A checkpoint sharding policy: called with the ShardableTensors of a save, returns the shards, each a
    {checkpoint key: {slice spec: tensor}} dict."""

    @property
    @abc.abstractmethod
    def description(self) -> str:
        """A text describing the policy."""

    @abc.abstractmethod
    def __call__(self, shardable_tensors):
        """The shards of `shardable_tensors`."""

    def __hash__(self):
        return hash((type(self).__name__, self.description))


def _slice_spec(t) -> str:
    spec = t.slice_spec
    return "" if spec is None else getattr(spec, "spec", str(spec))


class ShardByTaskPolicy(ShardingCallback):
    """One shard per task (device task): here every tensor is on the host's one task, so one shard."""

    @property
    def description(self) -> str:
        return "Split tensors into shards based on their device spec task."

    def __call__(self, shardable_tensors):
        shards: dict = {}
        for t in shardable_tensors:
            task = getattr(t.device, "task", None)
            shards.setdefault(task, {}).setdefault(t.checkpoint_key, {})[_slice_spec(t)] = t.tensor
        return list(shards.values())


class MaxShardSizePolicy(ShardingCallback):
    """Shards of at most `max_shard_size` bytes each (a larger tensor gets a shard of its own), filled in the
    order the tensors come, as TF's policy does for unpartitioned tensors."""

    def __init__(self, max_shard_size: int):
        self.max_shard_size = int(max_shard_size)

    @property
    def description(self) -> str:
        return "Split tensors into shards with a max shard size."

    def __call__(self, shardable_tensors):
        shards, current, size = [], {}, 0
        for t in shardable_tensors:
            value = np.asarray(t.tensor)
            nbytes = sum(len(x) for x in value.reshape(-1)) if value.dtype == object else value.nbytes
            if current and size + nbytes > self.max_shard_size:
                shards.append(current)
                current, size = {}, 0
            current.setdefault(t.checkpoint_key, {})[_slice_spec(t)] = t.tensor
            size += nbytes
        if current:
            shards.append(current)
        return shards
