"""keras.utils.legacy's lookups by name through module_objects and the registry, as Keras' docstring describes
them (TF 2.21's Keras 3.15 itself fails there with an AttributeError, so these are not recorded from TF)."""

import pytest

import tinytf as tf

legacy = tf.keras.utils.legacy


def test_names_resolve_through_module_objects_and_the_registry():
    relu = legacy.deserialize_keras_object("relu", module_objects={"relu": tf.keras.activations.relu})
    assert relu is tf.keras.activations.relu
    ones = legacy.deserialize_keras_object("Ones", module_objects={"Ones": tf.keras.initializers.Ones})
    assert isinstance(ones, tf.keras.initializers.Ones)  # a class given by name is instantiated
    with tf.keras.utils.custom_object_scope({"Zeros": tf.keras.initializers.Zeros}):
        assert isinstance(legacy.deserialize_keras_object("Zeros"), tf.keras.initializers.Zeros)
    with pytest.raises(ValueError, match="Unknown activation: 'nope'"):
        legacy.deserialize_keras_object("nope", module_objects={}, printable_module_name="activation")


def test_round_trip_keeps_a_layer_config():
    layer = tf.keras.layers.Dense(4, activation="relu", name="legacy_dense")
    rebuilt = legacy.deserialize_keras_object(legacy.serialize_keras_object(layer),
                                              module_objects={"Dense": tf.keras.layers.Dense})
    assert rebuilt.get_config() == layer.get_config()
