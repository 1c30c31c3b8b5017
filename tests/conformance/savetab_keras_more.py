"""keras.layers.ReversibleEmbedding and keras.distillation (helper savetab): forward lookups with their masks,
reverse projections with tied or separate weights, soft-capped logits, gradients, eagerly and in tf.function."""

from __future__ import annotations

import numpy as np

from . import fixed_weights, outcome, program, val


@program
def p_savetab_reversible_embedding(tf):
    keras = tf.keras
    ids = np.array([[1, 0, 3], [4, 2, 0]])
    out = {}
    for tie in (True, False):
        layer = keras.layers.ReversibleEmbedding(6, 4, tie_weights=tie, mask_zero=True, logit_soft_cap=1.5)
        layer.build()
        fixed_weights(layer, seed=1)
        hidden = layer(ids)
        logits = layer(hidden, reverse=True)
        graph_logits = tf.function(lambda h: layer(h, reverse=True))(hidden)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(layer(ids), reverse=True) ** 2)
        grads = tape.gradient(loss, layer.trainable_weights)
        out[str(tie)] = {"hidden": val(hidden), "mask": val(hidden._keras_mask), "logits": val(logits),
                         "graph": val(graph_logits), "grads": [val(tf.convert_to_tensor(g)) for g in grads],
                         "weights": [w.name for w in layer.weights], "shape": list(layer.compute_output_shape(
                             (2, 3, 4), reverse=True))}
    layer = keras.layers.ReversibleEmbedding(5, 3, reverse_dtype="float64")
    layer.build()
    fixed_weights(layer, seed=2)
    out["float64"] = val(layer(tf.constant([[0.5, -1.0, 2.0]]), reverse=True))
    config = layer.get_config()
    out["config"] = {k: config[k] for k in ("input_dim", "output_dim", "tie_weights", "reverse_dtype",
                                            "logit_soft_cap", "mask_zero")}
    clone = keras.layers.ReversibleEmbedding.from_config(config)
    out["clone"] = [clone.tie_weights, clone.reverse_dtype, clone.input_dim]
    model_in = keras.Input((3,), dtype="int32")
    embed = keras.layers.ReversibleEmbedding(7, 2)
    model = keras.Model(model_in, embed(embed(model_in), reverse=True))
    fixed_weights(model, seed=3)
    out["model"] = val(model(np.array([[1, 2, 6]])))
    out["bad_reverse"] = outcome(lambda: layer(tf.ones([1, 4]), reverse=True), "")
    return out
