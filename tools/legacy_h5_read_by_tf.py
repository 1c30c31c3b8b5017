"""Does Keras 3 (TF 2.21) load the legacy .h5 model files tinytf writes, and compute tinytf's numbers? Two steps:

    python tools/legacy_h5_read_by_tf.py write DIR            # with tinytf: DIR/trained.h5, DIR/functional.h5
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/legacy_h5_read_by_tf.py read DIR \\
        tests/tf_reference/legacy_h5_read_by_tf.json        # with TensorFlow: loads them, records its numbers

trained.h5 is a Sequential compiled with Adam and trained two epochs (weights from fixed initializers, so both
runs of `write` give the same file contents); functional.h5 an uncompiled two-output Functional model with an
Add. The JSON holds what TF computed from tinytf's files: predictions, evaluate()'s loss and metric (the
compiled loss and metric came from the file's training config), the optimizer's class and step, the layer
names. tests/test_keras_legacy_h5.py writes the files again with tinytf and compares."""

from __future__ import annotations

import json
import os
import sys

import numpy as np

X = np.sin(np.arange(48) * 0.7).reshape(16, 3).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype("float32")


def write(tf, folder) -> None:
    """The two files, made by `tf` (tinytf)."""
    keras = tf.keras
    init = keras.initializers

    def fixed(shape, seed):
        return init.Constant(np.round(np.cos(np.arange(np.prod(shape)) * 0.9 + seed) * 0.5, 3).reshape(shape))

    model = keras.Sequential([keras.Input((3,)),
                              keras.layers.Dense(4, activation="tanh", name="hidden",
                                                 kernel_initializer=fixed((3, 4), 0)),
                              keras.layers.Dense(1, name="out", kernel_initializer=fixed((4, 1), 1))])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss=keras.losses.MeanSquaredError(),
                  metrics=[keras.metrics.MeanAbsoluteError(name="mae")])
    model.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    model.save(os.path.join(folder, "trained.h5"))
    inputs = keras.Input((3,), name="x")
    h = keras.layers.Dense(5, activation="relu", name="h", kernel_initializer=fixed((3, 5), 2))(inputs)
    first = keras.layers.Dense(2, name="first", kernel_initializer=fixed((5, 2), 3))(h)
    second = keras.layers.Add(name="add")([h, keras.layers.Dense(5, name="h2", kernel_initializer=fixed((3, 5), 4))(
        inputs)])
    keras.Model(inputs, [first, second], name="two_outputs").save(os.path.join(folder, "functional.h5"))


def read(tf, folder) -> dict:
    """What `tf` (TensorFlow) computes from the two files."""
    keras = tf.keras
    trained = keras.models.load_model(os.path.join(folder, "trained.h5"))
    loss, mae = trained.evaluate(X, Y, batch_size=16, verbose=0)
    functional = keras.models.load_model(os.path.join(folder, "functional.h5"))
    first, second = functional.predict(X, verbose=0)
    return {"trained_out": trained.predict(X, verbose=0).tolist(), "loss": float(loss), "mae": float(mae),
            "optimizer": type(trained.optimizer).__name__, "iterations": int(trained.optimizer.iterations.numpy()),
            "learning_rate": float(trained.optimizer.learning_rate.numpy()),
            "layers": [layer.name for layer in trained.layers],
            "functional_first": first.tolist(), "functional_second": second.tolist(),
            "functional_layers": [layer.name for layer in functional.layers]}


if __name__ == "__main__":
    step, folder = sys.argv[1], sys.argv[2]
    if step == "write":
        import tinytf

        os.makedirs(folder, exist_ok=True)
        write(tinytf, folder)
    else:
        import tensorflow

        with open(sys.argv[3], "w") as f:
            json.dump(read(tensorflow, folder), f, indent=1)
            f.write("\n")
