"""keras.distribution's bookkeeping (meshes, layouts, layout maps, DataParallel / ModelParallel) and the
current distribution, as Keras 3.15 keeps them on the TensorFlow backend; TF's own results are in
conformance/keras_gaps_distribution.py."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

D = tf.keras.distribution


def test_mesh_reshapes_devices_and_layouts_check_axis_names():
    mesh = D.DeviceMesh((2, 3), ["batch", "model"], devices=[f"gpu:{i}" for i in range(6)])
    assert mesh.devices.shape == (2, 3) and mesh.devices[1, 0] == "gpu:3"
    assert D.TensorLayout(("batch", None), mesh).axes == ("batch", None)
    with pytest.raises(ValueError, match="Invalid axis names"):
        D.TensorLayout(["rows"], mesh)
    with pytest.raises(ValueError, match="number of devices"):
        D.DeviceMesh((4,), ["batch"], devices=["cpu:0"] * 3)


def test_layout_map_full_match_and_ambiguity():
    mesh = D.DeviceMesh((1, 2), ["batch", "model"], devices=["cpu:0", "cpu:1"])
    layouts = D.LayoutMap(mesh)
    layouts["encoder/.*/kernel"] = (None, "model")
    assert layouts["encoder/dense/kernel"].axes == (None, "model")
    assert layouts["encoder/dense/kernel"].device_mesh is mesh
    assert layouts["decoder/encoder/dense/kernel"] is None  # re.fullmatch, not search
    layouts[".*dense.*"] = ("model",)
    with pytest.raises(ValueError, match="matches multiple"):
        layouts["encoder/dense/kernel"]
    del layouts[".*dense.*"]
    assert len(layouts) == 1 and layouts.get("x") is None


def test_parallel_layouts_for_variables_and_data():
    layer = tf.keras.layers.Dense(4, name="proj")
    layer.build((None, 3))
    mesh = D.DeviceMesh((2, 2), ["batch", "model"], devices=[f"cpu:{i}" for i in range(4)])
    layouts = D.LayoutMap(mesh)
    layouts["proj/kernel"] = (None, "model")
    parallel = D.ModelParallel(layout_map=layouts)
    assert parallel.batch_dim_name == "batch" and parallel.num_model_replicas == 2
    assert parallel.get_variable_layout(layer.kernel).axes == (None, "model")
    assert parallel.get_variable_layout(layer.bias).axes == (None,)
    assert parallel.get_data_layout((8, 3, 2)).axes == ("batch", None, None)
    data = D.DataParallel(devices=["cpu:0", "cpu:1", "cpu:2"])
    assert data.num_model_replicas == 3 and data.get_variable_layout(layer.kernel).axes == (None, None)


def test_scope_restores_the_previous_distribution_even_on_error():
    first, second = D.DataParallel(), D.DataParallel(devices=["cpu:0"])
    D.set_distribution(first)
    try:
        with pytest.raises(RuntimeError):
            with second.scope():
                assert D.distribution() is second
                raise RuntimeError("inside")
        assert D.distribution() is first
    finally:
        D.set_distribution(None)


def test_fit_under_data_parallel_matches_fit_without():
    x = np.linspace(-1, 1, 16, dtype="float32").reshape(8, 2)
    y = x.sum(axis=1, keepdims=True)

    def train():
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        return model.fit(x, y * 2, batch_size=4, epochs=2, verbose=0, shuffle=False).history["loss"]

    plain = train()
    with D.DataParallel().scope():
        assert D.distribution() is not None
        parallel = train()
    np.testing.assert_allclose(parallel, plain, rtol=1e-6)


def test_unsupported_names_raise_attribute_error():
    for call in (D.initialize, D.get_device_count, lambda: D.distribute_tensor(tf.ones(2), D.TensorLayout(["a"]))):
        with pytest.raises(AttributeError, match="TensorFlow backend"):
            call()
