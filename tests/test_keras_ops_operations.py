"""keras.activations and keras.ops functions as Operations of Functional models beyond the TF-recorded programs
(tests/conformance/keras_ops_more.py): a .keras file written by TF 2.21 with ConvNeXt's and InceptionResNetV2's
unregistered layers and activation Operations, files both ways, eager against tf.function, gradients through
Operations against finite differences, and the Operation classes' constructor/call split."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.applications.convnext import LayerScale, StochasticDepth
from tinytf.keras.applications.inception_resnet_v2 import CustomScaleLayer

keras = tf.keras
FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_files")


def _activation_model():
    inputs = keras.Input((4,))
    h = keras.layers.Dense(5)(inputs)
    h = keras.activations.relu(h, negative_slope=0.2, max_value=1.5, threshold=0.1)
    h = keras.activations.elu(keras.activations.tanh(h) * 2.0, alpha=0.5)
    out = keras.layers.Dense(2)(keras.activations.softmax(h))
    model = keras.Model(inputs, out)
    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(0, 0.8, w.shape).astype("float32") for w in model.get_weights()])
    return model


def test_a_tensorflow_file_with_convnext_and_irv2_layers_and_activations_loads():
    io = np.load(os.path.join(FILES, "kops_layers_io.npz"))
    model = keras.models.load_model(os.path.join(FILES, "kops_layers.keras"))
    assert [f"{op.name}:{type(op).__name__}" for op in model.operations] == list(io["operations"])
    assert isinstance(model.get_layer("scale"), LayerScale)
    assert isinstance(model.get_layer("drop_path"), StochasticDepth)
    assert isinstance(model.get_layer("residual"), CustomScaleLayer)
    np.testing.assert_allclose(model.predict(io["x"], verbose=0), io["y"], rtol=1e-5, atol=1e-6)


def test_unregistered_application_layers_are_written_by_their_keras_module(tmp_path):
    model = keras.models.load_model(os.path.join(FILES, "kops_layers.keras"))
    entries = {e["name"]: e for e in model.get_config()["layers"]}
    assert (entries["scale"]["module"], entries["scale"]["registered_name"]) == (
        "keras.src.applications.convnext", "LayerScale")
    assert entries["residual"]["module"] == "keras.src.applications.inception_resnet_v2"
    assert entries["re_lu"]["module"] == "keras.src.activations.activations"
    assert entries["scale"]["config"]["projection_dim"] == 6
    model.save(str(tmp_path / "again.keras"))
    again = keras.models.load_model(str(tmp_path / "again.keras"))
    x = np.sin(np.arange(12)).reshape(2, 6).astype("float32")
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy(), rtol=1e-6)
    # a module Keras does not know stays an error naming the class
    broken = json.loads(json.dumps(model.get_config()))
    broken["layers"][3]["module"] = "keras.src.applications.nowhere"
    with pytest.raises(ValueError, match="LayerScale"):
        keras.Model.from_config(broken)


def test_stochastic_depth_drops_whole_samples_only_while_training():
    layer = StochasticDepth(0.5)
    x = tf.ones((64, 3))
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    kept = layer(x, training=True).numpy()
    assert set(np.unique(kept)) <= {0.0, 2.0} and np.all(kept == kept[:, :1])


def test_activation_operations_eager_graph_and_numpy():
    model = _activation_model()
    x = np.random.default_rng(1).normal(size=(3, 4)).astype("float32")
    eager = model(x).numpy()
    np.testing.assert_allclose(tf.function(lambda t: model(t))(tf.constant(x)).numpy(), eager, rtol=1e-6)
    w0, b0, w1, b1 = model.get_weights()
    h = x @ w0 + b0
    h = np.clip(np.where(h > 0.1, h, 0.0), 0.0, 1.5) - 0.2 * np.maximum(0.1 - h, 0.0)
    h = np.tanh(h) * 2.0
    h = np.where(h > 0, h, 0.5 * (np.exp(h) - 1.0))
    h = np.exp(h - h.max(-1, keepdims=True))
    np.testing.assert_allclose(eager, (h / h.sum(-1, keepdims=True)) @ w1 + b1, rtol=1e-5, atol=1e-6)
    assert [type(op).__name__ for op in model.operations[2:6]] == ["ReLU", "Tanh", "Multiply", "Elu"]


def test_gradients_flow_through_activation_operations():
    model = _activation_model()
    # pre-activations at least 0.1 away from relu's jump at its threshold and its kink at max_value
    x = tf.constant(np.random.default_rng(7).normal(size=(2, 4)), dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(model(x) * tf.constant([1.0, -0.5]))
    grad = tape.gradient(loss, x).numpy()
    base, eps = x.numpy().astype("float64"), 1e-3
    for index in [(0, 0), (1, 3), (0, 2), (1, 1)]:
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        f = [float(np.sum(model(v.astype("float32")).numpy() * [1.0, -0.5])) for v in (plus, minus)]
        np.testing.assert_allclose(grad[index], (f[0] - f[1]) / (2 * eps), rtol=3e-2, atol=3e-3)


def test_relu_operation_api():
    relu = keras.activations.ReLU(negative_slope=0.1, threshold=1.0)
    assert relu.get_config() == {"name": relu.name, "negative_slope": 0.1, "max_value": None, "threshold": 1.0}
    clone = type(relu).from_config(relu.get_config())
    np.testing.assert_allclose(clone(tf.constant([0.0, 1.0, 2.0])).numpy(), [-0.1, 0.0, 2.0], rtol=1e-6)


def test_operation_classes_split_constructor_and_call_arguments():
    a, b = keras.Input((4,)), keras.Input((4,))
    pad = keras.ops.pad(a, [[0, 0], [1, 1]], constant_values=2.0)
    einsum = keras.ops.einsum("ij,ij->i", a, b)
    mesh = keras.ops.meshgrid(a[0], b[0], indexing="ij")
    attention = keras.ops.dot_product_attention(keras.ops.reshape(a, (-1, 2, 1, 2)),
                                                keras.ops.reshape(b, (-1, 2, 1, 2)),
                                                keras.ops.reshape(b, (-1, 2, 1, 2)), scale=0.5)
    model = keras.Model([a, b], [pad, einsum, mesh[0], attention])
    ops = {type(op).__name__: op for op in model.operations}
    assert ops["Pad"].get_config() == {"name": ops["Pad"].name, "pad_width": [[0, 0], [1, 1]], "mode": "constant"}
    assert ops["Einsum"].get_config()["subscripts"] == "ij,ij->i"
    assert ops["Meshgrid"].get_config()["indexing"] == "ij"
    assert ops["DotProductAttention"].get_config()["is_causal"] is False
    node = ops["Pad"]._inbound_nodes[0]
    assert node.kwargs == {"constant_values": 2.0}
    x = [np.arange(8, dtype="float32").reshape(2, 4), np.ones((2, 4), "float32")]
    eager = model(x)
    graph = tf.function(lambda u, v: model([u, v]))(*[tf.constant(v) for v in x])
    for e, g in zip(eager, graph):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6)
    np.testing.assert_allclose(eager[0].numpy()[:, 0], [2.0, 2.0])
    np.testing.assert_allclose(eager[1].numpy(), x[0].sum(1))
    # an Operation rebuilt from its config computes the same
    rebuilt = type(ops["Pad"]).from_config(ops["Pad"].get_config())
    np.testing.assert_allclose(rebuilt(x[0], constant_values=2.0).numpy(), eager[0].numpy())


def test_scatter_update_reductions_and_their_gradients():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    indices = [[0, 1], [0, 1], [1, 0]]
    updates = tf.constant([2.0, 3.0, 0.5])
    expected = {None: [[1, 3], [0.5, 4]], "add": [[1, 7], [3.5, 4]], "max": [[1, 3], [3, 4]],
                "min": [[1, 2], [0.5, 4]], "mul": [[1, 12], [1.5, 4]]}
    for reduction, want in expected.items():
        got = keras.ops.scatter_update(x, indices, updates, reduction=reduction)
        graph = tf.function(lambda t, r=reduction: keras.ops.scatter_update(t, indices, updates, reduction=r))(x)
        np.testing.assert_allclose(got.numpy(), want)
        np.testing.assert_allclose(graph.numpy(), want)
    with tf.GradientTape() as tape:
        tape.watch(updates)
        y = keras.ops.scatter_update(x, indices, updates, reduction="mul")
    np.testing.assert_allclose(tape.gradient(y, updates).numpy(), [2.0 * 3.0, 2.0 * 2.0, 3.0])
    with pytest.raises(ValueError, match="Invalid reduction"):
        keras.ops.scatter_update(x, indices, updates, reduction="sub")


def test_unique_first_indices_and_static_size():
    values = tf.constant([4, 1, 4, 2, 1, 9])
    u, first, inverse, counts = keras.ops.unique(values, return_index=True, return_inverse=True,
                                                  return_counts=True)
    np.testing.assert_array_equal(u.numpy(), [1, 2, 4, 9])
    np.testing.assert_array_equal(first.numpy(), [1, 3, 0, 5])
    np.testing.assert_array_equal(u.numpy()[inverse.numpy()], values.numpy())
    np.testing.assert_array_equal(counts.numpy(), [2, 1, 2, 1])
    padded, index = keras.ops.unique(values, return_index=True, size=6, fill_value=-1)
    np.testing.assert_array_equal(padded.numpy(), [1, 2, 4, 9, -1, -1])
    np.testing.assert_array_equal(index.numpy(), [1, 3, 0, 5, 1, 1])
    np.testing.assert_array_equal(keras.ops.unique(values, size=2).numpy(), [1, 2])
