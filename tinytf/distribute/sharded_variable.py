"""ShardedVariable: one variable kept as shards along axis 0, each a variable of its own (on its own parameter
server under ParameterServerStrategy with a variable_partitioner). Read as a tensor it is the shards
concatenated, so it goes into ops, tf.function graphs and gradients as one; assignments are split by rows; and
tf.nn.embedding_lookup gives the rows of the whole table. The first (rows % shards) shards get one row more,
as TF splits them."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import concat
from tinytf.runtime.shapes import TensorShape


def shard_rows(rows: int, shards: int) -> list:
    """The number of rows of each shard: the first (rows % shards) get one more."""
    base, extra = divmod(rows, shards)
    return [base + (1 if i < extra else 0) for i in range(shards)]


class ShardedVariable:
    """tf.distribute's ShardedVariable over `variables` (same dtype, same shape but the first dimension)."""

    def __init__(self, variables, name="ShardedVariable"):
        variables = list(variables)
        if not variables:
            raise ValueError("Expected a list of `Variable`s, but got an empty list")
        first = variables[0]
        for v in variables[1:]:
            if v.dtype != first.dtype:
                raise ValueError(f"All `Variable`s must have the same dtype, got {[str(x.dtype) for x in variables]}")
            if list(v.shape)[1:] != list(first.shape)[1:]:
                raise ValueError("All `Variable`s must have the same shapes except for the first axis, got "
                                 f"{[list(x.shape) for x in variables]}")
        self._variables = variables
        self._name = name

    @property
    def variables(self) -> list:
        """The shards, in order."""
        return list(self._variables)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._variables[0].dtype

    @property
    def shape(self) -> TensorShape:
        rows = sum(int(v.shape[0]) for v in self._variables)
        return TensorShape([rows] + list(self._variables[0].shape)[1:])

    @property
    def trainable(self) -> bool:
        return self._variables[0].trainable

    def __iter__(self):
        raise TypeError("ShardedVariable is not iterable (TF: iterate over `.variables`)")

    def numpy(self):
        return np.concatenate([v.numpy() for v in self._variables], axis=0)

    def read_value(self):
        return concat([v.read_value() for v in self._variables], axis=0)

    value = read_value

    def _split(self, value):
        """`value` cut into the shards' row blocks (checked against the whole shape first)."""
        tensor = convert_to_tensor(value, self.dtype)
        if tensor._shape is not None and list(tensor._shape) != list(self.shape):
            raise ValueError(f"Cannot assign value of shape {list(tensor._shape)} to ShardedVariable {self._name!r} "
                             f"of shape {list(self.shape)}")
        from tinytf.runtime.ops.indexing import slice as slice_op

        parts, start = [], 0
        rest = [-1] * (len(self.shape) - 1)
        for v in self._variables:
            rows = int(v.shape[0])
            parts.append(slice_op(tensor, [start] + [0] * len(rest), [rows] + rest))
            start += rows
        return parts

    def assign(self, value, use_locking=None, name=None, read_value=True):
        for v, part in zip(self._variables, self._split(value)):
            v.assign(part)
        return self

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_add(part)
        return self

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_sub(part)
        return self

    def __repr__(self):
        return f"<tinytf.distribute.ShardedVariable {self._name!r} shape={list(self.shape)} " \
               f"shards={[list(v.shape) for v in self._variables]} dtype={self.dtype.name}>"

    # --- checkpoints: saved whole, as TF saves it, so it restores into any sharding (or into a tf.Variable) -----
    def _checkpoint_children(self):
        return []

    def _checkpoint_state(self) -> dict:
        return {"VARIABLE_VALUE": self.numpy()}

    def _restore_checkpoint_state(self, state: dict) -> None:
        self.assign(state["VARIABLE_VALUE"])

    # --- as a tensor ---------------------------------------------------------------------------------------
    def _to_tensor(self):
        return self.read_value()

    def __getitem__(self, index):
        return self.read_value()[index]


def _binary(name):
    def method(self, other):
        return getattr(self.read_value(), name)(other)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
              "__matmul__", "__rmatmul__", "__pow__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(ShardedVariable, _name, _binary(_name))
ShardedVariable.__neg__ = lambda self: -self.read_value()
del _name


def _convert(value, dtype=None, name=None, as_ref=False):
    tensor = value.read_value()
    if dtype is not None and tensor.dtype != dtype:
        raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for ShardedVariable of type "
                         f"{tensor.dtype.name}")
    return tensor


def register() -> None:
    from tinytf.tensor_conversion import register_tensor_conversion_function

    register_tensor_conversion_function(ShardedVariable, _convert)
