"""Writes text_prep.keras and text_prep_expected.json with TensorFlow 2.21 (Keras 3): an adapted
TextVectorization and StringLookup in a Functional model with fixed weights, for tests/test_keras_text_prep.py
(tinytf must load the file, find the vocabularies in its assets and give the same outputs).

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python /path/to/tests/keras_files/generate_text_prep.py
"""

import json
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = ["The cat sat on the mat.", "A dog ate my homework!", "Cats and dogs, friends?"]
QUERIES = [["the dog sat"], ["zebra cat cat"], ["homework friends and more"]]

layers = tf.keras.layers
vectorize = layers.TextVectorization(max_tokens=16, output_sequence_length=5)
vectorize.adapt(CORPUS)
tags = layers.StringLookup()
tags.adapt(["x", "y", "x", "z"])
text = tf.keras.Input(shape=(1,), dtype="string", name="text")
tag = tf.keras.Input(shape=(1,), dtype="string", name="tag")
embedding = layers.Embedding(16, 3)
embedded = embedding(vectorize(text))
embedding.set_weights([np.arange(48, dtype="float32").reshape(16, 3) / 10])
pooled = layers.GlobalAveragePooling1D()(embedded)
tag_ids = layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")(tags(tag))
merged = layers.Concatenate()([pooled, tag_ids])
output = layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")(merged)
model = tf.keras.Model([text, tag], output)
model.save(os.path.join(HERE, "text_prep.keras"))
inputs = [tf.constant(QUERIES), tf.constant([["x"], ["q"], ["z"]])]
expected = {"vocabulary": vectorize.get_vocabulary(), "tags": tags.get_vocabulary(),
            "vectorized": vectorize(tf.constant(QUERIES)).numpy().tolist(),
            "output": model(inputs).numpy().tolist()}
with open(os.path.join(HERE, "text_prep_expected.json"), "w") as f:
    json.dump(expected, f)
