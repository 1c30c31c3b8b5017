"""Generates Keras' legacy HDF5 model files made by real Keras 3 (TF 2.21), for tests/test_keras_legacy_h5.py:
legacy_trained.h5 (a Sequential compiled with Adam and trained two epochs, so the file holds a training config
and Adam's state), legacy_functional.h5 (an uncompiled two-output Functional model with an Add), and
legacy_h5.npz (the data, each model's outputs, and the optimizer state Keras restores from legacy_trained.h5;
TF 2.21 itself cannot train a model loaded from a legacy file further: its restored Adam refuses the model's
variables, "Unknown variable", so no losses after loading are recorded; and a file saved with loss="mse" does
not load in it at all). Run it with TF 2.21's Python (never needed by the tests):
TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tests/keras_files/generate_legacy_h5.py"""
import os

import numpy as np
import tensorflow as tf

keras = tf.keras
out = os.path.dirname(os.path.abspath(__file__))
keras.utils.set_random_seed(3)
x = np.sin(np.arange(48) * 0.7).reshape(16, 3).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype("float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh", name="hidden"),
                          keras.layers.Dense(1, name="out")])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss=keras.losses.MeanSquaredError(),
              metrics=[keras.metrics.MeanAbsoluteError(name="mae")])  # loss="mse" is a file TF cannot load
model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
model.save(f"{out}/legacy_trained.h5")
trained_out = model.predict(x, verbose=0)
restored = keras.models.load_model(f"{out}/legacy_trained.h5")
restored_out = restored.predict(x, verbose=0)
optimizer_state = [np.asarray(v.numpy(), np.float64).reshape(-1) for v in restored.optimizer.variables]

inputs = keras.Input((3,), name="x")
h = keras.layers.Dense(5, activation="relu", name="h")(inputs)
first = keras.layers.Dense(2, name="first")(h)
second = keras.layers.Add(name="add")([h, keras.layers.Dense(5, name="h2")(inputs)])
functional = keras.Model(inputs, [first, second], name="two_outputs")
functional.save(f"{out}/legacy_functional.h5")
f1, f2 = functional.predict(x, verbose=0)
np.savez(f"{out}/legacy_h5.npz", x=x, y=y, trained_out=trained_out, restored_out=restored_out,
         optimizer_state=np.concatenate(optimizer_state), optimizer_names=np.array([v.path for v in
                                                                                     restored.optimizer.variables]),
         iterations=np.array(int(restored.optimizer.iterations.numpy())), functional_first=f1, functional_second=f2)
