"""Bare ops on Keras tensors in Functional models beyond the TF-recorded programs
(tests/conformance/applications_functional_ops.py): a .keras file written by TF 2.21 with Operations in it,
eager against tf.function and with graph passes off, gradients through Operations against finite differences,
the checkpoint and weights-file layout (Operations hold no state), and the errors."""

from __future__ import annotations

import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_files")


def _model():
    inputs = keras.Input((4,))
    h = keras.layers.Dense(5, activation="tanh")(inputs)
    h = keras.ops.concatenate([h[:, :2] * 3.0, keras.ops.square(h[:, 2:]) - 1.0], axis=-1)
    h = keras.ops.sum(keras.ops.reshape(h, (-1, 5, 1)), axis=-1) / 2
    model = keras.Model(inputs, keras.layers.Dense(2)(h))
    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(0, 0.7, w.shape).astype("float32") for w in model.get_weights()])
    return model


def test_a_keras_file_written_by_tensorflow_loads_with_its_operations():
    io = np.load(os.path.join(FILES, "functional_ops_io.npz"))
    model = keras.models.load_model(os.path.join(FILES, "functional_ops.keras"))
    assert [f"{op.name}:{type(op).__name__}" for op in model.operations] == list(io["operations"])
    assert [layer.name for layer in model.layers] == ["x", "dense", "head"]
    head, picked = model.predict(io["x"], verbose=0)
    np.testing.assert_allclose(head, io["head"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(picked, io["picked"], rtol=1e-5, atol=1e-6)


def test_operations_run_the_same_eagerly_in_tf_function_and_without_passes():
    model = _model()
    x = np.random.default_rng(1).normal(size=(3, 4)).astype("float32")
    eager = model(x).numpy()
    graph = tf.function(lambda t: model(t))(tf.constant(x)).numpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-6, atol=1e-6)
    code = ("import numpy as np, sys; sys.path.insert(0, 'tests'); import test_functional_op_layers as t; "
            "import tinytf as tf; m = t._model(); x = np.random.default_rng(1).normal(size=(3, 4)).astype('float32');"
            "print(repr(tf.function(lambda v: m(v))(tf.constant(x)).numpy().tolist()))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "TINYTF_PASSES": "none", "PYTHONPATH": root}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                          check=True)
    np.testing.assert_allclose(np.array(eval(done.stdout)), eager, rtol=1e-6, atol=1e-6)
    # numpy, by hand: the same graph
    w0, b0, w1, b1 = model.get_weights()
    h = np.tanh(x @ w0 + b0)
    h = np.concatenate([h[:, :2] * 3.0, np.square(h[:, 2:]) - 1.0], axis=-1) / 2
    np.testing.assert_allclose(eager, h @ w1 + b1, rtol=1e-5, atol=1e-6)


def test_gradients_flow_through_operations():
    model = _model()
    x = tf.constant(np.random.default_rng(2).normal(size=(2, 4)), dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(model(x) * tf.constant([1.0, -0.5]))
    grads = tape.gradient(loss, [x] + model.trainable_weights)
    assert all(g is not None for g in grads)
    base, eps = x.numpy().astype("float64"), 1e-3
    for index in [(0, 0), (1, 3), (0, 2)]:
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        f = [float(np.sum(model(v.astype("float32")).numpy() * [1.0, -0.5])) for v in (plus, minus)]
        np.testing.assert_allclose(grads[0].numpy()[index], (f[0] - f[1]) / (2 * eps), rtol=2e-2, atol=2e-3)


def test_operations_hold_no_state_in_weights_files_and_checkpoints(tmp_path):
    """Keras 3 writes only layers in a weights file; a checkpoint numbers `_operations` over layers and
    Operations both (TF 2.21: a Dense after one Operation is `_operations/2`)."""
    inputs = keras.Input((4,))
    h = keras.layers.Dense(3)(inputs * 2.0)
    model = keras.Model(inputs, keras.layers.Dense(2)(h[:, 0:2]))
    model.save_weights(str(tmp_path / "m.weights.h5"))
    with h5py.File(tmp_path / "m.weights.h5") as f:
        assert sorted(f["layers"].keys()) == ["dense", "dense_1", "input_layer"]
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "ck"))
    names = [name for name, _ in tf.train.list_variables(path)]
    assert "model/_operations/2/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "model/_operations/4/bias/.ATTRIBUTES/VARIABLE_VALUE" in names


def test_operation_api():
    inputs = keras.Input((3,))
    out = keras.ops.softmax(inputs * 2, axis=-1)
    model = keras.Model(inputs, out)
    softmax = model.operations[-1]
    assert isinstance(softmax, keras.Operation) and not isinstance(softmax, keras.layers.Layer)
    assert softmax.get_config() == {"name": softmax.name, "axis": -1}
    assert softmax.input is model.operations[1].output and softmax.output is out
    clone = type(softmax).from_config(softmax.get_config())
    np.testing.assert_allclose(clone(tf.constant([[0.0, 1.0, 2.0]])).numpy(),
                               tf.nn.softmax([[0.0, 1.0, 2.0]]).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="cannot contain character"):
        keras.Operation(name="a/b")
    with pytest.raises(NotImplementedError):
        keras.Operation()(1.0)


def test_tf_functions_given_keras_tensors_raise_keras_error():
    inputs = keras.Input((3,))
    for fn in [tf.nn.relu, tf.math.exp, tf.shape, lambda t: tf.stack([t, t]), lambda t: tf.matmul(t, t)]:
        with pytest.raises(ValueError, match="wrap `tf_fn` in a layer"):
            fn(inputs)
    with pytest.raises(ValueError, match="cannot convert it to a NumPy array"):
        np.asarray(inputs)
