"""MultiHeadAttention and EinsumDense against Keras 3 on TF 2.21: weights made from Keras' seeds (EinsumDense
tells the initializer its fan axes), self- and cross-attention, attention scores, causal and explicit masks,
Keras masks from an Embedding, gradients, a training step, and configs."""

from __future__ import annotations

import numpy as np

from . import data, program, val


@program
def p_keras_einsum_dense(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(11)
    x = tf.constant(data((2, 3, 4)))
    layers = [keras.layers.EinsumDense("abc,cd->abd", output_shape=(None, 5), bias_axes="d"),
              keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de"),
              keras.layers.EinsumDense("...b,bc->...c", output_shape=6, activation="relu"),
              keras.layers.EinsumDense("abc,cd->abd", output_shape=(None, 5), bias_axes="d",
                                       kernel_initializer="he_normal")]
    results = []
    for layer in layers:
        out = layer(x)
        results.append([val(out), [tuple(w.shape) for w in layer.weights], val(layer.get_weights()[0])])
    config = layers[1].get_config()
    return [results, {k: config[k] for k in ("equation", "output_shape", "bias_axes")}]


@program
def p_keras_multi_head_attention(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    x, y = tf.constant(data((2, 4, 5))), tf.constant(data((2, 3, 6), seed=1))
    out, scores = mha(x, y, return_attention_scores=True)
    causal = mha(x, tf.constant(data((2, 4, 6), seed=2)), use_causal_mask=True)
    explicit = mha(x, y, attention_mask=tf.constant(np.array([[[1, 0, 1]] * 4, [[1, 1, 0]] * 4], bool)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(mha(x, y) ** 2)
    grads = tape.gradient(loss, [x, *mha.trainable_weights])
    wide = keras.layers.MultiHeadAttention(num_heads=3, key_dim=2, value_dim=4, output_shape=7, use_bias=False)
    try:
        keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)(x, y, x)
        mismatch = None
    except ValueError as error:
        mismatch = type(error).__name__
    return [val(out), val(scores), val(causal), val(explicit), [w.path for w in mha.weights], val(grads), mismatch,
            val(wide(x, y, tf.constant(data((2, 3, 2), seed=3)))), [w.path for w in wide.weights],
            val(mha.compute_output_shape((2, 4, 5), (2, 3, 6)))]


@program
def p_keras_attention_model_with_masks_trains(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(4)
    tokens = keras.Input((None,), dtype="int32")
    embedded = keras.layers.Embedding(10, 8, mask_zero=True)(tokens)
    attended = keras.layers.MultiHeadAttention(2, 4)(embedded, embedded)
    model = keras.Model(tokens, keras.layers.Dense(1)(keras.layers.GlobalAveragePooling1D()(attended)))
    batch = np.array([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9]], "int32")
    before = model(batch)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(batch, data((3, 1)), epochs=2, batch_size=3, shuffle=False, verbose=0)
    config = model.layers[2].get_config()
    return [[w.path for w in model.weights], val(before), val(history.history), val(model(batch)),
            {k: config[k] for k in ("num_heads", "key_dim", "value_dim", "dropout", "use_bias", "output_shape")}]
