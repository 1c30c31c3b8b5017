"""keras.optimizers.ScheduleFreeAdamW as TF 2.21's Keras 3.15 computes it: steps by hand with GradientTape
(eagerly and in tf.function), with warmup and weight decay, its slots, config and `get` by name, and fit."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


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


def _two_layers(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, name="encoder"),
                                 tf.keras.layers.Dense(1, name="decoder")])
    model.set_weights([data((2, 3)), data((3,), seed=1), data((3, 1), seed=2), data((1,), seed=3)])
    return model


@program
def p_multi_optimizer_fit(tf):
    opts = tf.keras.optimizers
    adam, sgd = opts.Adam(0.05), opts.SGD(0.1, momentum=0.5)
    mapping = opts.OptimizerMap(default_optimizer=sgd, optimizer_map={"sequential/encoder/.*": adam})
    optimizer = opts.MultiOptimizer(mapping)
    model = _two_layers(tf)
    model.compile(optimizer=optimizer, loss="mse")
    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    history = model.fit(x, x.sum(axis=1, keepdims=True), batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [val(np.array(history.history["loss"], np.float32)), val(model.get_weights()),
            [o.name for o in optimizer.optimizers], int(optimizer.iterations.numpy()),
            [int(o.iterations.numpy()) for o in optimizer.optimizers],
            [val(np.asarray(v)) for v in optimizer.variables]]


@program
def p_multi_optimizer_callable_in_tf_function(tf):
    opts = tf.keras.optimizers
    chosen = {"encoder": opts.Adam(0.05), "decoder": opts.RMSprop(0.01)}
    optimizer = opts.MultiOptimizer(lambda v: chosen["encoder" if "encoder" in v.path else "decoder"])
    model = _two_layers(tf)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    x = data((4, 2), seed=5)
    losses = [float(step(x, x[:, :1])) for _ in range(3)]
    return [losses, val(model.get_weights()), [o.name for o in optimizer.optimizers]]


@program
def p_optimizer_map_lookup_and_errors(tf):
    opts = tf.keras.optimizers
    adam, sgd, rms = opts.Adam(), opts.SGD(), opts.RMSprop()
    mapping = opts.OptimizerMap(default_optimizer=rms)
    mapping["encoder/layer_0/dense"] = adam
    mapping["encoder/.*"] = sgd
    mapping["decoder"] = adam
    names = [mapping[k].name for k in ("decoder", "encoder/layer_0/dense", "encoder/layer_0/attention/query",
                                       "decoder/layer_0/dense")]
    ambiguous = opts.OptimizerMap(default_optimizer=rms, optimizer_map={"a.*": adam, ".*b": sgd})

    def duplicate():
        mapping["decoder"] = sgd

    def scaled():
        mapping["x"] = opts.LossScaleOptimizer(opts.SGD())

    multi = opts.MultiOptimizer(mapping)
    return [names, len(mapping), sorted(mapping),
            outcome(lambda: ambiguous["ab"], "Multiple optimizers assigned to variable ab"),
            outcome(duplicate, "already exists in the OptimizerMap"),
            outcome(scaled, "optimizer cannot be LossScaleOptimizer"),
            outcome(lambda: opts.OptimizerMap("adam"), "default_optimizer must be a Keras Optimizer instance"),
            outcome(lambda: multi.learning_rate, "Learning rate cannot be accessed on a MultiOptimizer"),
            [o.name for o in multi.optimizers]]
