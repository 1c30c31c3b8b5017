"""keras.Input(sparse=True) fed tf.SparseTensors, as TF 2.21's Keras 3 runs them: Dense multiplies a sparse
batch (Keras' TF backend: an embedding lookup of kernel rows, so the kernel's gradient is IndexedSlices), in a
Functional model, called directly, inside tf.function, and through fit/evaluate/predict with sparse data."""

from __future__ import annotations

import numpy as np

from . import program, val

ROWS = np.array([[0, 1], [1, 3], [2, 0]])


def _sparse(tf):
    return tf.sparse.SparseTensor(indices=ROWS, values=[1.0, 2.0, 3.0], dense_shape=[3, 4])


@program
def p_sparse_input_dense_forward_and_gradients(tf):
    inputs = tf.keras.Input(shape=(4,), sparse=True)
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    model = tf.keras.Model(inputs, dense(inputs))
    st = _sparse(tf)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(st) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    empty_row = tf.sparse.SparseTensor(indices=[[0, 2]], values=[5.0], dense_shape=[2, 4])
    return [inputs.sparse, list(inputs.shape), val(model(st)), [type(g).__name__ for g in grads],
            [val(tf.convert_to_tensor(g)) for g in grads], val(tf.function(model)(st)), val(dense(st)),
            val(dense(empty_row))]


@program
def p_sparse_input_fit_evaluate_predict(tf):
    rng = np.random.RandomState(0)
    dense_x = ((rng.uniform(size=(40, 4)) < 0.3) * rng.normal(size=(40, 4))).astype(np.float32)
    sx = tf.sparse.from_dense(tf.constant(dense_x))
    y = dense_x.sum(1, keepdims=True) * 2
    inputs = tf.keras.Input(shape=(4,), sparse=True)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="zeros")(inputs))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(sx, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    return [history.history["loss"], model.get_weights()[0].ravel().tolist(),
            model.evaluate(sx, y, verbose=0, batch_size=16), val(model.predict(sx, batch_size=16, verbose=0))]
