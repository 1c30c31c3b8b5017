"""keras.legacy.saving (TF 2.21's tf.keras.legacy.saving): Keras 2's serialization of objects as
{"class_name": ..., "config": ...}. The same functions as keras.utils.legacy, as in Keras 3."""

from __future__ import annotations

from ..utils.legacy import deserialize_keras_object, serialize_keras_object

__all__ = ["deserialize_keras_object", "serialize_keras_object"]
