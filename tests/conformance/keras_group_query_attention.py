"""keras.layers.GroupQueryAttention against Keras 3 on TF 2.21 with fixed weights: shared key/value heads,
cross-attention with a key, Keras masks, causal and sliding-window masks, the gate, scores, gradients in
tf.function, weight order and config."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program, val


@program
def p_keras_group_query_attention(tf):
    L = tf.keras.layers
    q, v, k = (tf.constant(data(s, seed=i)) for i, s in enumerate([(2, 4, 6), (2, 5, 6), (2, 5, 3)]))
    v_mask = tf.constant([[True, True, True, False, False], [True, True, True, True, True]])
    out = {}
    cases = {
        "self": (dict(head_dim=3, num_query_heads=4, num_key_value_heads=2), (q, q), {}),
        "cross_key": (dict(head_dim=2, num_query_heads=2, num_key_value_heads=1), (q, v, k),
                      {"return_attention_scores": True}),
        "masked": (dict(head_dim=3, num_query_heads=2, num_key_value_heads=2), (q, v),
                   {"value_mask": v_mask, "return_attention_scores": True}),
        "causal": (dict(head_dim=2, num_query_heads=4, num_key_value_heads=1), (q, q), {"use_causal_mask": True}),
        "window_gate": (dict(head_dim=2, num_query_heads=2, num_key_value_heads=1, sliding_window=2, use_gate=True,
                             use_bias=False), (q, q), {"return_attention_scores": True}),
    }
    for name, (kwargs, inputs, call_kwargs) in cases.items():
        layer = L.GroupQueryAttention(**kwargs)
        layer(*inputs)
        fixed_weights(layer, seed=2)

        @tf.function
        def run(*xs, layer=layer, call_kwargs=call_kwargs):
            with tf.GradientTape() as tape:
                tape.watch(xs[0])
                result = layer(*xs, **call_kwargs)
                main = result[0] if isinstance(result, tuple) else result
                loss = tf.reduce_sum(main * main)
            return result, tape.gradient(loss, [xs[0]] + layer.trainable_weights)

        result, grads = run(*inputs)
        out[name] = [val(result), [val(g) for g in grads],
                     [[w.name.split(":")[0], list(w.shape)] for w in layer.weights]]
    config = L.GroupQueryAttention(head_dim=4, num_query_heads=6, num_key_value_heads=3, sliding_window=3,
                                   dropout=0.1).get_config()
    out["config"] = {k: config[k] for k in ("head_dim", "num_query_heads", "num_key_value_heads", "use_bias",
                                            "use_gate", "sliding_window", "dropout")}
    out["bad_heads"] = outcome(lambda: L.GroupQueryAttention(2, 3, 2), "must be divisible")
    out["bad_window"] = outcome(lambda: L.GroupQueryAttention(2, 2, 1, sliding_window=0), "sliding_window")
    embed = L.Embedding(10, 6, mask_zero=True)
    tokens = np.array([[1, 2, 0, 0], [3, 4, 5, 0]])
    x = embed(tokens)
    gqa = L.GroupQueryAttention(head_dim=2, num_query_heads=2, num_key_value_heads=1)
    gqa(x, x)
    fixed_weights(gqa, seed=5)
    fixed_weights(embed, seed=6)
    x = embed(tokens)
    out["keras_mask"] = val(gqa(x, x))
    return out
