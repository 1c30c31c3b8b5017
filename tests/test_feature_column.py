"""tf.feature_column through tf.compat.v1.feature_column.input_layer / linear_model: the same columns give the
same outputs eagerly, in tf.function and in a TF1 graph run by a Session; embedding gradients match finite
differences; hashed ids equal tf.strings.to_hash_bucket_fast's. (TF's own outputs: conformance feature_column_*.)"""

import numpy as np
import pytest

import tinytf as tf

fc = tf.feature_column
input_layer = tf.compat.v1.feature_column.input_layer


def _columns():
    words = fc.categorical_column_with_vocabulary_list("w", ["a", "b", "c"], num_oov_buckets=2)
    return [fc.numeric_column("x", shape=2, normalizer_fn=lambda t: t * 2.0),
            fc.bucketized_column(fc.numeric_column("y"), [0.0, 1.0, 2.0]),
            fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 7)),
            fc.indicator_column(fc.crossed_column(["h", words], 11)),
            fc.embedding_column(words, 3, combiner="sqrtn",
                                initializer=tf.constant_initializer(np.arange(15.0).reshape(5, 3) / 10))]


def _features():
    return {"x": np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]], np.float32),
            "y": np.array([[-1.0], [1.5], [7.0]], np.float32),
            "h": np.array([["p", "q"], ["r", ""], ["p", "p"]]),
            "w": np.array([["a", "zz"], ["c", ""], ["", ""]])}


def test_input_layer_eager_function_and_session_agree():
    eager = input_layer(_features(), _columns()).numpy()
    assert eager.shape == (3, 2 + 4 + 7 + 11 + 3)
    # Inside tf.function, columns without variables (an embedding would create one on every call, which
    # tf.function refuses, in TF as here).
    traced = tf.function(lambda f: input_layer(f, _columns()[:4]))({k: tf.constant(v) for k, v in _features().items()})
    np.testing.assert_allclose(traced.numpy(), input_layer(_features(), _columns()[:4]).numpy(), rtol=1e-6)
    with tf.Graph().as_default():
        placeholders = {k: tf.compat.v1.placeholder(tf.as_dtype(v.dtype) if v.dtype != np.dtype("<U2")
                                                    else tf.string, [None, v.shape[1]])
                        for k, v in _features().items()}
        out = input_layer(placeholders, _columns())
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            fed = sess.run(out, {placeholders[k]: v for k, v in _features().items()})
    np.testing.assert_allclose(fed, eager, rtol=1e-6)


def test_columns_against_numpy():
    out = input_layer(_features(), _columns()).numpy()
    # Sorted by name: h_X_w_indicator (11), h_indicator (7), w_embedding (3), x (2), y_bucketized (4).
    np.testing.assert_allclose(out[:, 21:23], _features()["x"] * 2)
    names = sorted(c.name for c in _columns())
    assert names == ["h_X_w_indicator", "h_indicator", "w_embedding", "x", "y_bucketized"]
    buckets = out[:, -4:]
    np.testing.assert_array_equal(buckets.argmax(1), [0, 2, 3])
    hashed = out[:, 11 + 0:11 + 7]   # h_indicator follows the crossed 11
    ids = tf.strings.to_hash_bucket_fast(["p", "q", "r"], 7).numpy()
    expected = np.zeros((3, 7))
    for row, values in enumerate([[ids[0], ids[1]], [ids[2]], [ids[0], ids[0]]]):
        for i in values:
            expected[row, i] += 1
    np.testing.assert_array_equal(hashed, expected)
    table = np.arange(15.0).reshape(5, 3) / 10
    oov = 3 + tf.strings.to_hash_bucket_fast(["zz"], 2).numpy()[0]
    embedded = out[:, 18:21]
    np.testing.assert_allclose(embedded[0], (table[0] + table[oov]) / np.sqrt(2), rtol=1e-6)
    np.testing.assert_allclose(embedded[1], table[2], rtol=1e-6)
    np.testing.assert_allclose(embedded[2], 0.0)


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_embedding_gradient_matches_finite_differences(combiner):
    ids = fc.categorical_column_with_identity("i", 4)
    weighted = fc.weighted_categorical_column(ids, "wt")
    feats = {"i": tf.constant([[0, 2, 2], [3, 1, -1]]), "wt": tf.constant([[0.5, 1.0, 2.0], [1.5, 0.25, 0.0]])}
    start = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float64)
    column = fc.embedding_column(weighted, 3, combiner=combiner, initializer=tf.constant_initializer(start))
    probe = np.linspace(0.3, 1.7, 6).reshape(2, 3)
    with tf.GradientTape() as tape:
        out = input_layer(feats, [column])
        loss = tf.reduce_sum(out * probe)
    (table,) = tape.watched_variables()
    grad = tf.convert_to_tensor(tape.gradient(loss, table)).numpy()

    def numeric_loss(values):
        return float(tf.reduce_sum(input_layer(feats, [fc.embedding_column(
            weighted, 3, combiner=combiner, initializer=tf.constant_initializer(values))]) * probe))
    numeric = np.zeros_like(start)
    for index in np.ndindex(*start.shape):
        step = np.zeros_like(start)
        step[index] = 1e-2
        numeric[index] = (numeric_loss(start + step) - numeric_loss(start - step)) / 2e-2
    np.testing.assert_allclose(grad, numeric, rtol=1e-3, atol=1e-3)


def test_linear_model_in_a_graph_trains():
    with tf.Graph().as_default():
        cols_to_vars = {}
        feats = {"c": tf.constant([[0], [1], [2], [1]]), "n": tf.constant([[1.0], [2.0], [3.0], [4.0]])}
        pred = tf.compat.v1.feature_column.linear_model(
            feats, [fc.categorical_column_with_identity("c", 3), fc.numeric_column("n")], cols_to_vars=cols_to_vars)
        target = tf.constant([[1.0], [2.0], [0.0], [3.0]])
        loss = tf.reduce_mean(tf.square(pred - target))
        train = tf.compat.v1.train.GradientDescentOptimizer(0.05).minimize(loss)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            first = sess.run(loss)
            for _ in range(200):
                sess.run(train)
            assert sess.run(loss) < first * 0.2
    assert sorted(k if isinstance(k, str) else k.name for k in cols_to_vars) == ["bias", "c", "n"]
    assert [v.name for v in cols_to_vars["bias"]] == ["linear_model/bias_weights:0"]


def test_weight_collections_and_trainable():
    with tf.Graph().as_default():
        column = fc.embedding_column(fc.categorical_column_with_identity("c", 3), 2)
        input_layer({"c": [[1]]}, [column], weight_collections=["mine"], trainable=False)
        (table,) = tf.compat.v1.get_collection("mine")
        assert table.name == "input_layer/c_embedding/embedding_weights:0"
        assert not tf.compat.v1.trainable_variables() and tf.compat.v1.global_variables() == [table]


def test_shared_embedding_columns_share_one_table():
    a, b = fc.categorical_column_with_identity("a", 3), fc.categorical_column_with_identity("b", 3)
    with pytest.raises(RuntimeError, match="not supported when eager"):
        tf.compat.v1.feature_column.shared_embedding_columns([a, b], 2)
    with tf.Graph().as_default():
        shared = tf.compat.v1.feature_column.shared_embedding_columns(
            [a, b], 2, initializer=tf.constant_initializer([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
        out = input_layer({"a": [[1]], "b": [[2]]}, shared)
        assert len(tf.compat.v1.global_variables()) == 1
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(out), [[2.0, 3.0, 4.0, 5.0]])
