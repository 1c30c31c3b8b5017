"""Bare ops on Keras tensors in a Functional model, as TF 2.21 (Keras 3) builds it: `x * 2`, `x + 3.0`,
`x[:, 0]`, `x / 2`, `-x` and keras.ops calls become Operations (Multiply, Add, GetItem, TrueDivide, ...) that
model.operations, summary() and get_config list and model.layers leaves out; TensorFlow functions (`tf.nn.relu`,
`tf.concat`, `tf.cast`) refuse a KerasTensor with Keras' ValueError. MobileNetV3's hard sigmoid is the
keras.applications case."""

from __future__ import annotations

import json
import os
import tempfile

from . import data, fixed_weights, outcome, program, val


def _model(tf):
    keras = tf.keras
    inputs = keras.Input((4,), name="features")
    x = keras.layers.Dense(6, name="dense_in")(inputs)
    x = x * 2
    x = 3.0 + x
    x = keras.ops.relu(x)
    head = x[:, 0:3]
    tail = x[:, 3:]
    joined = keras.ops.concatenate([tail, head / 2], axis=-1)
    joined = -keras.ops.sum(keras.ops.reshape(joined, (-1, 3, 2)), axis=2)
    picked = x[:, 1]
    out = keras.layers.Dense(2, name="dense_out")(joined)
    return fixed_weights(keras.Model(inputs, [out, picked], name="ops_model"))


def _lines(model):
    lines = []
    model.summary(print_fn=lambda line, *args, **kwargs: lines.append(line))
    return lines


@program
def p_functional_ops_listing(tf):
    model = _model(tf)
    return {"layers": [[op.name, type(op).__name__] for op in model.layers],
            "operations": [[op.name, type(op).__name__] for op in model.operations],
            "is_layer": [isinstance(op, tf.keras.layers.Layer) for op in model.operations],
            "weights": [w.name for w in model.weights],
            "output_names": model.output_names,
            "op_output": list(model.operations[2].output.shape),
            "op_repr": repr(model.operations[2])}


@program
def p_functional_ops_summary(tf):
    return _lines(_model(tf))


@program
def p_functional_ops_config(tf):
    """get_config and to_json as JSON (Keras' op entries: module keras.src.ops.*, registered_name, slices)."""
    model = _model(tf)
    config = json.loads(json.dumps(model.get_config()))
    return {"layers": config["layers"], "input_layers": config["input_layers"],
            "output_layers": config["output_layers"],
            "json_layers": json.loads(model.to_json())["config"]["layers"]}


@program
def p_functional_ops_values(tf):
    model = _model(tf)
    x = data((3, 4), scale=2.0)
    rebuilt = tf.keras.Model.from_config(model.get_config())
    rebuilt.set_weights(model.get_weights())
    from_json = tf.keras.models.model_from_json(model.to_json())
    from_json.set_weights(model.get_weights())
    return {"eager": val(model(x)), "predict": val(model.predict(x, verbose=0)),
            "from_config": val(rebuilt(x)), "from_config_ops": [op.name for op in rebuilt.operations],
            "from_json": val(from_json(x))}


@program
def p_functional_ops_keras_file(tf):
    """A .keras file of a model with Operations: saved, loaded back, predictions and listing."""
    model = _model(tf)
    x = data((2, 4), seed=3)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "ops.keras")
        model.save(path)
        loaded = tf.keras.models.load_model(path)
    return {"output": val(loaded(x)), "expected": val(model(x)), "layers": [op.name for op in loaded.layers],
            "operations": [[op.name, type(op).__name__] for op in loaded.operations]}


@program
def p_functional_ops_tf_functions_refuse_keras_tensors(tf):
    inputs = tf.keras.Input((3,))
    return {"relu": outcome(lambda: tf.nn.relu(inputs), "cannot be used as input to a TensorFlow function"),
            "concat": outcome(lambda: tf.concat([inputs, inputs], axis=-1), "wrap `tf_fn` in a layer"),
            "cast": outcome(lambda: tf.cast(inputs, tf.int32), "KerasTensor cannot be used"),
            "add": outcome(lambda: tf.add(inputs, 1.0), "KerasTensor cannot be used"),
            "convert": outcome(lambda: tf.convert_to_tensor(inputs), "KerasTensor cannot be used"),
            "reduce_sum": outcome(lambda: tf.reduce_sum(inputs), "KerasTensor cannot be used"),
            "int": outcome(lambda: int(inputs), "cannot convert it to an int"),
            "float": outcome(lambda: float(inputs), "cannot convert it to a float"),
            "bool": outcome(lambda: bool(inputs), "cannot be used as a boolean"),
            "iter": outcome(lambda: list(inputs), "Iterating over a symbolic KerasTensor")}


@program
def p_functional_ops_names_share_counters(tf):
    """An Operation takes its name from the same counters as layers: `x + 1` is "add", a later Add layer
    "add_1"; names stay unique across ops of one class."""
    keras = tf.keras
    a, b = keras.Input((2,)), keras.Input((2,))
    s = a + 1.0
    t = keras.layers.Add()([s, b])
    u = keras.ops.add(t, s)
    v = keras.ops.multiply(u, 2.0) * 3.0
    w = keras.ops.transpose(keras.ops.expand_dims(v, 1), (0, 2, 1))
    model = keras.Model([a, b], keras.ops.squeeze(w, axis=-1))
    config = model.get_config()
    return {"operations": [[op.name, type(op).__name__] for op in model.operations],
            "configs": [entry["config"] for entry in config["layers"]],
            "out": val(model([data((2, 2)), data((2, 2), seed=1)]))}


@program
def p_functional_ops_mobilenet_v3_operations(tf):
    """MobileNetV3Small's Operations (its hard sigmoid's Add and Multiply) in model.operations and summary."""
    model = tf.keras.applications.MobileNetV3Small(weights=None, include_top=False, input_shape=(32, 32, 3),
                                                   include_preprocessing=False)
    ops = [[op.name, type(op).__name__] for op in model.operations if not isinstance(op, tf.keras.layers.Layer)]
    lines = _lines(model)
    return {"count": len(ops), "first": ops[:4], "classes": sorted({c for _, c in ops}),
            "summary_head": lines[:12], "summary_rows": len(lines)}
