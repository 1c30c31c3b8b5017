"""keras.layers Attention, AdditiveAttention, GroupNormalization, RMSNormalization, Dot (and dot), AlphaDropout
and SpectralNormalization against Keras 3 on TF 2.21, with fixed weights: forward values eagerly and inside
tf.function, masks, causal masking, attention scores, gradients, configs and .keras save / load."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, fixed_weights, outcome, program, val


def _forward_and_grad(tf, layer, inputs, graph, **kwargs):
    def run(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            out = layer(list(xs) if len(xs) > 1 else xs[0], **kwargs)
            main = out[0] if isinstance(out, tuple) else out
            loss = tf.reduce_sum(tf.square(main))
        return out, tape.gradient(loss, list(xs) + layer.trainable_weights)

    if graph:
        run = tf.function(run)
    out, grads = run(*inputs)
    return [val(out), [val(g) for g in grads]]


def _attention_cases(tf, graph):
    L = tf.keras.layers
    q, v, k = (tf.constant(data(s, seed=i)) for i, s in enumerate([(2, 3, 4), (2, 5, 4), (2, 5, 4)]))
    q_mask = tf.constant([[True, True, False], [True, True, True]])
    v_mask = tf.constant([[True, True, True, False, False], [True, False, True, True, True]])
    out = {}
    cases = {
        "dot": (L.Attention(), [q, v], {}),
        "dot_key": (L.Attention(), [q, v, k], {}),
        "dot_scale": (L.Attention(use_scale=True), [q, v], {}),
        "concat": (L.Attention(score_mode="concat"), [q, v, k], {}),
        "concat_scale_scores": (L.Attention(score_mode="concat", use_scale=True), [q, v],
                                {"return_attention_scores": True}),
        "dot_masks": (L.Attention(), [q, v], {"mask": [q_mask, v_mask]}),
        "dot_causal": (L.Attention(), [q, v], {"use_causal_mask": True, "return_attention_scores": True}),
        "causal_masked": (L.Attention(), [q, v], {"use_causal_mask": True, "mask": [None, v_mask]}),
        "additive": (L.AdditiveAttention(), [q, v], {"return_attention_scores": True}),
        "additive_noscale": (L.AdditiveAttention(use_scale=False), [q, v, k], {}),
        "additive_masks": (L.AdditiveAttention(), [q, v, k], {"mask": [q_mask, v_mask]}),
    }
    for name, (layer, inputs, kwargs) in cases.items():
        layer(inputs)
        fixed_weights(layer, seed=3)
        out[name] = _forward_and_grad(tf, layer, inputs, graph, **kwargs)
    return out


@program
def p_keras_layers_extra_attention(tf):
    return _attention_cases(tf, graph=False)


@program
def p_keras_layers_extra_attention_in_function(tf):
    return _attention_cases(tf, graph=True)


@program
def p_keras_layers_extra_attention_functional_mask(tf):
    """Keras masks from Embedding(mask_zero=True) reach Attention in a Functional model; its output keeps the
    query's mask."""
    keras = tf.keras
    tokens_q, tokens_v = keras.Input((4,), dtype="int32"), keras.Input((5,), dtype="int32")
    embed = keras.layers.Embedding(10, 3, mask_zero=True)
    attended = keras.layers.Attention()([embed(tokens_q), embed(tokens_v)])
    pooled = keras.layers.GlobalAveragePooling1D()(attended)
    model = keras.Model([tokens_q, tokens_v], pooled)
    fixed_weights(model, seed=5)
    xq = np.array([[1, 2, 0, 0], [3, 4, 5, 6]], "int32")
    xv = np.array([[1, 2, 3, 0, 0], [7, 0, 0, 0, 0]], "int32")
    direct = keras.layers.Attention()([embed(xq), embed(xv)])
    return {"model": val(model([xq, xv])), "mask": val(direct._keras_mask) if hasattr(direct, "_keras_mask")
            else None}


@program
def p_keras_layers_extra_normalization(tf):
    L = tf.keras.layers
    x = tf.constant(data((2, 3, 6), scale=2.0))
    img = tf.constant(data((2, 4, 4, 4), seed=1, scale=3.0))
    out = {}
    cases = {
        "group2": (L.GroupNormalization(groups=2), x),
        "group_instance": (L.GroupNormalization(groups=-1), x),
        "group1_no_affine": (L.GroupNormalization(groups=1, center=False, scale=False), x),
        "group_axis1": (L.GroupNormalization(groups=3, axis=1), x),
        "group_image": (L.GroupNormalization(groups=2, epsilon=1e-5), img),
        "rms": (L.RMSNormalization(), x),
        "rms_axes": (L.RMSNormalization(axis=[1, 2], epsilon=1e-3), x),
        "rms_image": (L.RMSNormalization(axis=-1), img),
    }
    for name, (layer, inputs) in cases.items():
        layer(inputs)
        fixed_weights(layer, seed=2)
        out[name] = [_forward_and_grad(tf, layer, [inputs], False),
                     _forward_and_grad(tf, layer, [inputs], True)[0]]
    out["errors"] = {
        "groups_bad": outcome(lambda: L.GroupNormalization(groups=0), "groups"),
        "groups_not_multiple": outcome(lambda: L.GroupNormalization(groups=4)(x), "must be a multiple"),
        "groups_too_many": outcome(lambda: L.GroupNormalization(groups=8)(x), "cannot be more than"),
    }
    return out


@program
def p_keras_layers_extra_dot(tf):
    L = tf.keras.layers
    a, b = tf.constant(data((2, 3, 4))), tf.constant(data((2, 5, 4), seed=1))
    c, d = tf.constant(data((2, 4), seed=2)), tf.constant(data((2, 4), seed=3))
    e = tf.constant(data((2, 4, 3), seed=4))
    return {
        "axes_2_2": _forward_and_grad(tf, L.Dot(axes=(2, 2)), [a, b], False),
        "axes_neg": _forward_and_grad(tf, L.Dot(axes=-1, normalize=True), [a, b], True),
        "vectors": _forward_and_grad(tf, L.Dot(axes=1), [c, d], False),
        "vectors_normalized": val(L.Dot(axes=1, normalize=True)([c, d])),
        "matrix_vector": val(L.Dot(axes=(2, 1))([a, c])),
        "axes_1_2": val(L.Dot(axes=(2, 1))([a, e])),
        "fn": val(L.dot([a, b], axes=-1)),
        "fn_normalize": val(L.dot([c, d], axes=1, normalize=True)),
        "bad_axes": outcome(lambda: L.Dot(axes=(1, 2, 3)), "should contain two elements"),
        "bad_type": outcome(lambda: L.Dot(axes="x"), "Invalid type for argument `axes`"),
        "mismatch": outcome(lambda: L.Dot(axes=1)([a, b]), "Incompatible input shapes"),
        "output_shape": list(L.Dot(axes=(2, 2)).compute_output_shape([(None, 3, 4), (None, 5, 4)])),
    }


@program
def p_keras_layers_extra_alpha_dropout(tf):
    L = tf.keras.layers
    x = tf.constant(data((200, 50), scale=1.0))
    layer = L.AlphaDropout(0.2, seed=1)
    trained = layer(x, training=True).numpy()
    kept = np.isclose(trained, trained)  # every value finite
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - 0.2) * (1 + 0.2 * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * 0.2
    dropped = np.isclose(trained, a * alpha_p + b, atol=1e-5)
    affine = np.isclose(trained, a * x.numpy() + b, atol=1e-5)
    return {"inference": val(layer(x)), "training_identity": val(L.AlphaDropout(0.0)(x, training=True)),
            "all_finite": bool(kept.all()), "each_dropped_or_affine": bool((dropped | affine).all()),
            "drop_fraction_near_rate": bool(abs(dropped.mean() - 0.2) < 0.02),
            "config": {k: v for k, v in layer.get_config().items() if k in ("rate", "seed", "noise_shape")}}


@program
def p_keras_layers_extra_spectral_normalization(tf):
    L = tf.keras.layers
    x = tf.constant(data((3, 4), seed=1))
    out = {}
    for name, inner, inputs in [("dense", L.Dense(5), x),
                                ("conv", L.Conv2D(3, 2), tf.constant(data((1, 4, 4, 2), seed=2))),
                                ("embedding", L.Embedding(6, 3), tf.constant([[1, 2], [3, 5]]))]:
        layer = L.SpectralNormalization(inner, power_iterations=2)
        layer(inputs)
        fixed_weights(layer, seed=6)
        inference = layer(inputs)
        trained = layer(inputs, training=True)
        out[name] = [val(inference), val(trained), [val(tf.convert_to_tensor(w)) for w in layer.weights],
                     [w.name.split("/")[-1].split(":")[0] for w in layer.weights]]
    out["bad"] = outcome(lambda: L.SpectralNormalization(L.Dense(2), power_iterations=0), "power_iterations")
    out["no_kernel"] = outcome(lambda: L.SpectralNormalization(L.ReLU())(x), "nor 'embeddings'")
    return out


@program
def p_keras_layers_extra_configs_and_saving(tf):
    keras = tf.keras
    L = keras.layers
    out = {}
    made = [L.Attention(use_scale=True, score_mode="concat", dropout=0.1, seed=3),
            L.AdditiveAttention(use_scale=False), L.GroupNormalization(groups=4, axis=-1, epsilon=1e-4, center=False),
            L.RMSNormalization(axis=-1, epsilon=1e-5), L.Dot(axes=(1, 2), normalize=True), L.AlphaDropout(0.3, seed=2),
            L.SpectralNormalization(L.Dense(4), power_iterations=3)]
    keep = ("use_scale", "score_mode", "dropout", "seed", "groups", "axis", "epsilon", "center", "scale", "axes",
            "normalize", "rate", "noise_shape", "power_iterations")
    for layer in made:
        config = layer.get_config()
        out[type(layer).__name__] = {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(config.items())
                                     if k in keep}
        again = type(layer).from_config(config)
        out[type(layer).__name__ + "_back"] = type(again).__name__
    out["SpectralNormalization_inner"] = made[-1].get_config()["layer"]["class_name"]
    query, value = keras.Input((3, 4)), keras.Input((5, 4))
    attended = L.AdditiveAttention()([query, value])
    normed = L.GroupNormalization(groups=2)(attended)
    normed = L.RMSNormalization()(normed)
    pooled = L.Dot(axes=(2, 2))([normed, value])
    flat = L.Flatten()(pooled)
    model = keras.Model([query, value], L.SpectralNormalization(L.Dense(2))(flat))
    fixed_weights(model, seed=8)
    xq, xv = data((2, 3, 4), seed=1), data((2, 5, 4), seed=2)
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    out["saved"] = [val(model([xq, xv])), val(restored([xq, xv])),
                    [type(layer).__name__ for layer in restored.layers]]
    return out
