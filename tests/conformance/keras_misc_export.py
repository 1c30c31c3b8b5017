"""keras.export.ExportArchive and model.export as TF 2.21's Keras 3 writes them: endpoints from a model's call
with a keras.InputSpec signature, from a lambda with a TensorSpec, from an already traced tf.function; a
variable collection; the SavedModel read back by tf.saved_model.load (methods, signatures, variable lists);
and the archive's errors."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program, val


def _model(tf):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2), tf.keras.layers.BatchNormalization()])
    model.set_weights([np.arange(6, dtype="float32").reshape(3, 2) / 10, np.array([0.1, -0.1], "float32"),
                       np.ones(2, "float32"), np.zeros(2, "float32"), np.array([0.5, 0.2], "float32"),
                       np.array([2.0, 3.0], "float32")])
    return model


X = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]], np.float32)


@program
def p_export_archive_endpoints_round_trip(tf):
    model = _model(tf)
    archive = tf.keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.call, input_signature=[tf.keras.InputSpec(shape=(None, 3), dtype="float32")])
    archive.add_endpoint("double", lambda x: model(x) * 2.0,
                         input_signature=[tf.TensorSpec(shape=(None, 3), dtype="float32")])
    plus_one = tf.function(lambda x: model(x, training=False) + 1.0)
    plus_one(tf.ones((2, 3)))
    archive.add_endpoint("plus_one", plus_one)
    archive.add_variable_collection("my_vars", model.weights[:2])
    path = os.path.join(tempfile.mkdtemp(), "archive")
    archive.write_out(path, verbose=False)
    restored = tf.saved_model.load(path)
    default = restored.signatures["serving_default"](tf.constant(X))
    return [len(archive.variables), len(archive.trainable_variables), len(archive.non_trainable_variables),
            val(restored.serve(tf.constant(X))), val(restored.double(tf.constant(X))),
            val(restored.plus_one(tf.constant(X))), sorted(restored.signatures),
            {k: val(v) for k, v in default.items()}, [val(v) for v in restored.my_vars],
            len(restored.variables), len(restored.trainable_variables), len(restored._all_variables)]


@program
def p_model_export_serves_inference(tf):
    model = _model(tf)
    path = os.path.join(tempfile.mkdtemp(), "exported")
    model.export(path, verbose=False)
    restored = tf.saved_model.load(path)
    signature = restored.signatures["serving_default"]
    return [val(restored.serve(tf.constant(X))), sorted(restored.signatures),
            sorted(signature.structured_input_signature[1]), sorted(signature.structured_outputs)]


@program
def p_export_archive_errors(tf):
    archive = tf.keras.export.ExportArchive()
    unbuilt = tf.keras.layers.Dense(2)
    model = _model(tf)
    archive.track(model)
    archive.add_endpoint("serve", model.call, input_signature=[tf.TensorSpec((None, 3), "float32")])
    never_called = tf.function(lambda x: x)
    path = os.path.join(tempfile.mkdtemp(), "nothing")
    return [
        outcome(lambda: archive.track(unbuilt), "has not yet been built"),
        outcome(lambda: archive.track(3), "Invalid resource type"),
        outcome(lambda: archive.add_endpoint("serve", model.call,
                                             input_signature=[tf.TensorSpec((None, 3), "float32")]),
                "Endpoint name 'serve' is already taken"),
        outcome(lambda: archive.add_endpoint("other", model.call), "you must provide an `input_signature`"),
        outcome(lambda: archive.add_endpoint("other", never_called), "has never been called"),
        outcome(lambda: archive.add_variable_collection("v", model.weights[0]), "Expected `variables` to be a list"),
        outcome(lambda: archive.add_variable_collection("v", [1.0]), "Expected all elements in `variables`"),
        outcome(lambda: tf.keras.export.ExportArchive().write_out(path), "No endpoints have been set yet"),
    ]
