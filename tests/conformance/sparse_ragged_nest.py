"""SparseTensor, RaggedTensor, tf.nest, tf.map_fn / scan / foldl / foldr / vectorized_map: the `>>>` examples
of TensorFlow's docstrings for these APIs and the sparse/ragged parts of its guides (tensor, ragged_tensor,
sparse_tensor), plus their use as tf.function arguments and loop variables."""

from __future__ import annotations

import collections

import numpy as np

from . import counted, outcome, program, val


def sp(x):
    """A SparseTensor as its three component tensors and its printed form."""
    return {"indices": val(x.indices), "values": val(x.values), "dense_shape": val(x.dense_shape), "str": str(x)}


def rg(x):
    """A RaggedTensor as its rows, its printed form, its static shape and its dtype."""
    return {"list": x.to_list(), "str": str(x), "repr": repr(x), "shape": str(x.shape), "dtype": x.dtype.name}


# --- tf.sparse: the tensor guide and the sparse_tensor guide ------------------------------------------------------
@program
def p_sparse_tensor_guide_print(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    return [str(st), repr(st), val(tf.sparse.to_dense(st))]


@program
def p_sparse_guide_st1(tf):
    st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
    return [sp(st1), str(st1.shape), st1.dtype.name, val(tf.sparse.to_dense(st1))]


@program
def p_sparse_guide_from_dense(tf):
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    return sp(st2)


@program
def p_sparse_guide_add(tf):
    st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
    st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
    st_sum = tf.sparse.add(st_a, st_b)
    return [sp(st_sum), val(tf.sparse.to_dense(st_sum))]


@program
def p_sparse_guide_matmul(tf):
    st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17], dense_shape=(2, 2))
    mb = tf.constant([[4], [6]])
    return val(tf.sparse.sparse_dense_matmul(st_c, mb))


@program
def p_sparse_guide_map_values(tf):
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
    return [sp(st2_plus_5), val(tf.sparse.to_dense(st2_plus_5))]


@program
def p_sparse_guide_with_values(tf):
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    st2_plus_5 = tf.sparse.SparseTensor(st2.indices, st2.values + 5, st2.dense_shape)
    return val(tf.sparse.to_dense(st2_plus_5))


@program
def p_sparse_reduce_sum_docstring(tf):
    x = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 1, 1], [2, 3])
    return [val(tf.sparse.reduce_sum(x)), val(tf.sparse.reduce_sum(x, 0)), val(tf.sparse.reduce_sum(x, 1)),
            val(tf.sparse.reduce_sum(x, 1, keepdims=True)), val(tf.sparse.reduce_sum(x, [0, 1]))]


@program
def p_sparse_reorder(tf):
    st = tf.sparse.SparseTensor(indices=[[2, 1], [0, 3], [1, 0], [0, 1]], values=[4.0, 2.0, 3.0, 1.0],
                                dense_shape=[3, 4])
    return [sp(tf.sparse.reorder(st)), val(tf.sparse.to_dense(tf.sparse.reorder(st)))]


@program
def p_sparse_to_dense_default_value(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 1], [1, 0]], values=[5.0, 6.0], dense_shape=[2, 3])
    return val(tf.sparse.to_dense(st, default_value=-1.0))


@program
def p_sparse_add_threshold(tf):
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 1]], values=[1.0, 0.5], dense_shape=[2, 2])
    b = tf.sparse.SparseTensor(indices=[[0, 0], [1, 1]], values=[0.05, -0.45], dense_shape=[2, 2])
    return sp(tf.sparse.add(a, b, threshold=0.1))


@program
def p_sparse_add_dense(tf):
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 1]], values=[1.0, 2.0], dense_shape=[2, 2])
    return val(tf.sparse.add(a, tf.ones([2, 2])))


@program
def p_sparse_dense_matmul_adjoint(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 1], [2, 0]], values=[2.0, 3.0], dense_shape=[3, 2])
    b = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    return val(tf.sparse.sparse_dense_matmul(st, b, adjoint_a=True))


@program
def p_sparse_type_spec(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0]], values=[1.5], dense_shape=[2, 5])
    return [repr(tf.SparseTensorSpec.from_value(st)), repr(tf.SparseTensorSpec([None, 4], tf.int32)),
            str(st.shape), tf.SparseTensor is tf.sparse.SparseTensor]


@program
def p_sparse_function_argument(tf):
    f, traces = counted(tf, lambda s: tf.sparse.reduce_sum(s, 1) * 2.0)
    a = f(tf.sparse.SparseTensor(indices=[[0, 1]], values=[1.0], dense_shape=[2, 3]))
    b = f(tf.sparse.SparseTensor(indices=[[0, 1], [1, 2]], values=[1.0, 4.0], dense_shape=[2, 3]))
    c = f(tf.sparse.SparseTensor(indices=[[0, 1], [1, 2]], values=[1.0, 4.0], dense_shape=[3, 3]))
    return [val(a), val(b), val(c), len(traces)]


@program
def p_sparse_function_returns_sparse(tf):
    @tf.function
    def double(s):
        return tf.sparse.SparseTensor(s.indices, s.values * 2, s.dense_shape)

    out = double(tf.sparse.SparseTensor(indices=[[0, 1], [1, 0]], values=[1, 2], dense_shape=[2, 2]))
    return [type(out).__name__, sp(out)]


@program
def p_sparse_input_signature(tf):
    @tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)])
    def total(s):
        return tf.sparse.reduce_sum(s, axis=0)

    return val(total(tf.sparse.SparseTensor(indices=[[0, 1], [3, 1]], values=[1.0, 2.0], dense_shape=[4, 3])))


@program
def p_sparse_while_loop_variable(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 1]], values=[1.0, 2.0], dense_shape=[2, 2])

    def body(i, s):
        return i + 1, tf.sparse.SparseTensor(s.indices, s.values * 2.0, s.dense_shape)

    eager = tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), st])[1]

    @tf.function
    def graph(s):
        return tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), s])[1]

    return [val(tf.sparse.to_dense(eager)), val(tf.sparse.to_dense(graph(st)))]


@program
def p_sparse_to_dense_gradient(tf):
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        dense = tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]], v * v, [3, 3]))
        y = tf.reduce_sum(dense * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]))
    return val(tape.gradient(y, v))


@program
def p_sparse_to_dense_out_of_bounds(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 5]], values=[1.0], dense_shape=[2, 2])
    return outcome(lambda: tf.sparse.to_dense(st), "out of bounds")


# --- tf.ragged: the tensor guide and the ragged_tensor guide ---------------------------------------------------
@program
def p_ragged_tensor_guide(tf):
    ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
    ragged_tensor = tf.ragged.constant(ragged_list)
    return [str(ragged_tensor), str(ragged_tensor.shape)]


def _digits(tf):
    return tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])


@program
def p_ragged_guide_math(tf):
    digits = _digits(tf)
    return [rg(tf.add(digits, 3)), val(tf.reduce_mean(tf.cast(digits, tf.float32), axis=1)),
            rg(tf.math.abs(-digits)), val(tf.reduce_max(digits, axis=1)), val(tf.reduce_sum(digits, axis=1))]


@program
def p_ragged_guide_reduce_mean_int(tf):
    return val(tf.reduce_mean(_digits(tf), axis=1))


@program
def p_ragged_guide_operators(tf):
    digits = _digits(tf)
    return [rg(digits + 3), rg(digits + tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], []])),
            rg(digits * 2), rg(3 - digits), rg(digits // 2)]


@program
def p_ragged_guide_map_flat_values(tf):
    digits = _digits(tf)
    times_two_plus_one = lambda x: x * 2 + 1  # noqa: E731 - as in the guide
    return rg(tf.ragged.map_flat_values(times_two_plus_one, digits))


@program
def p_ragged_guide_to_list_and_indexing(tf):
    digits = _digits(tf)
    return [digits.to_list(), val(digits[0]), rg(digits[:, :2]), rg(digits[2:]), val(digits[-2])]


@program
def p_ragged_guide_from_value_rowids(tf):
    return rg(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 3]))


@program
def p_ragged_guide_from_row_lengths(tf):
    return rg(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))


@program
def p_ragged_guide_from_row_splits(tf):
    return rg(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))


@program
def p_ragged_guide_nested(tf):
    rt = tf.RaggedTensor.from_row_splits(
        values=tf.RaggedTensor.from_row_splits(values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
                                               row_splits=[0, 3, 3, 5, 9, 10]),
        row_splits=[0, 1, 1, 5])
    return [rg(rt), rt.ragged_rank, val(list(rt.nested_row_splits)), val(rt.flat_values)]


@program
def p_ragged_guide_from_nested_row_lengths(tf):
    rt = tf.RaggedTensor.from_nested_row_lengths(flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
                                                 nested_row_lengths=([2, 0, 3], [3, 0, 2, 4, 1]))
    return rg(rt)


@program
def p_ragged_guide_uniform_inner_dims(tf):
    rt = tf.RaggedTensor.from_row_splits(values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]],
                                         row_splits=[0, 3, 4, 6])
    return [rt.to_list(), str(rt.shape), rt.ragged_rank, val(rt.values)]


@program
def p_ragged_constant_shapes(tf):
    a = tf.ragged.constant([[[1, 2], [3]], [[4, 5]]])
    b = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    return [str(a.shape), a.ragged_rank, str(b.shape), b.ragged_rank, a.to_list(), b.to_list(),
            tf.ragged.constant([[1.5], []]).dtype.name, str(tf.ragged.constant([[], []]))]


@program
def p_ragged_constant_mixed_depth(tf):
    return outcome(lambda: tf.ragged.constant([[1, 2], [[3]]]), "nesting depth")


@program
def p_ragged_row_partition_methods(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    return [val(rt.row_splits), val(rt.row_lengths()), val(rt.value_rowids()), val(rt.nrows()),
            val(rt.row_starts()), val(rt.row_limits()), val(rt.values), val(rt.bounding_shape())]


@program
def p_ragged_to_tensor_docstring(tf):
    rt = tf.ragged.constant([[9, 8, 7], [], [6, 5], [4]])
    return [val(rt.to_tensor()), val(rt.to_tensor(shape=[5, 2])), val(rt.to_tensor(default_value=-1))]


@program
def p_ragged_from_tensor_docstring(tf):
    dt = tf.constant([[5, 7, 0], [0, 3, 0], [6, 0, 0]])
    return [rg(tf.RaggedTensor.from_tensor(dt)), rg(tf.RaggedTensor.from_tensor(dt, lengths=[1, 0, 3])),
            rg(tf.RaggedTensor.from_tensor(dt, padding=0))]


@program
def p_ragged_bounding_shape_docstring(tf):
    rt = tf.ragged.constant([[1, 2, 3, 4], [5]])
    return [val(rt.bounding_shape()), val(rt.bounding_shape(axis=1))]


@program
def p_ragged_nested_to_tensor(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    return [val(rt.to_tensor()), val(rt.bounding_shape()), rg(rt.row_lengths(axis=2))]


@program
def p_ragged_math_unary_dispatch(tf):
    rt = tf.ragged.constant([[1.0, 4.0], [9.0]])
    return [rg(tf.math.sqrt(rt)), rg(tf.square(rt)), rg(tf.math.log(rt)), rg(tf.cast(rt, tf.int32)),
            rg(tf.math.maximum(rt, 3.0))]


@program
def p_ragged_type_spec(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    return [repr(tf.RaggedTensorSpec.from_value(rt)), repr(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32)),
            repr(tf.RaggedTensorSpec([2, None, 3], tf.int64, ragged_rank=1))]


@program
def p_ragged_function_argument(tf):
    f, traces = counted(tf, lambda r: (r * 2, tf.reduce_sum(r, axis=1)))
    a = f(tf.ragged.constant([[1, 2], [3]]))
    b = f(tf.ragged.constant([[1], [3, 4, 5]]))
    c = f(tf.ragged.constant([[1], [3, 4, 5], []]))
    return [rg(a[0]), val(a[1]), rg(b[0]), val(b[1]), rg(c[0]), val(c[1]), len(traces)]


@program
def p_ragged_function_printing(tf):
    seen = []

    @tf.function
    def f(r):
        seen.append(str(r.shape))
        return r.to_tensor()

    out = f(tf.ragged.constant([[1.0], [2.0, 3.0]]))
    return [val(out), seen]


@program
def p_ragged_input_signature(tf):
    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def longest(r):
        return tf.reduce_max(r.row_lengths())

    return [val(longest(tf.ragged.constant([[1, 2], [3]]))), val(longest(tf.ragged.constant([[1], [], [1, 2, 3]])))]


@program
def p_ragged_gradient(tf):
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        rt = tf.RaggedTensor.from_row_splits(v, [0, 2, 3])
        y = tf.reduce_sum(rt.to_tensor() * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return val(tf.convert_to_tensor(tape.gradient(y, v)))  # TF's gradient here is an IndexedSlices


@program
def p_ragged_mismatched_splits(tf):
    a = tf.ragged.constant([[1, 2], [3]])
    b = tf.ragged.constant([[1], [2, 3]])
    return outcome(lambda: a + b, "")


@program
def p_ragged_private_constructor(tf):
    return outcome(lambda: tf.RaggedTensor([1, 2], [0, 2]), "private")


@program
def p_ragged_range(tf):
    return [rg(tf.ragged.range([3, 5, 2])), rg(tf.ragged.range([0, 5, 8], [3, 3, 12]))]


# --- tf.nest ----------------------------------------------------------------------------------------------------
@program
def p_nest_flatten_docstring(tf):
    dictionary = {"key3": "value3", "key1": "value1", "key2": "value2"}
    return [tf.nest.flatten(dictionary), tf.nest.flatten(None), tf.nest.flatten(1), tf.nest.flatten([[1, 2], [3, [4]]]),
            tf.nest.flatten({"a": [1, (2, 3)], "b": 4}), tf.nest.flatten("abc")]


@program
def p_nest_flatten_namedtuple_and_tensors(tf):
    point = collections.namedtuple("Point", ["x", "y"])
    structure = [point(x=4, y=2), ((7,), 3.5)]
    return [tf.nest.flatten(structure), val(tf.nest.flatten(tf.ones([2])))]


@program
def p_nest_flatten_expand_composites(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    rt = tf.ragged.constant([[1, 2], [3]])
    return [val(tf.nest.flatten(st, expand_composites=True)), val(tf.nest.flatten(rt, expand_composites=True)),
            len(tf.nest.flatten(st)), len(tf.nest.flatten([st, rt], expand_composites=True))]


@program
def p_nest_is_nested_docstring(tf):
    return [tf.nest.is_nested("1234"), tf.nest.is_nested([1, 3, [4, 5]]), tf.nest.is_nested(((7, 8), (5, 6))),
            tf.nest.is_nested([]), tf.nest.is_nested({"a": 1, "b": 2}), tf.nest.is_nested(set([1, 2])),
            tf.nest.is_nested(tf.ones([2, 3])), tf.nest.is_nested(None)]


@program
def p_nest_map_structure_docstring(tf):
    a = {"hello": 24, "world": 76}
    d1 = {"hello": 24, "world": 76}
    d2 = {"hello": 36, "world": 14}
    return [tf.nest.map_structure(lambda p: p * 2, a), tf.nest.map_structure(lambda p1, p2: p1 + p2, d1, d2),
            tf.nest.map_structure(lambda x: x + 1, [(1, 2), [3]]), tf.nest.map_structure(lambda x: x, None)]


@program
def p_nest_map_structure_tensors(tf):
    out = tf.nest.map_structure(lambda x: x * 2, {"a": tf.constant([1, 2]), "b": (tf.constant(1.5),)})
    return val(out)


@program
def p_nest_map_structure_mismatch(tf):
    return [outcome(lambda: tf.nest.map_structure(lambda x, y: x + y, [1, 2], [1, 2, 3]), "same nested structure"),
            outcome(lambda: tf.nest.map_structure(lambda x, y: x + y, (1, 2), [1, 2]), "same sequence type"),
            tf.nest.map_structure(lambda x, y: x + y, (1, 2), [1, 2], check_types=False)]


@program
def p_nest_pack_sequence_as_docstring(tf):
    structure = {"key3": "", "key1": "", "key2": ""}
    flat_sequence = ["value1", "value2", "value3"]
    packed = tf.nest.pack_sequence_as(structure, flat_sequence)
    structure2 = (("a", "b"), ("c", "d", "e"), "f")
    return [list(packed.items()), tf.nest.pack_sequence_as(structure2, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]


@program
def p_nest_pack_sequence_as_composites(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    flat = tf.nest.flatten(st, expand_composites=True)
    packed = tf.nest.pack_sequence_as(st, [flat[0], flat[1] * 10, flat[2]], expand_composites=True)
    return [type(packed).__name__, sp(packed)]


@program
def p_nest_pack_sequence_as_errors(tf):
    return [outcome(lambda: tf.nest.pack_sequence_as([1, [2]], [1, 2, 3]), "Structure had 2 atoms"),
            outcome(lambda: tf.nest.pack_sequence_as([1, 2], 5), "")]


@program
def p_nest_assert_same_structure(tf):
    tf.nest.assert_same_structure([1, [2, (3,)]], [4, [5, (6,)]])
    tf.nest.assert_same_structure({"a": 1, "b": 2}, {"b": 3, "a": 4})
    return [outcome(lambda: tf.nest.assert_same_structure([1, [2]], [1, 2]), "same nested structure"),
            outcome(lambda: tf.nest.assert_same_structure((1, 2), [1, 2]), "same sequence type"),
            outcome(lambda: tf.nest.assert_same_structure((1, 2), [1, 2], check_types=False), "")]


# --- tf.map_fn, tf.scan, tf.foldl, tf.foldr, tf.vectorized_map -------------------------------------------------
@program
def p_map_fn_docstring_range(tf):
    return val(tf.map_fn(fn=lambda t: tf.range(t, t + 3), elems=tf.constant([3, 5, 2])))


@program
def p_map_fn_docstring_squares(tf):
    elems = np.array([1, 2, 3, 4, 5, 6])
    return val(tf.map_fn(lambda x: x * x, elems))


@program
def p_map_fn_docstring_tuple_input(tf):
    elems = (np.array([1, 2, 3]), np.array([-1, 1, -1]))
    return val(tf.map_fn(lambda x: x[0] * x[1], elems, fn_output_signature=tf.int64))


@program
def p_map_fn_docstring_tuple_output(tf):
    elems = np.array([1, 2, 3])
    return val(tf.map_fn(lambda x: (x, -x), elems, fn_output_signature=(tf.int64, tf.int64)))


@program
def p_map_fn_docstring_ragged_in(tf):
    elems = tf.ragged.constant([[1, 2, 3], [4, 5], [6, 7]])
    return val(tf.map_fn(tf.math.reduce_sum, elems, fn_output_signature=tf.int32))


@program
def p_map_fn_docstring_ragged_out(tf):
    elems = tf.constant([3, 5, 2])
    return rg(tf.map_fn(tf.range, elems, fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32)))


@program
def p_map_fn_dict_elems(tf):
    elems = {"a": tf.constant([1.0, 2.0]), "b": tf.constant([10.0, 20.0])}
    return val(tf.map_fn(lambda d: {"a": d["a"] + d["b"], "b": d["b"] * 2.0}, elems))


@program
def p_map_fn_in_function_with_gradient(tf):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.map_fn(lambda row: tf.reduce_sum(row * row), x))
        return y, tape.gradient(y, x)

    y, g = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return [val(y), val(g)]


@program
def p_map_fn_matrix_rows(tf):
    x = tf.reshape(tf.range(6.0), [3, 2])
    eager = tf.map_fn(lambda r: tf.reduce_max(r) - r, x)
    graph = tf.function(lambda x: tf.map_fn(lambda r: tf.reduce_max(r) - r, x))(x)
    return [val(eager), val(graph)]


@program
def p_scan_docstring_sum(tf):
    elems = np.array([1, 2, 3, 4, 5, 6])
    return [val(tf.scan(lambda a, x: a + x, elems)), val(tf.scan(lambda a, x: a + x, elems, reverse=True))]


@program
def p_scan_docstring_initializer(tf):
    elems = np.array([1, 2, 3, 4, 5, 6])
    initializer = np.array(0)
    return val(tf.scan(lambda a, x: x[0] - x[1] + a, (elems + 1, elems), initializer))


@program
def p_scan_docstring_fibonacci(tf):
    elems = np.array([1, 0, 0, 0, 0, 0])
    initializer = (np.array(0), np.array(1))
    return val(tf.scan(lambda a, _: (a[1], a[0] + a[1]), elems, initializer))


@program
def p_scan_in_function_with_gradient(tf):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.scan(lambda a, r: a * r, x, initializer=tf.constant(1.0)))
        return y, tape.gradient(y, x)

    y, g = f(tf.constant([1.0, 2.0, 3.0]))
    return [val(y), val(g)]


@program
def p_foldl_foldr_docstring(tf):
    elems = tf.constant([1, 2, 3, 4, 5, 6])
    return [val(tf.foldl(lambda a, x: a + x, elems)), val(tf.foldr(lambda a, x: a + x, elems)),
            val(tf.foldl(lambda a, x: a * 10 + x, elems, initializer=tf.constant(0))),
            val(tf.foldr(lambda a, x: a * 10 + x, elems, initializer=tf.constant(0)))]


@program
def p_foldl_gradient(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.foldl(lambda a, v: a * v + 1.0, x, initializer=tf.constant(2.0))
    return [val(y), val(tape.gradient(y, x))]


@program
def p_vectorized_map_outer_product(tf):
    def outer_product(a):
        return tf.tensordot(a, a, 0)

    a = tf.reshape(tf.range(12.0), (3, 2, 2))
    c = tf.vectorized_map(outer_product, a)
    return [str(c.shape), val(tf.reduce_sum(c, [1, 2]))]


@program
def p_vectorized_map_in_function(tf):
    f = tf.function(lambda x: tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x))
    return val(f(tf.constant([[1.0, 2.0], [3.0, 4.0]])))


# --- more docstring examples: tf.sparse -------------------------------------------------------------------------
@program
def p_sparse_from_dense_docstring(tf):
    st = tf.sparse.from_dense([0, 0, 3, 0, 1])
    return [st.shape.as_list(), val(st.values), val(st.indices)]


@program
def p_sparse_reduce_max_docstring(tf):
    x = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 2, 3], [2, 3])
    return [val(tf.sparse.reduce_max(x)), val(tf.sparse.reduce_max(x, 0)), val(tf.sparse.reduce_max(x, 1)),
            val(tf.sparse.reduce_max(x, 1, keepdims=True)), val(tf.sparse.reduce_max(x, [0, 1]))]


@program
def p_sparse_map_values_docstring(tf):
    s = tf.sparse.from_dense([[1, 2, 0], [0, 4, 0], [1, 0, 0]])
    return [val(tf.sparse.to_dense(tf.sparse.map_values(tf.ones_like, s))),
            val(tf.sparse.to_dense(tf.sparse.map_values(tf.multiply, s, s))),
            val(tf.sparse.to_dense(tf.sparse.map_values(tf.add, s, 5)))]


@program
def p_sparse_expand_dims_docstring(tf):
    sp = tf.sparse.SparseTensor(indices=[[3, 4, 1]], values=[7], dense_shape=[10, 10, 3])
    return [tf.sparse.expand_dims(sp, axis=0).shape.as_list(), tf.sparse.expand_dims(sp, axis=1).shape.as_list(),
            tf.sparse.expand_dims(sp, axis=-1).shape.as_list(), sp.shape.as_list(),
            tf.sparse.expand_dims(sp).shape.as_list(), val(tf.sparse.expand_dims(sp, axis=1).indices)]


@program
def p_sparse_transpose_docstring(tf):
    x = tf.SparseTensor(indices=[[0, 1], [0, 3], [2, 3], [3, 1]], values=[1.1, 2.2, 3.3, 4.4], dense_shape=[4, 5])
    x_transpose = tf.sparse.transpose(x)
    return [str(tf.sparse.to_dense(x)), str(tf.sparse.to_dense(x_transpose)), sp(x_transpose)]


@program
def p_sparse_eye(tf):
    return [val(tf.sparse.to_dense(tf.sparse.eye(3))), val(tf.sparse.to_dense(tf.sparse.eye(2, 4, dtype=tf.int32)))]


@program
def p_map_fn_docstring_sparse_in(tf):
    st = tf.sparse.SparseTensor([[0, 0], [2, 0], [2, 1]], [2, 3, 4], [4, 4])
    return val(tf.map_fn(tf.sparse.reduce_sum, st, fn_output_signature=tf.int32))


@program
def p_map_fn_docstring_sparse_out(tf):
    return val(tf.sparse.to_dense(tf.map_fn(tf.sparse.eye, tf.constant([2, 3]),
                                            fn_output_signature=tf.SparseTensorSpec(None, tf.float32))))


@program
def p_map_fn_docstring_ragged_examples(tf):
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    sums = tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.int32)
    ranges = tf.map_fn(tf.range, tf.constant([3, 5, 0, 2]),
                       fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
    return [val(sums), rg(ranges), rg(tf.ragged.map_flat_values(lambda x: x + 2, rt))]


@program
def p_map_fn_docstring_vectorized_alternative(tf):
    elems = tf.constant([3, 5, 2])
    fn = lambda t: tf.range(t, t + 3)  # noqa: E731 - as in the docstring

    @tf.function
    def func(elems):
        return tf.map_fn(fn, elems, parallel_iterations=3)

    return [val(tf.range(3) + tf.expand_dims(elems, 1)), val(func(elems))]


# --- more docstring examples: tf.RaggedTensor -----------------------------------------------------------------
@program
def p_ragged_class_docstring_constructors(tf):
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    return [rg(tf.RaggedTensor.from_row_splits(values, row_splits=[0, 4, 4, 7, 8, 8])),
            rg(tf.RaggedTensor.from_row_lengths(values, row_lengths=[4, 0, 3, 1, 0])),
            rg(tf.RaggedTensor.from_value_rowids(values, value_rowids=[0, 0, 0, 0, 2, 2, 2, 3], nrows=5)),
            rg(tf.RaggedTensor.from_row_starts(values, row_starts=[0, 4, 4, 7, 8])),
            rg(tf.RaggedTensor.from_row_limits(values, row_limits=[4, 4, 7, 8, 8]))]


@program
def p_ragged_class_docstring_nested(tf):
    inner_rt = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2, 6], row_splits=[0, 4, 4, 7, 8, 8])
    outer_rt = tf.RaggedTensor.from_row_splits(values=inner_rt, row_splits=[0, 3, 3, 5])
    nested = tf.RaggedTensor.from_nested_row_splits(flat_values=[3, 1, 4, 1, 5, 9, 2, 6],
                                                    nested_row_splits=([0, 3, 3, 5], [0, 4, 4, 7, 8, 8]))
    return [outer_rt.to_list(), outer_rt.ragged_rank, rg(nested)]


@program
def p_ragged_class_docstring_uniform_inner(tf):
    rt = tf.RaggedTensor.from_row_splits(values=tf.ones([5, 3], tf.int32), row_splits=[0, 2, 5])
    return [rt.to_list(), str(rt.shape), str(rt)]


@program
def p_ragged_shape_docstring(tf):
    return [str(tf.ragged.constant([[0], [1, 2]]).shape),
            str(tf.ragged.constant([[[0, 1]], [[1, 2], [3, 4]]], ragged_rank=1).shape),
            str(tf.ragged.constant([[0], [1, 2]]).get_shape()),
            tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]]).ragged_rank]


@program
def p_ragged_values_docstrings(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    return [str(rt.values), str(rt.row_splits), str(rt.value_rowids()), str(rt.nrows()), str(rt.row_starts()),
            str(rt.row_limits())]


@program
def p_ragged_flat_values_docstring(tf):
    rt = tf.ragged.constant([[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]])
    return str(rt.flat_values)


@program
def p_ragged_nested_row_splits_docstring(tf):
    rt = tf.ragged.constant([[[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]]])
    return [[s.numpy().tolist() for s in rt.nested_row_splits], [i.numpy().tolist() for i in rt.nested_value_rowids()]]


@program
def p_ragged_row_lengths_docstring(tf):
    rt = tf.ragged.constant([[[3, 1, 4], [1]], [], [[5, 9], [2]], [[6]], []])
    return [str(rt.row_lengths()), str(rt.row_lengths(axis=2))]


@program
def p_ragged_bounding_shape_docstring2(tf):
    rt = tf.ragged.constant([[1, 2, 3, 4], [5], [], [6, 7, 8, 9], [10]])
    return val(rt.bounding_shape())


@program
def p_ragged_merge_dims_docstring(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    return [str(rt.merge_dims(0, 1)), str(rt.merge_dims(1, 2)), str(rt.merge_dims(0, 2)), str(rt.merge_dims(0, -1))]


@program
def p_ragged_to_tensor_docstring2(tf):
    rt = tf.ragged.constant([[9, 8, 7], [], [6, 5], [4]])
    return [str(rt.to_tensor()), str(rt.to_tensor(shape=[5, 2]))]


@program
def p_ragged_from_sparse_docstring(tf):
    indices = [[0, 0], [0, 1], [0, 2], [1, 0], [3, 0]]
    st = tf.sparse.SparseTensor(indices=indices, values=[1, 2, 3, 4, 5], dense_shape=[4, 3])
    return tf.RaggedTensor.from_sparse(st).to_list()


@program
def p_ragged_to_sparse_docstring(tf):
    rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
    return sp(rt.to_sparse())


@program
def p_ragged_map_flat_values_docstring(tf):
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    return [rg(tf.ragged.map_flat_values(tf.ones_like, rt)), rg(tf.ragged.map_flat_values(tf.multiply, rt, rt)),
            rg(tf.ragged.map_flat_values(tf.add, rt, 5))]


@program
def p_ragged_constant_inner_shape(tf):
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,))
    return [rt.to_list(), str(rt.shape), rt.ragged_rank]


@program
def p_ragged_comparisons(tf):
    rt = tf.ragged.constant([[1, 5], [3]])
    return [rg(rt > 2), rg(tf.equal(rt, 3)), rg(tf.logical_not(rt > 2))]


@program
def p_ragged_reduce_axis0(tf):
    rt = tf.ragged.constant([[3.0, 1.0, 4.0, 1.0], [], [5.0, 9.0, 2.0], [6.0], []])
    return [val(tf.reduce_sum(rt, axis=0)), val(tf.reduce_max(rt, axis=0)), val(tf.reduce_mean(rt, axis=0)),
            val(tf.reduce_sum(rt))]


@program
def p_ragged_in_function_dispatch(tf):
    @tf.function
    def f(r):
        return tf.math.sqrt(r) * 2.0, tf.reduce_mean(r, axis=1)

    a, b = f(tf.ragged.constant([[1.0, 4.0], [9.0]]))
    return [rg(a), val(b)]


@program
def p_ragged_outer_index_in_function(tf):
    @tf.function
    def f(r, i):
        return r[i]

    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    return [val(f(rt, tf.constant(0))), val(f(rt, tf.constant(2)))]


# --- more docstring examples: tf.nest --------------------------------------------------------------------------
@program
def p_nest_is_nested_dict_views(tf):
    return [tf.nest.is_nested({"a": 1, "b": 2}.keys()), tf.nest.is_nested({"a": 1, "b": 2}.values()),
            tf.nest.is_nested({"a": 1, "b": 2}.items())]


@program
def p_nest_flatten_docstring2(tf):
    nested = {"key3": {"c": (1.0, 2.0), "a": (3.0)}, "key1": {"m": "val1", "g": "val2"}}
    return [tf.nest.flatten(((1.0, 2.0), (3.0, 4.0, 5.0), 6.0)), tf.nest.flatten(nested),
            val(tf.nest.flatten(np.array([[1, 2], [3, 4]]))),
            val(tf.nest.flatten(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])))]


@program
def p_nest_flatten_ragged_docstring(tf):
    tensor = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2]])
    return [[str(t) for t in tf.nest.flatten(tensor, expand_composites=False)],
            val(tf.nest.flatten(tensor, expand_composites=True))]


@program
def p_nest_assert_same_structure_docstring(tf):
    structure1 = (((1, 2), 3), 4, (5, 6))
    structure2 = ((("foo1", "foo2"), "foo3"), "foo4", ("foo5", "foo6"))
    structure3 = [(("a", "b"), "c"), "d", ["e", "f"]]
    tf.nest.assert_same_structure(1.5, tf.Variable(1, tf.uint8))
    tf.nest.assert_same_structure("abc", np.array([1, 2]))
    tf.nest.assert_same_structure(structure1, structure2)
    tf.nest.assert_same_structure(structure1, structure3, check_types=False)
    tf.nest.assert_same_structure({"a": 1, "b": 2, "c": 3}, {"c": 6, "b": 5, "a": 4})
    ragged_tensor1 = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2, 6], row_splits=[0, 4, 4, 7, 8, 8])
    ragged_tensor2 = tf.RaggedTensor.from_row_splits(values=[3, 1, 4], row_splits=[0, 3])
    tf.nest.assert_same_structure(ragged_tensor1, ragged_tensor2, expand_composites=True)
    bar = collections.namedtuple("bar", "a b")
    foo = collections.namedtuple("foo", "a b")
    return [outcome(lambda: tf.nest.assert_same_structure([0, 1], np.array([0, 1])), "same nested structure"),
            outcome(lambda: tf.nest.assert_same_structure(bar(1, 2), foo(2, 3)), "same"),
            outcome(lambda: tf.nest.assert_same_structure(bar(1, 2), foo(2, 3), check_types=False), "")]


@program
def p_nest_pack_sequence_as_docstring2(tf):
    structure = {"key3": {"c": ("alpha", "beta"), "a": ("gamma")}, "key1": {"e": "val1", "d": "val2"}}
    flat_sequence = ["val2", "val1", 3.0, 1.0, 2.0]
    packed = tf.nest.pack_sequence_as(structure, flat_sequence)
    ragged = {"foo": tf.ragged.constant([[1, 2], [3]]), "bar": tf.constant([[5]])}
    tensor = tf.nest.pack_sequence_as(["a"], [tf.constant([[1.0, 2.0]])])
    return [packed, list(packed), list(packed["key3"]), val(tensor),
            tf.nest.pack_sequence_as(ragged, ["one", "two"], expand_composites=False)]


@program
def p_nest_pack_sequence_as_ragged_docstring(tf):
    structure = {"foo": tf.ragged.constant([[1.0, 2.0], [3.0]]), "bar": tf.constant([[5.0]])}
    tensors = tf.nest.flatten(structure, expand_composites=True)
    # the docstring checks each float tensor with tf.debugging.check_numerics; tf.identity keeps the point
    verified = [tf.identity(t) if t.dtype == tf.float32 else t for t in tensors]
    packed = tf.nest.pack_sequence_as(structure, verified, expand_composites=True)
    return [val(tensors), rg(packed["foo"]), val(packed["bar"])]


@program
def p_nest_map_structure_docstring2(tf):
    s1 = (((1, 2), 3), 4, (5, 6))
    s1_list = [[[1, 2], 3], 4, [5, 6]]
    return [tf.nest.map_structure(lambda p: p * 2, [24, 76, "ab"]), tf.nest.map_structure(lambda x, y: x + y, 3, 4),
            tf.nest.map_structure(lambda x: x + 1, ()),
            outcome(lambda: tf.nest.map_structure(lambda x, y: None, s1, s1_list), "same"),
            tf.nest.map_structure(lambda x, y: None, s1, s1_list, check_types=False)]


@program
def p_nest_map_structure_expand_composites(tf):
    st = tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 2])
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.float32 else t, st, expand_composites=True)
    return [type(doubled).__name__, sp(doubled)]


@program
def p_map_fn_ragged_and_sparse_in_function(tf):
    @tf.function
    def f(rt, st, x):
        sums = tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.int32)
        sparse_sums = tf.map_fn(tf.sparse.reduce_sum, st, fn_output_signature=tf.int32)
        ranges = tf.map_fn(tf.range, x, fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
        return sums, sparse_sums, ranges

    sums, sparse_sums, ranges = f(tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]]),
                                  tf.sparse.SparseTensor([[0, 0], [2, 0], [2, 1]], [2, 3, 4], [4, 4]),
                                  tf.constant([3, 5, 0, 2]))
    return [val(sums), val(sparse_sums), rg(ranges)]


@program
def p_ragged_guide_concat_and_one_hot(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    return [str(tf.concat([digits, [[5, 3]]], axis=0)), str(tf.ragged.map_flat_values(tf.one_hot, digits, 3)),
            rg(tf.stack([digits, digits[1:3]]))]


@program
def p_ragged_concat_in_function(tf):
    @tf.function
    def f(a, b):
        return tf.concat([a, b], axis=0)

    return rg(f(tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [], [5, 6]])))


# --- edge cases and errors ---------------------------------------------------------------------------------
@program
def p_sparse_add_shape_mismatch(tf):
    a = tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2])
    b = tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 2])
    return outcome(lambda: tf.sparse.add(a, b), "")


@program
def p_map_fn_scalar_elems(tf):
    return outcome(lambda: tf.map_fn(lambda x: x, tf.constant(1)), "1+ dimensional")


@program
def p_map_fn_empty_elems(tf):
    return val(tf.map_fn(lambda x: x * 2.0, tf.zeros([0, 3])))


@program
def p_scan_reverse_with_initializer(tf):
    return val(tf.scan(lambda a, x: a * 2.0 + x, tf.constant([1.0, 2.0, 3.0]), initializer=tf.constant(0.0),
                       reverse=True))


@program
def p_foldl_nested(tf):
    elems = (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    return val(tf.foldl(lambda a, x: (a[0] + x[0], a[1] * x[1]), elems, initializer=(tf.constant(0.0),
                                                                                    tf.constant(1.0))))


@program
def p_scan_matrix_rows_in_function(tf):
    @tf.function
    def f(x):
        return tf.scan(lambda a, r: a + r, x)

    return val(f(tf.reshape(tf.range(6.0), [3, 2])))


@program
def p_sparse_dense_matmul_gradient(tf):
    st = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, b) ** 2)
    return val(tape.gradient(y, b))


@program
def p_ragged_gradient_in_function(tf):
    @tf.function
    def f(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            rt = tf.RaggedTensor.from_row_lengths(v, [2, 1])
            y = tf.reduce_sum(tf.square(rt).to_tensor())
        return tf.convert_to_tensor(tape.gradient(y, v))

    return val(f(tf.constant([1.0, 2.0, 3.0])))


@program
def p_sparse_spec_shape_inside_function(tf):
    seen = []

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def f(s):
        seen.append(s.shape.as_list())
        return tf.sparse.to_dense(s)

    out = f(tf.sparse.SparseTensor([[1, 2]], [5.0], [2, 3]))
    return [val(out), seen]


@program
def p_ragged_function_returns_nested_structure(tf):
    @tf.function
    def f(r):
        return {"rows": r.row_lengths(), "doubled": r * 2, "pair": (r.flat_values, r.nrows())}

    out = f(tf.ragged.constant([[1, 2], [], [3]]))
    return [val(out["rows"]), rg(out["doubled"]), val(list(out["pair"]))]


def _sparse_patterns(tf):
    a = tf.sparse.SparseTensor(indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]], values=[1, 1, 1, 1, 1, 1],
                               dense_shape=[8, 5])
    b = tf.sparse.SparseTensor(indices=[[0, 2], [1, 1], [1, 3], [2, 0], [2, 4], [2, 5], [3, 5], [4, 5], [5, 0],
                                        [5, 4], [5, 5], [6, 1], [6, 3], [7, 2]],
                               values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dense_shape=[8, 6])
    c = tf.sparse.SparseTensor(indices=[[3, 0], [4, 0]], values=[1, 1], dense_shape=[8, 6])
    return a, b, c


@program
def p_sparse_guide_concat(tf):
    sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=list(_sparse_patterns(tf)))
    return [str(tf.sparse.to_dense(sparse_pattern)), sp(sparse_pattern)]


@program
def p_sparse_guide_slice(tf):
    a, b, c = _sparse_patterns(tf)
    sparse_slice_a = tf.sparse.slice(a, start=[0, 0], size=[8, 5])
    sparse_slice_b = tf.sparse.slice(b, start=[0, 5], size=[8, 6])
    sparse_slice_c = tf.sparse.slice(c, start=[0, 10], size=[8, 6])
    return [val(tf.sparse.to_dense(sparse_slice_a)), val(tf.sparse.to_dense(sparse_slice_b)),
            val(tf.sparse.to_dense(sparse_slice_c)), sp(sparse_slice_b)]


@program
def p_sparse_guide_function(tf):
    @tf.function
    def f(x, y):
        return tf.sparse.sparse_dense_matmul(x, y)

    a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
    b = tf.sparse.to_dense(tf.sparse.transpose(a))
    return val(f(a, b))


@program
def p_sparse_guide_values_mean(tf):
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    st3 = tf.sparse.SparseTensor(indices=[[0, 1], [1, 2]], values=[0.0, 1.0], dense_shape=[2, 3])
    return [val(tf.math.reduce_mean(st2.values)), val(tf.math.reduce_mean(st3.values)), sp(st3)]
