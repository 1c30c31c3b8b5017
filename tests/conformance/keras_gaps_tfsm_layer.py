"""keras.layers.TFSMLayer (a SavedModel reloaded as a layer; its weights are the loaded variables) against Keras 3.15
on TF 2.21: a model.export() artifact called through its "serve" endpoint eagerly, in tf.function and inside a
Functional model; the "serving_default" signature (a dict of outputs); a training endpoint from an ExportArchive;
the weights it tracks (names, trainability, shapes); its config; and Keras' errors for an unknown endpoint and for
from_config in safe mode."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, fixed_weights, outcome, program, val


def _exported(tf, folder):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="dense"),
                              keras.layers.BatchNormalization(name="norm"), keras.layers.Dense(2, name="head")])
    fixed_weights(model, seed=3)
    norm = model.get_layer("norm")  # a positive moving variance: fixed_weights' values would make it NaN
    norm.moving_variance.assign(np.linspace(0.5, 2.0, 4).astype("float32"))
    path = os.path.join(folder, "artifact")
    model.export(path, verbose=False)
    return model, path


@program
def p_keras_gaps_tfsm_layer_serve(tf):
    keras = tf.keras
    x = data((5, 3), seed=1)
    with tempfile.TemporaryDirectory() as folder:
        model, path = _exported(tf, folder)
        layer = keras.layers.TFSMLayer(path)
        direct = layer(x)
        traced = tf.function(lambda t: layer(t))(tf.constant(x))
        inputs = keras.Input((3,))
        wrapped = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(layer(inputs)))
        signature = keras.layers.TFSMLayer(path, call_endpoint="serving_default")
        by_signature = signature(tf.constant(x))
        # the saved variables carry their Keras paths ("sequential/dense/kernel"), the weights those with "_"
        return {"names": [w.name for w in layer.weights], "call": val(direct), "graph": val(traced),
                "model": val(model(x)),
                "functional": val(wrapped.predict(x, verbose=0)),
                "signature_keys": sorted(by_signature), "signature": val(list(by_signature.values())[0]),
                "weights": [[w.trainable, list(w.shape)] for w in layer.weights],
                "trainable_count": len(layer.trainable_weights), "built": layer.built,
                "config_keys": sorted(layer.get_config()), "endpoint": layer.get_config()["call_endpoint"],
                "bad_endpoint": outcome(lambda: keras.layers.TFSMLayer(path, call_endpoint="predict"),
                                        "is neither an attribute"),
                "safe_mode": outcome(lambda: keras.layers.TFSMLayer.from_config(layer.get_config()),
                                     "disallowed by default"),
                "unsafe_from_config": val(keras.layers.TFSMLayer.from_config(layer.get_config(),
                                                                             safe_mode=False)(x))}


@program
def p_keras_gaps_tfsm_layer_training_endpoint(tf):
    keras = tf.keras
    x = data((6, 3), seed=2) * 3.0
    with tempfile.TemporaryDirectory() as folder:
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, name="dense"),
                                  keras.layers.BatchNormalization(name="norm")])
        fixed_weights(model, seed=5)
        model.get_layer("norm").moving_variance.assign(np.linspace(0.5, 2.0, 3).astype("float32"))
        archive = keras.export.ExportArchive()
        archive.track(model)
        spec = [tf.TensorSpec((None, 3), tf.float32)]
        archive.add_endpoint("serve", lambda t: model(t, training=False), input_signature=spec)
        archive.add_endpoint("call_train", lambda t: model(t, training=True), input_signature=spec)
        path = os.path.join(folder, "archive")
        archive.write_out(path, verbose=False)
        layer = keras.layers.TFSMLayer(path, call_endpoint="serve", call_training_endpoint="call_train")
        plain = keras.layers.TFSMLayer(path)
        return {"inference": val(layer(x)), "training": val(layer(x, training=True)),
                "no_training_endpoint": val(plain(x, training=True)),
                "weights": [[w.trainable, list(w.shape)] for w in layer.weights],
                "bad_training_endpoint": outcome(
                    lambda: keras.layers.TFSMLayer(path, call_training_endpoint="fit"), "neither")}


@program
def p_keras_gaps_tfsm_layer_weights_are_copies(tf):
    keras = tf.keras
    x = np.ones((1, 3), "float32")
    with tempfile.TemporaryDirectory() as folder:
        _, path = _exported(tf, folder)
        layer = keras.layers.TFSMLayer(path)
        before = val(layer(x))
        layer.trainable_weights[0].assign(tf.zeros_like(layer.trainable_weights[0]))
        return {"before": before, "after": val(layer(x)),
                "first": val(tf.convert_to_tensor(layer.trainable_weights[0]))}
