"""tf.Variable and tf.Module."""

import gc
import weakref

import numpy as np
import pytest

import tinytf as tf


def test_assign_family_and_read_value():
    v = tf.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.dtype is tf.float32 and v.shape == (2,) and v.trainable
    before = v.read_value()
    v.assign([3.0, 4.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_allclose(v.numpy(), [3.5, 4.5])
    np.testing.assert_allclose(before.numpy(), [1.0, 2.0])  # earlier reads keep their value


def test_variable_in_expressions():
    v = tf.Variable(3.0)
    assert float(v * 2) == 6.0 and float(2 - v) == -1.0 and float(-v) == -3.0
    assert bool(v > 1.0)
    assert float(tf.add(v, 1.0)) == 4.0
    m = tf.Variable([[1.0, 2.0]])
    assert m[0, 1].numpy() == 2.0 if hasattr(tf, "gather") else True


def test_wrong_shape_or_dtype_keeps_value():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=r"Shape mismatch.*shape \(3,\)"):  # TF's class and wording
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="int32"):
        v.assign(tf.constant([1, 2]))
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])

    @tf.function
    def bad():
        v.assign(tf.zeros([5]))
        return tf.constant(0)

    with pytest.raises(ValueError, match="Cannot assign value to variable"):
        bad()
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


def test_trainable_flag_and_dtype_argument():
    v = tf.Variable(1, trainable=False, dtype=tf.int64)
    assert v.dtype is tf.int64 and not v.trainable
    with pytest.raises(TypeError):
        tf.Variable(tf.constant(1.5), dtype=tf.int32)


def test_initial_value_callable_and_repr():
    v = tf.Variable(lambda: tf.ones([2]))
    assert repr(v).startswith("<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=")
    matrix = tf.Variable([[1.0, 2.0], [3.0, 4.0]])  # TF starts a multi-line array on its own line
    assert repr(matrix) == ("<tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=\narray([[1., 2.],\n"
                            "       [3., 4.]], dtype=float32)>")


def test_variable_garbage_collected():
    v = tf.Variable([1.0])
    ref = weakref.ref(v)
    del v
    gc.collect()
    assert ref() is None


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b", trainable=False)


class Stack(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 3, name="first"), Dense(3, 1, name="second")]
        self.extra = {"scale": tf.Variable(2.0, name="scale")}


def test_module_tracks_variables_and_submodules():
    model = Stack()
    assert model.name == "stack"
    assert len(model.variables) == 5
    assert len(model.trainable_variables) == 3
    assert len(model.non_trainable_variables) == 2
    assert [m.name for m in model.submodules] == ["first", "second"]
    names = sorted(v.name for v in model.variables)
    assert "first/w:0" in names and "second/b:0" in names and "scale:0" in names
