"""keras.tree, keras.name_scope/device and keras.layers.Wrapper/serialize/deserialize beyond the TF-recorded
programs (tests/conformance/keras_ops_more_api.py): inside tf.function, in a saved model, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


class Doubled(keras.layers.Wrapper):
    """A wrapper whose output is twice its layer's."""

    def call(self, x):
        return 2.0 * self.layer(x)


def test_tree_on_tensors_eagerly_and_in_tf_function():
    structure = {"b": [tf.constant(1.0), (tf.constant(2.0), None)], "a": tf.constant([3.0, 4.0])}

    def total(s):
        return tf.add_n([tf.reduce_sum(t) for t in keras.tree.flatten(s) if t is not None])

    assert float(total(structure)) == 10.0
    assert float(tf.function(total)(structure)) == 10.0
    doubled = tf.function(lambda s: keras.tree.map_structure(lambda t: None if t is None else t * 2, s))(structure)
    np.testing.assert_allclose(doubled["a"].numpy(), [6.0, 8.0])
    assert doubled["b"][1][1] is None
    rebuilt = keras.tree.pack_sequence_as(structure, list(range(4)))
    assert rebuilt == {"b": [1, (2, 3)], "a": 0}  # leaves in sorted-key order: a's tensor first, None a leaf


def test_tree_pack_and_flatten_are_inverse():
    structure = [{"y": (1, 2), "x": [3]}, 4, ()]
    flat = keras.tree.flatten(structure)
    assert flat == [3, 1, 2, 4]
    assert keras.tree.pack_sequence_as(structure, flat) == structure
    with pytest.raises(ValueError, match="input sequence length should match"):
        keras.tree.pack_sequence_as(structure, [1])


def test_name_scope_paths_inside_tf_function_and_nesting():
    @tf.function
    def scaled(x):
        with keras.name_scope("graph"):
            return x * 3.0

    assert float(scaled(tf.constant(2.0))) == 6.0
    with keras.name_scope("a"):
        with keras.name_scope("b"):
            layer = keras.layers.Dense(1, name="d")
            layer(tf.ones((1, 2)))
    assert [w.path for w in layer.weights] == ["a/b/d/kernel", "a/b/d/bias"]
    assert keras.Variable(0.0, name="free").path == "free"


def test_custom_wrapper_in_a_saved_model(tmp_path):
    keras.saving.register_keras_serializable(package="kops_test")(Doubled)
    inputs = keras.Input((3,))
    model = keras.Model(inputs, Doubled(keras.layers.Dense(2, name="inner"), name="twice")(inputs))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    kernel, bias = model.get_layer("twice").layer.get_weights()
    np.testing.assert_allclose(model(x).numpy(), 2.0 * (x @ kernel + bias), rtol=1e-6)
    model.save(str(tmp_path / "w.keras"))
    loaded = keras.models.load_model(str(tmp_path / "w.keras"))
    assert isinstance(loaded.get_layer("twice"), keras.layers.Wrapper)
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_serialize_round_trip_and_errors():
    layer = keras.layers.Conv2D(4, 3, padding="same", name="c")
    layer(tf.ones((1, 5, 5, 2)))
    config = keras.layers.serialize(layer)
    assert list(config["build_config"]["input_shape"]) == [1, 5, 5, 2]
    clone = keras.layers.deserialize(config)
    assert clone.built and clone.filters == 4 and clone.padding == "same"
    with pytest.raises(TypeError, match="Could not locate class"):
        keras.layers.deserialize({"class_name": "NoSuchLayer", "config": {}})
    with pytest.raises(ValueError, match="isn't a supported layer type"):
        keras.layers.Wrapper("dense")
