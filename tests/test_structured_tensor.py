"""tf.experimental.StructuredTensor: Python round trips, shapes and partitions, merge_dims and
partition_outer_dimension against plain Python/numpy, eagerly and inside tf.function, its Spec (keying,
input_signature, supertypes), tf.nest and control flow. TF's own outputs are compared in
tests/conformance/structured_tensor.py."""

import numpy as np
import pytest

import tinytf as tf

ST = tf.experimental.StructuredTensor

PYVALS = [
    {"a": 1, "b": [1.5, 2.5], "c": b"text"},
    [{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}, {"a": 3, "b": []}],
    [[{"a": 1}], [], [{"a": 2}, {"a": 3}]],
    [[[{"x": 1.0}], [{"x": 2.0}, {"x": 3.0}]], [[{"x": 4.0}]]],
    {"outer": {"inner": {"x": [[1, 2], [3]]}}},
    [{}, {}],
]


@pytest.mark.parametrize("pyval", PYVALS)
def test_pyval_round_trip(pyval):
    st = ST.from_pyval(pyval)
    assert st.to_pyval() == pyval
    depth, level = 0, pyval
    while isinstance(level, list):
        depth, level = depth + 1, level[0] if level else {}
    assert st.rank == depth and st.shape.rank == depth
    assert len(st.row_partitions) == max(0, depth - 1)


def _flatten(pyval, outer, inner):
    if outer > 0:
        return [_flatten(row, outer - 1, inner - 1) for row in pyval]
    for _ in range(inner - outer):
        pyval = [item for row in pyval for item in row]
    return pyval


@pytest.mark.parametrize("axes", [(0, 1), (1, 2), (0, 2)])
def test_merge_dims_ragged_eager_and_traced(axes):
    x = {"v": 1, "w": [1.0, 2.0]}
    pyval = [[[x, x], [x]], [], [[x], [x, x, x]]]
    st = ST.from_pyval(pyval)
    expected = _flatten(pyval, *axes)
    assert st.merge_dims(*axes).to_pyval() == expected

    @tf.function
    def merged(s):
        return s.merge_dims(*axes)

    out = merged(st)
    assert isinstance(out, ST) and out.to_pyval() == expected
    assert out.shape.is_compatible_with(st.merge_dims(*axes).shape)  # a traced merge may know less statically


def test_merge_dims_dense_matches_numpy_reshape():
    values = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    st = ST.from_fields({"d": values}, shape=[2, 3, 4])
    # TF's static shapes: merging inner dimensions yields a partition of gathered splits, so it is unknown
    for outer, inner, shape, static in [(0, 1, (6, 4), [6, 4]), (1, 2, (2, 12), [2, None]), (0, 2, (24,), [24])]:
        merged = st.merge_dims(outer, inner)
        np.testing.assert_array_equal(merged.field_value("d").numpy(), values.reshape(shape))
        assert merged.shape.as_list() == static
        traced = tf.function(lambda s, o=outer, i=inner: s.merge_dims(o, i).field_value("d"))(st)
        np.testing.assert_array_equal(traced.numpy(), values.reshape(shape))


def test_partition_outer_dimension_eager_and_traced():
    st = ST.from_pyval([{"a": i, "b": list(range(i))} for i in range(5)])
    lengths = [2, 0, 3]
    partition = tf.experimental.RowPartition.from_row_lengths(lengths)
    rows, start = [], 0
    for n in lengths:
        rows.append(st.to_pyval()[start:start + n])
        start += n
    assert st.partition_outer_dimension(partition).to_pyval() == rows

    @tf.function
    def part(s, splits):
        return s.partition_outer_dimension(tf.experimental.RowPartition.from_row_splits(splits))

    out = part(st, tf.constant([0, 2, 2, 5], tf.int64))
    assert out.to_pyval() == rows and out.shape.as_list() == [3, None]
    uniform = st[:4].partition_outer_dimension(tf.experimental.RowPartition.from_uniform_row_length(2, nvals=4))
    assert uniform.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(uniform.field_value("a").numpy(), [[0, 1], [2, 3]])


def test_indexing_matches_python_lists():
    pyval = [{"a": i, "b": list(range(i))} for i in range(6)]
    st = ST.from_pyval(pyval)
    for key in [slice(1, 4), slice(None, None, 2), slice(-2, None), slice(4, 1)]:
        assert st[key].to_pyval() == pyval[key]
    for i in range(-6, 6):
        assert st[i].to_pyval() == pyval[i]
        assert int(st[i, "a"]) == pyval[i]["a"]
    assert st[:, "b"].to_list() == [p["b"] for p in pyval]
    assert int(tf.function(lambda s, i: s[i, "a"])(st, tf.constant(3))) == 3


def test_function_traces_once_per_spec_and_input_signature():
    traces = []

    @tf.function
    def total(s):
        traces.append(1)
        return tf.reduce_sum(s.field_value("a")) + tf.reduce_sum(s.field_value("b").flat_values)

    one = ST.from_pyval([{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}])
    two = ST.from_pyval([{"a": 5, "b": [1]}, {"a": 6, "b": [7, 8]}])
    three = ST.from_pyval([{"a": 1, "b": [1]}, {"a": 2, "b": []}, {"a": 3, "b": [4]}])
    assert [int(total(one)), int(total(two)), len(traces)] == [9, 27, 1]
    assert int(total(three)) == 11 and len(traces) == 2
    spec = tf.type_spec_from_value(one)
    assert isinstance(spec, ST.Spec) and spec == tf.type_spec_from_value(two) and spec != three._type_spec
    relaxed = spec.most_specific_common_supertype([three._type_spec])
    assert relaxed is not None and relaxed.shape.as_list() == [None]
    sig = tf.function(lambda s: s.field_value("a") * 2, input_signature=[relaxed])
    np.testing.assert_array_equal(sig(three).numpy(), [2, 4, 6])
    np.testing.assert_array_equal(sig(one).numpy(), [2, 4])
    assert len(sig.get_concrete_function().structured_input_signature[0]) == 1


def test_nest_components_round_trip():
    st = ST.from_pyval([[{"a": 1, "b": [1.0]}], [{"a": 2, "b": []}, {"a": 3, "b": [2.0, 3.0]}]])
    flat = tf.nest.flatten(st, expand_composites=True)
    # a: values + splits; b: values + 2 splits; the inner shape; the one row partition (TF lists the same 7)
    assert len(flat) == len(st._type_spec._component_specs) == 7
    for tensor, spec in zip(flat, st._type_spec._component_specs):
        assert spec.is_compatible_with(tensor)
    assert tf.nest.pack_sequence_as(st, flat, expand_composites=True).to_pyval() == st.to_pyval()


def test_cond_and_while_carry_structured_tensor():
    st = ST.from_pyval([{"a": 1.0}, {"a": 2.0}])

    @tf.function
    def pick(s, flag):
        return tf.cond(flag, lambda: s.with_updates({"a": s.field_value("a") * 10.0}), lambda: s)

    np.testing.assert_array_equal(pick(st, tf.constant(True)).field_value("a").numpy(), [10.0, 20.0])
    np.testing.assert_array_equal(pick(st, tf.constant(False)).field_value("a").numpy(), [1.0, 2.0])


def test_gradient_through_field():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        st = ST.from_fields({"x": x * x}, shape=[3])
        y = tf.reduce_sum(st[1:].field_value("x"))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 4.0, 6.0])


def test_errors_name_the_problem():
    with pytest.raises(TypeError, match="fields must be a dictionary"):
        ST.from_fields([1])
    with pytest.raises(ValueError, match="incompatible nrows"):
        ST.from_fields({"a": [1, 2], "b": [1, 2, 3]}, shape=[None])
    with pytest.raises(ValueError, match="not currently allowed"):
        ST.from_fields({"_x": 1})
    with pytest.raises(ValueError, match="private"):
        ST({}, tf.TensorShape([]), None, (), tf.int64)
    with pytest.raises(ValueError, match="only supported in eager mode"):
        tf.function(lambda s: s.to_pyval() and 0)(ST.from_pyval([{"a": 1}]))
    with pytest.raises(TypeError, match="RowPartition"):
        ST.from_pyval([{"a": 1}]).partition_outer_dimension([1])


def test_ragged_strided_row_slice():
    # StructuredTensor slicing with a step reaches RaggedTensor fields: rows picked like a Python list's
    rows = [[1, 2], [], [3], [4, 5, 6], [7]]
    rt = tf.ragged.constant(rows)
    for key in [slice(None, None, 2), slice(1, None, 3), slice(None, None, -1), slice(4, 0, -2)]:
        assert rt[key].to_list() == rows[key]


def test_while_loop_carries_structured_tensor():
    st = ST.from_pyval([{"a": 1.0}, {"a": 2.0}])

    def run(s):
        def body(i, s):
            return i + 1, s.with_updates({"a": s.field_value("a") * 2.0})
        return tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), s])[1]

    for fn in (run, tf.function(run)):
        assert fn(st).to_pyval() == [{"a": 8.0}, {"a": 16.0}]


def test_datasets_slice_batch_and_map_structured_tensors():
    pyval = [{"a": i, "b": [float(j) for j in range(i)]} for i in range(5)]
    st = ST.from_pyval(pyval)
    ds = tf.data.Dataset.from_tensor_slices(st)
    assert [x.to_pyval() for x in ds] == pyval
    batches = [x.to_pyval() for x in ds.batch(2)]
    assert batches == [pyval[0:2], pyval[2:4], pyval[4:]]
    assert [x.to_pyval() for x in ds.batch(3).unbatch()] == pyval
    doubled = ds.batch(2).map(lambda s: s.with_updates({"a": s.field_value("a") * 2}))
    assert [int(v) for x in doubled for v in x.field_value("a").numpy()] == [0, 2, 4, 6, 8]

    @tf.function
    def total(dataset):
        t = tf.constant(0)
        for x in dataset:
            t += x.field_value("a")
        return t

    assert int(total(ds)) == 10
    with pytest.raises(ValueError, match="without fields"):
        tf.data.Dataset.from_tensors(ST.from_fields({}, shape=[2]))
