"""Generates kops_layers.keras: a small Functional model with ConvNeXt's LayerScale and StochasticDepth,
InceptionResNetV2's CustomScaleLayer (unregistered classes Keras finds by their module) and keras.activations
called on Keras tensors (Operations), with its inputs and outputs, which tests/test_keras_ops_operations.py loads.
Run it with TF 2.21's Python (never needed by the tests):
TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tests/keras_files/generate_kops_layers.py"""
import os

import numpy as np
import tensorflow as tf
from keras.src.applications.convnext import LayerScale, StochasticDepth
from keras.src.applications.inception_resnet_v2 import CustomScaleLayer

keras = tf.keras
out = os.path.dirname(os.path.abspath(__file__))
keras.utils.set_random_seed(0)
inputs = keras.Input((6,), name="x")
h = keras.layers.Dense(6, name="d1")(inputs)
h = keras.activations.relu(h, negative_slope=0.1, threshold=0.2)
s = LayerScale(0.5, 6, name="scale")(h)
s = StochasticDepth(0.3, name="drop_path")(s)
h = CustomScaleLayer(0.17, name="residual")([h, s])
h = keras.activations.gelu(keras.activations.sigmoid(h) * 3.0)
model = keras.Model(inputs, keras.layers.Dense(3, name="d2")(keras.activations.softmax(h, axis=-1)))
model.get_layer("scale").set_weights([np.linspace(-1.0, 1.0, 6).astype("float32")])
model.save(f"{out}/kops_layers.keras")
x = np.cos(np.arange(18)).reshape(3, 6).astype("float32")
np.savez(f"{out}/kops_layers_io.npz", x=x, y=model.predict(x, verbose=0),
         operations=np.array([f"{op.name}:{type(op).__name__}" for op in model.operations]))
