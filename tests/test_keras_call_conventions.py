"""Keras 3 calling conventions TF's tutorials rely on: a layer's input passed by keyword, a model compiled with a
schedule that cannot be serialized (only saving it fails), and `del tensor._keras_mask`."""

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


class Scale(keras.layers.Layer):
    def call(self, x, factor=2.0):
        return x * factor


def test_the_first_call_argument_may_be_passed_by_keyword():
    layer = Scale()
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(layer(x=x).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(layer(x=x, factor=3.0).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(keras.layers.Dense(1, kernel_initializer="ones")(inputs=tf.ones((1, 2))).numpy(),
                                  [[2.0]])
    with pytest.raises(ValueError, match="without a positional input argument"):
        layer(factor=3.0)


class Warmup(keras.optimizers.schedules.LearningRateSchedule):
    def __call__(self, step):
        return 0.1 * tf.cast(step, tf.float32)


def test_compile_accepts_a_schedule_without_get_config_and_only_saving_fails(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(Warmup()), loss="mse")
    model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), verbose=0)
    with pytest.raises(NotImplementedError, match="get_config"):
        model.save(str(tmp_path / "m.keras"))
    assert not (tmp_path / "m.keras").exists()


def test_get_compile_config_is_none_before_compile_and_keras_shaped_after():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    assert model.get_compile_config() is None
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    config = model.get_compile_config()
    assert config["loss"] == "mse" and config["metrics"] == ["mae"]
    assert config["optimizer"]["class_name"] == "SGD"


def test_deleting_the_keras_mask_of_a_tensor():
    embedded = keras.layers.Embedding(5, 2, mask_zero=True)(tf.constant([[1, 0]]))
    assert embedded._keras_mask is not None
    del embedded._keras_mask
    assert embedded._keras_mask is None
    with pytest.raises(AttributeError):
        del embedded._keras_mask
