"""keras.Input(sparse=True) beyond the recorded programs: sparse batches equal their dense twins (forward,
gradients, and shuffled training under one seed), and SparseRows cuts rows like numpy does."""

import numpy as np

import tinytf as tf
from tinytf.keras.models.sparse_rows import SparseRows

keras = tf.keras
RNG = np.random.default_rng(4)
DENSE = ((RNG.uniform(size=(30, 5)) < 0.35) * RNG.normal(size=(30, 5))).astype(np.float32)
DENSE[7] = 0.0  # an empty row
Y = (DENSE @ np.arange(5, dtype=np.float32)[:, None] + 1.0).astype(np.float32)


def test_sparse_rows_slice_and_gather_like_numpy():
    rows = SparseRows(tf.sparse.from_dense(tf.constant(DENSE)))
    for index in (slice(3, 11), slice(25, 40), np.array([9, 2, 7, 2, 29])):
        got = tf.sparse.to_dense(rows[index]).numpy()
        assert np.array_equal(got, DENSE[index])


def test_sparse_dense_layer_equals_dense_input_with_gradients():
    layer = keras.layers.Dense(3, activation="tanh")
    layer.build((None, 5))
    sparse = tf.sparse.from_dense(tf.constant(DENSE))
    for fn in (layer, tf.function(layer)):
        np.testing.assert_allclose(fn(sparse).numpy(), layer(tf.constant(DENSE)).numpy(), rtol=1e-5, atol=1e-6)
    grads = []
    for x in (sparse, tf.constant(DENSE)):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        grads.append([tf.convert_to_tensor(g).numpy() for g in tape.gradient(loss, layer.trainable_variables)])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _trained(x, sparse):
    keras.utils.set_random_seed(11)
    inputs = keras.Input(shape=(5,), sparse=sparse)
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(x, Y, batch_size=7, epochs=3, shuffle=True, verbose=0)
    return history.history["loss"], model.get_weights()


def test_shuffled_fit_on_sparse_data_equals_fit_on_dense_data():
    loss_s, weights_s = _trained(tf.sparse.from_dense(tf.constant(DENSE)), True)
    loss_d, weights_d = _trained(DENSE, False)
    np.testing.assert_allclose(loss_s, loss_d, rtol=1e-5)
    for a, b in zip(weights_s, weights_d):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
