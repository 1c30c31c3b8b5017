"""TF's "Neural machine translation with a Transformer and Keras" tutorial, small: positional embedding with
mask_zero, MultiHeadAttention blocks (global, causal, cross) with Add + LayerNormalization, layers called with
their input by keyword (`layer(x=x)`), the logits' mask deleted (`del logits._keras_mask`), a custom
LearningRateSchedule without get_config, masked loss and accuracy, fit. Dropout is off so the numbers compare
the computation; tf.nn.experimental.stateless_dropout's masks are compared on their own."""

from __future__ import annotations

import numpy as np

from . import program, val


def _positional_encoding(tf, length, depth):
    depth = depth / 2
    positions = np.arange(length)[:, np.newaxis]
    depths = np.arange(depth)[np.newaxis, :] / depth
    angle_rads = positions * (1 / (10000 ** depths))
    return tf.cast(np.concatenate([np.sin(angle_rads), np.cos(angle_rads)], axis=-1), dtype=tf.float32)


def _build(tf):
    keras = tf.keras

    class PositionalEmbedding(keras.layers.Layer):
        def __init__(self, vocab_size, d_model):
            super().__init__()
            self.d_model = d_model
            self.embedding = keras.layers.Embedding(vocab_size, d_model, mask_zero=True)
            self.pos_encoding = _positional_encoding(tf, 64, d_model)

        def compute_mask(self, *args, **kwargs):
            return self.embedding.compute_mask(*args, **kwargs)

        def call(self, x):
            length = tf.shape(x)[1]
            x = self.embedding(x) * tf.math.sqrt(tf.cast(self.d_model, tf.float32))
            return x + self.pos_encoding[tf.newaxis, :length, :]

    class BaseAttention(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.mha = keras.layers.MultiHeadAttention(**kwargs)
            self.layernorm = keras.layers.LayerNormalization()
            self.add = keras.layers.Add()

    class CrossAttention(BaseAttention):
        def call(self, x, context):
            out, scores = self.mha(query=x, key=context, value=context, return_attention_scores=True)
            self.last_attn_scores = scores
            return self.layernorm(self.add([x, out]))

    class CausalSelfAttention(BaseAttention):
        def call(self, x):
            return self.layernorm(self.add([x, self.mha(query=x, value=x, key=x, use_causal_mask=True)]))

    class GlobalSelfAttention(BaseAttention):
        def call(self, x):
            return self.layernorm(self.add([x, self.mha(query=x, value=x, key=x)]))

    class FeedForward(keras.layers.Layer):
        def __init__(self, d_model, dff):
            super().__init__()
            self.seq = keras.Sequential([keras.layers.Dense(dff, activation="relu"), keras.layers.Dense(d_model)])
            self.add = keras.layers.Add()
            self.layer_norm = keras.layers.LayerNormalization()

        def call(self, x):
            return self.layer_norm(self.add([x, self.seq(x)]))

    class Transformer(keras.Model):
        def __init__(self, d_model=8, heads=2, dff=16, in_vocab=20, out_vocab=15):
            super().__init__()
            self.enc_embedding = PositionalEmbedding(in_vocab, d_model)
            self.enc_attention = GlobalSelfAttention(num_heads=heads, key_dim=d_model)
            self.enc_ffn = FeedForward(d_model, dff)
            self.dec_embedding = PositionalEmbedding(out_vocab, d_model)
            self.causal = CausalSelfAttention(num_heads=heads, key_dim=d_model)
            self.cross = CrossAttention(num_heads=heads, key_dim=d_model)
            self.dec_ffn = FeedForward(d_model, dff)
            self.final_layer = keras.layers.Dense(out_vocab)

        def call(self, inputs):
            context, x = inputs
            context = self.enc_ffn(self.enc_attention(self.enc_embedding(context)))
            x = self.causal(x=self.dec_embedding(x))
            x = self.cross(x=x, context=context)
            logits = self.final_layer(self.dec_ffn(x))
            try:
                del logits._keras_mask
            except AttributeError:
                pass
            return logits

    class CustomSchedule(keras.optimizers.schedules.LearningRateSchedule):
        def __init__(self, d_model, warmup_steps=40):
            super().__init__()
            self.d_model = tf.cast(d_model, tf.float32)
            self.warmup_steps = warmup_steps

        def __call__(self, step):
            step = tf.cast(step, dtype=tf.float32)
            return tf.math.rsqrt(self.d_model) * tf.math.minimum(tf.math.rsqrt(step),
                                                                 step * (self.warmup_steps ** -1.5))

    return Transformer(), CustomSchedule(8)


def _masked_loss(tf, label, pred):
    mask = tf.cast(label != 0, tf.float32)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")(label, pred) * mask
    return tf.reduce_sum(loss) / tf.reduce_sum(mask)


def _masked_accuracy(tf, label, pred):
    pred = tf.argmax(pred, axis=2)
    label = tf.cast(label, pred.dtype)
    mask = label != 0
    match = tf.cast((label == pred) & mask, tf.float32)
    return tf.reduce_sum(match) / tf.reduce_sum(tf.cast(mask, tf.float32))


def _data():
    rs = np.random.RandomState(0)
    ctx = rs.randint(1, 20, size=(8, 6))
    ctx[:, 4:] = 0
    tgt = rs.randint(1, 15, size=(8, 5))
    tgt[::2, 3:] = 0
    lab = np.roll(tgt, -1, axis=1)
    lab[:, -1] = 0
    return ctx, tgt, lab


@program
def p_transformer_tutorial_fit(tf):
    model, schedule = _build(tf)
    ctx, tgt, lab = _data()
    first = model((ctx[:2], tgt[:2]))
    model.set_weights([(np.sin(np.arange(w.size) * 0.37 + i) * 0.3).reshape(w.shape).astype("float32")
                       for i, w in enumerate(model.get_weights())])
    model.compile(loss=lambda y, p: _masked_loss(tf, y, p),
                  optimizer=tf.keras.optimizers.Adam(schedule, beta_1=0.9, beta_2=0.98, epsilon=1e-9),
                  metrics=[lambda y, p: _masked_accuracy(tf, y, p)])
    ds = tf.data.Dataset.from_tensor_slices(((ctx, tgt), lab)).batch(4)
    history = model.fit(ds, epochs=3, verbose=0)
    # (the scores kept from fit's trace have batch None in TF, 4 in tinytf, which traces fit with the batch's
    # static shape: a known difference, so only the other dimensions are compared)
    return [val(tf.shape(first)), val(model.cross.last_attn_scores.shape.as_list()[1:]),
            val(np.array(history.history["loss"], np.float32)), val(model((ctx[:2], tgt[:2]))),
            [round(float(schedule(s)), 10) for s in (1, 40, 80)]]


@program
def p_stateless_dropout_masks(tf):
    x = tf.reshape(tf.range(1.0, 25.0), (2, 3, 4))
    return [val(tf.nn.experimental.stateless_dropout(x, 0.3, seed=[1, 2])),
            val(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[7, 0], noise_shape=[2, 1, 4])),
            val(tf.nn.experimental.stateless_dropout(-x, 0.9, seed=[3, 4])),
            val(tf.nn.experimental.stateless_dropout(tf.cast(x, tf.float64), 0.25, seed=[5, 6]))]
