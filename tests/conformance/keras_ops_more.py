"""keras.activations and the remaining keras.ops functions on Keras tensors, as TF 2.21 (Keras 3.15) records them
in a Functional model: `keras.activations.relu(inputs)` is a `ReLU` Operation of keras.src.activations, the others
keras.ops' Operations (`Sigmoid`, `Exp`, `Gelu`, ...); mish, hard_silu and sparsemax refuse a KerasTensor. Then
the Operation classes whose configs keep constructor arguments apart from call arguments (`Pad(pad_width, mode)`
called with `constant_values=`, `Einsum(subscripts)` on `*operands`, `ExtractPatches`' nameless config, ...),
and the eager values of the functions behind them (relu's threshold and cap, scatter_update's reductions,
unique's first indices)."""

from __future__ import annotations

import json
import os
import tempfile

from . import data, outcome, program, val

ACTIVATIONS = ["relu", "relu6", "leaky_relu", "elu", "selu", "sigmoid", "hard_sigmoid", "tanh", "softplus",
               "softsign", "silu", "swish", "gelu", "exponential", "softmax", "log_softmax", "celu", "glu",
               "hard_shrink", "hard_tanh", "log_sigmoid", "soft_shrink", "sparse_plus", "sparse_sigmoid",
               "squareplus", "tanh_shrink", "linear"]


def _layers(model, skip):
    """The model's config entries after its `skip` inputs, through JSON (as a .keras file holds them)."""
    return json.loads(json.dumps(model.get_config()))["layers"][skip:]


@program
def p_keras_ops_more_activations_as_operations(tf):
    keras = tf.keras
    inputs = keras.Input((4,), name="x")
    out = {}
    for name in ACTIVATIONS:
        model = keras.Model(inputs, getattr(keras.activations, name)(inputs))
        out[name] = {"operations": [[op.name, type(op).__name__] for op in model.operations[1:]],
                     "layers": _layers(model, 1), "value": val(model(data((2, 4), scale=3.0)))}
    return out


@program
def p_keras_ops_more_activation_arguments(tf):
    keras = tf.keras
    inputs = keras.Input((6,))
    a = keras.activations
    outputs = [a.relu(inputs, negative_slope=0.1, max_value=3.0, threshold=0.5),
               a.relu(inputs, max_value=6.0), a.relu(inputs, negative_slope=0.3),
               a.leaky_relu(inputs, 0.05), a.elu(inputs, alpha=0.5), a.gelu(inputs, approximate=True),
               a.softmax(inputs, axis=1), a.threshold(inputs, 0.5, 2.0), a.squareplus(inputs, b=2),
               a.celu(inputs, alpha=2.0), a.hard_shrink(inputs, 1.0), a.soft_shrink(inputs, threshold=0.2)]
    model = keras.Model(inputs, outputs)
    x = data((3, 6), scale=4.0)
    return {"operations": [[op.name, type(op).__name__] for op in model.operations[1:]],
            "layers": _layers(model, 1), "values": val(model(x)), "predict": val(model.predict(x, verbose=0))}


@program
def p_keras_ops_more_activation_errors(tf):
    inputs = tf.keras.Input((4,))
    a = tf.keras.activations
    return {"mish": outcome(lambda: a.mish(inputs), "KerasTensor cannot be used"),
            "hard_silu": outcome(lambda: a.hard_silu(inputs), "KerasTensor cannot be used"),
            "hard_swish": outcome(lambda: a.hard_swish(inputs), "KerasTensor cannot be used"),
            "sparsemax": outcome(lambda: a.sparsemax(inputs), "KerasTensor cannot be used")}


@program
def p_keras_ops_more_relu_values(tf):
    """keras.activations.relu's eager arithmetic: at the threshold, below it with a cap, a negative threshold."""
    x = tf.constant([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 7.0])
    relu = tf.keras.activations.relu
    cases = {"plain": {}, "slope": {"negative_slope": 0.1}, "cap": {"max_value": 1.5}, "six": {"max_value": 6},
             "threshold": {"threshold": 0.5}, "all": {"negative_slope": 0.2, "max_value": 2.0, "threshold": 0.5},
             "negative_threshold_cap": {"threshold": -1.0, "max_value": 3.0},
             "negative_threshold_slope": {"threshold": -1.0, "negative_slope": 0.5}}
    out = {k: val(relu(x, **v)) for k, v in cases.items()}
    out["graph"] = val(tf.function(lambda t: relu(t, negative_slope=0.2, max_value=2.0, threshold=0.5))(x))
    return out


@program
def p_keras_ops_more_activations_keras_file(tf):
    keras = tf.keras
    inputs = keras.Input((5,))
    h = keras.layers.Dense(4, name="d")(inputs)
    h = keras.activations.relu(h, negative_slope=0.1, threshold=0.2)
    h = keras.activations.softmax(keras.activations.gelu(h) * 2.0, axis=-1)
    model = keras.Model(inputs, keras.activations.exponential(h))
    model.set_weights([data(w.shape, seed=i, scale=0.6) for i, w in enumerate(model.get_weights())])
    x = data((2, 5), seed=4, scale=2.0)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "act.keras")
        model.save(path)
        loaded = keras.models.load_model(path)
    return {"expected": val(model(x)), "loaded": val(loaded(x)),
            "operations": [[op.name, type(op).__name__] for op in loaded.operations],
            "layers": _layers(loaded, 1)}


def _operation_model(tf):
    keras, ops = tf.keras, tf.keras.ops
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    i, img, q = keras.Input((3,), dtype="int32", name="i"), keras.Input((8, 8, 3), name="img"), keras.Input(
        (5, 2, 4), name="q")
    outputs = {
        "scatter_update": ops.scatter_update(a, [[0, 1]], b[:1, 0]),
        "scatter_add": ops.scatter_update(a, [[0, 1], [0, 1]], b[:2, 0], reduction="add"),
        "extract_patches": ops.image.extract_patches(img, 2),
        "extract_patches_same": ops.image.extract_patches(img, (3, 3), strides=(2, 2), padding="same"),
        "attention": ops.dot_product_attention(q, q, q),
        "attention_causal": ops.dot_product_attention(q, q, q, is_causal=True, scale=0.5),
        "rms": ops.rms_normalization(a),
        "rms_scaled": ops.rms_normalization(a, b[0], axis=-1, epsilon=1e-3),
        "layer_norm": ops.layer_normalization(a),
        "layer_norm_affine": ops.layer_normalization(a, b[0], b[1], epsilon=1e-3),
        "multi_hot": ops.multi_hot(i, 5),
        "amax": ops.amax(a, axis=1),
        "amin": ops.amin(a, axis=1, keepdims=True),
        "average": ops.average(a, axis=1),
        "average_weighted": ops.average(a, axis=1, weights=b * b),
        "einsum": ops.einsum("ij,ij->i", a, b),
        "meshgrid": ops.meshgrid(a[0], b[0, :3], indexing="ij"),
        "pad": ops.pad(a, [[0, 0], [1, 2]]),
        "pad_constant": ops.pad(a, [[0, 0], [1, 2]], constant_values=3.0),
        "pad_reflect": ops.pad(a, [[0, 0], [1, 2]], mode="reflect"),
        "unique": ops.unique(i[0], size=3),
    }
    return keras.Model([a, b, i, img, q], outputs)


def _operation_inputs():
    return [data((2, 4), scale=2.0), data((2, 4), seed=1, scale=2.0), [[1, 3, 1], [0, 4, 4]],
            data((2, 8, 8, 3), seed=2), data((2, 5, 2, 4), seed=3)]


@program
def p_keras_ops_more_operation_configs(tf):
    model = _operation_model(tf)
    a = tf.keras.Input((4,))
    padded = tf.keras.Model(a, [tf.keras.ops.pad(a, 1), tf.keras.ops.pad(a, (2, 1)), tf.keras.ops.pad(a, [[1], [2]])])
    return {"operations": [[op.name, type(op).__name__] for op in model.operations],
            "layers": _layers(model, 5), "pad_widths": _layers(padded, 1)}


@program
def p_keras_ops_more_operation_values(tf):
    """The model eagerly, rebuilt from its config, and through a .keras file."""
    model = _operation_model(tf)
    x = [tf.constant(v, dtype="int32") if k == 2 else tf.constant(v) for k, v in enumerate(_operation_inputs())]
    rebuilt = tf.keras.Model.from_config(model.get_config())
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "ops.keras")
        model.save(path)
        loaded = tf.keras.models.load_model(path)
    return {"eager": val(model(x)), "rebuilt": val(rebuilt(x)), "loaded": val(loaded(x)),
            "loaded_operations": [[op.name, type(op).__name__] for op in loaded.operations]}


@program
def p_keras_ops_more_switch_and_vectorized_map(tf):
    """Switch and VectorizedMap take functions: their nodes and values (their configs hold Python lambdas)."""
    keras, ops = tf.keras, tf.keras.ops
    a = keras.Input((4,))
    s = ops.switch(1, [lambda t: t + 1.0, lambda t: t * 3.0], a)
    v = ops.vectorized_map(lambda t: t * 2.0, a)
    model = keras.Model(a, [s, v])
    return {"operations": [[op.name, type(op).__name__] for op in model.operations],
            "configs": [op.get_config() for op in model.operations[1:] if type(op).__name__ == "Switch"],
            "values": val(model(data((2, 4))))}


@program
def p_keras_ops_more_function_values(tf):
    ops = tf.keras.ops
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    indices = tf.constant([[0, 1], [0, 1], [2, 0]])
    updates = tf.constant([2.0, 3.0, 10.0])
    out = {r or "none": val(ops.scatter_update(x, indices, updates, reduction=r))
           for r in [None, "add", "max", "min", "mul", "ADD"]}
    out["bad_reduction"] = outcome(lambda: ops.scatter_update(x, indices, updates, reduction="sub"),
                                   "Invalid reduction")
    out["graph_mul"] = val(tf.function(lambda t: ops.scatter_update(t, indices, updates, reduction="mul"))(x))
    values = tf.constant([4, 1, 4, 2, 1, 9])
    out["unique_index"] = val(ops.unique(values, return_index=True))
    out["unique_all"] = val(ops.unique(values, return_index=True, return_inverse=True, return_counts=True))
    out["unique_unsorted"] = val(ops.unique(values, sorted=False, return_index=True))
    out["rms_default"] = val(ops.rms_normalization(x))
    out["amax"] = val(ops.amax(x, axis=0))
    out["amax_initial"] = outcome(lambda: ops.amax(x, initial=1.0), "initial")
    return out
