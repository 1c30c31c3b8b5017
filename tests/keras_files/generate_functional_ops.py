"""Generates functional_ops.keras (a Functional model with bare ops on Keras tensors: Operations in its config)
and its inputs and outputs, which tests/test_functional_op_layers.py loads. Run it with TF 2.21's Python (never
needed by the tests): TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tests/keras_files/generate_functional_ops.py"""
import os

import numpy as np
import tensorflow as tf

keras = tf.keras
out = os.path.dirname(os.path.abspath(__file__))
keras.utils.set_random_seed(0)
inputs = keras.Input((5,), name="x")
h = keras.layers.Dense(6, activation="tanh")(inputs)
h = keras.ops.relu(h * 1.5 - 0.1)
left, right = h[:, :3], h[:, 3:]
h = keras.ops.concatenate([left, keras.ops.exp(-right)], axis=1)
h = keras.ops.mean(keras.ops.reshape(h, (-1, 2, 3)), axis=1) / 2
model = keras.Model(inputs, [keras.layers.Dense(2, name="head")(h), h[..., 0]])
model.save(f"{out}/functional_ops.keras")
x = np.cos(np.arange(15)).reshape(3, 5).astype("float32")
first, second = model.predict(x, verbose=0)
np.savez(f"{out}/functional_ops_io.npz", x=x, head=first, picked=second,
         operations=np.array([f"{op.name}:{type(op).__name__}" for op in model.operations]))
