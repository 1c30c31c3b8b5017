"""tf.keras.optimizers: every update rule against a plain numpy transcription of Keras 3's formulas over many
steps, run eagerly, as @tf.function (graph passes on and off); schedules, clipping, slots, bad input."""

import warnings

import numpy as np
import pytest

import tinytf as tf

opts = tf.keras.optimizers
STEPS = 25
SHAPES = [(3, 2), (4,)]


# --- numpy references (Keras 3 update formulas, one step; `state` holds the slots and is updated) -------------
def ref_sgd(w, g, state, t, lr, momentum=0.0, nesterov=False):
    if momentum == 0:
        return w - g * lr
    m = state.setdefault("m", np.zeros_like(w))
    m[...] = m * momentum - g * lr
    return w + (m * momentum - g * lr) if nesterov else w + m


def ref_adam(w, g, state, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, weight_decay=None):
    if weight_decay is not None:
        w = w - w * weight_decay * lr
    m = state.setdefault("m", np.zeros_like(w))
    v = state.setdefault("v", np.zeros_like(w))
    alpha = lr * np.sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)
    m += (g - m) * (1 - beta_1)
    v += (g * g - v) * (1 - beta_2)
    if amsgrad:
        v_hat = state.setdefault("v_hat", np.zeros_like(w))
        v_hat[...] = np.maximum(v_hat, v)
        v = v_hat
    return w - m * alpha / (np.sqrt(v) + epsilon)


def ref_rmsprop(w, g, state, t, lr, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    v = state.setdefault("v", np.zeros_like(w))
    v[...] = rho * v + (1 - rho) * g * g
    if centered:
        a = state.setdefault("a", np.zeros_like(w))
        a[...] = rho * a + (1 - rho) * g
        denominator = v - a * a + epsilon
    else:
        denominator = v + epsilon
    increment = lr * g / np.sqrt(denominator)
    if momentum > 0:
        m = state.setdefault("m", np.zeros_like(w))
        m[...] = momentum * m + increment
        return w - m
    return w - increment


def ref_adagrad(w, g, state, t, lr, initial_accumulator_value=0.1, epsilon=1e-7):
    acc = state.setdefault("acc", np.full_like(w, initial_accumulator_value))
    acc += g * g
    return w - lr * g / np.sqrt(acc + epsilon)


CASES = [
    ("sgd", opts.SGD, {"learning_rate": 0.1}, ref_sgd, {}),
    ("sgd_momentum", opts.SGD, {"learning_rate": 0.05, "momentum": 0.9}, ref_sgd, {"momentum": 0.9}),
    ("sgd_nesterov", opts.SGD, {"learning_rate": 0.05, "momentum": 0.8, "nesterov": True}, ref_sgd,
     {"momentum": 0.8, "nesterov": True}),
    ("adam", opts.Adam, {"learning_rate": 0.01}, ref_adam, {}),
    ("adam_params", opts.Adam, {"learning_rate": 0.02, "beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-3}, ref_adam,
     {"beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-3}),
    ("adam_amsgrad", opts.Adam, {"learning_rate": 0.01, "amsgrad": True}, ref_adam, {"amsgrad": True}),
    ("adam_weight_decay", opts.Adam, {"learning_rate": 0.01, "weight_decay": 0.05}, ref_adam,
     {"weight_decay": 0.05}),
    ("adamw", opts.AdamW, {"learning_rate": 0.01}, ref_adam, {"weight_decay": 0.004}),
    ("adamw_strong", opts.AdamW, {"learning_rate": 0.05, "weight_decay": 0.5, "amsgrad": True}, ref_adam,
     {"weight_decay": 0.5, "amsgrad": True}),
    ("rmsprop", opts.RMSprop, {"learning_rate": 0.01}, ref_rmsprop, {}),
    ("rmsprop_momentum", opts.RMSprop, {"learning_rate": 0.01, "momentum": 0.5, "rho": 0.8}, ref_rmsprop,
     {"momentum": 0.5, "rho": 0.8}),
    ("rmsprop_centered", opts.RMSprop, {"learning_rate": 0.01, "centered": True}, ref_rmsprop, {"centered": True}),
    ("rmsprop_centered_momentum", opts.RMSprop, {"learning_rate": 0.01, "centered": True, "momentum": 0.9},
     ref_rmsprop, {"centered": True, "momentum": 0.9}),
    ("adagrad", opts.Adagrad, {"learning_rate": 0.1}, ref_adagrad, {}),
    ("adagrad_accumulator", opts.Adagrad, {"learning_rate": 0.1, "initial_accumulator_value": 0.5,
                                           "epsilon": 1e-4}, ref_adagrad,
     {"initial_accumulator_value": 0.5, "epsilon": 1e-4}),
]


def _data(dtype=np.float32, seed=0):
    rng = np.random.RandomState(seed)
    initial = [rng.randn(*s).astype(dtype) for s in SHAPES]
    grads = [[rng.randn(*s).astype(dtype) for s in SHAPES] for _ in range(STEPS)]
    return initial, grads


def _reference(ref, initial, grads, lr, **kwargs):
    """The numpy trajectory (float64) of every variable."""
    weights = [w.astype(np.float64) for w in initial]
    states = [{} for _ in weights]
    for t, step_grads in enumerate(grads, start=1):
        weights = [ref(w, g.astype(np.float64), s, t, lr, **kwargs) for w, g, s in zip(weights, step_grads, states)]
    return weights


def _run(make_optimizer, initial, grads, way):
    """Apply the gradient sequence with tinytf, `way` = eager | graph | graph_unoptimized. Returns the final
    values, the optimizer and the step function."""
    variables = [tf.Variable(w) for w in initial]
    optimizer = make_optimizer()

    def step(*gs):
        return optimizer.apply_gradients(zip(gs, variables))

    saved = tf.config.optimizer.get_experimental_options()
    if way != "eager":
        step = tf.function(step)
    if way == "graph_unoptimized":
        tf.config.optimizer.set_experimental_options({"disable_all": True})
    try:
        for step_grads in grads:
            step(*[tf.constant(g) for g in step_grads])
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    return [v.numpy() for v in variables], optimizer, step


@pytest.mark.parametrize("way", ["eager", "graph", "graph_unoptimized"])
@pytest.mark.parametrize("name, cls, kwargs, ref, ref_kwargs", CASES, ids=[c[0] for c in CASES])
def test_update_rule_matches_numpy(name, cls, kwargs, ref, ref_kwargs, way):
    initial, grads = _data()
    got, optimizer, step = _run(lambda: cls(**kwargs), initial, grads, way)
    want = _reference(ref, initial, grads, kwargs["learning_rate"], **ref_kwargs)
    for g, w in zip(got, want):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6, err_msg=name)
    assert optimizer.iterations.numpy() == STEPS and optimizer.iterations.dtype is tf.int64
    if way != "eager":  # as TensorFlow: a first call that creates slot variables is traced twice
        created_slots = len(optimizer.variables) > 2  # beyond iterations and the learning rate
        assert step.experimental_get_tracing_count() == (2 if created_slots else 1)


@pytest.mark.parametrize("name, cls, kwargs, ref, ref_kwargs", CASES, ids=[c[0] for c in CASES])
def test_eager_and_graph_train_steps_agree_exactly(name, cls, kwargs, ref, ref_kwargs):
    initial, grads = _data(seed=1)
    eager, _, _ = _run(lambda: cls(**kwargs), initial, grads, "eager")
    graph, _, _ = _run(lambda: cls(**kwargs), initial, grads, "graph")
    for e, g in zip(eager, graph):
        np.testing.assert_allclose(e, g, rtol=1e-6, atol=1e-7)


def test_float64_variables_follow_the_formula_in_float64():
    initial, grads = _data(np.float64, seed=2)
    got, _, _ = _run(lambda: opts.Adam(0.01, amsgrad=True), initial, grads, "graph")
    lr = float(np.float32(0.01))  # the learning rate lives in a float32 variable (Keras: floatx)
    want = _reference(ref_adam, initial, grads, lr, amsgrad=True)
    for g, w in zip(got, want):
        assert g.dtype == np.float64
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)


def test_gradient_of_another_dtype_is_cast_to_the_variable_dtype():
    v = tf.Variable(np.array([1.0, 2.0]))  # float64
    opts.SGD(0.5).apply_gradients([(tf.constant([1.0, 1.0]), v)])  # float32 gradient
    np.testing.assert_allclose(v.numpy(), [0.5, 1.5])
    assert v.dtype is tf.float64


# --- training with GradientTape -------------------------------------------------------------------------------
def _train(cls, kwargs, compiled, steps=8):
    rng = np.random.RandomState(3)
    x = tf.constant(rng.randn(16, 3).astype(np.float32))
    y = tf.constant(rng.randn(16).astype(np.float32))
    w = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32), name="w")
    b = tf.Variable(np.float32(0.1), name="b")
    optimizer = cls(**kwargs)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, axis=1) + b - y))
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b]))
        return loss

    if compiled:
        train_step = tf.function(train_step)
    losses = [float(train_step(x, y)) for _ in range(steps)]
    return losses, w.numpy(), b.numpy(), optimizer


@pytest.mark.parametrize("cls, kwargs", [(opts.SGD, {"learning_rate": 0.1}),
                                         (opts.SGD, {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}),
                                         (opts.Adam, {"learning_rate": 0.1}),
                                         (opts.AdamW, {"learning_rate": 0.1, "weight_decay": 0.1}),
                                         (opts.RMSprop, {"learning_rate": 0.05, "centered": True}),
                                         (opts.Adagrad, {"learning_rate": 0.3})])
def test_tape_train_step_eager_equals_tf_function(cls, kwargs):
    eager = _train(cls, kwargs, compiled=False)
    graph = _train(cls, kwargs, compiled=True)
    np.testing.assert_allclose(eager[0], graph[0], rtol=1e-6)
    np.testing.assert_allclose(eager[1], graph[1], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(eager[2], graph[2], rtol=1e-6, atol=1e-7)
    assert eager[0][-1] < eager[0][0]  # it trains
    assert graph[3].iterations.numpy() == 8


def test_minimize_with_callable_loss_and_with_tape():
    w = tf.Variable([3.0, -2.0])
    optimizer = opts.SGD(0.25)
    optimizer.minimize(lambda: tf.reduce_sum(w * w), [w])
    np.testing.assert_allclose(w.numpy(), [1.5, -1.0])  # w -= 0.25 * 2w
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    optimizer.minimize(loss, [w], tape=tape)
    np.testing.assert_allclose(w.numpy(), [0.75, -0.5])
    optimizer.minimize(lambda: tf.reduce_sum(w * w), lambda: [w])
    np.testing.assert_allclose(w.numpy(), [0.375, -0.25])
    assert optimizer.iterations.numpy() == 3


def test_minimize_inside_tf_function():
    w = tf.Variable([3.0, -2.0])
    optimizer = opts.Adam(0.1)

    @tf.function
    def step():
        optimizer.minimize(lambda: tf.reduce_sum(w * w), [w])

    for _ in range(3):
        step()
    want, state = np.array([3.0, -2.0]), {}
    for t in range(1, 4):
        want = ref_adam(want, 2 * want, state, t, 0.1)  # d/dw sum(w^2) = 2w at the current w
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-5)


# --- learning rates ---------------------------------------------------------------------------------------------
def test_exponential_decay_values():
    schedule = opts.schedules.ExponentialDecay(0.5, decay_steps=4, decay_rate=0.8)
    stair = opts.schedules.ExponentialDecay(0.5, decay_steps=4, decay_rate=0.8, staircase=True)
    for step in [0, 1, 3, 4, 7, 13]:
        np.testing.assert_allclose(schedule(step).numpy(), 0.5 * 0.8 ** (step / 4), rtol=1e-6)
        np.testing.assert_allclose(stair(step).numpy(), 0.5 * 0.8 ** (step // 4), rtol=1e-6)
    assert schedule(3).dtype is tf.float32


def test_piecewise_constant_decay_values():
    schedule = opts.schedules.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1])
    want = {0: 1.0, 2: 1.0, 3: 0.5, 5: 0.5, 6: 0.1, 100: 0.1}
    for step, value in want.items():
        np.testing.assert_allclose(schedule(tf.constant(step, tf.int64)).numpy(), value, rtol=1e-7)


@pytest.mark.parametrize("compiled", [False, True])
def test_schedule_drives_the_optimizer_by_iterations(compiled):
    schedule = opts.schedules.ExponentialDecay(0.1, decay_steps=3, decay_rate=0.5, staircase=True)
    v = tf.Variable([0.0])
    optimizer = opts.SGD(schedule)

    def step():
        optimizer.apply_gradients([(tf.constant([1.0]), v)])

    if compiled:
        step = tf.function(step)
    for _ in range(7):
        step()
    lrs = [0.1 * 0.5 ** (t // 3) for t in range(7)]  # the rate of step t reads iterations = t (before increment)
    np.testing.assert_allclose(v.numpy(), [-sum(lrs)], rtol=1e-6)
    if compiled:
        assert step.experimental_get_tracing_count() == 1
    np.testing.assert_allclose(optimizer.learning_rate.numpy(), 0.1 * 0.5 ** 2, rtol=1e-6)


def test_piecewise_schedule_inside_tf_function_with_adam():
    boundaries, values = [3, 6], [0.1, 0.05, 0.01]
    initial, grads = _data(seed=4)
    got, _, _ = _run(lambda: opts.Adam(opts.schedules.PiecewiseConstantDecay(boundaries, values)),
                     initial, grads, "graph")
    weights, states = [w.astype(np.float64) for w in initial], [{}, {}]
    for t, step_grads in enumerate(grads, start=1):
        lr = values[np.searchsorted(boundaries, t - 1, side="left")]
        weights = [ref_adam(w, g.astype(np.float64), s, t, lr) for w, g, s in zip(weights, step_grads, states)]
    for g, w in zip(got, weights):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)


def test_callable_learning_rate_is_called_each_step():
    rate = tf.Variable(0.5)
    v = tf.Variable([1.0])
    optimizer = opts.SGD(lambda: rate * 2.0)

    @tf.function
    def step():
        optimizer.apply_gradients([(tf.constant([1.0]), v)])

    step()
    rate.assign(0.25)
    step()
    np.testing.assert_allclose(v.numpy(), [1.0 - 1.0 - 0.5])


def test_learning_rate_is_a_settable_variable():
    v = tf.Variable([1.0])
    optimizer = opts.SGD(0.5)

    @tf.function
    def step():
        optimizer.apply_gradients([(tf.constant([1.0]), v)])

    step()
    optimizer.learning_rate = 0.25
    step()
    np.testing.assert_allclose(v.numpy(), [0.25])
    assert isinstance(optimizer.learning_rate, tf.Variable) and step.experimental_get_tracing_count() == 1
    assert optimizer.get_config()["learning_rate"] == 0.25


# --- clipping ---------------------------------------------------------------------------------------------------
def _clip_case(way, **clip):
    grads = [np.array([[3.0, 4.0], [0.0, 12.0]], np.float32), np.array([0.5, -0.2], np.float32)]
    initial = [np.zeros((2, 2), np.float32), np.zeros(2, np.float32)]
    got, _, _ = _run(lambda: opts.SGD(1.0, **clip), initial, [grads], way)
    return grads, got


@pytest.mark.parametrize("way", ["eager", "graph", "graph_unoptimized"])
def test_clipnorm_rescales_each_gradient(way):
    grads, got = _clip_case(way, clipnorm=1.0)
    for g, w in zip(grads, got):
        norm = np.sqrt((g.astype(np.float64) ** 2).sum())
        np.testing.assert_allclose(w, -g * 1.0 / max(norm, 1.0), rtol=1e-6)


@pytest.mark.parametrize("way", ["eager", "graph", "graph_unoptimized"])
def test_global_clipnorm_scales_all_gradients_together(way):
    grads, got = _clip_case(way, global_clipnorm=2.0)
    total = np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in grads))
    for g, w in zip(grads, got):
        np.testing.assert_allclose(w, -g * 2.0 / total, rtol=1e-6)


@pytest.mark.parametrize("way", ["eager", "graph", "graph_unoptimized"])
def test_clipvalue_clips_elementwise(way):
    grads, got = _clip_case(way, clipvalue=0.3)
    for g, w in zip(grads, got):
        np.testing.assert_allclose(w, -np.clip(g, -0.3, 0.3), rtol=1e-6)


def test_clipping_leaves_small_and_zero_gradients_alone():
    v = tf.Variable([0.0, 0.0])
    opts.SGD(1.0, clipnorm=10.0).apply_gradients([(tf.constant([0.0, 0.0]), v)])
    np.testing.assert_array_equal(v.numpy(), [0.0, 0.0])
    opts.SGD(1.0, global_clipnorm=10.0).apply_gradients([(tf.constant([0.3, 0.4]), v)])
    np.testing.assert_allclose(v.numpy(), [-0.3, -0.4], rtol=1e-6)


def test_global_clipnorm_of_a_non_finite_norm_gives_nan():
    v = tf.Variable([0.0, 0.0])
    with np.errstate(all="ignore"):
        opts.SGD(1.0, global_clipnorm=1.0).apply_gradients([(tf.constant([np.inf, 1.0], tf.float32), v)])
    assert np.isnan(v.numpy()).all()


def test_only_one_clipping_option():
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm`"):
        opts.Adam(clipnorm=1.0, clipvalue=0.5)


# --- state: slots, iterations, variables ------------------------------------------------------------------------
def test_slots_are_created_once_inside_tf_function():
    variables = [tf.Variable(np.ones((2, 2), np.float32)), tf.Variable(np.ones(3, np.float32))]
    optimizer = opts.Adam(0.1, amsgrad=True)

    @tf.function
    def step(scale):
        optimizer.apply_gradients(zip([tf.ones((2, 2)) * scale, tf.ones(3) * scale], variables))

    step(tf.constant(1.0))
    count = len(optimizer.variables)
    assert count == 2 + 3 * len(variables)  # iterations, learning_rate, then m, v, v_hat per variable
    for _ in range(3):
        step(tf.constant(0.5))
    step(0.25)  # a Python float traces again: that trace reuses the slots and creates nothing
    assert step.experimental_get_tracing_count() == 3  # the first call traced twice (it created the slots)
    assert len(optimizer.variables) == count and optimizer.iterations.numpy() == 5
    momentum = optimizer.get_slot(variables[0], "momentum")
    assert momentum.shape == (2, 2) and not momentum.trainable and momentum.dtype is tf.float32


def test_variables_and_iterations():
    optimizer = opts.SGD(0.1, momentum=0.5)
    assert [v.dtype for v in optimizer.variables] == [tf.int64, tf.float32]
    assert optimizer.iterations.numpy() == 0 and not optimizer.iterations.trainable
    v = tf.Variable([1.0, 2.0])
    returned = optimizer.apply_gradients([(tf.constant([1.0, 1.0]), v)])
    assert returned is optimizer.iterations and int(returned.numpy()) == 1
    assert len(optimizer.variables) == 3
    optimizer.build([tf.Variable(1.0)])
    assert len(optimizer.variables) == 4 and optimizer.built


def test_adagrad_accumulator_starts_at_initial_value():
    v = tf.Variable([1.0, 2.0])
    optimizer = opts.Adagrad(initial_accumulator_value=0.7)
    optimizer.build([v])
    np.testing.assert_allclose(optimizer.get_slot(v, "accumulator").numpy(), [0.7, 0.7])


def test_numpy_gradients_and_list_pairs_are_accepted():
    v = tf.Variable([1.0, 2.0])
    opts.SGD(1.0).apply_gradients([[np.array([0.5, 0.5], np.float32), v]])
    np.testing.assert_allclose(v.numpy(), [0.5, 1.5])


def test_weight_decay_exclusions():
    w = tf.Variable([1.0], name="kernel")
    b = tf.Variable([1.0], name="bias")
    optimizer = opts.AdamW(0.1, weight_decay=0.5)
    optimizer.exclude_from_weight_decay(var_names=["bias"])
    zero = tf.constant([0.0])
    optimizer.apply_gradients([(zero, w), (zero, b)])
    np.testing.assert_allclose(w.numpy(), [1.0 - 1.0 * 0.5 * 0.1], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [1.0])


def test_get_config_round_trip():
    schedule = opts.schedules.ExponentialDecay(0.1, 10, 0.9, staircase=True)
    optimizer = opts.Adam(schedule, beta_1=0.8, amsgrad=True, clipnorm=1.5)
    config = optimizer.get_config()
    assert config["beta_1"] == 0.8 and config["amsgrad"] and config["clipnorm"] == 1.5
    assert config["learning_rate"]["class_name"] == "ExponentialDecay"
    clone = opts.Adam.from_config(config)
    assert clone.beta_1 == 0.8 and clone.amsgrad and isinstance(clone._learning_rate, opts.schedules.ExponentialDecay)
    assert clone._learning_rate.staircase
    assert isinstance(opts.get("rmsprop"), opts.RMSprop)
    assert opts.get({"class_name": "SGD", "config": {"learning_rate": 0.3}}).get_config()["learning_rate"] == \
        pytest.approx(0.3)
    tf.keras.backend.clear_session()  # unnamed optimizers are named like Keras 3's: sgd, sgd_1, ...
    assert opts.SGD().name == "sgd" and opts.Adam().name == "adam" and opts.AdamW().weight_decay == 0.004
    assert opts.SGD().name == "sgd_1" and opts.AdamW().name == "adam_w_1"


# --- bad input --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("compiled", [False, True])
def test_none_gradient_is_skipped_with_tf_warning(compiled):
    a, b = tf.Variable([1.0]), tf.Variable([2.0])
    optimizer = opts.SGD(1.0)

    def step():
        optimizer.apply_gradients([(None, a), (tf.constant([1.0]), b)])

    if compiled:
        step = tf.function(step)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['Variable:0'\] when minimizing"):
        step()
    np.testing.assert_allclose(a.numpy(), [1.0])
    np.testing.assert_allclose(b.numpy(), [1.0])
    assert optimizer.iterations.numpy() == 1


def test_all_none_gradients_raise():
    v = tf.Variable([1.0])
    optimizer = opts.Adam()
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        optimizer.apply_gradients([(None, v)])
    assert optimizer.iterations.numpy() == 0


def test_gradient_tape_none_for_unused_variable_is_skipped():
    used, unused = tf.Variable([1.0, 2.0]), tf.Variable([5.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(used * used)
    grads = tape.gradient(loss, [used, unused])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opts.SGD(0.1).apply_gradients(zip(grads, [used, unused]))
    assert any("Gradients do not exist" in str(w.message) for w in caught)
    np.testing.assert_allclose(used.numpy(), [0.8, 1.6], rtol=1e-6)
    np.testing.assert_allclose(unused.numpy(), [5.0])


@pytest.mark.parametrize("compiled", [False, True])
def test_mismatched_gradient_shape_raises_and_changes_nothing(compiled):
    a = tf.Variable(np.ones((2, 2), np.float32), name="kernel")
    b = tf.Variable(np.ones(3, np.float32), name="bias")
    optimizer = opts.Adam(0.1, weight_decay=0.1)
    optimizer.apply_gradients([(tf.ones((2, 2)), a), (tf.ones(3), b)])  # slots exist and have values
    before = [v.numpy() for v in optimizer.variables] + [a.numpy(), b.numpy()]

    def step():
        optimizer.apply_gradients([(tf.ones((2, 2)), a), (tf.ones(4), b)])

    if compiled:
        step = tf.function(step)
    with pytest.raises(ValueError, match=r"'bias:0' has shape \(4,\), but the variable has shape \(3,\)") as info:
        step()
    assert "No variable was updated" in str(info.value) and "test_optimizers.py" in str(info.value)
    after = [v.numpy() for v in optimizer.variables] + [a.numpy(), b.numpy()]
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)
    assert optimizer.iterations.numpy() == 1


def test_mismatched_shape_on_the_first_call_creates_no_state():
    v = tf.Variable([1.0, 2.0])
    optimizer = opts.RMSprop()
    with pytest.raises(ValueError, match="shapes must be equal"):
        optimizer.apply_gradients([(tf.constant([[1.0, 2.0]]), v)])
    assert len(optimizer.variables) == 2 and optimizer.iterations.numpy() == 0
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_bad_pairs_and_non_variables():
    optimizer = opts.SGD()
    with pytest.raises(TypeError, match=r"sgd(_\d+)?.apply_gradients expects \(gradient, variable\) pairs"):
        optimizer.apply_gradients([tf.constant(1.0)])
    with pytest.raises(TypeError, match="can only update tf.Variable objects, got EagerTensor"):
        optimizer.apply_gradients([(tf.constant(1.0), tf.constant(2.0))])
    with pytest.raises(ValueError, match="got 2 gradients for 1 variables"):
        optimizer.apply([tf.constant(1.0), tf.constant(1.0)], [tf.Variable(1.0)])
    assert optimizer.apply_gradients([]) is optimizer.iterations and optimizer.iterations.numpy() == 0


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match=r"`momentum` must be a float between \[0, 1\]"):
        opts.SGD(momentum=1.5)
    with pytest.raises(ValueError, match="weight_decay=None"):
        opts.AdamW(weight_decay=None)
    with pytest.raises(ValueError, match=r"Argument\(s\) not recognized: \['decay_rate'\]"):
        opts.Adam(decay_rate=0.1)
    with pytest.raises(ValueError, match="`lr` is no longer supported"):
        opts.Adam(lr=0.1)
    with pytest.raises(NotImplementedError, match="gradient_accumulation_steps"):
        opts.Adam(gradient_accumulation_steps=2)
    with pytest.raises(ValueError, match=r"`ema_momentum` must be in the range \[0, 1\]"):
        opts.Adam(use_ema=True, ema_momentum=1.5)
    with pytest.raises(ValueError, match="learning_rate"):
        opts.SGD(learning_rate="fast")
    with pytest.raises(ValueError, match="decay_steps` must be > 0"):
        opts.schedules.ExponentialDecay(0.1, 0, 0.9)
    with pytest.raises(ValueError, match="length of boundaries should be 1 less than the length of values"):
        opts.schedules.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        opts.get("adamaxx")  # adamax exists since the extra optimizers landed


def test_learning_rate_of_a_schedule_is_not_settable():
    optimizer = opts.SGD(opts.schedules.PiecewiseConstantDecay([1], [0.1, 0.01]))
    with pytest.raises(TypeError, match="its learning rate is not settable"):
        optimizer.learning_rate = 0.5


def test_minimize_tensor_loss_needs_a_tape():
    w = tf.Variable(1.0)
    with pytest.raises(ValueError, match="`tape` is required when a `Tensor` loss is passed"):
        opts.SGD().minimize(w * 2.0, [w])


def test_schedule_base_class_requires_call():
    with pytest.raises(NotImplementedError, match="`__call__\\(\\)` method hasn't been implemented"):
        opts.schedules.LearningRateSchedule()(0)
