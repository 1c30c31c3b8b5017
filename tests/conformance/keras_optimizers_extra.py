"""keras.optimizers Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor and LossScaleOptimizer against Keras 3:
the variables after a few steps (fixed gradients), with weight decay, clipnorm / clipvalue / global_clipnorm,
schedules, eagerly and inside tf.function; serialize / deserialize / get."""

from __future__ import annotations

from . import data, outcome, program, val

_NAMES = ["Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Lamb", "Adafactor"]


def _run_steps(tf, optimizer, steps=3, graph=False, shapes=((3, 4), (4,), (2, 3, 2))):
    variables = [tf.Variable(data(s, seed=i, scale=0.8), name=f"w{i}") for i, s in enumerate(shapes)]
    grads = [[tf.constant(data(s, seed=10 * k + i + 3, scale=1.5)) for i, s in enumerate(shapes)]
             for k in range(steps)]

    def step(gs):
        optimizer.apply_gradients(zip(gs, variables))

    if graph:
        optimizer.build(variables)  # Keras' Adafactor cannot create its slots while tracing
        step = tf.function(step)
    for gs in grads:
        step(gs)
    return {"vars": [val(v) for v in variables], "iterations": int(optimizer.iterations.numpy())}


def _each(tf, make, graph=False):
    return {name: _run_steps(tf, make(getattr(tf.keras.optimizers, name)), graph=graph) for name in _NAMES}


@program
def p_keras_optimizers_extra_defaults(tf):
    return _each(tf, lambda cls: cls(learning_rate=0.05))


@program
def p_keras_optimizers_extra_defaults_in_function(tf):
    return _each(tf, lambda cls: cls(learning_rate=0.05), graph=True)


@program
def p_keras_optimizers_extra_default_learning_rate(tf):
    return _each(tf, lambda cls: cls())


@program
def p_keras_optimizers_extra_weight_decay_clipnorm(tf):
    return _each(tf, lambda cls: cls(learning_rate=0.05, weight_decay=0.1, clipnorm=0.5))


@program
def p_keras_optimizers_extra_clipvalue(tf):
    return _each(tf, lambda cls: cls(learning_rate=0.05, clipvalue=0.3), graph=True)


@program
def p_keras_optimizers_extra_global_clipnorm(tf):
    return _each(tf, lambda cls: cls(learning_rate=0.05, global_clipnorm=1.0))


@program
def p_keras_optimizers_extra_schedule(tf):
    def make(cls):
        return cls(learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5))
    return _each(tf, make)


@program
def p_keras_optimizers_extra_options(tf):
    O = tf.keras.optimizers
    made = {
        "nadam_betas": O.Nadam(0.02, beta_1=0.8, beta_2=0.95, epsilon=1e-3),
        "adamax_betas": O.Adamax(0.02, beta_1=0.5, beta_2=0.9, epsilon=1e-2),
        "adadelta_rho": O.Adadelta(1.0, rho=0.5, epsilon=1e-4),
        "ftrl_regularized": O.Ftrl(0.1, learning_rate_power=-0.3, initial_accumulator_value=0.5,
                                   l1_regularization_strength=0.01, l2_regularization_strength=0.02,
                                   l2_shrinkage_regularization_strength=0.03, beta=0.2),
        "ftrl_l1_large": O.Ftrl(0.5, l1_regularization_strength=1.0),
        "lion_betas": O.Lion(0.01, beta_1=0.5, beta_2=0.7),
        "lamb_eps": O.Lamb(0.01, beta_1=0.7, beta_2=0.9, epsilon=1e-3),
        "adafactor_no_relative": O.Adafactor(0.5, relative_step=False, beta_2_decay=-0.5, epsilon_2=1e-2,
                                             clip_threshold=0.5),
        "adafactor_relative": O.Adafactor(5.0, relative_step=True),
    }
    return {name: _run_steps(tf, opt, steps=4) for name, opt in made.items()}


@program
def p_keras_optimizers_extra_minimize_with_tape(tf):
    """A real loss's gradients (not fixed ones), through minimize and a GradientTape."""
    results = {}
    for name in _NAMES:
        w = tf.Variable(data((3, 2), seed=1))
        b = tf.Variable([0.1, -0.2])
        x = tf.constant(data((5, 3), seed=2))
        opt = getattr(tf.keras.optimizers, name)(learning_rate=0.1)
        for _ in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
            opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        results[name] = [val(w), val(b)]
    return results


@program
def p_keras_optimizers_extra_slots(tf):
    """The optimizer's own variables after one step: their number, shapes and values (Nadam's u_product,
    Adafactor's factored r and c, Ftrl's accumulator and linear)."""
    results = {}
    for name in ["Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Lamb"]:
        opt = getattr(tf.keras.optimizers, name)(learning_rate=0.05)
        w = tf.Variable(data((2, 3), seed=4))
        opt.apply_gradients([(tf.constant(data((2, 3), seed=5)), w)])
        results[name] = sorted([[list(v.shape), round(float(tf.reduce_sum(tf.cast(v, tf.float64))), 5)]
                                for v in opt.variables])
    return results


@program
def p_keras_optimizers_extra_errors(tf):
    O = tf.keras.optimizers
    return {
        "ftrl_power": outcome(lambda: O.Ftrl(learning_rate_power=0.5), "learning_rate_power"),
        "ftrl_accum": outcome(lambda: O.Ftrl(initial_accumulator_value=-1.0), "initial_accumulator_value"),
        "ftrl_l1": outcome(lambda: O.Ftrl(l1_regularization_strength=-1.0), "l1_regularization_strength"),
        "lion_beta": outcome(lambda: O.Lion(beta_1=0.0), "beta_1"),
        "lso_dynamic": outcome(lambda: O.LossScaleOptimizer(O.SGD(), dynamic=False), "dynamic=False"),
        "lso_clip": outcome(lambda: O.LossScaleOptimizer(O.SGD(), clipnorm=1.0), "clipnorm"),
        "get_unknown": outcome(lambda: O.get("nadamx"), "Could not interpret optimizer identifier"),
        "get_lamb": outcome(lambda: O.get("lamb"), "Could not interpret optimizer identifier"),
        "two_clips": outcome(lambda: O.Nadam(clipnorm=1.0, clipvalue=1.0), "Only one of"),
    }


@program
def p_keras_optimizers_extra_serialize(tf):
    O = tf.keras.optimizers
    results = {}
    wanted = ["beta_1", "beta_2", "epsilon", "rho", "learning_rate_power", "initial_accumulator_value",
              "l1_regularization_strength", "beta", "beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold",
              "relative_step", "name", "weight_decay", "clipnorm"]
    for name in [n for n in _NAMES if n != "Lamb"]:  # Keras 3.15 deserializes Lamb to the string 'Lamb'
        opt = getattr(O, name)(learning_rate=0.25, clipnorm=2.0)
        s = O.serialize(opt)
        back = O.deserialize(s)
        results[name] = {"module": s["module"], "class_name": s["class_name"],
                         "config": {k: v for k, v in sorted(s["config"].items()) if k in wanted},
                         "lr": round(s["config"]["learning_rate"], 6), "back": type(back).__name__,
                         "back_lr": round(float(back.learning_rate.numpy()), 6)}
    for name in ["nadam", "Adamax", "ADADELTA", "ftrl", "lion", "adafactor"]:
        results["get_" + name] = type(O.get(name)).__name__
    results["get_dict"] = type(O.get({"class_name": "Lion", "config": {"learning_rate": 0.5}})).__name__
    lso = O.LossScaleOptimizer(O.Nadam(0.5), initial_scale=8.0, dynamic_growth_steps=3)
    s = O.serialize(lso)
    results["lso"] = {"class_name": s["class_name"], "inner": s["config"]["inner_optimizer"]["class_name"],
                      "initial_scale": s["config"]["initial_scale"],
                      "dynamic_growth_steps": s["config"]["dynamic_growth_steps"]}
    back = O.deserialize(s)
    results["lso_back"] = [type(back).__name__, type(back.inner_optimizer).__name__, back.initial_scale,
                           back.dynamic_growth_steps]
    return results


def _lso_trace(tf, graph):
    O = tf.keras.optimizers
    opt = O.LossScaleOptimizer(O.SGD(0.5), initial_scale=8.0, dynamic_growth_steps=2)
    w = tf.Variable([1.0, 2.0])

    def step(g):
        opt.apply([g], [w])
        return tf.identity(opt.dynamic_scale)

    if graph:
        step = tf.function(step)
    trace = []
    for g in [[8.0, 16.0], [4.0, 4.0], [float("inf"), 1.0], [2.0, 2.0], [float("nan"), 0.0], [1.0, 1.0],
              [1.0, 1.0], [1.0, 1.0]]:
        scale = step(tf.constant(g))
        trace.append([val(w), val(scale), int(opt.step_counter.numpy()), int(opt.iterations.numpy())])
    return {"trace": trace, "scaled_loss": val(opt.scale_loss(tf.constant(1.5))),
            "lr": round(float(opt.learning_rate.numpy()), 6)}


@program
def p_keras_loss_scale_optimizer_dynamic(tf):
    return _lso_trace(tf, graph=False)


@program
def p_keras_loss_scale_optimizer_dynamic_in_function(tf):
    return _lso_trace(tf, graph=True)


@program
def p_keras_loss_scale_optimizer_fit(tf):
    """compile(optimizer=LossScaleOptimizer(...)): fit scales the loss, the optimizer unscales the gradients."""
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adamax(0.1), initial_scale=4.0,
                                              dynamic_growth_steps=2)
    model.compile(optimizer=opt, loss="mse")
    x, y = data((8, 3), seed=1), data((8, 2), seed=2)
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"weights": [val(tf.convert_to_tensor(w)) for w in model.weights],
            "scale": val(tf.convert_to_tensor(opt.dynamic_scale)),
            "loss": [round(v, 5) for v in history.history["loss"]]}


@program
def p_keras_optimizers_extra_variable_layout(tf):
    """The optimizer's variables after build, in order (shape and dtype): what a saved file's optimizer/vars
    lists, so files move between Keras and tinytf (Nadam's u_product last, Adafactor's int32 placeholders)."""
    out = {}
    for name in _NAMES + ["LossScaleOptimizer"]:
        w, b = tf.Variable(tf.ones((3, 2))), tf.Variable(tf.ones((2,)))
        O = tf.keras.optimizers
        opt = O.LossScaleOptimizer(O.Nadam()) if name == "LossScaleOptimizer" else getattr(O, name)()
        opt.build([w, b])
        out[name] = [[list(v.shape), tf.convert_to_tensor(v).dtype.name] for v in opt.variables]
    return out
