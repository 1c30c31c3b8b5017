"""Which tf.distribute strategy Keras models and optimizers belong to, as TF 2.21 (Keras 3) enforces it on one
CPU replica (MirroredStrategy()). An optimizer remembers the strategy current at its construction and makes its
slot variables under that strategy's colocate_vars_with, which refuses any other current strategy: "Mixing
different tf.distribute.Strategy objects" when another strategy's scope is current, 'Need to be inside "with
strategy.scope()"' when none is. A model remembers the strategy current at its construction (not at compile)
and fit / evaluate / predict run under it. Optimizers without slots (plain SGD) never meet the check.
The programs cover the patterns that raise and the ones TF's tutorials rely on, which must keep working."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val

X = data((8, 3), seed=11)
Y = data((8, 1), seed=12)


def _dense(tf):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.set_weights([data((3, 1), seed=13, scale=0.5), np.zeros((1,), np.float32)])
    return model


def _fit(model):
    history = model.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [round(float(v), 5) for v in history.history["loss"]] + [val(w) for w in model.get_weights()]


@program
def p_distribute_scope_fit_optimizer_made_outside(tf):
    """Adam made outside the scope, model and compile inside: fit raises when Adam makes its slots."""
    strategy = tf.distribute.MirroredStrategy()

    def run():
        optimizer = tf.keras.optimizers.Adam(0.1)
        with strategy.scope():
            model = _dense(tf)
            model.compile(optimizer=optimizer, loss="mse")
        return _fit(model)

    return outcome(run, "Mixing different tf.distribute.Strategy objects")


@program
def p_distribute_scope_fit_model_made_outside_compiled_inside(tf):
    """Compile under the scope does not bind the model: fit runs under the default strategy, where the
    optimizer made at compile (under the scope) cannot make its slots."""
    strategy = tf.distribute.MirroredStrategy()

    def run():
        model = _dense(tf)
        with strategy.scope():
            model.compile(optimizer="adam", loss="mse")
        return _fit(model)

    return outcome(run, 'Need to be inside "with strategy.scope()"')


@program
def p_distribute_scope_fit_everything_outside_called_inside(tf):
    """Model and optimizer of the default strategy, fit called under a scope: the optimizer is another
    strategy's."""
    strategy = tf.distribute.MirroredStrategy()

    def run():
        model = _dense(tf)
        model.compile(optimizer=tf.keras.optimizers.RMSprop(0.01), loss="mse")
        with strategy.scope():
            return _fit(model)

    return outcome(run, "Mixing different tf.distribute.Strategy objects")


@program
def p_distribute_scope_fit_outside_after_compile_inside(tf):
    """The tutorials' pattern: model and compile under the scope, fit / evaluate / predict outside it. The model
    is the strategy's (model.distribute_strategy), so fit runs under it."""
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = _dense(tf)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse", metrics=["mae"])
    fitted = _fit(model)
    return [fitted, model.distribute_strategy is strategy,
            [round(float(v), 5) for v in model.evaluate(X, Y, batch_size=4, verbose=0)],
            val(model.predict(X[:3], verbose=0)), len(model.optimizer.variables)]


@program
def p_distribute_scope_model_outside_compile_and_fit_inside(tf):
    """A model made outside any scope, compiled and fitted under one: fit runs under the current strategy, whose
    colocate_vars_with refuses to make slots next to weights it did not make (a ValueError); the model still
    reports the current strategy as its own there, and the default one outside."""
    strategy = tf.distribute.MirroredStrategy()
    model = _dense(tf)
    with strategy.scope():
        model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse")
        refused = outcome(lambda: _fit(model),
                          "must only be passed a variable created in this tf.distribute.Strategy.scope()")
        inside = model.distribute_strategy is strategy
    return [refused, inside, model.distribute_strategy is strategy]


@program
def p_distribute_scope_sgd_without_slots_made_outside(tf):
    """Plain SGD keeps no slots, so the check never runs: an SGD made outside trains a model made inside."""
    strategy = tf.distribute.MirroredStrategy()
    optimizer = tf.keras.optimizers.SGD(0.1)
    with strategy.scope():
        model = _dense(tf)
        model.compile(optimizer=optimizer, loss="mse")
    return _fit(model)


@program
def p_distribute_scope_sgd_momentum_made_outside(tf):
    """SGD with momentum has a slot: made outside, it is refused as Adam is."""
    strategy = tf.distribute.MirroredStrategy()

    def run():
        optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)
        with strategy.scope():
            model = _dense(tf)
            model.compile(optimizer=optimizer, loss="mse")
        return _fit(model)

    return outcome(run, "Mixing different tf.distribute.Strategy objects")


@program
def p_distribute_scope_apply_gradients_optimizer_made_inside(tf):
    """apply_gradients / build outside the scope of the optimizer's strategy, on a variable of the default one."""
    strategy = tf.distribute.MirroredStrategy()
    variable = tf.Variable(1.0)
    with strategy.scope():
        adam = tf.keras.optimizers.Adam(0.1)
        built = tf.keras.optimizers.Adam(0.1)
    return [outcome(lambda: adam.apply_gradients([(tf.constant(1.0), variable)]),
                    'Need to be inside "with strategy.scope()"'),
            outcome(lambda: built.build([variable]), 'Need to be inside "with strategy.scope()"'),
            val(variable)]


@program
def p_distribute_scope_apply_gradients_in_run(tf):
    """In strategy.run: plain SGD made outside updates a variable of the strategy (no slots); Adam made
    outside is refused (the replica context's strategy is not its own); Adam made inside works."""
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        variable = tf.Variable(1.0)
        inside = tf.keras.optimizers.Adam(0.1)
    sgd = tf.keras.optimizers.SGD(0.1)
    strategy.run(lambda: sgd.apply_gradients([(tf.constant(1.0), variable)]))
    after_sgd = val(variable)
    outside = tf.keras.optimizers.Adam(0.1)
    refused = outcome(lambda: strategy.run(lambda: outside.apply_gradients([(tf.constant(1.0), variable)])),
                      "Mixing different tf.distribute.Strategy objects")
    strategy.run(lambda: inside.apply_gradients([(tf.constant(1.0), variable)]))
    return [after_sgd, refused, val(variable), int(inside.iterations.numpy())]


@program
def p_distribute_scope_custom_loop_traced_step(tf):
    """The custom-training-loop tutorial's shape: Adam made inside, slots made on the first traced step (where
    tinytf's merge of the update runs when the graph runs), the step called outside the scope."""
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = _dense(tf)
        optimizer = tf.keras.optimizers.Adam(0.1)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    @tf.function
    def distributed_step(x, y):
        return strategy.reduce("SUM", strategy.run(step, args=(x, y)), axis=None)

    losses = [round(float(distributed_step(X[i:i + 4], Y[i:i + 4])), 5) for i in (0, 4, 0)]
    return [losses, [val(w) for w in model.get_weights()], len(optimizer.variables)]


@program
def p_distribute_scope_strategy_seen_by_train_step(tf):
    """A custom train_step sees the model's strategy (fit runs under it) even when fit is called outside."""
    strategy = tf.distribute.MirroredStrategy()
    seen = []

    class Probe(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, batch):
            seen.append(tf.distribute.get_strategy() is strategy)
            return super().train_step(batch)

    with strategy.scope():
        model = Probe()
        model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse")
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0)
    return [bool(seen) and all(seen), model.distribute_strategy is strategy]


@program
def p_distribute_scope_metric_made_outside_updated_inside(tf):
    """Metrics keep no strategy: one made outside updates under a scope."""
    strategy = tf.distribute.MirroredStrategy()
    metric = tf.keras.metrics.Mean()
    with strategy.scope():
        metric.update_state(1.0)
        metric.update_state(3.0)
    return val(metric.result())
