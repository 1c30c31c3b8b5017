"""Common layers under the "mixed_float16" and "mixed_bfloat16" policies as TF 2.21's Keras 3 runs them: output
dtypes, float32 weights, the normalization layers computing in float32 inside, and the values (rounded to 2 decimals,
well above float16's error on these small models)."""

from __future__ import annotations

import numpy as np

from . import program


def _dtype(x) -> str:
    return getattr(x.dtype, "name", x.dtype)


# GRU's and MultiHeadAttention's float16 outputs agree with TF's to about 1e-3 (float16 sums in another order),
# which two-decimal rounding turns into flips at boundaries: their dtypes are compared, not their values.
_NOISY = ("gru", "mha")


def _layers(tf):
    layers = tf.keras.layers
    return [("conv2d", layers.Conv2D(3, 2), (2, 5, 5, 2)), ("batch_norm", layers.BatchNormalization(), (4, 3)),
            ("layer_norm", layers.LayerNormalization(), (2, 6)), ("lstm", layers.LSTM(3), (2, 4, 2)),
            ("gru", layers.GRU(2, return_sequences=True), (2, 3, 2)), ("embedding", layers.Embedding(5, 3), None),
            ("softmax", layers.Softmax(), (2, 4)), ("mha", layers.MultiHeadAttention(2, 2), (1, 3, 4)),
            ("group_norm", layers.GroupNormalization(2), (2, 4)), ("dropout", layers.Dropout(0.5, seed=1), (2, 3)),
            ("global_pool", layers.GlobalAveragePooling1D(), (2, 3, 2))]


def _run(tf, policy):
    tf.keras.mixed_precision.set_global_policy(policy)
    try:
        tf.keras.utils.set_random_seed(5)
        out = {}
        for name, layer, shape in _layers(tf):
            if shape is None:
                x = np.array([[0, 3, 4], [1, 1, 2]])
            else:
                x = np.random.default_rng(len(name)).standard_normal(shape).astype("float32")
            y = layer(x, x) if name == "mha" else layer(x, training=True) if name in ("batch_norm", "dropout") \
                else layer(x)
            out[name] = {"dtype": _dtype(y), "weights": sorted({_dtype(w) for w in layer.weights})}
            if name not in _NOISY:
                out[name]["values"] = np.round(np.asarray(tf.cast(y, tf.float32)), 2).ravel().tolist()[:12]
        return out
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


@program
def p_layers_under_mixed_float16(tf):
    return _run(tf, "mixed_float16")


@program
def p_layers_under_mixed_bfloat16(tf):
    result = _run(tf, "mixed_bfloat16")
    return {name: {k: v for k, v in entry.items() if k != "values"} for name, entry in result.items()}
