"""tf.feature_column as TF 2.21 consumes it without Keras 2: columns fed through tf.compat.v1.feature_column's
input_layer (eagerly, in tf.function, in a TF1 graph) and linear_model, TF's hashed ids (hash buckets, crossed
columns, vocabulary OOV buckets), parse specs, names and TF's errors. The migrating_feature_columns guide's
feature-column cells call Keras 2's DenseFeatures, which TF 2.21 lacks: here they run through input_layer."""

from __future__ import annotations

import math
import os
import tempfile

from . import outcome, program, val


def _table(rows, cols):
    return [[round(i * 0.1 + j, 3) for j in range(cols)] for i in range(rows)]


@program
def p_feature_column_dense_hash_cross(tf):
    fc = tf.feature_column
    cols = [fc.numeric_column("a"), fc.indicator_column(fc.categorical_column_with_hash_bucket("s", 5)),
            fc.indicator_column(fc.crossed_column(["s", fc.bucketized_column(fc.numeric_column("a"), [0., 1.])], 7))]
    feats = {"a": tf.constant([[0.5], [2.0], [-1.0]]), "s": tf.constant([["x"], ["hello"], ["x"]])}
    layer = tf.compat.v1.feature_column.input_layer
    traced = tf.function(lambda f: layer(f, cols))
    return [val(layer(feats, cols)), val(traced(feats))]


@program
def p_feature_column_categorical_kinds(tf):
    fc = tf.feature_column
    il = tf.compat.v1.feature_column.input_layer
    ident = fc.categorical_column_with_identity("a", 4)
    return [
        val(il({"a": [[7], [1], [-3]]}, [fc.indicator_column(ident)])),
        val(il({"a": [[7, 1], [2, -1]]}, [fc.indicator_column(fc.categorical_column_with_identity("a", 4, 0))])),
        val(il({"h": [[3, 55]]}, [fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 6, tf.int64))])),
        val(il({"h": tf.constant([["a", "b", ""], ["zebra", "", ""]])},
               [fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 100))])),
        val(il({"n": [[1., 2.], [3., 4.]]}, [fc.numeric_column("n", shape=2),
                                             fc.bucketized_column(fc.numeric_column("n", shape=2), [2.5])])),
        val(il({"v": [[3, 99, -1]]}, [fc.indicator_column(
            fc.categorical_column_with_vocabulary_list("v", [3, 4], num_oov_buckets=3))])),
        val(il({"v": [["x", "zz", ""]]}, [fc.indicator_column(
            fc.categorical_column_with_vocabulary_list("v", ["x", "y"], default_value=1))])),
        val(il({"v": [["emerson", "king", "crimson", "lake"]]}, [fc.indicator_column(
            fc.categorical_column_with_vocabulary_list("v", ["emerson", "lake", "palmer"], num_oov_buckets=4))])),
        val(il({"s": [["a", "b"], ["c", ""]], "i": [[1], [2]]},
               [fc.indicator_column(fc.crossed_column(["s", "i"], 10))])),
        val(il({"s": [["a"], ["c"]], "i": [[1], [2]], "k": [["u"], ["v"]]},
               [fc.indicator_column(fc.crossed_column([fc.crossed_column(["s", "i"], 10), "k"], 11, hash_key=7))])),
        val(il({"b": [[0.5, 3.0]], "v": [["x"]]}, [fc.indicator_column(fc.crossed_column(
            [fc.bucketized_column(fc.numeric_column("b", shape=2), [1.0, 2.0]),
             fc.categorical_column_with_vocabulary_list("v", ["x", "y"])], 13))])),
    ]


@program
def p_feature_column_vocabulary_file(tf):
    fc = tf.feature_column
    il = tf.compat.v1.feature_column.input_layer
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    handle.write("emerson\nlake\npalmer\ncrimson\n")
    handle.close()
    try:
        full = fc.categorical_column_with_vocabulary_file("w", handle.name)
        part = fc.categorical_column_with_vocabulary_file("w", handle.name, vocabulary_size=2, num_oov_buckets=3)
        v1 = tf.compat.v1.feature_column.categorical_column_with_vocabulary_file("w", handle.name, 3, 2)
        feats = {"w": [["palmer", "crimson"], ["tarkus", "lake"]]}
        return [full.num_buckets, part.num_buckets, v1.num_buckets, val(il(feats, [fc.indicator_column(full)])),
                val(il(feats, [fc.indicator_column(part)])), val(il(feats, [fc.indicator_column(v1)]))]
    finally:
        os.remove(handle.name)


@program
def p_feature_column_weighted_and_embedding(tf):
    fc = tf.feature_column
    il = tf.compat.v1.feature_column.input_layer
    ids = tf.constant([[5, 11, 5, 17, 17], [3, 3, -1, -1, -1]])
    weights = tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2], [1.0, 2.0, 0.0, 0.0, 0.0]])
    cat = fc.categorical_column_with_identity("ids", num_buckets=20)
    weighted = fc.weighted_categorical_column(cat, "weights")
    feats = {"ids": ids, "weights": weights}
    out = [val(il(feats, fc.indicator_column(weighted)))]
    for combiner in ("mean", "sum", "sqrtn"):
        init = tf.constant_initializer(_table(20, 4))
        out.append(val(il(feats, fc.embedding_column(weighted, 4, combiner=combiner, initializer=init))))
        out.append(val(il(feats, fc.embedding_column(cat, 4, combiner=combiner, initializer=init))))
    cols_to_vars = {}
    il(feats, [fc.embedding_column(cat, 3)], cols_to_vars=cols_to_vars)
    out.append([[c.name, [v.shape.as_list() for v in vs]] for c, vs in cols_to_vars.items()])
    return out


@program
def p_feature_column_graph_linear_model_and_shared(tf):
    fc = tf.feature_column
    a, b = fc.categorical_column_with_identity("a", 4), fc.categorical_column_with_identity("b", 4)
    eager_shared = outcome(lambda: fc.shared_embeddings([a, b], 2), "not supported when eager")
    with tf.Graph().as_default():
        shared = tf.compat.v1.feature_column.shared_embedding_columns(
            [a, b], 2, initializer=tf.constant_initializer(_table(4, 2)))
        out = tf.compat.v1.feature_column.input_layer({"a": [[1], [0]], "b": [[2], [3]]}, shared)
        v2_shared = fc.shared_embeddings([a, b], 2)
        refused = outcome(lambda: tf.compat.v1.feature_column.input_layer({"a": [[1]], "b": [[2]]}, v2_shared),
                          "SharedEmbeddingColumns are not supported")
        cols_to_vars = {}
        linear = tf.compat.v1.feature_column.linear_model(
            {"a": [[1], [3]], "n": [[2.], [3.]], "s": [["x"], ["y"]]},
            [a, fc.numeric_column("n"), fc.crossed_column(["s", a], 6)], units=2, cols_to_vars=cols_to_vars)
        names = [v.name for v in tf.compat.v1.global_variables()]
        assigns = [vs[0].assign(tf.reshape(tf.range(vs[0].shape.num_elements(), dtype=tf.float32),
                                           vs[0].shape) * 0.5) for vs in cols_to_vars.values()]
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            before = sess.run(linear).tolist()
            sess.run(assigns)
            return [eager_shared, refused, names, sess.run(out).tolist(), before, sess.run(linear).tolist(),
                    sorted(k if isinstance(k, str) else k.name for k in cols_to_vars)]


@program
def p_feature_column_specs_names_errors(tf):
    fc = tf.feature_column
    a, b = fc.categorical_column_with_identity("a", 4), fc.categorical_column_with_identity("b", 4)
    il = tf.compat.v1.feature_column.input_layer
    columns = [fc.embedding_column(a, 3), fc.crossed_column(["s", fc.bucketized_column(fc.numeric_column("n"),
                                                                                         [1.])], 4),
               fc.weighted_categorical_column(b, "w"), fc.sequence_numeric_column("q", default_value=1.),
               fc.numeric_column("m", shape=(2,), default_value=3, dtype=tf.int64),
               fc.sequence_categorical_column_with_hash_bucket("t", 9)]
    spec = fc.make_parse_example_spec(columns)
    return [
        {k: str(v) for k, v in spec.items()}, list(spec), [c.name for c in columns],
        [repr(fc.numeric_column("a", shape=2, default_value=1.)), repr(b),
         repr(fc.bucketized_column(fc.numeric_column("a"), [0, 1])), repr(fc.categorical_column_with_hash_bucket(
             "h", 3)), repr(fc.categorical_column_with_vocabulary_list("v", ["x", "y"], num_oov_buckets=2))],
        fc.crossed_column(["s", "t"], 5) == fc.crossed_column(["s", "t"], 5),
        outcome(lambda: il({"q": [[1]]}, [fc.indicator_column(fc.sequence_categorical_column_with_identity("q", 3))]),
                "must not be of type _SequenceCategoricalColumn"),
        outcome(lambda: il({"q": [[1.]]}, [fc.sequence_numeric_column("q")]), "Items of feature_columns must be"),
        outcome(lambda: il({"a": [[1]]}, [a]), "must be a _DenseColumn"),
        outcome(lambda: il({"a": [[1]]}, []), "must not be empty"),
        outcome(lambda: il({"x": 1.0}, [fc.numeric_column("x")]), "cannot have rank 0"),
        outcome(lambda: il({"x": [[1.0]], "y": [[1.], [2.]]}, [fc.numeric_column("x"), fc.numeric_column("y")]),
                "Batch size (first dimension) of each feature must be same"),
        outcome(lambda: il({"a": [["x"]]}, [fc.indicator_column(a)]), "Invalid input, not integer"),
        outcome(lambda: il({"h": [[3, 55]]}, [fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 6))]),
                "dtype must be compatible"),
        outcome(lambda: il({"a": [[1]]}, [fc.indicator_column(fc.weighted_categorical_column(a, "w"))]),
                "Feature w is not in features dictionary"),
        outcome(lambda: fc.crossed_column(["s"], 3), "keys must be a list with length > 1"),
        outcome(lambda: fc.crossed_column(["s", fc.categorical_column_with_hash_bucket("x", 3)], 3),
                "is not supported for crossing"),
        outcome(lambda: fc.embedding_column(a, 0), "Invalid dimension 0"),
        outcome(lambda: fc.bucketized_column(fc.numeric_column("x"), [3, 1]), "boundaries must be a sorted list"),
        outcome(lambda: fc.bucketized_column(a, [1]), "must be a column generated with numeric_column()"),
        outcome(lambda: fc.categorical_column_with_vocabulary_list("v", ["a", "a"]), "Duplicate keys"),
        outcome(lambda: fc.numeric_column("v", dtype=tf.string), "dtype must be convertible to float"),
        outcome(lambda: fc.make_parse_example_spec([fc.numeric_column("x"), fc.numeric_column("x", shape=2)]),
                "different parse_spec for key x"),
        outcome(lambda: fc.categorical_column_with_identity("x", 0), "num_buckets 0 < 1"),
        outcome(lambda: fc.categorical_column_with_identity("x", 3, default_value=3), "not in range [0, 3)"),
        outcome(lambda: fc.categorical_column_with_hash_bucket("x", 0), "hash_bucket_size must be at least 1"),
        outcome(lambda: fc.weighted_categorical_column(a, "w", dtype=tf.string), "is not convertible to float"),
        outcome(lambda: fc.categorical_column_with_vocabulary_list("v", ["a"], default_value=0, num_oov_buckets=2),
                "Can't specify both num_oov_buckets and default_value"),
        outcome(lambda: fc.make_parse_example_spec([1]), "must be FeatureColumn instances"),
        outcome(lambda: fc.numeric_column("m", default_value=3.5, dtype=tf.int64), "default_value must be compatible"),
    ]


@program
def p_feature_column_in_dataset_map(tf):
    fc = tf.feature_column
    columns = [fc.indicator_column(fc.categorical_column_with_vocabulary_list("c", ["a", "b"], num_oov_buckets=2)),
               fc.bucketized_column(fc.numeric_column("x"), [0.0, 10.0])]
    data = tf.data.Dataset.from_tensor_slices({"c": [["a"], ["q"], ["b"]], "x": [[-1.0], [5.0], [50.0]]})
    mapped = data.batch(2).map(lambda f: tf.compat.v1.feature_column.input_layer(f, columns))
    return [val(batch) for batch in mapped]


@program
def p_feature_column_parse_example_then_input_layer(tf):
    fc = tf.feature_column
    columns = [fc.numeric_column("age"), fc.indicator_column(fc.categorical_column_with_vocabulary_list(
        "color", ["red", "green"], num_oov_buckets=1)), fc.embedding_column(
        fc.categorical_column_with_hash_bucket("word", 10), 2, combiner="sum",
        initializer=tf.constant_initializer(_table(10, 2)))]
    def example(age, colors, words):
        return tf.train.Example(features=tf.train.Features(feature={
            "age": tf.train.Feature(float_list=tf.train.FloatList(value=[age])),
            "color": tf.train.Feature(bytes_list=tf.train.BytesList(value=[c.encode() for c in colors])),
            "word": tf.train.Feature(bytes_list=tf.train.BytesList(value=[w.encode() for w in words]))}))
    serialized = [example(31., ["red", "blue"], ["a", "b", "c"]).SerializeToString(),
                  example(7., ["green"], []).SerializeToString()]
    parsed = tf.io.parse_example(serialized, fc.make_parse_example_spec(columns))
    return val(tf.compat.v1.feature_column.input_layer(parsed, columns))


@program
def p_feature_column_migration_guide_cells(tf):
    fc = tf.compat.v1.feature_column
    def call_feature_columns(feature_columns, inputs):
        return fc.input_layer(inputs, feature_columns)
    input_dict = {"foo": tf.constant([1]), "bar": tf.constant([0]), "baz": tf.constant([-1])}
    columns = [fc.numeric_column("foo"), fc.numeric_column("bar"), fc.numeric_column("baz")]
    out = [val(call_feature_columns(columns, input_dict))]
    out.append(val(call_feature_columns(fc.indicator_column(fc.categorical_column_with_identity("type", 3)),
                                        {"type": [0, 1, 2]})))
    numeric_col = fc.numeric_column("col", normalizer_fn=lambda x: (x - 2.0) / math.sqrt(1.0))
    out.append(val(call_feature_columns(numeric_col, {"col": tf.constant([[0.], [1.], [2.]])})))
    bucketized = fc.bucketized_column(fc.numeric_column("col"), [1, 4, 5])
    out.append(val(call_feature_columns(bucketized, {"col": tf.constant([1., 2., 3., 4., 5.])})))
    vocab_col = fc.categorical_column_with_vocabulary_list("sizes", vocabulary_list=["small", "medium", "large"],
                                                           num_oov_buckets=0)
    out.append(val(call_feature_columns(fc.indicator_column(vocab_col), {"sizes": ["small", "medium", "large"]})))
    embedding_col = fc.embedding_column(vocab_col, 4, initializer=tf.constant_initializer(_table(3, 4)))
    out.append(val(call_feature_columns(embedding_col, {"sizes": ["small", "medium", "large"]})))
    ids = tf.constant([[5, 11, 5, 17, 17]])
    weights = tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2]])
    weighted = fc.weighted_categorical_column(fc.categorical_column_with_identity("ids", num_buckets=20), "weights")
    out.append(val(call_feature_columns(fc.indicator_column(weighted), {"ids": ids, "weights": weights})))
    out.append(val(call_feature_columns(fc.embedding_column(weighted, 4, combiner="mean",
                                                            initializer=tf.constant_initializer(_table(20, 4))),
                                        {"ids": ids, "weights": weights})))
    return out
