"""keras.optimizers.Muon as TF 2.21's Keras 3.15 runs it: Newton-Schulz-orthogonalised momentum for 2-D kernels
(tall and wide), AdamW for biases and embeddings, decoupled weight decay of both kinds, non-Nesterov and
unscaled variants, eagerly and in tf.function, its config and `get("muon")`."""

from __future__ import annotations

from . import data, fixed_weights, program, val


def _model(tf):
    inputs = tf.keras.Input((3,), dtype="int32")
    x = tf.keras.layers.Embedding(10, 4)(inputs)
    x = tf.keras.layers.Flatten()(x)
    x = tf.keras.layers.Dense(5, activation="tanh")(x)
    outputs = tf.keras.layers.Dense(2)(x)
    return fixed_weights(tf.keras.Model(inputs, outputs))


def _train(tf, optimizer, traced, steps=3):
    model = _model(tf)
    x = tf.constant([[1, 2, 3], [4, 5, 9], [0, 7, 8]])
    y = tf.constant(data((3, 2), seed=5))

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    run = tf.function(step) if traced else step
    losses = [float(run()) for _ in range(steps)]
    return [losses, [val(tf.convert_to_tensor(w)) for w in model.get_weights()]]


@program
def p_muon_default_eager(tf):
    return _train(tf, tf.keras.optimizers.Muon(learning_rate=0.05), traced=False)


@program
def p_muon_default_traced(tf):
    return _train(tf, tf.keras.optimizers.Muon(learning_rate=0.05), traced=True)


@program
def p_muon_variants(tf):
    plain = tf.keras.optimizers.Muon(learning_rate=0.02, nesterov=False, rms_rate=None, weight_decay=0.1,
                                     adam_weight_decay=None, exclude_embeddings=False, ns_steps=3)
    excluded = tf.keras.optimizers.Muon(learning_rate=0.02, exclude_layers=["dense_1"], adam_lr_ratio=0.5)
    return [_train(tf, plain, traced=False, steps=2), _train(tf, excluded, traced=True, steps=2)]


@program
def p_muon_config_and_get(tf):
    opt = tf.keras.optimizers.Muon(learning_rate=0.01, momentum=0.9, exclude_layers=["head"])
    config = opt.get_config()
    keys = ["adam_beta_1", "adam_beta_2", "adam_lr_ratio", "adam_weight_decay", "epsilon", "exclude_embeddings",
            "exclude_layers", "momentum", "muon_a", "muon_b", "muon_c", "nesterov", "ns_steps", "rms_rate",
            "weight_decay"]
    again = tf.keras.optimizers.Muon.from_config(config)
    return [{k: config[k] for k in keys}, type(tf.keras.optimizers.get("muon")).__name__, again.momentum,
            again.exclude_layers]
