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


_DELETED = object()  # a bucket whose key was removed (TF's deleted_key there; its old value stays)


class DenseHashTable(MutableHashTable):
    """A mutable table with open addressing, bucket for bucket as TF's MutableDenseHashTable: two reserved keys
    (`empty_key`, `deleted_key`) may never be inserted; `initial_num_buckets` (a power of two, 2**17 by default)
    doubles when an insert would fill more than 80%, re-inserting the live keys in bucket order; an integer key
    hashes to itself (as an unsigned 64-bit number) and probes buckets hash, +1, +2, +3, ... (mod the bucket
    count); a removed key's bucket holds `deleted_key` (and the old value) until an insert reuses it. Export
    gives every bucket, so a SavedModel or checkpoint moves between tinytf and TF with the same layout (TF's
    import copies buckets as they are). String keys are placed by Python's hash, not TF's."""

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
        self._slots: list = [None] * buckets  # None (empty), a key, or _DELETED
        self._deleted: dict = {}  # bucket index -> the value a removed key left there

    @property
    def _integer_keys(self) -> bool:
        return self._key_dtype.is_integer

    @property
    def _saves_as_tf_table(self) -> bool:
        """Saved as TF's MutableDenseHashTableV2 when its buckets are TF's: integer keys (a string key's bucket
        comes from TF's own string hash, which tinytf does not compute, so TF would not find it)."""
        return self._integer_keys

    def _home(self, key) -> int:
        code = int(key) if self._integer_keys else hash(key)
        return (code & 0xFFFFFFFFFFFFFFFF) & (self._num_buckets - 1)

    def _probe(self, key):
        """The buckets `key` visits, in TF's order: hash, then +1, +2, +3, ... (triangular steps)."""
        mask, index = self._num_buckets - 1, self._home(key)
        for step in range(1, self._num_buckets + 1):
            yield index
            index = (index + step) & mask
        raise InvalidArgumentError("Internal error in MutableDenseHashTable insert")

    def _check_reserved(self, keys) -> None:
        for key in python_keys(keys):
            if key == self._empty_key.item():
                raise InvalidArgumentError("Using the empty_key as a table key is not allowed")
            if key == self._deleted_key.item():
                raise InvalidArgumentError("Using the deleted_key as a table key is not allowed")

    def _place(self, key) -> None:
        """Put a key not in the table in the first empty or deleted bucket of its probe."""
        for index in self._probe(key):
            held = self._slots[index]
            if held is None or held is _DELETED:
                self._slots[index] = key
                self._deleted.pop(index, None)
                return

    def _grow_to(self, buckets: int) -> None:
        """TF's rebucketing: a bigger table, the live keys re-inserted in the order of their old buckets."""
        live = [k for k in self._slots if k is not None and k is not _DELETED]
        self._num_buckets, self._slots, self._deleted = buckets, [None] * buckets, {}
        for key in live:
            self._place(key)

    def _insert(self, keys, values) -> None:
        self._check_reserved(keys)
        count = np.asarray(keys).size
        buckets = self._num_buckets
        while len(self._entries) + count > 0.8 * buckets:  # TF grows before inserting a batch
            buckets *= 2
        if buckets != self._num_buckets:
            self._grow_to(buckets)
        for key, value in self._rows(keys, values):
            if key not in self._entries:
                self._place(key)
            self._entries[key] = value

    def _import(self, keys, values) -> None:
        """TF's import of a dense table: the buckets as given (a power-of-two count of them, reserved keys
        marking empty and deleted buckets); other sizes are inserted into empty buckets."""
        keys = np.asarray(keys).reshape(-1)
        rows = np.asarray(values).reshape((keys.size,) + self._value_shape)
        empty, deleted = self._empty_key.item(), self._deleted_key.item()
        size = keys.size
        if size >= 4 and not size & (size - 1):
            self._num_buckets, self._slots, self._deleted, self._entries = size, [None] * size, {}, {}
            for index, (key, row) in enumerate(zip(python_keys(keys), rows if self._value_shape else rows.tolist())):
                if key == empty:
                    continue
                if key == deleted:
                    self._slots[index], self._deleted[index] = _DELETED, row
                else:
                    self._slots[index], self._entries[key] = key, row
            return
        self._slots, self._deleted, self._entries = [None] * self._num_buckets, {}, {}
        live = [i for i, k in enumerate(python_keys(keys)) if k not in (empty, deleted)]
        self._insert(keys[live], rows[live])

    def _remove(self, keys) -> None:
        self._check_reserved(keys)
        for key in python_keys(keys):
            if key not in self._entries:
                continue
            value = self._entries.pop(key)
            for index in self._probe(key):
                if self._slots[index] == key and self._slots[index] is not _DELETED:
                    self._slots[index], self._deleted[index] = _DELETED, value
                    break

    def _export(self):
        """Every bucket, as TF's: a live key with its value, `deleted_key` with the removed key's old value,
        `empty_key` with zeros; keys as a column, (num_buckets, 1)."""
        empty, deleted = self._empty_key.item(), self._deleted_key.item()
        zero = np.zeros(self._value_shape, self._value_dtype.np) if not self._value_dtype.is_string else b""
        keys, values = [], []
        for index, held in enumerate(self._slots):
            if held is None:
                keys.append(empty)
                values.append(zero)
            elif held is _DELETED:
                keys.append(deleted)
                values.append(self._deleted[index])
            else:
                keys.append(held)
                values.append(self._entries[held])
        n = self._num_buckets
        all_keys = numpy_values(keys, self._key_dtype, (n,))
        all_values = numpy_values(values, self._value_dtype, (n,), self._value_shape)
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
        self._import(state["table"]["-keys"], state["table"]["-values"])

    def insert_or_assign(self, keys, values, name=None):
        """Insert `keys` with `values`, replacing existing values (the same as insert)."""
        return self.insert(keys, values, name=name)

    def erase(self, keys, name=None):
        """Remove `keys` (the same as remove)."""
        return self.remove(keys, name=name)
