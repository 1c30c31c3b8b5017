"""tf.compat.v1.lookup.StaticHashTable / StaticVocabularyTable: TF1's tables. Built in a TF1 graph, a table is
empty until its initializer op runs (`tf.compat.v1.tables_initializer()` groups them all): a lookup before then
raises FailedPreconditionError("Table not initialized."), as TF's InitializableLookupTableBase. Made eagerly, or
inside a tf.function, it is filled at once like TF2's table (TF does the same)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.context import state
from tinytf.runtime.errors import FailedPreconditionError

from ...lookup.tables import StaticHashTable, StaticVocabularyTable
from .graph import Graph


class _InitializedInSession:
    """A table whose entries a TF1 graph holds back until its `initializer` op runs in a Session."""

    def _hold_back(self):
        self._pending, self._initializer_op = None, None
        if not isinstance(state.graph, Graph):
            return  # eagerly / in a tf.function: filled now, no initializer op (TF's `initializer` is None)
        import tinytf

        from .variables import add_to_collection

        self._pending, self._entries = self._entries, {}

        def fill():
            self._entries = dict(self._pending)
            self._pending = None
            return np.int32(0)

        done = tinytf.numpy_function(fill, [], tinytf.int32, stateful=True, name="table_init")
        self._initializer_op = tinytf.group(done, name="table_init")
        add_to_collection("table_initializer", self._initializer_op)

    @property
    def initializer(self):
        return self._initializer_op

    def _check_initialized(self):
        if self._pending is not None:
            raise FailedPreconditionError("Table not initialized.")

    def _find(self, keys, default):
        self._check_initialized()
        return super()._find(keys, default)

    def _size(self):
        self._check_initialized()
        return super()._size()

    def _export(self):
        self._check_initialized()
        return super()._export()


class StaticHashTableV1(_InitializedInSession, StaticHashTable):
    """tf.compat.v1.lookup.StaticHashTable: a StaticHashTable that a TF1 graph initializes with tables_initializer."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer, default_value, name=name, experimental_is_anonymous=experimental_is_anonymous)
        self._hold_back()


class StaticVocabularyTableV1(_InitializedInSession, StaticVocabularyTable):
    """tf.compat.v1.lookup.StaticVocabularyTable: the vocabulary table that a TF1 graph initializes in a Session."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        super().__init__(initializer, num_oov_buckets, lookup_key_dtype=lookup_key_dtype, name=name,
                         experimental_is_anonymous=experimental_is_anonymous)
        self._hold_back()


NAMES = {"StaticHashTable": StaticHashTableV1, "StaticVocabularyTable": StaticVocabularyTableV1}
