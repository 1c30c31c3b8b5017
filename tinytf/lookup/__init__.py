"""tf.lookup: tables from keys to values, as stateful resources that tf.function and tf.data capture."""

from . import experimental
from .initializers import KeyValueTensorInitializer, TextFileIndex, TextFileInitializer
from .tables import StaticHashTable, StaticVocabularyTable

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer", "experimental"]
