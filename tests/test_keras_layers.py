"""tf.keras layers: each run eagerly and as @tf.function (passes on and off) against numpy, with gradients
of inputs and weights against finite differences (float64 layers), plus the Layer machinery: lazy build,
tracking, freezing, losses, training propagation, configs, names and input checks."""

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


def built(layer, *shapes, dtype="float64"):
    """Build `layer` on zeros of these shapes and give its weights seeded values."""
    inputs = [tf.zeros(s, dtype) for s in shapes]
    layer(inputs if len(inputs) > 1 else inputs[0])
    rng = np.random.default_rng(5)
    layer.set_weights([rng.uniform(-1, 1, w.shape) for w in layer.get_weights()])
    return layer


def np_dense(x, w, b, act=lambda v: v):
    return act(x @ w + b)


# --- forward values: eager, graph, unoptimized graph, numpy --------------------------------------------------
def test_dense_all_ways():
    dense = built(L.Dense(3, activation="relu", dtype="float64"), (4, 5))
    (x,) = uniform_arrays((4, 5))
    w, b = dense.get_weights()
    run_all_ways(dense, tf.constant(x), expected=np.maximum(x @ w + b, 0))


def test_dense_rank3_all_ways():
    dense = built(L.Dense(2, dtype="float64"), (2, 3, 4))
    (x,) = uniform_arrays((2, 3, 4))
    w, b = dense.get_weights()
    run_all_ways(dense, tf.constant(x), expected=x @ w + b)


ELEMENTWISE = [
    (lambda: L.ReLU(), lambda x: np.maximum(x, 0)),
    (lambda: L.ReLU(max_value=0.5, negative_slope=0.1, threshold=0.2),
     lambda x: np.minimum(np.where(x < 0.2, 0.1 * (x - 0.2), x), 0.5)),
    (lambda: L.LeakyReLU(), lambda x: np.where(x >= 0, x, 0.3 * x)),
    (lambda: L.ELU(alpha=0.5), lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
    (lambda: L.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (lambda: L.Activation("tanh"), np.tanh),
    (lambda: L.Rescaling(2.0, offset=1.0), lambda x: 2 * x + 1),
    (lambda: L.Lambda(lambda t: t * t), lambda x: x * x),
    (lambda: L.Dropout(0.5), lambda x: x),
]


@pytest.mark.parametrize("make,reference", ELEMENTWISE)
def test_elementwise_layers_all_ways(make, reference):
    (x,) = uniform_arrays((3, 4), seed=2)
    layer = make()
    layer._dtype_name = "float64"
    run_all_ways(layer, tf.constant(x), expected=reference(x))


def test_prelu_all_ways():
    prelu = built(L.PReLU(dtype="float64"), (2, 3))
    (x,) = uniform_arrays((2, 3), seed=3)
    (alpha,) = prelu.get_weights()
    run_all_ways(prelu, tf.constant(x), expected=np.maximum(x, 0) - alpha * np.maximum(-x, 0))


RESHAPING = [
    (lambda: L.Flatten(), (2, 3, 4), lambda x: x.reshape(2, -1)),
    (lambda: L.Reshape((4, 3)), (2, 3, 4), lambda x: x.reshape(2, 4, 3)),
    (lambda: L.Reshape((-1, 2)), (2, 3, 4), lambda x: x.reshape(2, -1, 2)),
    (lambda: L.Permute((2, 1)), (2, 3, 4), lambda x: x.transpose(0, 2, 1)),
    (lambda: L.RepeatVector(3), (2, 4), lambda x: np.repeat(x[:, None], 3, axis=1)),
]


@pytest.mark.parametrize("make,shape,reference", RESHAPING)
def test_reshaping_layers_all_ways(make, shape, reference):
    (x,) = uniform_arrays(shape, seed=4)
    run_all_ways(make(), tf.constant(x), expected=reference(x))


MERGES = [
    (L.Add, lambda a, b: a + b), (L.Subtract, lambda a, b: a - b), (L.Multiply, lambda a, b: a * b),
    (L.Average, lambda a, b: (a + b) / 2), (L.Maximum, np.maximum), (L.Minimum, np.minimum),
    (L.Concatenate, lambda a, b: np.concatenate([a, b], -1)),
]


@pytest.mark.parametrize("cls,reference", MERGES)
def test_merge_layers_all_ways(cls, reference):
    a, b = uniform_arrays((2, 3), (2, 3), seed=6)
    layer = cls()
    run_all_ways(lambda x, y: layer([x, y]), tf.constant(a), tf.constant(b), expected=reference(a, b))


def test_flatten_with_unknown_batch_in_function():
    flatten = L.Flatten()
    f = tf.function(flatten, input_signature=[tf.TensorSpec([None, 2, 3], tf.float32)])
    assert f.get_concrete_function().structured_outputs.shape.as_list() == [None, 6]
    assert f(tf.ones([4, 2, 3])).shape.as_list() == [4, 6]


# --- gradients against finite differences ---------------------------------------------------------------------
def _rebuilt_call(layer, x, values):
    """The layer's forward pass with its weights replaced by tensors, so the tape sees them as inputs."""
    originals = {}
    for name, attr in list(vars(layer).items()):
        for v, value in zip(layer.weights, values):
            if attr is v:
                originals[name] = attr
                object.__setattr__(layer, name, value)
    try:
        return layer.call(x)
    finally:
        for name, attr in originals.items():
            object.__setattr__(layer, name, attr)


@pytest.mark.parametrize("make,shape", [
    (lambda: L.Dense(3, activation="tanh", dtype="float64"), (2, 4)),
    (lambda: L.Dense(2, activation="softplus", dtype="float64"), (2, 3, 4)),
    (lambda: L.PReLU(dtype="float64"), (2, 3)),
    (lambda: L.PReLU(shared_axes=[1], dtype="float64"), (2, 3, 2)),
])
def test_weighted_layer_gradients(make, shape):
    layer = built(make(), shape)
    arrays = uniform_arrays(shape, seed=7) + [np.asarray(w, np.float64) for w in layer.get_weights()]
    check_gradients(lambda x, *ws: _rebuilt_call(layer, x, ws), arrays)


@pytest.mark.parametrize("make", [lambda: L.ELU(0.7), lambda: L.Softmax(), lambda: L.LeakyReLU(0.2),
                                  lambda: L.Activation("gelu"), lambda: L.Flatten(), lambda: L.Permute((2, 1)),
                                  lambda: L.RepeatVector(2), lambda: L.Activation("mish")])
def test_input_gradients(make):
    layer = make()
    layer._dtype_name = "float64"
    shape = (2, 3) if isinstance(layer, L.RepeatVector) else (2, 3, 2)
    check_gradients(layer, uniform_arrays(shape, seed=8))


def test_merge_gradients():
    concat, multiply = L.Concatenate(dtype="float64"), L.Multiply(dtype="float64")
    check_gradients(lambda a, b: concat([a, multiply([a, b])]), uniform_arrays((2, 3), (2, 3), seed=9))


# --- the Layer machinery --------------------------------------------------------------------------------------
class MLPBlock(L.Layer):
    def __init__(self):
        super().__init__()
        self.d1, self.d2, self.d3 = L.Dense(32), L.Dense(32), L.Dense(1)

    def call(self, x):
        return self.d3(tf.nn.relu(self.d2(tf.nn.relu(self.d1(x)))))


def test_mlp_block_seed_example():
    block = MLPBlock()
    out = block(tf.ones([2, 5]))
    assert out.shape.as_list() == [2, 1]
    assert (len(block.weights), len(block.trainable_weights)) == (6, 6)
    assert [w.path for w in block.weights][:2] == ["mlp_block/dense/kernel", "mlp_block/dense/bias"]


def test_variables_created_on_first_trace_only():
    block = MLPBlock()
    f = tf.function(lambda x: block(x))
    first = f(tf.ones([2, 5]))
    assert len(block.weights) == 6
    weights = [id(w) for w in block.weights]
    np.testing.assert_allclose(f(tf.ones([3, 5])).numpy()[:2], first.numpy(), rtol=1e-6)
    assert [id(w) for w in block.weights] == weights


def test_gradient_tape_training_step_changes_weights():
    keras.utils.set_random_seed(7)  # the initial weights: unseeded initializers draw Keras' default seeds
    block = MLPBlock()
    x, y = tf.ones([4, 5]), tf.zeros([4, 1])
    opt = keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(block(x) - y))
        opt.apply_gradients(zip(tape.gradient(loss, block.trainable_variables), block.trainable_variables))
        return loss

    losses = [float(step()) for _ in range(5)]
    assert losses[-1] < losses[0]


def test_freezing_is_recursive_and_hides_from_the_tape():
    block = MLPBlock()
    block(tf.ones([1, 5]))
    block.d1.trainable = False
    assert len(block.trainable_weights) == 4 and len(block.non_trainable_weights) == 2
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(block(tf.ones([1, 5])))
    assert tape.gradient(loss, block.d1.kernel) is None
    block.trainable = False
    assert block.trainable_weights == [] and not block.d3.trainable


def test_build_by_running_creates_inner_weights():
    class Wrapper(L.Layer):
        def __init__(self):
            super().__init__()
            self.inner = [L.Dense(2)]

        def call(self, x):
            return self.inner[0](x)

    wrapper = Wrapper()
    wrapper(tf.ones([1, 3]))
    assert wrapper.built and len(wrapper.weights) == 2


def test_add_weight_options():
    class Scaled(L.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer=keras.initializers.Constant(-2.0),
                                     regularizer="l2", constraint="non_neg", name="w")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, dtype="int32", name="n")

        def call(self, x):
            self.count.assign_add(1)
            return x * self.w

    layer = Scaled()
    layer(tf.ones([2, 3]))
    assert layer.count.dtype is tf.int32 and int(layer.count) == 1
    assert [w.name for w in layer.weights] == ["w", "n"]
    np.testing.assert_allclose(float(layer.losses[0]), 0.01 * 12, rtol=1e-6)
    opt = keras.optimizers.SGD(0.0)
    opt.apply_gradients([(tf.zeros([3]), layer.w)])
    np.testing.assert_array_equal(layer.w.numpy(), np.zeros(3))  # NonNeg applied after the update


def test_losses_are_reset_per_outer_call():
    class AddsLoss(L.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    layer = AddsLoss()
    layer(tf.ones([2]))
    layer(tf.ones([3]))
    assert [float(v) for v in layer.losses] == [3.0]


def test_config_round_trip_keeps_behaviour():
    dense = built(L.Dense(3, activation="relu", kernel_regularizer="l1", dtype="float64"), (2, 4))
    clone = L.Dense.from_config(dense.get_config())
    clone(tf.zeros([2, 4], tf.float64))
    clone.set_weights(dense.get_weights())
    x = tf.constant(uniform_arrays((2, 4))[0])
    np.testing.assert_allclose(clone(x).numpy(), dense(x).numpy())
    assert clone.get_config() == dense.get_config()


def test_initializers_are_deterministic_and_scaled():
    keras.utils.set_random_seed(1)
    a = keras.initializers.GlorotUniform()((30, 40)).numpy()
    keras.utils.set_random_seed(1)
    b = keras.initializers.GlorotUniform()((30, 40)).numpy()
    np.testing.assert_array_equal(a, b)
    tf.random.set_seed(1)  # as in Keras 3, TF's global seed does not choose Keras' default seeds
    c = keras.initializers.GlorotUniform()((30, 40)).numpy()
    tf.random.set_seed(1)
    assert not np.array_equal(c, keras.initializers.GlorotUniform()((30, 40)).numpy())
    assert np.abs(a).max() <= np.sqrt(6 / 70)
    q = keras.initializers.Orthogonal(seed=3)((3, 3, 4, 5)).numpy().reshape(-1, 5)
    np.testing.assert_allclose(q.T @ q, np.eye(5), atol=1e-5)
    assert keras.initializers.Identity()((2, 2), dtype="float64").dtype is tf.float64
    with pytest.raises(ValueError, match="2D"):
        keras.initializers.Identity()((2, 2, 2))


def test_unknown_identifiers_name_themselves():
    with pytest.raises(ValueError, match="nope"):
        keras.initializers.get("nope")
    with pytest.raises(ValueError, match="nope"):
        keras.regularizers.get("nope")
    with pytest.raises(ValueError, match="nope"):
        keras.constraints.get("nope")


def test_input_spec_error_names_layer():
    dense = L.Dense(2, name="head")
    dense(tf.ones([1, 3]))
    with pytest.raises(ValueError, match="layer 'head'.*expected axis -1 of input shape to have value 3"):
        dense(tf.ones([1, 4]))
    with pytest.raises(ValueError, match="head"):
        tf.function(lambda x: dense(x))(tf.ones([2, 5]))
