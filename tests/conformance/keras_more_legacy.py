"""keras.utils.legacy (Keras 2's serialize/deserialize_keras_object) as TF 2.21's Keras 3.15 has it: the
{"class_name", "config"} form of layers, losses, initializers and optimizers, passive serialization of nested
objects, names of functions, lookups through module_objects and custom_objects, and its errors."""

from __future__ import annotations

from . import outcome, program, val


@program
def p_legacy_serialize_forms(tf):
    legacy, keras = tf.keras.utils.legacy, tf.keras
    dense = legacy.serialize_keras_object(keras.layers.Dense(2, name="d"))
    return [sorted(dense), dense["class_name"], dense["config"]["units"], dense["config"]["activation"],
            dense["config"]["kernel_initializer"]["class_name"],
            legacy.serialize_keras_object(keras.losses.MeanSquaredError()),
            legacy.serialize_keras_object(keras.initializers.GlorotUniform(seed=1)),
            legacy.serialize_keras_object(None), legacy.serialize_keras_object(keras.activations.relu),
            legacy.serialize_keras_object(keras.regularizers.L2(0.5)),
            outcome(lambda: legacy.serialize_keras_object(3), "doesn't implement `get_config()`")]


@program
def p_legacy_deserialize_round_trips(tf):
    legacy, keras = tf.keras.utils.legacy, tf.keras

    class Scaled(keras.layers.Layer):
        def __init__(self, factor=2.0, regularizer=None, **kwargs):
            super().__init__(**kwargs)
            self.factor, self.regularizer = factor, keras.regularizers.get(regularizer)

        def get_config(self):
            return {**super().get_config(), "factor": self.factor, "regularizer": self.regularizer}

        def call(self, x):
            return x * self.factor

    config = legacy.serialize_keras_object(Scaled(3.0, keras.regularizers.L1(0.1), name="s"))
    passive = config["config"]["regularizer"]
    rebuilt = legacy.deserialize_keras_object(config, custom_objects={"Scaled": Scaled, "L1": keras.regularizers.L1})
    dense = legacy.deserialize_keras_object(legacy.serialize_keras_object(keras.layers.Dense(3, name="dd")),
                                            module_objects={"Dense": keras.layers.Dense})
    # by name through custom_objects (TF 2.21's Keras 3.15 fails with AttributeError on any other name lookup:
    # its module reads a _THREAD_LOCAL_CUSTOM_OBJECTS that object_registration no longer has)
    relu = legacy.deserialize_keras_object("relu", custom_objects={"relu": keras.activations.relu})
    ones = legacy.deserialize_keras_object("Ones", custom_objects={"Ones": keras.initializers.Ones})
    return [sorted(passive), passive["class_name"], type(rebuilt).__name__, rebuilt.factor, rebuilt.name,
            type(rebuilt.regularizer).__name__, type(dense).__name__, dense.units, dense.name,
            val(relu(tf.constant([-1.0, 2.0]))), type(ones).__name__,
            legacy.deserialize_keras_object(None), legacy.deserialize_keras_object(keras.activations.relu).__name__]


@program
def p_legacy_deserialize_errors(tf):
    legacy = tf.keras.utils.legacy
    return [outcome(lambda: legacy.deserialize_keras_object({"class_name": "Foo", "config": {}}, module_objects={}),
                    "Unknown object: 'Foo'"),
            outcome(lambda: legacy.deserialize_keras_object({"config": {}}), "Improper config format"),
            outcome(lambda: legacy.deserialize_keras_object(3), "Could not interpret serialized object")]
