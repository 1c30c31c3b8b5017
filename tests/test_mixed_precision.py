"""keras.mixed_precision: policies, autocast of inputs and of weights read inside a mixed layer's call,
float32 weights and gradients, loss scaling wired by compile(), mixed_bfloat16 training, and the policy kept
in configs and .keras files. TF 2.21's own numbers are in tests/conformance/mixed_precision_guide.py."""

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


@pytest.fixture
def mixed_global():
    keras.mixed_precision.set_global_policy("mixed_float16")
    yield
    keras.mixed_precision.set_global_policy("float32")


def _mlp(policy=None, units=8):
    return keras.Sequential([keras.Input((5,)), keras.layers.Dense(units, activation="tanh", dtype=policy),
                             keras.layers.Dense(3, dtype=policy),
                             keras.layers.Activation("softmax", dtype="float32")])


def test_global_policy_is_taken_by_new_layers_only(mixed_global):
    made_mixed = keras.layers.Dense(2)
    keras.mixed_precision.set_global_policy("float32")
    made_after = keras.layers.Dense(2)
    assert made_mixed.dtype_policy.name == "mixed_float16" and made_after.dtype_policy.name == "float32"
    assert (made_mixed.compute_dtype, made_mixed.variable_dtype, made_mixed.dtype) == ("float16", "float32",
                                                                                        "float32")


@pytest.mark.parametrize("policy,compute", [("mixed_float16", "float16"), ("mixed_bfloat16", "bfloat16")])
def test_dense_computes_in_the_compute_dtype_with_float32_weights(policy, compute):
    layer = keras.layers.Dense(4, dtype=policy)
    x = np.random.default_rng(0).standard_normal((3, 5)).astype("float64")
    y = layer(x)
    assert y.dtype.name == compute and layer.kernel.dtype.name == "float32" and layer.bias.dtype.name == "float32"
    # the kernel read in the call is rounded to the compute dtype, as are the inputs: numpy in that dtype agrees
    x16, k16 = x.astype(y.dtype.as_numpy_dtype), layer.kernel.numpy().astype(y.dtype.as_numpy_dtype)
    expected = (x16.astype("float32") @ k16.astype("float32")).astype(y.dtype.as_numpy_dtype)
    np.testing.assert_allclose(y.numpy().astype("float32"), expected.astype("float32"), rtol=2e-2, atol=2e-2)


def test_eager_and_traced_calls_agree_and_gradients_are_float32(passes):
    model = _mlp("mixed_float16")
    x = tf.constant(np.random.default_rng(1).standard_normal((4, 5)).astype("float32"))

    def loss_and_grads(inputs):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(inputs) * tf.constant([1.0, -2.0, 0.5]))
        return loss, tape.gradient(loss, model.trainable_variables)

    eager_loss, eager_grads = loss_and_grads(x)
    traced_loss, traced_grads = tf.function(loss_and_grads)(x)
    assert eager_loss.dtype.name == "float32"
    assert [g.dtype.name for g in eager_grads] == ["float32"] * 4
    np.testing.assert_allclose(traced_loss.numpy(), eager_loss.numpy(), rtol=1e-6)
    for a, b in zip(eager_grads, traced_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_mixed_gradients_match_float32_finite_differences():
    """The float16 computation's gradient stays within float16's precision of float32 finite differences."""
    mixed = _mlp("mixed_float16", units=6)
    full = _mlp("float32", units=6)
    full.set_weights(mixed.get_weights())
    x = tf.constant(np.random.default_rng(2).standard_normal((3, 5)).astype("float32"))
    target = tf.constant([[0.2, 0.3, 0.5]] * 3)

    def loss_of(model):
        return tf.reduce_sum(tf.square(model(x) - target))

    with tf.GradientTape() as tape:
        loss = loss_of(mixed)
    kernel = mixed.trainable_variables[0]
    grad = tape.gradient(loss, kernel).numpy()
    base = full.trainable_variables[0].numpy()
    eps, numeric = 1e-3, np.zeros_like(base)
    for index in np.ndindex(*base.shape):
        for sign in (1, -1):
            shifted = base.copy()
            shifted[index] += sign * eps
            full.trainable_variables[0].assign(shifted)
            numeric[index] += sign * float(loss_of(full)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, atol=3e-2)


def test_compile_wraps_mixed_float16_only(mixed_global):
    model = _mlp()
    model.compile(keras.optimizers.Adam(), "mse")
    assert isinstance(model.optimizer, keras.mixed_precision.LossScaleOptimizer)
    assert model.optimizer.name == "loss_scale_optimizer"
    model.compile(keras.optimizers.Adam(), "mse", auto_scale_loss=False)
    assert isinstance(model.optimizer, keras.optimizers.Adam)
    scaled = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD())
    model.compile(scaled, "mse")
    assert model.optimizer is scaled  # never wrapped twice
    keras.mixed_precision.set_global_policy("mixed_bfloat16")
    bf16 = _mlp()
    bf16.compile("sgd", "mse")
    assert isinstance(bf16.optimizer, keras.optimizers.SGD)  # bfloat16 keeps float32's exponent: no scaling


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
def test_fit_trains_with_a_mixed_policy(policy):
    keras.utils.set_random_seed(5)
    keras.mixed_precision.set_global_policy(policy)
    try:
        model = _mlp()
        model.compile(keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy")
        rng = np.random.default_rng(3)
        x = rng.standard_normal((96, 5)).astype("float32")
        y = (x[:, 0] > 0).astype("int64") + (x[:, 1] > 1)
        history = model.fit(x, y, batch_size=32, epochs=6, verbose=0)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    losses = history.history["loss"]
    assert losses[-1] < losses[0] * 0.7 and all(np.isfinite(losses))
    assert {w.dtype.name for w in model.weights} == {"float32"}
    assert model.predict(x[:2], verbose=0).dtype == np.float32


def test_loss_scale_skips_an_overflowing_step_and_halves_the_scale(mixed_global):
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3),
                              keras.layers.Activation("linear", dtype="float32")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    before = model.get_weights()
    # the scaled loss's gradient (2 * 100 * 32768 / 12 per output) overflows float16 where it enters the model
    model.train_on_batch(np.ones((4, 5), "float32"), np.full((4, 3), 100.0, "float32"))
    assert float(model.optimizer.dynamic_scale.numpy()) == 2.0 ** 14
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    model.train_on_batch(np.ones((4, 5), "float32"), np.full((4, 3), 1.0, "float32"))  # finite: applied
    assert float(model.optimizer.dynamic_scale.numpy()) == 2.0 ** 14
    assert not np.array_equal(before[0], model.get_weights()[0])


def test_variables_autocast_only_inside_a_mixed_call_and_assign_in_their_own_dtype():
    class Counter(keras.layers.Layer):
        def build(self, input_shape):
            self.total = self.add_weight(shape=(), initializer="zeros", trainable=False)
            self.raw = self.add_weight(shape=(), initializer="ones", autocast=False)
            self.step = self.add_weight(shape=(), initializer="zeros", dtype="int32", trainable=False)

        def call(self, x):
            assert self.total.dtype.name == "float16" and self.raw.dtype.name == "float32"
            assert self.step.dtype.name == "int32"
            self.total.assign_add(tf.reduce_sum(x))  # a float16 value into a float32 variable
            self.step.assign_add(1)
            return x * self.total

    layer = Counter(dtype="mixed_float16")
    out = layer(tf.ones((2, 2)))
    tf.function(lambda v: layer(v))(tf.ones((2, 2)))
    assert out.dtype.name == "float16" and layer.total.dtype.name == "float32"
    assert float(layer.total.numpy()) == 8.0 and int(layer.step.numpy()) == 2
    # a float32 layer inside a mixed one clears nothing: its own weights are float32 and read as float16
    # only while the mixed scope is open (Keras: a layer of another compute dtype opens its own scope)
    inner = keras.layers.Dense(2, dtype="float32")

    class Outer(keras.layers.Layer):
        def call(self, x):
            return inner(tf.cast(x, tf.float32))

    assert Outer(dtype="mixed_float16")(tf.ones((1, 3))).dtype.name == "float32"


def test_policy_survives_a_keras_file(tmp_path):
    model = _mlp("mixed_bfloat16")
    model(np.zeros((1, 5), "float32"))
    path = str(tmp_path / "mixed.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    assert [layer.dtype_policy.name for layer in restored.layers] == ["mixed_bfloat16", "mixed_bfloat16",
                                                                      "float32"]
    x = np.random.default_rng(4).standard_normal((2, 5)).astype("float32")
    np.testing.assert_array_equal(restored.predict(x, verbose=0), model.predict(x, verbose=0))


def test_errors_name_the_bad_policy():
    with pytest.raises(ValueError, match="Cannot convert 'float17'"):
        keras.layers.Dense(2, dtype="float17")
    with pytest.raises(ValueError, match="Cannot interpret `dtype`"):
        keras.dtype_policies.get(3.5)
    with pytest.raises(ValueError, match="floating-point target dtype"):
        from tinytf.keras.mixed_precision.autocast_scope import AutocastScope

        AutocastScope("int32")
