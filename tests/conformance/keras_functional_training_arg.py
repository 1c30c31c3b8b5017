"""Keras 3 passes a Functional model's own `training` to the layers of its graph over the value the graph was
built with: `base_model(x, training=False)` in a Functional model runs its BatchNormalization in training mode
when the outer model is called with training=True (as fit calls it), and with the built value when called
without one; frozen layers stay in inference mode."""

from __future__ import annotations

from . import program


@program
def p_outer_training_overrides_the_built_training_argument(tf):
    import numpy as np

    x = np.arange(12, dtype="float32").reshape(4, 3)
    inner = tf.keras.Input((3,))
    bn1, bn2 = tf.keras.layers.BatchNormalization(), tf.keras.layers.BatchNormalization()
    base = tf.keras.Model(inner, bn2(bn1(inner)))
    outer = tf.keras.Input((3,))
    model = tf.keras.Model(outer, base(outer, training=False))
    out = [model(x, training=True).numpy()]
    base.trainable = False
    out.append(model(x, training=True).numpy())
    base.trainable = True
    bn1.trainable = False
    out.append(model(x, training=True).numpy())

    @tf.function
    def step(v):
        return model(v, training=True)

    out += [step(x).numpy(), model(x).numpy(), model(x, training=False).numpy(),
            bn1.moving_mean.numpy(), bn2.moving_mean.numpy()]
    return [a.tolist() for a in out]
