"""keras.optimizers.ScheduleFreeAdamW as TF 2.21's Keras 3.15 computes it: steps by hand with GradientTape
(eagerly and in tf.function), with warmup and weight decay, its slots, config and `get` by name, and fit."""

from __future__ import annotations

import numpy as np

from . import data, program, val


def _steps(tf, optimizer, traced, steps=4):
    variable = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
    bias = tf.Variable([0.1, -0.2])

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(x, variable) + bias - 1.0))
        grads = tape.gradient(loss, [variable, bias])
        optimizer.apply_gradients(zip(grads, [variable, bias]))
        return loss

    run = tf.function(step) if traced else step
    losses = [float(run(tf.constant(data((3, 2), seed=i)))) for i in range(steps)]
    return [losses, val(variable), val(bias), [val(np.asarray(v)) for v in optimizer.variables]]


@program
def p_schedule_free_adamw_steps(tf):
    opt = tf.keras.optimizers.ScheduleFreeAdamW
    return [_steps(tf, opt(0.05), False), _steps(tf, opt(0.05), True),
            _steps(tf, opt(0.1, warmup_steps=3, weight_decay=0.01, beta_1=0.8), True)]


@program
def p_schedule_free_adamw_fit_and_config(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.array([0.1], np.float32)])
    model.compile(optimizer="schedulefreeadamw", loss="mse")
    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    history = model.fit(x, x.sum(axis=1, keepdims=True), batch_size=4, epochs=3, shuffle=False, verbose=0)
    config = tf.keras.optimizers.ScheduleFreeAdamW(warmup_steps=5).get_config()
    return [val(np.array(history.history["loss"], np.float32)), val(model.get_weights()),
            type(model.optimizer).__name__,
            {k: config[k] for k in ("learning_rate", "beta_1", "beta_2", "epsilon", "warmup_steps")}]
