"""keras.legacy (TF 2.21's tf.keras.legacy): the `saving` module of Keras 2's object serialization."""

from . import saving

__all__ = ["saving"]
