"""Every name tf.keras declares public is reachable as an attribute, as `tf.keras.saving.X` is in TF."""

import tinytf as tf


def test_every_public_keras_name_is_reachable():
    missing = [name for name in tf.keras.__all__ if not hasattr(tf.keras, name)]
    assert missing == []


def test_keras_saving_namespace_has_the_model_file_functions():
    for name in ("load_model", "save_model", "register_keras_serializable", "serialize_keras_object",
                 "deserialize_keras_object"):
        assert callable(getattr(tf.keras.saving, name)), name
