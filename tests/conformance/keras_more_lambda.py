"""Lambda layers whose functions use keras.ops control flow (cond, fori_loop, while_loop), saved in a .keras file
and loaded back, as TF 2.21's Keras 3 does it: a registered function is saved as "package>name" and found again
(eagerly, in tf.function, in predict); an unregistered one needs custom_objects (else TypeError); a function
Keras cannot run symbolically makes the Lambda raise NotImplementedError asking for output_shape."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program, val

X = np.array([[1.0, 2.0, -0.5], [-3.0, 0.5, 0.1]], np.float32)


def _registered(tf):
    """The three functions, registered once per process (Keras refuses a second registration of a name)."""
    keras, ops = tf.keras, tf.keras.ops
    found = keras.utils.get_registered_object("kmore_conformance>branchy")
    if found is not None:
        return [found] + [keras.utils.get_registered_object(f"kmore_conformance>{n}") for n in ("loopy", "whiley")]

    def branchy(x):
        return ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)

    def loopy(x):
        return ops.fori_loop(0, 3, lambda i, acc: acc + x * ops.cast(i, x.dtype), ops.zeros_like(x))

    def whiley(x):
        return ops.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, v * 1.5), (0, x))[1]

    register = keras.utils.register_keras_serializable(package="kmore_conformance")
    return [register(f) for f in (branchy, loopy, whiley)]


@program
def p_lambda_ops_control_flow_keras_file_round_trip(tf):
    keras = tf.keras
    branchy, loopy, whiley = _registered(tf)
    inputs = keras.Input((3,))
    outputs = keras.layers.Lambda(whiley)(keras.layers.Lambda(loopy)(keras.layers.Lambda(branchy)(inputs)))
    model = keras.Model(inputs, outputs)
    path = os.path.join(tempfile.mkdtemp(), "lambdas.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    return [val(model(X)), val(loaded(X)), val(tf.function(loaded)(X)), loaded.predict(X, verbose=0).tolist(),
            [layer.get_config()["function"] for layer in loaded.layers[1:]]]


@program
def p_lambda_unregistered_function_and_inference_errors(tf):
    keras, ops = tf.keras, tf.keras.ops

    def unregistered(x):
        return ops.where(x > 0, x, 0.0)

    inputs = keras.Input((3,))
    path = os.path.join(tempfile.mkdtemp(), "plain.keras")
    keras.Model(inputs, keras.layers.Lambda(unregistered)(inputs)).save(path)
    loaded = keras.models.load_model(path, custom_objects={"unregistered": unregistered})
    return [outcome(lambda: keras.models.load_model(path), "Could not locate function 'unregistered'"),
            val(loaded(X)),
            outcome(lambda: keras.layers.Lambda(lambda t: t[:, 10] * undefined_name)(inputs),  # noqa: F821
                    "could not automatically infer the shape")]
