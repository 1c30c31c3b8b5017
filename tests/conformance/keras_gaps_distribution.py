"""keras.distribution on TF 2.21's TensorFlow backend (Keras 3.15): device lists, DeviceMesh / TensorLayout /
LayoutMap bookkeeping and their errors, DataParallel and ModelParallel layouts for data and variables, the
current distribution and its scope, fit inside a DataParallel scope (layouts are descriptive on this backend:
training runs as without one), and the names the TF backend does not support (their AttributeErrors)."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program


def _layout(layout):
    return None if layout is None else {"axes": list(layout.axes), "mesh": repr(layout.device_mesh)}


@program
def p_keras_gaps_distribution_meshes_and_layouts(tf):
    D = tf.keras.distribution
    devices = [f"cpu:{i}" for i in range(8)]
    mesh = D.DeviceMesh((2, 4), ["batch", "model"], devices=devices)
    layout = D.TensorLayout([None, "model"], mesh)
    unbound = D.TensorLayout(["batch", None])
    unbound.device_mesh = mesh
    layout_map = D.LayoutMap(mesh)
    layout_map["dense.*kernel"] = (None, "model")
    layout_map["dense.*bias"] = ("model",)
    layout_map["conv/kernel"] = D.TensorLayout([None, None, None, "model"])

    def assign_twice():
        layout_map["conv/kernel"] = (None,)

    def both_match():
        extra = D.LayoutMap(mesh)
        extra["d.*"] = ("model",)
        extra[".*kernel"] = (None, "model")
        return extra["dense/kernel"]

    return {"list_devices": D.list_devices(), "cpu_devices": D.list_devices("cpu"),
            "mesh": repr(mesh), "mesh_shape": list(mesh.shape), "devices": mesh.devices.tolist(),
            "layout": _layout(layout), "unbound": _layout(unbound), "str": str(layout),
            "lookup": {k: _layout(layout_map[k]) for k in ("dense/kernel", "dense_1/kernel", "dense/bias",
                                                             "conv/kernel", "other/kernel")},
            "keys": list(layout_map), "len": len(layout_map),
            "empty": outcome(lambda: D.DeviceMesh((), []), "cannot be empty"),
            "sizes": outcome(lambda: D.DeviceMesh((2, 4), ["batch"], devices=devices), "same size"),
            "count": outcome(lambda: D.DeviceMesh((3,), ["batch"], devices=devices), "number of devices"),
            "bad_axis": outcome(lambda: D.TensorLayout(["batch", "data"], mesh), "Invalid axis names"),
            "override": outcome(lambda: setattr(layout, "device_mesh", mesh), "Cannot override"),
            "duplicate": outcome(assign_twice, "already exist"),
            "not_layout": outcome(lambda: layout_map.__setitem__("x", [None]), "TensorLayout type"),
            "ambiguous": outcome(both_match, "matches multiple")}


@program
def p_keras_gaps_distribution_data_and_model_parallel(tf):
    D = tf.keras.distribution
    keras = tf.keras
    default = D.DataParallel()
    listed = D.DataParallel(devices=["cpu:0", "cpu:1"])
    mesh = D.DeviceMesh((2, 2), ["data", "model"], devices=[f"cpu:{i}" for i in range(4)])
    layout_map = D.LayoutMap(mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    model_parallel = D.ModelParallel(layout_map=layout_map, batch_dim_name="data")
    layer = keras.layers.Dense(3, name="dense")
    layer.build((None, 2))
    out = {"default": [repr(default), default.num_model_replicas, default.batch_dim_name, default.num_processes,
                       default.data_shard_id, default.auto_shard_dataset],
           "listed": [repr(listed), listed.num_model_replicas, _layout(listed.get_data_layout((8, 3)))],
           "dp_variable": _layout(listed.get_variable_layout(layer.kernel)),
           "dp_tensor": listed.get_tensor_layout("dense/kernel"),
           "mp": [repr(model_parallel), model_parallel.num_model_replicas, model_parallel.batch_dim_name,
                  _layout(model_parallel.get_data_layout((4, 5, 6)))],
           "mp_kernel": _layout(model_parallel.get_variable_layout(layer.kernel)),
           "mp_bias": _layout(model_parallel.get_variable_layout(layer.bias)),
           "mp_tensor": _layout(model_parallel.get_tensor_layout("x/dense/kernel")),
           "kernel_path": layer.kernel.path,
           "no_map": outcome(lambda: D.ModelParallel(), "layout_map"),
           "not_map": outcome(lambda: D.ModelParallel(layout_map={"a": 1}), "LayoutMap"),
           "not_mesh": outcome(lambda: D.DataParallel(device_mesh="cpu:0"), "DeviceMesh")}
    dataset = tf.data.Dataset.range(6).batch(2)
    out["dataset_same"] = default.distribute_dataset(dataset) is dataset
    return out


@program
def p_keras_gaps_distribution_scope_and_fit(tf):
    D = tf.keras.distribution
    keras = tf.keras
    before = D.distribution()
    parallel = D.DataParallel()
    x, y = data((8, 2), seed=1), data((8, 1), seed=2)
    with parallel.scope():
        inside = D.distribution() is parallel
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        fixed_weights(model, seed=3)
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    after = D.distribution()
    D.set_distribution(parallel)
    set_globally = D.distribution() is parallel
    D.set_distribution(None)
    inputs = keras.Input((3,))
    return {"before": before, "inside": inside, "after": after, "set": set_globally,
            "loss": [round(v, 5) for v in history.history["loss"]],
            "keras_tensor": D.distribute_tensor(inputs, D.TensorLayout(["batch", None])) is inputs,
            "tensor": outcome(lambda: D.distribute_tensor(tf.ones((2, 2)), D.TensorLayout(["batch", None])),
                              "distribute_tensor"),
            "initialize": outcome(lambda: D.initialize(), "initialize"),
            "device_count": outcome(lambda: D.get_device_count(), "get_device_count"),
            "mesh_2d_warns": outcome(lambda: repr(D.DataParallel(device_mesh=D.DeviceMesh(
                (1, 2), ["batch", "model"], devices=["cpu:0", "cpu:1"]))), "category"),
            "backend_layout": outcome(lambda: D.TensorLayout(["batch"]).backend_layout, "device mesh is not set")}


_ = np


@program
def p_keras_gaps_distribution_docstrings(tf):
    # ModelParallel's and LayoutMap's docstring examples, with 8 named devices (the docstring assumes 8)
    D = tf.keras.distribution
    devices = [f"gpu:{i}" for i in range(8)]
    device_mesh = D.DeviceMesh(shape=(2, 4), axis_names=("batch", "model"), devices=devices)
    layout_map = D.LayoutMap(device_mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    layout_map[".*dense.*bias"] = ("model",)
    layout_map[".*conv2d.*kernel"] = (None, None, None, "model")
    layout_map[".*conv2d.*bias"] = ("model",)
    distribution = D.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    keys = ["dense_1.kernel", "dense_1.bias", "dense_2.kernel", "dense_2.bias", "my_model/conv2d_123/kernel",
            "my_model/conv2d_123/bias", "my_model/conv3d_1/kernel", "my_model/conv3d_1/bias"]
    wider = D.DeviceMesh(shape=(1, 8), axis_names=("batch", "model"), devices=devices)
    return {"layouts": {k: _layout(layout_map[k]) for k in keys}, "replicas": distribution.num_model_replicas,
            "wider": [repr(wider), wider.devices.tolist()]}
