"""Keras' text and category preprocessing layers beyond the recorded conformance programs: eager against
tf.function (passes on and off), dataset.map, fit, and .keras files with vocabulary assets both ways with
TF 2.21 (tests/keras_files/text_prep.keras was written by TF: tests/keras_files/generate_text_prep.py)."""

import json
import os
import zipfile

import numpy as np
import pytest

import tinytf as tf

HERE = os.path.dirname(__file__)
layers = tf.keras.layers
CORPUS = ["The cat sat on the mat.", "A dog ate my homework!", "Cats and dogs, friends?"]


@pytest.fixture(params=["eager", "function", "function_no_passes"])
def run(request):
    """Run a case eagerly, in a tf.function with every pass on, and in one with every pass off."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": request.param == "function_no_passes"})
    if request.param == "eager":
        yield lambda fn, *args: fn(*args)
    else:
        yield lambda fn, *args: tf.function(fn)(*args)
    tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


def test_string_lookup_modes_agree_across_execution(run):
    vocab = ["a", "b", "c", "d"]
    data = tf.constant([["a", "c", "d", "d"], ["d", "z", "b", "z"]])
    expected_int = [[1, 3, 4, 4], [4, 0, 2, 0]]
    np.testing.assert_array_equal(run(layers.StringLookup(vocabulary=vocab), data).numpy(), expected_int)
    counts = run(layers.StringLookup(vocabulary=vocab, output_mode="count"), data).numpy()
    np.testing.assert_array_equal(counts, [[0, 1, 0, 1, 2], [2, 0, 1, 0, 1]])
    hashed = run(layers.StringLookup(vocabulary=vocab, num_oov_indices=3), tf.constant(["a", "zz", "hello"]))
    np.testing.assert_array_equal(hashed.numpy(), [3, 1, 1])  # Fingerprint64 % 3 of the OOV tokens (TF 2.21)
    inverse = run(layers.StringLookup(vocabulary=vocab, invert=True), tf.constant([1, 0, 4], tf.int64))
    assert [v.decode() for v in inverse.numpy()] == ["a", "[UNK]", "d"]


def test_integer_lookup_floormod_oov_and_mask(run):
    layer = layers.IntegerLookup(vocabulary=[12, 36, 1138, 42], num_oov_indices=2, mask_token=0)
    out = run(layer, tf.constant([[12, 0, 37], [-3, 42, 1000]], tf.int64)).numpy()
    # as TF 2.21: mask 0 -> 0; OOV 37 -> 1 + 37 % 2 = 2; -3 -> 1 + (-3 floormod 2) = 2; 1000 -> 1
    np.testing.assert_array_equal(out, [[3, 0, 2], [2, 6, 1]])


def test_text_vectorization_against_python(run):
    layer = layers.TextVectorization(output_sequence_length=6)
    layer.adapt(CORPUS)
    vocab = layer.get_vocabulary()
    texts = ["the DOG sat, on a log!", "cats"]
    out = run(layer, tf.constant(texts)).numpy()
    for row, text in zip(out, texts):
        words = "".join(c for c in text.lower() if c.isalnum() or c == " ").split()
        ids = [vocab.index(w) if w in vocab else 1 for w in words][:6]
        np.testing.assert_array_equal(row, ids + [0] * (6 - len(ids)))


def test_discretization_and_category_encoding(run):
    disc = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    x = tf.constant([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
    np.testing.assert_array_equal(run(disc, x).numpy(), np.digitize(x.numpy(), [0.0, 1.0, 2.0]))
    encode = layers.CategoryEncoding(num_tokens=4, output_mode="count")
    np.testing.assert_array_equal(run(encode, tf.constant([[0, 1, 1], [3, 3, 3]])).numpy(),
                                  [[1, 2, 0, 0], [0, 0, 0, 3]])


def test_layers_in_dataset_map():
    layer = layers.TextVectorization(max_tokens=10, output_sequence_length=3)
    layer.adapt(CORPUS)
    lookup = layers.StringLookup(vocabulary=["x", "y"])
    ds = tf.data.Dataset.from_tensor_slices((CORPUS, ["x", "y", "q"])).batch(2)
    mapped = list(ds.map(lambda text, tag: (layer(text), lookup(tag))).as_numpy_iterator())
    np.testing.assert_array_equal(mapped[0][0], layer(tf.constant(CORPUS[:2])).numpy())
    np.testing.assert_array_equal(mapped[1][1], [0])


def test_fit_on_raw_strings():
    """TextVectorization inside the model: fit and predict take raw strings (as tensors: TF 2.21 refuses numpy
    string arrays there with "Invalid dtype: str..."), and the loss goes down."""
    texts = np.array(["good great fine", "bad awful poor", "great good", "poor bad", "fine good", "awful bad"])
    labels = np.array([1, 0, 1, 0, 1, 0], dtype="float32")
    tf.keras.utils.set_random_seed(1)
    vectorize = layers.TextVectorization(max_tokens=20, output_sequence_length=4)
    vectorize.adapt(texts)
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype="string"), vectorize, layers.Embedding(20, 4),
                                 layers.GlobalAveragePooling1D(), layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
    with pytest.raises(ValueError, match="Invalid dtype: str"):
        model.fit(texts[:, None], labels, epochs=1, verbose=0)
    history = model.fit(tf.constant(texts[:, None]), labels, epochs=15, batch_size=3, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    scores = model.predict(tf.constant([["good fine"], ["bad poor"]]), verbose=0)
    assert scores[0, 0] > scores[1, 0]


def test_keras_file_written_by_tensorflow_loads_with_vocabularies():
    with open(os.path.join(HERE, "keras_files", "text_prep_expected.json")) as f:
        expected = json.load(f)
    model = tf.keras.models.load_model(os.path.join(HERE, "keras_files", "text_prep.keras"))
    vectorize = next(layer for layer in model.layers if isinstance(layer, layers.TextVectorization))
    tags = next(layer for layer in model.layers if isinstance(layer, layers.StringLookup))
    assert vectorize.get_vocabulary() == expected["vocabulary"] and tags.get_vocabulary() == expected["tags"]
    queries = tf.constant([["the dog sat"], ["zebra cat cat"], ["homework friends and more"]])
    np.testing.assert_array_equal(vectorize(queries).numpy(), expected["vectorized"])
    out = model([queries, tf.constant([["x"], ["q"], ["z"]])])
    np.testing.assert_allclose(out.numpy(), expected["output"], rtol=1e-6)


def test_keras_file_round_trip_keeps_adapted_vocabulary_as_keras_stores_it(tmp_path):
    vectorize = layers.TextVectorization(max_tokens=12, output_sequence_length=4)
    vectorize.adapt(CORPUS)
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype="string"), vectorize])
    path = str(tmp_path / "m.keras")
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        text = archive.read("assets/layers/text_vectorization/_lookup_layer/vocabulary.txt").decode()
    assert "assets/layers/text_vectorization/vocabulary.txt" in names
    assert text.split("\n") == vectorize.get_vocabulary()
    restored = tf.keras.models.load_model(path)
    queries = tf.constant([["the cat ate"], ["friends"]])
    np.testing.assert_array_equal(restored(queries).numpy(), model(queries).numpy())


def test_multi_hot_vectors_feed_dense_as_in_keras():
    """int64 multi_hot / one_hot outputs go straight into Dense (Keras 3's matmul promotes them to float32)."""
    vectorize = layers.TextVectorization(output_mode="multi_hot", max_tokens=8)
    vectorize.adapt(["good fine", "bad poor", "good"])
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype="string"), vectorize,
                                 layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    out = model(tf.constant([["good good bad"], ["zzz"]]))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[2.0], [1.0]])  # 'good' and 'bad' once each; '[UNK]' once
    lookup_input = tf.keras.Input(shape=(), dtype="string")
    encoded = layers.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")(lookup_input)
    functional = tf.keras.Model(lookup_input, layers.Dense(2, kernel_initializer="ones")(encoded))
    np.testing.assert_array_equal(functional(tf.constant(["a", "q"])).numpy(), [[1, 1], [1, 1]])
