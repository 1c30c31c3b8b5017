"""Tables that change after they are made (tf.lookup.experimental.MutableHashTable, DenseHashTable): insert,
remove and lookup are graph ops like a variable's assign and read, so they keep program order inside a
tf.function. Their contents are checkpointed as TF saves them: one attribute "table" of two tensors,
"table-keys" and "table-values"."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import apply
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import lookup as lookup_ops

from ..constant import convert_to_tensor
from .initializers import known_value
from .tables import LookupTable, map_values, numpy_values, python_keys


def _as_tensor(value, dtype, what: str):
    """`value` converted to the table's dtype, as TF's convert_to_tensor(value, dtype): a tensor of another dtype
    is a ValueError naming the argument."""
    try:
        return convert_to_tensor(value, dtype=dtype)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{what}: {e}") from None


class MutableHashTable(LookupTable):
    """A key -> value table that grows and shrinks: insert (or update), remove, lookup with `default_value`,
    whose shape is every value's shape."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        default = convert_to_tensor(default_value, dtype=value_dtype)
        self._default_value = known_value(default, "default value")
        super().__init__(key_dtype, value_dtype, value_shape=self._default_value.shape, name=name)
        self._checkpoint = checkpoint

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The values of `keys`; missing keys give the default value (or `dynamic_default_values`, one per key)."""
        keys = _as_tensor(keys, self._key_dtype, "keys")
        default = (convert_to_tensor(self._default_value) if dynamic_default_values is None
                   else _as_tensor(dynamic_default_values, self._value_dtype, "dynamic_default_values"))
        return map_values(keys, lambda k: apply(lookup_ops.lookup_find_op, [self, k, default], self._attrs(),
                                                name=name))

    def insert(self, keys, values, name=None):
        """Insert `keys` with `values`, replacing the values of keys already there."""
        keys = _as_tensor(keys, self._key_dtype, "keys")
        values = _as_tensor(values, self._value_dtype, "values")
        return apply(lookup_ops.lookup_insert_op, [self, keys, values], self._attrs(), name=name)

    def remove(self, keys, name=None):
        """Remove `keys`; keys not in the table are ignored."""
        keys = _as_tensor(keys, self._key_dtype, "keys")
        return apply(lookup_ops.lookup_remove_op, [self, keys], {"key_dtype": self._key_dtype}, name=name)

    def import_(self, keys, values, name=None):
        """Replace the table's contents with `keys` and `values` (what a checkpoint restore does)."""
        keys = _as_tensor(keys, self._key_dtype, "keys")
        values = _as_tensor(values, self._value_dtype, "values")
        return apply(lookup_ops.lookup_import_op, [self, keys, values], self._attrs(), name=name)

    # --- the resource protocol -------------------------------------------------------------------------------
    def _rows(self, keys, values) -> list:
        keys, values = np.asarray(keys), np.asarray(values)
        expected = keys.shape + self._value_shape
        if values.shape != expected:
            raise InvalidArgumentError(f"Expected shape {list(expected)} for value, got {list(values.shape)}")
        rows = values.reshape((-1,) + self._value_shape)
        return list(zip(python_keys(keys), rows if self._value_shape else rows.tolist()))

    def _insert(self, keys, values) -> None:
        self._entries.update(self._rows(keys, values))

    def _import(self, keys, values) -> None:
        self._entries = dict(self._rows(keys, values))

    def _remove(self, keys) -> None:
        pop = self._entries.pop
        for key in python_keys(keys):
            pop(key, None)

    # --- checkpoints (tinytf/train/trackable.py's protocol), as TF names the two tensors ----------------------
    def _checkpoint_children(self):
        return []

    def _checkpoint_state(self) -> dict:
        if not self._checkpoint:
            return {}
        keys, values = self._export()
        return {"table": {"-keys": keys, "-values": values}}

    _checkpoint_tensor_suffixes = {"table": ("-keys", "-values")}

    def _restore_checkpoint_state(self, state: dict) -> None:
        self._import(state["table"]["-keys"], state["table"]["-values"])


class DenseHashTable(MutableHashTable):
    """A mutable table with open addressing, as TF's: two reserved keys (`empty_key`, `deleted_key`) may
    never be inserted, and export gives every bucket (empty ones hold `empty_key`). The bucket count starts at
    `initial_num_buckets` (a power of two, 2**17 by default) and doubles when the table is more than 80%
    full, as TF's; which bucket holds which key is not TF's (TF leaves export's order unspecified)."""

    _saves_as_tf_table = False  # its buckets (MutableDenseHashTableV2) have no SavedModel writer here

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name=name, checkpoint=checkpoint)
        self._empty_key = known_value(convert_to_tensor(empty_key, dtype=key_dtype), "empty key")
        self._deleted_key = known_value(convert_to_tensor(deleted_key, dtype=key_dtype), "deleted key")
        if np.array_equal(self._empty_key, self._deleted_key):
            raise InvalidArgumentError("Empty and deleted keys must have different values")
        buckets = 2 ** 17 if initial_num_buckets is None else int(initial_num_buckets)
        if buckets <= 0 or buckets & (buckets - 1):
            raise InvalidArgumentError("Number of buckets must be at least 4 and a power of 2, got "
                                       f"{buckets}")
        self._num_buckets = buckets
        self._deleted: dict = {}  # removed keys whose buckets still hold the deleted key and the old value

    def _check_reserved(self, keys) -> None:
        for key in python_keys(keys):
            if key == self._empty_key.item():
                raise InvalidArgumentError("Using the empty_key as a table key is not allowed")
            if key == self._deleted_key.item():
                raise InvalidArgumentError("Using the deleted_key as a table key is not allowed")

    def _insert(self, keys, values) -> None:
        self._check_reserved(keys)
        count = np.asarray(keys).size
        if len(self._entries) + count > 0.8 * self._num_buckets:  # TF grows before inserting a batch
            while len(self._entries) + count > 0.8 * self._num_buckets:
                self._num_buckets *= 2
            self._deleted = {}  # rebucketing copies live entries only
        rows = self._rows(keys, values)
        for key, _ in rows:
            self._deleted.pop(key, None)
        self._entries.update(rows)

    def _import(self, keys, values) -> None:
        super()._import(keys, values)
        self._deleted = {}

    def _remove(self, keys) -> None:
        self._check_reserved(keys)
        for key in python_keys(keys):
            if key in self._entries:  # the bucket keeps its value under the deleted key until a rebucketing
                self._deleted[key] = self._entries.pop(key)

    def _export(self):
        """Every bucket, as TF's: live entries, deleted ones under `deleted_key` (keeping their values), and
        empty ones under `empty_key` with zero values; keys as a column, (num_buckets, 1)."""
        keys, values = super()._export()
        deleted = list(self._deleted.values())
        free = self._num_buckets - len(keys) - len(deleted)
        all_keys = np.concatenate([keys, numpy_values([self._deleted_key.item()] * len(deleted), self._key_dtype,
                                                      (len(deleted),)),
                                   numpy_values([self._empty_key.item()] * free, self._key_dtype, (free,))])
        zero = np.zeros(self._value_shape, self._value_dtype.np) if not self._value_dtype.is_string else b""
        fill = [zero if self._value_shape else zero] * free
        all_values = np.concatenate([values, numpy_values(deleted, self._value_dtype, (len(deleted),),
                                                          self._value_shape),
                                     numpy_values(fill, self._value_dtype, (free,), self._value_shape)])
        return all_keys.reshape(-1, 1), all_values.reshape((-1,) + (self._value_shape or (1,)))

    def export(self, name=None):
        """Every bucket's key and value: keys (num_buckets, 1), values (num_buckets, value size)."""
        return apply(lookup_ops.lookup_export_op, [self], {**self._attrs(), "export_columns": True}, name=name)

    def _checkpoint_state(self) -> dict:
        if not self._checkpoint:
            return {}
        keys, values = self._export()
        return {"table": {"-keys": keys, "-values": values}}

    def _restore_checkpoint_state(self, state: dict) -> None:
        keys = np.asarray(state["table"]["-keys"]).reshape(-1)
        values = np.asarray(state["table"]["-values"]).reshape((keys.size,) + self._value_shape)
        live = [i for i, k in enumerate(keys.tolist()) if k not in (self._empty_key.item(), self._deleted_key.item())]
        self._import(keys[live], values[live])
        self._num_buckets = max(self._num_buckets, keys.size)

    def insert_or_assign(self, keys, values, name=None):
        """Insert `keys` with `values`, replacing existing values (the same as insert)."""
        return self.insert(keys, values, name=name)

    def erase(self, keys, name=None):
        """Remove `keys` (the same as remove)."""
        return self.remove(keys, name=name)
