"""keras.layers.TextVectorization as TF 2.21 ships it (Keras 3): the examples of its API docs, Keras' exact
standardization regex, splits, n-grams, output modes, sequence padding and truncation, adapt() from lists and
datasets, config, and use inside tf.function and dataset.map."""

from __future__ import annotations

import numpy as np

from . import outcome, program
from .keras_text_prep_lookup import val

CORPUS = ["The cat sat on the mat.", "The dog ate my homework!", "Cats and dogs: friends? Not always...",
          "It's raining cats & dogs (again)", "ÉTÉ à Paris, l'été", "foo-bar_baz [qux] {x} <y> ~z~ 100% #1"]


@program
def p_text_vectorization_docs_int(tf):
    text_dataset = tf.data.Dataset.from_tensor_slices(["foo", "bar", "baz"])
    vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=5000, output_mode="int",
                                                        output_sequence_length=4)
    vectorize_layer.adapt(text_dataset.batch(64))
    model = tf.keras.models.Sequential()
    model.add(tf.keras.Input(shape=(1,), dtype=tf.string))
    model.add(vectorize_layer)
    return [vectorize_layer.get_vocabulary(), val(model(tf.constant([["foo qux bar"], ["qux baz"]])))]


@program
def p_text_vectorization_docs_vocabulary(tf):
    vocab_data = ["earth", "wind", "and", "fire"]
    max_len = 4
    vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=5000, output_mode="int",
                                                        output_sequence_length=max_len, vocabulary=vocab_data)
    return [vectorize_layer.get_vocabulary(), val(vectorize_layer([["earth wind and also fire"]])),
            val(vectorize_layer(["earth", "fire and wind wind wind earth"]))]


@program
def p_text_vectorization_standardize_and_adapt(tf):
    layer = tf.keras.layers.TextVectorization()
    layer.adapt(CORPUS)
    lower = tf.keras.layers.TextVectorization(standardize="lower")
    lower.adapt(CORPUS)
    strip = tf.keras.layers.TextVectorization(standardize="strip_punctuation", max_tokens=12)
    strip.adapt(tf.data.Dataset.from_tensor_slices(CORPUS).batch(2))
    none = tf.keras.layers.TextVectorization(standardize=None, split=None)
    none.adapt(CORPUS[:3])
    return [layer.get_vocabulary(), val(layer(CORPUS[:3])), lower.get_vocabulary(), strip.get_vocabulary(),
            none.get_vocabulary(), val(none(["The cat sat on the mat.", "x"])), layer.vocabulary_size()]


@program
def p_text_vectorization_character_split_and_ngrams(tf):
    chars = tf.keras.layers.TextVectorization(split="character", output_sequence_length=8)
    chars.adapt(["hello", "world", "héllo"])
    grams = tf.keras.layers.TextVectorization(ngrams=2, output_mode="count")
    grams.adapt(["a b c a b", "b c d"])
    three = tf.keras.layers.TextVectorization(ngrams=(1, 3), output_sequence_length=10)
    three.adapt(["x y z w", "y z"])
    return [chars.get_vocabulary(), val(chars(["hell", "wowowowowow"])), grams.get_vocabulary(),
            val(grams(["a b c d a", "q"])), three.get_vocabulary(), val(three(["x y z", "w"]))]


@program
def p_text_vectorization_output_modes(tf):
    out = []
    for mode in ("multi_hot", "count", "tf_idf"):
        layer = tf.keras.layers.TextVectorization(output_mode=mode, max_tokens=6)
        layer.adapt(CORPUS)
        result = layer(["the cat and the dogs", "nothing here"])
        out.append([layer.get_vocabulary(), result.dtype.name, result.shape.as_list(),
                    np.round(np.asarray(result), 5).tolist()])
    padded = tf.keras.layers.TextVectorization(output_mode="multi_hot", max_tokens=10, pad_to_max_tokens=True)
    padded.adapt(["a b", "b c"])
    out.append(val(padded(["a c z"])))
    ragged = tf.keras.layers.TextVectorization(ragged=True)
    ragged.adapt(["a b", "b c"])
    out.append(ragged(["a b c b", "c"]).to_list())
    return out


@program
def p_text_vectorization_in_function_dataset_and_config(tf):
    layer = tf.keras.layers.TextVectorization(max_tokens=8, output_sequence_length=5)
    layer.adapt(CORPUS)

    @tf.function
    def vectorize(text):
        return layer(text)

    dataset = tf.data.Dataset.from_tensor_slices((CORPUS[:4], [0, 1, 0, 1])).batch(2)
    mapped = [val(x) for x, _ in dataset.map(lambda x, y: (layer(x), y))]
    config = layer.get_config()
    keys = sorted(k for k in config if k not in ("name", "dtype"))
    clone = tf.keras.layers.TextVectorization.from_config(config)
    clone.set_vocabulary(layer.get_vocabulary())
    return [val(vectorize(tf.constant(["the cat and dogs"]))), mapped, keys,
            [config[k] for k in keys if k not in ("trainable",)], val(clone(["the cat and dogs"]))]


@program
def p_text_vectorization_errors(tf):
    layers = tf.keras.layers
    return [
        outcome(lambda: layers.TextVectorization(output_mode="multi_hot", output_sequence_length=3), "output_sequence"),
        outcome(lambda: layers.TextVectorization(split="comma"), "split"),
        outcome(lambda: layers.TextVectorization(standardize="upper"), "standardize"),
        outcome(lambda: layers.TextVectorization(ngrams="2"), "ngrams"),
        outcome(lambda: layers.TextVectorization()(tf.constant([["a", "b"]])), "last shape dimension"),
    ]
