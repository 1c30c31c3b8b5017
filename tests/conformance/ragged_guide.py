"""TF's ragged tensor guide (site/en/guide/ragged_tensor.ipynb), cell by cell where tinytf once differed: ragged
tf.tile / tf.concat along axis 1 / tf.reverse, tf.nn.embedding_lookup and tf.strings.join with ragged operands,
indexing and slicing of ragged dimensions, tf.ragged.range in tf.data's map, RaggedTensorSpec signatures, the
broadcasting rules and their errors, DynamicRaggedShape (tf.shape, slices, from_lengths, tf.zeros/ones/fill/reshape
with one), RowPartition, RaggedTensor.from_uniform_row_length, and a mixed-type tf.ragged.constant."""

from __future__ import annotations

import tempfile

from . import outcome, program, val


def _texts(x):
    if isinstance(x, list):
        return [_texts(v) for v in x]
    return x.decode() if isinstance(x, bytes) else x


def _rt(x):
    """A RaggedTensor as its rows (Python lists) and its shape, a Tensor as val()."""
    if hasattr(x, "to_list"):
        return {"rows": _texts(x.to_list()), "shape": str(x.shape), "dtype": x.dtype.name}
    if x.dtype.name == "string":
        return [x.dtype.name, x.shape.as_list(), _texts(x.numpy().tolist())]
    return val(x)


@program
def p_ragged_guide_overview_ops(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
    return [_rt(tf.add(digits, 3)), _rt(tf.reduce_mean(digits, axis=1)), _rt(tf.concat([digits, [[5, 3]]], axis=0)),
            _rt(tf.tile(digits, [1, 2])), _rt(tf.strings.substr(words, 0, 2)), _rt(tf.map_fn(tf.math.square, digits)),
            _rt(tf.tile(digits, [2, 3]))]


@program
def p_ragged_guide_mixed_types(tf):
    return [outcome(lambda: tf.ragged.constant([["one", "two"], [3, 4]]), "mixed types"),
            outcome(lambda: tf.ragged.constant(["A", ["B", "C"]]), "nesting depth")]


@program
def p_ragged_guide_embeddings_bigrams(tf):
    queries = tf.ragged.constant([["Who", "is", "Dan", "Smith"], ["Pause"], ["Will", "it", "rain", "later", "today"]])
    table = tf.reshape(tf.range(1024 * 4, dtype=tf.float32) / 4096.0, [1024, 4])
    word_buckets = tf.strings.to_hash_bucket_fast(queries, 1024)
    word_embeddings = tf.nn.embedding_lookup(table, word_buckets)
    marker = tf.fill([queries.nrows(), 1], "#")
    padded = tf.concat([marker, queries, marker], axis=1)
    bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator="+")
    bigram_embeddings = tf.nn.embedding_lookup(table, tf.strings.to_hash_bucket_fast(bigrams, 1024))
    all_embeddings = tf.concat([word_embeddings, bigram_embeddings], axis=1)
    return [_rt(padded), _rt(bigrams), _rt(word_embeddings), val(tf.reduce_mean(all_embeddings, axis=1))]


@program
def p_ragged_guide_indexing(tf):
    queries = tf.ragged.constant([["Who", "is", "George", "Washington"], ["What", "is", "the", "weather", "tomorrow"],
                                  ["Goodnight"]])
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    return [_rt(queries[1]), queries[1, 2].numpy().decode(), _rt(queries[1:]), _rt(queries[:, :3]),
            _rt(queries[:, -2:]),
            _rt(rt[1]), _rt(rt[3, 0]), _rt(rt[:, 1:3]), _rt(rt[:, -1:]), _rt(rt[:, ::-1]), _rt(rt[:, ::2]),
            _rt(rt[1:, :, 0:1]), _rt(rt[:, :, -2::-1]), _rt(rt[:, 5:-7:-2]),
            outcome(lambda: rt[:, 0], "inner ragged dimension"), outcome(lambda: rt[..., 0], "inner ragged")]


@program
def p_ragged_guide_indexing_uniform_inner(tf):
    d = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    graph = tf.function(lambda x: x[:, 1:, ::-1])
    return [_rt(d[:, :, 0]), _rt(d[:, :, 1:]), _rt(d[..., 1]), _rt(graph(d)),
            outcome(lambda: d[:, 0], "inner ragged dimension")]


@program
def p_ragged_guide_tile_reverse_concat(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    r3 = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    d3 = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    return [_rt(tf.tile(r3, [1, 2, 2])), _rt(tf.tile(d3, [2, 1, 2])), _rt(tf.reverse(digits, [1])),
            _rt(tf.reverse(digits, [0])), _rt(tf.reverse(r3, [2])), _rt(tf.reverse(r3, [0, 1, 2])),
            _rt(tf.reverse(d3, [-1])), _rt(tf.concat([digits, digits * 10], axis=1)),
            _rt(tf.concat([r3, r3], axis=2)), _rt(tf.concat([r3, r3], axis=-1)), _rt(tf.concat([d3, d3 * 10], axis=2)),
            _rt(tf.concat([tf.fill([5, 1], 7), digits], axis=1)), _rt(tf.gather(digits, [2, 0])),
            _rt(tf.gather([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], digits))]


@program
def p_ragged_guide_palindrome_function(tf):
    @tf.function
    def make_palindrome(x, axis):
        return tf.concat([x, tf.reverse(x, [axis])], axis)

    r3 = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    return [val(make_palindrome(tf.constant([[1, 2], [3, 4], [5, 6]]), axis=1)),
            _rt(make_palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1)),
            _rt(make_palindrome(r3, axis=2)), _rt(tf.function(lambda x: tf.tile(x, [2, 2]))(r3[1]))]


@program
def p_ragged_guide_range_in_dataset(tf):
    dataset = tf.data.Dataset.from_tensor_slices({"lengths": tf.ragged.constant([[7], [], [1, 3], [3, 5, 2]])})

    def transform_lengths(features):
        return {"mean_length": tf.math.reduce_mean(features["lengths"]),
                "length_ranges": tf.ragged.range(features["lengths"])}

    out = []
    for element in dataset.map(transform_lengths):
        out.append([val(element["mean_length"]), _rt(element["length_ranges"])])
    return out


@program
def p_ragged_guide_range_docstring(tf):
    return [_rt(tf.ragged.range([3, 5, 2])), _rt(tf.ragged.range([0, 5, 8], [3, 3, 12])),
            _rt(tf.ragged.range(0, [3, 3, 5], 2)), _rt(tf.ragged.range([0.5, 1], 3.0, 0.75)),
            val(tf.ragged.range(3, dtype=tf.int64, row_splits_dtype=tf.int32).row_splits),
            _rt(tf.ragged.range(5, -1, [-1, -2])), _rt(tf.ragged.range(tf.constant([3, 1], tf.int64), 7.0)),
            _rt(tf.ragged.range(tf.constant([], tf.int32))),
            outcome(lambda: tf.ragged.range(5, 1, 0), "delta != 0")]


@program
def p_ragged_guide_saved_model(tf):
    class CustomModule(tf.Module):
        def __init__(self, variable_value):
            super().__init__()
            self.v = tf.Variable(variable_value)

        @tf.function
        def grow(self, x):
            return x * self.v

    class Signature(tf.Module):
        @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
        def row_max(self, rt):
            return tf.reduce_max(rt, axis=1), rt + 1

    module = CustomModule(100.0)
    module.grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32))
    path = tempfile.mkdtemp()
    tf.saved_model.save(module, path)
    restored = tf.saved_model.load(path)  # kept: a loaded function needs its object's variables alive
    grown = restored.grow(tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]]))
    path = tempfile.mkdtemp()
    signature_module = Signature()
    tf.saved_model.save(signature_module, path)
    loaded = tf.saved_model.load(path)
    rt = tf.ragged.constant([[1, 4, 3], [2], [5]])
    row_max, plus_one = loaded.row_max(rt)
    served = loaded.signatures["serving_default"](rt=rt.flat_values, rt_1=rt.row_splits)
    return [_rt(grown), val(row_max), _rt(plus_one), sorted(served), val(served["output_0"]),
            _rt(served["output_1"])]


@program
def p_ragged_guide_broadcasting(tf):
    x4 = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)
    x3 = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    return [_rt(tf.ragged.constant([[1, 2], [3]]) + 3),
            _rt(tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]]) + [[1000], [2000], [3000]]),
            _rt(x3 + tf.constant([[10]])), _rt(tf.constant([[10]]) + x3), _rt(x3 + tf.constant([[[1, 2]], [[3, 4]]])),
            _rt(x3 + tf.constant([10, 20])), _rt(x4 + tf.constant([10, 20, 30])),
            _rt(tf.constant([[[[1]]], [[[2]]]]) + x4), _rt(5 - x3), _rt(x3 * tf.constant(2))]


@program
def p_ragged_guide_broadcasting_errors(tf):
    x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])
    x3 = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    dense = tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    a = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    b = tf.ragged.constant([[10, 20], [30, 40], [50]])
    c = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10]]])
    d = tf.ragged.constant([[[1, 2, 0], [3, 4, 0], [5, 6, 0]], [[7, 8, 0], [9, 10, 0]]])

    def message(fn):
        try:
            fn()
        except tf.errors.InvalidArgumentError as e:
            return str(e)
        return "no error"

    return [message(lambda: x + dense), message(lambda: a + b), message(lambda: c + d),
            outcome(lambda: x + tf.constant([[1], [2]]), "did not hold"),
            outcome(lambda: x + tf.constant([1, 2]), "did not hold"),
            outcome(lambda: x3 + tf.constant([[1], [2]]), "did not hold"),
            outcome(lambda: x + tf.ragged.constant([[1], [2], [3]]), "did not hold")]


@program
def p_ragged_guide_dynamic_shape(tf):
    x = tf.constant([["a", "b"], ["c", "d"], ["e", "f"]])
    rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])
    rt_shape = tf.shape(rt)
    x = tf.constant(["a", "b", "c", "d", "e", "f"])
    out = [repr(rt_shape), _rt(tf.reshape(x, rt_shape)), _rt(tf.zeros(rt_shape)), _rt(tf.ones(rt_shape)),
           _rt(tf.fill(rt_shape, "x")), val(rt_shape[0]), outcome(lambda: rt_shape[1], "not uniform"),
           repr(rt_shape[:1]), rt_shape.rank, rt_shape.num_row_partitions, rt_shape.dtype.name]
    made = tf.experimental.DynamicRaggedShape(
        row_partitions=[tf.experimental.RowPartition.from_row_lengths([5, 3, 2])], inner_shape=[10, 8])
    lengths = tf.experimental.DynamicRaggedShape.from_lengths([4, (2, 1, 0, 8), 12])
    uniform = tf.experimental.DynamicRaggedShape.from_lengths([2, 3, 4])
    return out + [repr(made), repr(lengths), lengths.static_lengths(), val(lengths.inner_shape), repr(lengths[:2]),
                  repr(lengths[:-1]), val(lengths[2]), val(lengths[-1]), repr(uniform[1:]), val(uniform[1]),
                  outcome(lambda: lengths[1:], "must be uniform"),
                  repr(tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), 4], num_row_partitions=2)),
                  repr(tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), (1, 1, 1, 1)])),
                  repr(tf.experimental.DynamicRaggedShape(row_partitions=[], inner_shape=[3, 4])),
                  _rt(tf.zeros(tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), 2]))),
                  _rt(tf.ones(tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1), 2]), tf.int32)),
                  _rt(tf.reshape(tf.range(6), tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 2]))),
                  _rt(tf.fill(tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1)]), 1.5)),
                  val(tf.zeros(tf.experimental.DynamicRaggedShape.from_lengths([2, 3]))),
                  repr(tf.shape(rt).with_dtype(tf.int64)),
                  _rt(tf.function(lambda r: tf.zeros(tf.shape(r)))(rt))]


@program
def p_ragged_guide_row_partition(tf):
    rp = tf.experimental.RowPartition.from_row_lengths([5, 3, 2])
    u = tf.experimental.RowPartition.from_uniform_row_length(3, nvals=9)
    RP = tf.experimental.RowPartition
    return [repr(rp), val(rp.row_splits()), val(rp.nrows()), val(rp.nvals()), rp.dtype.name, rp.static_nrows,
            rp.is_uniform(), rp.uniform_row_length(), repr(u), u.is_uniform(), val(u.uniform_row_length()),
            val(u.row_lengths()), int(u.static_uniform_row_length), val(u.value_rowids()), val(u.offsets_in_rows()),
            val(RP.from_value_rowids([0, 0, 2, 2, 2], nrows=4).row_splits()),
            val(RP.from_row_splits([0, 2, 2, 5]).value_rowids()), val(RP.from_row_starts([0, 2, 2], 5).row_lengths()),
            val(RP.from_row_limits([2, 2, 5]).row_lengths()),
            val(RP.from_row_lengths([2, 3], dtype=tf.int32).row_splits())]


@program
def p_ragged_guide_uniform_row_length(tf):
    rt = tf.RaggedTensor.from_uniform_row_length(
        values=tf.RaggedTensor.from_row_splits(values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
                                               row_splits=[0, 3, 5, 9, 10]),
        uniform_row_length=2)
    return [_rt(rt), rt.ragged_rank, val(rt.uniform_row_length), val(rt.row_splits),
            str(tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 3).shape),
            _rt(tf.RaggedTensor.from_uniform_row_length(tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]]), 2)),
            outcome(lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 0, nrows=3), "must equal"),
            repr(tf.shape(rt)), val(tf.shape(rt)[1])]


@program
def p_ragged_guide_keras_lstm_use_bias_roundtrip(tf):
    model = tf.keras.Sequential([tf.keras.layers.Embedding(50, 4, mask_zero=True),
                                 tf.keras.layers.LSTM(3, return_sequences=True, use_bias=False),
                                 tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(1)])
    model(tf.zeros([2, 3], tf.int32))
    path = tempfile.mkdtemp() + "/m.keras"
    model.save(path)
    restored = tf.keras.models.load_model(path)
    lstm = restored.layers[1]
    return [lstm.get_config()["use_bias"], len(lstm.weights), [w.shape.as_list() for w in lstm.weights]]


@program
def p_ragged_fill_empty_rows_top_level(tf):
    r = tf.ragged_fill_empty_rows(value_rowids=tf.constant([0, 0, 2, 2, 4], tf.int64),
                                  values=tf.constant([1, 2, 3, 4, 5]), nrows=tf.constant(6, tf.int64),
                                  default_value=tf.constant(-1))
    grad = tf.ragged_fill_empty_rows_grad(reverse_index_map=r.reverse_index_map,
                                          grad_values=tf.constant([1.0, 2, 3, 4, 5, 6, 7, 8]))
    empty = tf.ragged_fill_empty_rows(tf.constant([], tf.int64), tf.constant([], tf.float32), 2, 7.0)
    traced = tf.function(tf.ragged_fill_empty_rows)(tf.constant([1, 3], tf.int64), tf.constant([1.0, 2.0]),
                                                    tf.constant(4, tf.int64), tf.constant(0.0))
    return [val(list(r)), val(list(grad)), val(list(empty)), val(list(traced)),
            outcome(lambda: tf.ragged_fill_empty_rows([1, 1], [[1.0, 2], [3, 4]], 3, 0.5), "must be a vector"),
            outcome(lambda: tf.ragged_fill_empty_rows(tf.constant([0], tf.int32), [1], 2, 0), "dtype int64")]


@program
def p_ragged_assertions_and_broadcast_to(tf):
    a = tf.ragged.constant([[1, 2], [3]])
    s = tf.shape(tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]]))
    s2 = tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 3])
    return [outcome(lambda: tf.debugging.assert_equal(a, tf.ragged.constant([[1, 2], [3]])), ""),
            outcome(lambda: tf.debugging.assert_equal(a, tf.ragged.constant([[1, 5], [3]])), "did not hold"),
            outcome(lambda: tf.debugging.assert_equal(a, tf.ragged.constant([[1], [2, 3]])), "did not hold"),
            outcome(lambda: tf.debugging.assert_less(a, 5), ""),
            outcome(lambda: tf.debugging.assert_less(a, 2), "x < y did not hold"),
            outcome(lambda: tf.assert_greater(a, tf.constant([[0], [2]])), ""),
            _rt(tf.broadcast_to(tf.constant(7), s)), _rt(tf.broadcast_to(tf.constant([[1], [2], [3], [4]]), s)),
            _rt(tf.broadcast_to(tf.constant("a"), s)), _rt(tf.broadcast_to(tf.constant([1, 2, 3]), s2))]
