"""keras.optimizers.schedules: PolynomialDecay (with cycle), InverseTimeDecay (staircase), CosineDecay (alpha,
warmup), CosineDecayRestarts (t_mul 1 and 2, m_mul), as TF 2.21 computes them at a range of steps, their configs,
errors, and a schedule driving Adam inside fit."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val

STEPS = [0, 1, 5, 10, 37, 100, 250, 1000]


def _rates(schedule):
    return [round(float(schedule(step)), 9) for step in STEPS]


@program
def p_schedule_values(tf):
    s = tf.keras.optimizers.schedules
    schedules = [s.PolynomialDecay(0.1, 100, end_learning_rate=0.01, power=0.5),
                 s.PolynomialDecay(0.1, 30, cycle=True),
                 s.InverseTimeDecay(0.001, decay_steps=60, decay_rate=1),
                 s.InverseTimeDecay(0.5, decay_steps=10, decay_rate=0.5, staircase=True),
                 s.CosineDecay(0.1, 200),
                 s.CosineDecay(0.1, 200, alpha=0.1),
                 s.CosineDecay(0.0, 200, warmup_target=0.2, warmup_steps=50),
                 s.CosineDecayRestarts(0.1, 20),
                 s.CosineDecayRestarts(0.1, 20, t_mul=1.0, m_mul=0.5, alpha=0.05)]
    return [_rates(schedule) for schedule in schedules] + [schedule.get_config() for schedule in schedules]


@program
def p_schedule_in_a_function_and_errors(tf):
    schedule = tf.keras.optimizers.schedules.CosineDecayRestarts(0.1, 7, m_mul=0.8)
    traced = tf.function(lambda step: schedule(step))
    return [[round(float(traced(tf.constant(step))), 9) for step in STEPS],
            outcome(lambda: tf.keras.optimizers.schedules.InverseTimeDecay(0.1, 0, 1.0), "decay_steps"),
            outcome(lambda: tf.keras.optimizers.schedules.CosineDecayRestarts(0.1, -1), "first_decay_steps")]


@program
def p_schedule_drives_fit(tf):
    tf.keras.utils.set_random_seed(2)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    schedule = tf.keras.optimizers.schedules.PolynomialDecay(0.1, 6, end_learning_rate=0.001)
    model.compile(optimizer=tf.keras.optimizers.Adam(schedule), loss="mse")
    x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    history = model.fit(x, x.sum(axis=1, keepdims=True), batch_size=4, epochs=4, shuffle=False, verbose=0)
    return [val(np.array(history.history["loss"], np.float32)), val(model.get_weights()),
            round(float(model.optimizer.learning_rate), 9)]
