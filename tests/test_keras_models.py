"""tf.keras models: Sequential, Functional and subclassed models run eagerly and as tf.function (passes on
and off) against numpy; their weights train with GradientTape; the graph API (get_layer, layer.output,
cut and extended models, nested and shared layers) and summary()."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

keras = tf.keras
L = keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def seeded(model, seed=1):
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-1, 1, w.shape) for w in model.get_weights()])
    return model


def test_sequential_all_ways_against_numpy():
    model = seeded(keras.Sequential([L.Dense(4, activation="relu", input_shape=(3,), dtype="float64"),
                                     L.Dense(2, dtype="float64")]))
    w1, b1, w2, b2 = model.get_weights()
    (x,) = uniform_arrays((5, 3))
    run_all_ways(model, tf.constant(x), expected=np.maximum(x @ w1 + b1, 0) @ w2 + b2)


def test_functional_multi_input_all_ways_and_gradients():
    a, b = keras.Input((3,), dtype="float64"), keras.Input((2,), dtype="float64")
    h = L.Concatenate(dtype="float64")([a, b])
    out = L.Dense(2, activation="tanh", dtype="float64")(h)
    model = seeded(keras.Model([a, b], out))
    w, bias = model.get_weights()
    xa, xb = uniform_arrays((4, 3), (4, 2))
    run_all_ways(lambda p, q: model([p, q]), tf.constant(xa), tf.constant(xb),
                 expected=np.tanh(np.concatenate([xa, xb], 1) @ w + bias))
    check_gradients(lambda p, q: model([p, q]), [xa, xb])


def test_nested_and_shared_models_reuse_weights():
    inner_in = keras.Input((3,))
    inner = keras.Model(inner_in, L.Dense(2)(inner_in))
    x1, x2 = keras.Input((3,)), keras.Input((3,))
    outer = keras.Model([x1, x2], L.Add()([inner(x1), inner(x2)]))
    assert len(outer.weights) == 2
    p, q = np.ones((1, 3), np.float32), np.full((1, 3), 2.0, np.float32)
    np.testing.assert_allclose(outer([p, q]).numpy(), inner(p).numpy() + inner(q).numpy(), rtol=1e-6)


def test_dict_inputs_and_outputs():
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    model = keras.Model({"a": a, "b": b}, {"sum": L.Add()([a, b]), "prod": L.Multiply()([a, b])})
    out = model({"b": tf.constant([[3.0, 4.0]]), "a": tf.constant([[1.0, 2.0]])})
    np.testing.assert_array_equal(out["sum"].numpy(), [[4, 6]])
    np.testing.assert_array_equal(out["prod"].numpy(), [[3, 8]])
    with pytest.raises(ValueError, match='Missing data for input "b"'):  # TF 2.21's message
        model({"a": tf.ones([1, 2])})


def test_transfer_learning_cut_and_extend():
    inputs = keras.Input((4,))
    hidden = L.Dense(3, activation="relu", name="hidden")(inputs)
    model = keras.Model(inputs, L.Dense(1)(hidden))
    features = keras.Model(model.input, model.get_layer("hidden").output)
    x = np.ones((2, 4), np.float32)
    w, b = model.get_layer("hidden").get_weights()
    np.testing.assert_allclose(features(x).numpy(), np.maximum(x @ w + b, 0), rtol=1e-6)
    features.trainable = False
    head = keras.Model(features.input, L.Dense(2)(features.output))
    assert len(head.trainable_weights) == 2 and len(head.weights) == 4


def test_disconnected_graph_raises():
    x = keras.Input((2,))
    y = L.Dense(1)(x)
    with pytest.raises(ValueError, match="not connected to `inputs`"):
        keras.Model(keras.Input((2,)), y)


def test_int_input_with_none_dims_in_function():
    tokens = keras.Input(shape=(None, 5), dtype=tf.int32)
    assert tokens.shape == (None, None, 5) and tokens.dtype == "int32"
    out = L.Dense(2)(L.Lambda(lambda t: tf.cast(t, tf.float32))(tokens))
    model = keras.Model(tokens, out)
    assert out.shape == (None, None, 2)
    f = tf.function(model)
    np.testing.assert_allclose(f(tf.ones([2, 3, 5], tf.int32)).numpy(), model(tf.ones([2, 3, 5], tf.int32)).numpy())


def test_subclassed_model_trains_with_gradient_tape_in_function():
    class Regressor(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = L.Dense(8, activation="tanh")
            self.head = L.Dense(1)

        def call(self, x, training=False):
            return self.head(self.hidden(x))

    model = Regressor()
    x = tf.constant(np.linspace(-1, 1, 32, dtype=np.float32).reshape(16, 2))
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    optimizer = keras.optimizers.Adam(0.05)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = [float(train_step(x, y)) for _ in range(60)]
    assert losses[-1] < 0.05 * losses[0]
    assert model.name == "regressor" and len(model.layers) == 2


def test_sequential_add_pop_and_errors():
    model = keras.Sequential([keras.Input((3,))])
    model.add(L.Dense(2, name="a"))
    with pytest.raises(ValueError, match="unique names"):
        model.add(L.Dense(2, name="a"))
    with pytest.raises(ValueError, match="keras.Layer"):
        model.add("dense")
    model.add(L.Dense(4))
    assert model.output_shape == (None, 4)
    model.pop()
    assert model.output_shape == (None, 2) and len(model.weights) == 2


def test_summary_prints_keras_table(capsys):
    model = keras.Sequential([L.Dense(2, input_shape=(3,))])
    model.summary()
    text = capsys.readouterr().out
    assert "│ dense (Dense)                   │ (None, 2)              │             8 │" in text
    assert " Total params: 8 (32.00 B)" in text


def test_seed_example_functional_with_mlp_block_and_train_step():
    # seeded: from unseeded weights every relu can start dead (a constant output, a loss that cannot fall)
    keras.utils.set_random_seed(1)

    class MLPBlock(L.Layer):
        def __init__(self):
            super().__init__()
            self.d1, self.d2, self.d3 = L.Dense(32), L.Dense(32), L.Dense(1)

        def call(self, x):
            return self.d3(tf.nn.relu(self.d2(tf.nn.relu(self.d1(x)))))

    inputs = keras.Input(shape=(None, 5), dtype=tf.int32)
    outputs = MLPBlock()(L.Lambda(lambda t: tf.cast(t, tf.float32))(inputs))
    model = keras.Model(inputs, outputs)
    assert len(model.trainable_variables) == 6
    optimizer = keras.optimizers.Adam(1e-3)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    x, y = tf.ones([4, 3, 5], tf.int32), tf.zeros([4, 3, 1])
    first = float(train_step(x, y))
    for _ in range(20):
        last = float(train_step(x, y))
    assert last < first


def test_subclass_passing_itself_to_model_init_is_refused_as_keras_3_refuses_it():
    """`super().__init__(self)` (TF's "Effective TF2" guide, Keras 2 code): Keras 3's Layer.__init__ takes no
    positional argument, so TF 2.21 raises TypeError; a silent success would hide the mistake."""
    class Wrapped(keras.Model):
        def __init__(self):
            super().__init__(self)

    with pytest.raises(TypeError, match=r"Layer.__init__\(\) takes 1 positional argument but 2 were given"):
        Wrapped()


def test_a_layer_with_a_function_initializer_saves(tmp_path):
    """`Dense(kernel_initializer=tf.random.normal)` (TF's "TensorFlow basics" guide) saves: a plain function is
    written in Keras 3's function form instead of failing on get_config."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer=tf.random.normal)])
    config = model.layers[0].get_config()["kernel_initializer"]
    assert config["class_name"] == "function" and config["registered_name"] == "function"
    model.save(str(tmp_path / "m.keras"))
    assert (tmp_path / "m.keras").exists()
