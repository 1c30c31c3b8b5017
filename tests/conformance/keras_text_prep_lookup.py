"""Keras' lookup and encoding preprocessing layers as TF 2.21 ships them (Keras 3): StringLookup, IntegerLookup
and CategoryEncoding with the examples of their API docs, adapt() orderings, output modes and errors."""

from __future__ import annotations

import numpy as np

from . import outcome, program
from . import val as _val


def val(x):
    """A tensor as [dtype, shape, values] with string values decoded (bytes are not JSON)."""
    result = _val(x)
    if isinstance(result, list) and len(result) == 3 and result[0] == "string":
        return [result[0], result[1], _decoded(result[2])]
    return result


def _decoded(values):
    if isinstance(values, list):
        return [_decoded(v) for v in values]
    return values.decode() if isinstance(values, bytes) else values


def _vocab(layer):
    return [v if isinstance(v, (str, int)) else int(v) for v in layer.get_vocabulary()]


@program
def p_string_lookup_docs(tf):
    layers = tf.keras.layers
    vocab = ["a", "b", "c", "d"]
    data = [["a", "c", "d"], ["d", "z", "b"]]
    out = [val(layers.StringLookup(vocabulary=vocab)(data))]
    adapted = layers.StringLookup()
    adapted.adapt([["a", "c", "d"], ["d", "z", "b"]])
    out.append(adapted.get_vocabulary())
    out.append(val(adapted(data)))
    two_oov = layers.StringLookup(vocabulary=vocab, num_oov_indices=2)
    out.append(val(two_oov([["a", "c", "d"], ["m", "z", "b"]])))
    data4 = [["a", "c", "d", "d"], ["d", "z", "b", "z"]]
    out.append(val(layers.StringLookup(vocabulary=vocab, output_mode="one_hot")(["a", "b", "c", "d", "z"])))
    out.append(val(layers.StringLookup(vocabulary=vocab, output_mode="multi_hot")(data4)))
    out.append(val(layers.StringLookup(vocabulary=vocab, output_mode="count")(data4)))
    tfidf = layers.StringLookup(output_mode="tf_idf", vocabulary=vocab, idf_weights=[0.25, 0.75, 0.6, 0.4])
    out.append(val(tfidf(data4)))
    tfidf2 = layers.StringLookup(output_mode="tf_idf", vocabulary=["[UNK]"] + vocab,
                                 idf_weights=[0.9, 0.25, 0.75, 0.6, 0.4])
    out.append(val(tfidf2(data4)))
    masked = layers.StringLookup(vocabulary=vocab, mask_token="")
    out.append(_vocab(masked))
    out.append(val(masked([["a", "", "d"], ["d", "z", "b"]])))
    inverse = layers.StringLookup(vocabulary=vocab, invert=True)
    out.append(val(inverse([[1, 3, 4], [4, 0, 2]])))
    forward = layers.StringLookup(vocabulary=vocab)
    back = layers.StringLookup(vocabulary=forward.get_vocabulary(), invert=True)
    out.append(val(back(forward([["a", "c", "d"], ["d", "z", "b"]]))))
    out.append([forward.vocabulary_size(), masked.vocabulary_size(), two_oov.vocabulary_size()])
    return out


@program
def p_string_lookup_adapt_orders_by_count_then_token(tf):
    layers = tf.keras.layers
    words = ["the", "cat", "sat", "on", "the", "mat", "the", "cat", "a", "b", "b"]
    layer = layers.StringLookup(max_tokens=5)
    layer.adapt(np.array(words))
    full = layers.StringLookup()
    full.adapt(tf.data.Dataset.from_tensor_slices(words).batch(4))
    masked = layers.StringLookup(mask_token="[MASK]", num_oov_indices=2, oov_token="?")
    masked.adapt(words)
    return [layer.get_vocabulary(), full.get_vocabulary(), full.get_vocabulary(include_special_tokens=False),
            masked.get_vocabulary(), val(masked(["the", "zzz", "[MASK]", "cat"])), layer.vocabulary_size()]


@program
def p_string_lookup_tf_idf_adapt(tf):
    layer = tf.keras.layers.StringLookup(output_mode="tf_idf")
    layer.adapt([["a", "b", "b"], ["b", "c", "c"], ["c", "c", "d"]])
    out = layer([["a", "c", "z"], ["d", "d", "b"]])
    return [layer.get_vocabulary(), [round(float(v), 5) for v in np.asarray(out).reshape(-1)], list(out.shape)]


@program
def p_string_lookup_config_and_function(tf):
    layer = tf.keras.layers.StringLookup(vocabulary=["x", "y"], mask_token="", output_mode="int")
    config = layer.get_config()
    keys = sorted(k for k in config if k not in ("name", "dtype"))
    clone = tf.keras.layers.StringLookup.from_config(config)

    @tf.function
    def look(s):
        return clone(s)

    return [keys, [config[k] for k in keys if k != "trainable"], val(look(tf.constant([["y", "", "q"]])))]


@program
def p_string_lookup_errors(tf):
    layers = tf.keras.layers
    return [
        outcome(lambda: layers.StringLookup(vocabulary=["a", "a"]), "repeated"),
        outcome(lambda: layers.StringLookup(vocabulary=["a"], invert=True, output_mode="one_hot"), "invert"),
        outcome(lambda: layers.StringLookup(max_tokens=1), "max_tokens"),
        outcome(lambda: layers.StringLookup(vocabulary=["a", "b", "c"], max_tokens=3), "larger than the maximum"),
        outcome(lambda: layers.StringLookup(output_mode="bogus"), "output_mode"),
        outcome(lambda: layers.StringLookup(vocabulary=["a"], num_oov_indices=0)(["a", "b"]), "num_oov_indices"),
        outcome(lambda: layers.StringLookup(output_mode="multi_hot")(["a"]), "vocabulary"),
    ]


@program
def p_integer_lookup_docs(tf):
    layers = tf.keras.layers
    vocab = [12, 36, 1138, 42]
    data = np.array([[12, 1138, 42], [42, 1000, 36]])
    out = [val(layers.IntegerLookup(vocabulary=vocab)(data))]
    adapted = layers.IntegerLookup()
    adapted.adapt(np.array([[12, 1138, 42], [42, 1000, 36], [42, 36, 7]]))
    out.append(_vocab(adapted))
    out.append(val(adapted(data)))
    out.append(val(layers.IntegerLookup(vocabulary=vocab, num_oov_indices=2)(np.array([[12, 1138, 42],
                                                                                     [37, 1000, 36]]))))
    out.append(val(layers.IntegerLookup(vocabulary=vocab, output_mode="one_hot")(np.array([12, 36, 1138, 42, 7]))))
    data4 = np.array([[12, 1138, 42, 42], [42, 7, 36, 7]])
    out.append(val(layers.IntegerLookup(vocabulary=vocab, output_mode="multi_hot")(data4)))
    out.append(val(layers.IntegerLookup(vocabulary=vocab, output_mode="count")(data4)))
    masked = layers.IntegerLookup(vocabulary=vocab, mask_token=0)
    out.append(_vocab(masked))
    out.append(val(masked(np.array([[12, 1138, 0], [0, 1000, 36]]))))
    inverse = layers.IntegerLookup(vocabulary=vocab, invert=True)
    out.append(val(inverse(np.array([[1, 3, 4], [4, 0, 2]]))))
    config = layers.IntegerLookup(vocabulary=vocab, mask_token=0).get_config()
    out.append([config["vocabulary"], config["mask_token"], config["oov_token"], config["vocabulary_dtype"]])
    return out


@program
def p_category_encoding_docs(tf):
    layers = tf.keras.layers
    out = [val(layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")([3, 2, 0, 1]))]
    out.append(val(layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")([[0, 1], [0, 0], [1, 2],
                                                                                    [3, 1]])))
    count = layers.CategoryEncoding(num_tokens=4, output_mode="count")
    weights = np.array([[0.1, 0.2], [0.1, 0.1], [0.2, 0.3], [0.4, 0.2]])
    out.append(val(count([[0, 1], [0, 0], [1, 2], [3, 1]], count_weights=weights)))
    out.append(val(count([[0, 1], [0, 0], [1, 2], [3, 1]])))
    out.append(val(layers.CategoryEncoding(num_tokens=3, output_mode="one_hot")([[1], [2]])))
    out.append(val(layers.CategoryEncoding(num_tokens=3, output_mode="multi_hot")([1, 2, 2])))
    config = layers.CategoryEncoding(num_tokens=4, output_mode="count").get_config()
    out.append([config["num_tokens"], config["output_mode"], sorted(config)])
    out.append(outcome(lambda: layers.CategoryEncoding(num_tokens=3)([[0, 5]]), "num_tokens"))
    out.append(outcome(lambda: layers.CategoryEncoding(num_tokens=None), "num_tokens"))
    return out


@program
def p_discretization_docs_and_adapt(tf):
    layers = tf.keras.layers
    x = np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
    out = [val(layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])(x))]
    adapted = layers.Discretization(num_bins=4, epsilon=0.01)
    adapted.adapt(x)
    out.append(adapted.bin_boundaries)
    out.append(val(adapted(x)))
    rng = np.random.RandomState(3)
    big = rng.normal(size=(500, 3)).astype("float32")
    many = layers.Discretization(num_bins=5)
    many.adapt(tf.data.Dataset.from_tensor_slices(big).batch(64))
    out.append([round(b, 5) for b in many.bin_boundaries])
    for mode in ("one_hot", "multi_hot", "count"):
        out.append(val(layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode=mode)(
            np.array([[-1.0, 0.5, 0.7], [2.0, 0.0, 1.0]]))))
    out.append(val(layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode="one_hot")(np.array([-1.0, 2.0]))))
    out.append(val(layers.Discretization(bin_boundaries=[1.0, 2.0])(np.array([[0, 1, 2, 3]]))))
    config = adapted.get_config()
    out.append([config["num_bins"], config["epsilon"], config["output_mode"], config["bin_boundaries"]])
    out.append(outcome(lambda: layers.Discretization(), "num_bins"))
    out.append(outcome(lambda: layers.Discretization(bin_boundaries=[1.0], num_bins=3), "should not be set"))
    out.append(outcome(lambda: layers.Discretization(bin_boundaries=[1.0]).adapt(x), "num_bins"))
    return out


@program
def p_hashing_docs(tf):
    layers = tf.keras.layers
    inp = [["A"], ["B"], ["C"], ["D"], ["E"]]
    out = [val(layers.Hashing(num_bins=3)(inp)),
           val(layers.Hashing(num_bins=3, mask_value="")([["A"], ["B"], [""], ["C"], ["D"]])),
           val(layers.Hashing(num_bins=3, salt=[133, 137])(inp)), val(layers.Hashing(num_bins=3, salt=133)(inp))]
    ints = np.array([[1, 20, 300], [-4, 0, 12345678901]])
    out.append(val(layers.Hashing(num_bins=7)(ints)))
    out.append(val(layers.Hashing(num_bins=7, mask_value=0)(ints)))
    out.append(val(layers.Hashing(num_bins=5)(np.array([[1.7, -2.2, 3.0]]))))
    for mode in ("one_hot", "multi_hot", "count"):
        out.append(val(layers.Hashing(num_bins=4, output_mode=mode)([["a"], ["b"], ["c"]] if mode == "one_hot"
                                                                     else [["a", "b", "a"], ["c", "d", "e"]])))
    out.append(val(layers.Hashing(num_bins=4, dtype="int32")(["x", "y"])))

    @tf.function
    def hashed(x):
        return layers.Hashing(num_bins=11, salt=5)(x)

    out.append(val(hashed(tf.constant(["graph", "mode"]))))
    config = layers.Hashing(num_bins=3, salt=133, mask_value="").get_config()
    out.append([config["num_bins"], config["salt"], config["mask_value"], config["output_mode"]])
    out.append(outcome(lambda: layers.Hashing(num_bins=0), "num_bins"))
    out.append(outcome(lambda: layers.Hashing(num_bins=3, salt="x"), "salt"))
    out.append(outcome(lambda: layers.Hashing(num_bins=3, output_mode="tf_idf"), "output_mode"))
    return out


@program
def p_lookup_layers_with_salt_and_farmhash(tf):
    layers = tf.keras.layers
    words = ["a", "zz", "hello", "world", "b", "q"]
    salted = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=4, salt=[7, 9])
    single = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=4, salt=7)
    farm = layers.IntegerLookup(vocabulary=[1, 2], num_oov_indices=3, oov_method="farmhash")
    farm_salt = layers.IntegerLookup(vocabulary=[1, 2], num_oov_indices=3, oov_method="farmhash", salt=[1, 2])
    ints = np.array([1, 5, -7, 123456, 2])
    return [val(salted(words)), val(single(words)), val(farm(ints)), val(farm_salt(ints)),
            outcome(lambda: layers.IntegerLookup(num_oov_indices=2, salt=3), "farmhash")]


@program
def p_hashed_crossing_docs(tf):
    layers = tf.keras.layers
    feat1 = np.array(["A", "B", "A", "B", "A"])
    feat2 = np.array([101, 101, 101, 102, 102])
    out = [val(layers.HashedCrossing(num_bins=5)((feat1, feat2))),
           val(layers.HashedCrossing(num_bins=5, output_mode="one_hot")((feat1, feat2)))]
    column = np.array([["x"], ["y"], ["z"], ["x"], ["y"]])
    out.append(val(layers.HashedCrossing(num_bins=1000)((feat1[:, None], column))))
    out.append(val(layers.HashedCrossing(num_bins=7)((tf.constant("A"), tf.constant(3, tf.int64)))))
    out.append(val(layers.HashedCrossing(num_bins=9)((feat1, feat2, np.array([-1, 0, 2**40, 7, 7])))))

    @tf.function
    def crossed(a, b):
        return layers.HashedCrossing(num_bins=11)((a, b))

    out.append(val(crossed(tf.constant(["p", "q"]), tf.constant([5, 6], tf.int64))))
    config = layers.HashedCrossing(num_bins=5, output_mode="one_hot").get_config()
    out.append([config["num_bins"], config["output_mode"]])
    out.append(outcome(lambda: layers.HashedCrossing(num_bins=5)(feat1), "list or tuple"))
    out.append(outcome(lambda: layers.HashedCrossing(num_bins=5)((feat1, feat2[:3])), "equal shape"))
    return out
