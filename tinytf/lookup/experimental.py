"""tf.lookup.experimental: the mutable tables."""

from .mutable_tables import DenseHashTable, MutableHashTable

__all__ = ["DenseHashTable", "MutableHashTable"]
