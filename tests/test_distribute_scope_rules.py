"""Which strategy models and optimizers belong to (TF 2.21 / Keras 3's rules; TF's own outputs are in
tests/conformance/distribute_scope_rules.py): an optimizer makes its slots under the strategy current at its
construction (extended.colocate_vars_with), a model trains under the strategy current at its construction.
Checked eagerly and in tf.function steps, with one and two replicas, and the numbers against plain training."""

import numpy as np
import pytest

import tinytf as tf

X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
Y = (X @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.25).astype(np.float32)


def _model():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.1], [0.2], [-0.3]], np.float32), np.zeros((1,), np.float32)])
    return model


def _fit(model, run_eagerly=False):
    history = model.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return history.history["loss"], [w.copy() for w in model.get_weights()]


def _plain(run_eagerly=False):
    """The reference: the same training without any strategy."""
    model = _model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse", run_eagerly=run_eagerly)
    return _fit(model)


def test_colocate_vars_with_follows_tf_checks():
    strategy, default = tf.distribute.MirroredStrategy(), tf.distribute.get_strategy()
    with strategy.scope():
        own = tf.Variable(1.0)
    foreign = tf.Variable(2.0)
    with pytest.raises(RuntimeError, match='Need to be inside "with strategy.scope\\(\\)"'):
        with strategy.extended.colocate_vars_with(own):
            pass
    with strategy.scope():
        with strategy.extended.colocate_vars_with(own):
            pass
        with pytest.raises(ValueError, match="must only be passed a variable created in this"):
            with strategy.extended.colocate_vars_with(foreign):
                pass
        # the default strategy's check: only where no other strategy is current
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
            with default.extended.colocate_vars_with(foreign):
                pass
    with default.extended.colocate_vars_with(foreign):  # any variable, outside scopes
        pass


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_outside_after_making_everything_inside_equals_plain_training(run_eagerly):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = _model()
        model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse", run_eagerly=run_eagerly)
    losses, weights = _fit(model)
    plain_losses, plain_weights = _plain(run_eagerly)
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-6)
    for a, b in zip(weights, plain_weights):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert model.distribute_strategy is strategy
    assert model.optimizer._distribution_strategy is strategy


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_optimizer_of_another_strategy_is_refused_by_fit(run_eagerly):
    strategy = tf.distribute.MirroredStrategy()
    adam = tf.keras.optimizers.Adam(0.1)
    with strategy.scope():
        model = _model()
        model.compile(optimizer=adam, loss="mse", run_eagerly=run_eagerly)
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
        _fit(model)
    for a, b in zip(model.get_weights(), before):  # nothing was applied
        np.testing.assert_array_equal(a, b)


def test_compile_under_a_scope_does_not_bind_the_model():
    strategy = tf.distribute.MirroredStrategy()
    model = _model()
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
        assert model.distribute_strategy is strategy  # the current one, as Keras' property falls back to
    assert model.distribute_strategy is tf.distribute.get_strategy()
    with pytest.raises(RuntimeError, match='Need to be inside "with strategy.scope\\(\\)"'):
        _fit(model)


def test_optimizers_without_slots_are_never_checked():
    strategy = tf.distribute.MirroredStrategy()
    sgd = tf.keras.optimizers.SGD(0.1)
    with strategy.scope():
        model = _model()
        model.compile(optimizer=sgd, loss="mse")
        variable = tf.Variable(1.0)
    _fit(model)
    strategy.run(lambda: sgd.apply_gradients([(tf.constant(1.0), variable)]))
    assert float(variable.numpy()) == pytest.approx(0.9)
    momentum = tf.keras.optimizers.SGD(0.1, momentum=0.5)  # a slot: checked
    with pytest.raises(RuntimeError, match="Mixing different"):
        with strategy.scope():
            momentum.build([variable])


@pytest.mark.parametrize("replicas", [1, 2])
@pytest.mark.parametrize("traced", [False, True])
def test_custom_loop_slots_made_in_the_merge_see_the_strategy(traced, replicas):
    """apply_gradients in strategy.run, the step traced or not, called outside the scope: the slots are made
    during the merge (at graph run time when traced), under the optimizer's strategy. Numbers equal plain Adam."""
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    with strategy.scope():
        model = _model()
        optimizer = tf.keras.optimizers.Adam(0.1)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(model(x) - y)) / 8.0  # global batch 8: replicas' sums add up
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def distributed(x, y):
        return strategy.reduce("SUM", strategy.run(step, args=(x, y)), axis=None)

    run = tf.function(distributed) if traced else distributed
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((X, Y)).batch(8))
    for _ in range(3):
        for x, y in dataset:
            run(x, y)
    reference = _model()
    adam = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(reference(X) - Y))
        adam.apply_gradients(zip(tape.gradient(loss, reference.trainable_variables),
                                 reference.trainable_variables))
    for a, b in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert len(optimizer.variables) == 2 + 2 * 2  # iterations, learning rate, m and v of kernel and bias


def test_two_replica_fit_outside_runs_under_the_models_strategy():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    seen = []

    class Probe(tf.keras.Sequential):
        def train_step(self, data):
            seen.append(tf.distribute.get_strategy() is strategy)
            return super().train_step(data)

    with strategy.scope():
        model = Probe([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        model.set_weights(_model().get_weights())
        model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse")
    losses, weights = _fit(model)
    plain_losses, plain_weights = _plain()
    assert seen and all(seen)
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-5)
    for a, b in zip(weights, plain_weights):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
