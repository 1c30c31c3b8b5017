"""The user trial: TF's "Basic text classification" guide (keras/text_classification) as written, on a small
generated IMDB-like corpus (HTML line breaks, punctuation, mixed case): text_dataset_from_directory, the guide's
custom_standardization, TextVectorization adapted on the training texts, the Embedding / pooling / Dense model,
and, with fixed weights (dropout is random), TF's evaluate numbers and the exported raw-string model's
predictions."""

from __future__ import annotations

import os
import re
import string
import tempfile

import numpy as np

from . import program

GOOD = ["great", "wonderful", "moving", "brilliant", "fun", "superb", "charming"]
BAD = ["awful", "boring", "dull", "terrible", "messy", "weak", "tedious"]
COMMON = ["the", "movie", "film", "plot", "actors", "was", "and", "a", "story", "really", "this", "I", "it"]


def _review(rng, words):
    picks = list(rng.choice(COMMON, 6)) + list(rng.choice(words, 3))
    rng.shuffle(picks)
    text = " ".join(picks)
    return text[0].upper() + text[1:] + "!<br /><br />" + " ".join(rng.choice(COMMON + words, 4)) + "."


def _write_corpus(root):
    rng = np.random.RandomState(0)
    for split, count in (("train", 12), ("test", 6)):
        for label, words in (("pos", GOOD), ("neg", BAD)):
            folder = os.path.join(root, split, label)
            os.makedirs(folder)
            for i in range(count):
                with open(os.path.join(folder, f"{i}_{label}.txt"), "w") as f:
                    f.write(_review(rng, words))


@program
def p_basic_text_classification_guide(tf):
    layers, losses = tf.keras.layers, tf.keras.losses
    with tempfile.TemporaryDirectory() as root:
        _write_corpus(root)
        batch_size, seed = 4, 42
        raw_train_ds = tf.keras.utils.text_dataset_from_directory(
            os.path.join(root, "train"), batch_size=batch_size, validation_split=0.2, subset="training", seed=seed,
            verbose=False)
        raw_val_ds = tf.keras.utils.text_dataset_from_directory(
            os.path.join(root, "train"), batch_size=batch_size, validation_split=0.2, subset="validation",
            seed=seed, verbose=False)
        raw_test_ds = tf.keras.utils.text_dataset_from_directory(os.path.join(root, "test"), batch_size=batch_size,
                                                                 verbose=False)

        def custom_standardization(input_data):
            lowercase = tf.strings.lower(input_data)
            stripped_html = tf.strings.regex_replace(lowercase, "<br />", " ")
            return tf.strings.regex_replace(stripped_html, "[%s]" % re.escape(string.punctuation), "")

        max_features, sequence_length = 40, 12
        vectorize_layer = layers.TextVectorization(standardize=custom_standardization, max_tokens=max_features,
                                                   output_mode="int", output_sequence_length=sequence_length)
        train_text = raw_train_ds.map(lambda x, y: x)
        vectorize_layer.adapt(train_text)

        def vectorize_text(text, label):
            text = tf.expand_dims(text, -1)
            return vectorize_layer(text), label

        train_ds = raw_train_ds.map(vectorize_text)
        val_ds = raw_val_ds.map(vectorize_text)
        test_ds = raw_test_ds.map(vectorize_text)
        first_review = sorted(t.decode() for x, _ in raw_val_ds for t in x.numpy())[0]
        embedding_dim = 4
        model = tf.keras.Sequential([layers.Embedding(max_features, embedding_dim), layers.Dropout(0.2),
                                     layers.GlobalAveragePooling1D(), layers.Dropout(0.2), layers.Dense(1)])
        model.build((None, sequence_length))
        rng = np.random.RandomState(1)
        model.set_weights([rng.uniform(-1, 1, w.shape).astype("float32") for w in model.get_weights()])
        model.compile(loss=losses.BinaryCrossentropy(from_logits=True), optimizer="adam",
                      metrics=[tf.metrics.BinaryAccuracy(threshold=0.0)])
        loss, accuracy = model.evaluate(test_ds, verbose=0)
        val_loss, _ = model.evaluate(val_ds, verbose=0)
        history = model.fit(train_ds, validation_data=val_ds, epochs=2, verbose=0)
        export_model = tf.keras.Sequential([vectorize_layer, model, layers.Activation("sigmoid")])
        model.set_weights([rng.uniform(-1, 1, w.shape).astype("float32") for w in model.get_weights()])
        export_model.compile(loss=losses.BinaryCrossentropy(from_logits=False), optimizer="adam",
                             metrics=["accuracy"])
        examples = tf.constant(["The movie was great!", "The movie was okay.", "The movie was terrible...",
                                "Brilliant<br />fun, charming"])
        return [raw_train_ds.class_names, vectorize_layer.get_vocabulary(),
                vectorize_layer(tf.constant([[first_review]])).numpy().tolist(),
                [round(float(loss), 5), round(float(accuracy), 5), round(float(val_loss), 5)],
                sorted(history.history), len(history.history["loss"]),
                np.round(export_model.predict(examples, verbose=0), 5).tolist()]
