"""tf.experimental.StructuredTensor: every `>>>` example of its ten docstrings in TF 2.21's
structured_tensor.py (the class, from_fields, from_fields_and_rank, with_updates, promote, row_partitions,
to_pyval, from_pyval, partition_outer_dimension, merge_dims), then from_pyval/to_pyval round trips, nested and
ragged fields, indexing, merge_dims, partition_outer_dimension, specs, tf.nest and tf.function, and the errors."""

from . import outcome, program, val


def _st(tf):
    return tf.experimental.StructuredTensor


def _plain(x):
    """A to_pyval result as JSON: numpy scalars (what TF gives for scalar fields) as [numpy type, value]."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, bytes):
        return "bytes:" + x.decode()
    if hasattr(x, "dtype") and hasattr(x, "item"):
        return ["numpy:" + str(x.dtype), _plain(x.item())]
    return x


# --- the docstrings' examples ---------------------------------------------------------------------------------
@program
def p_st_doc_class(tf):
    s1 = _st(tf).from_pyval({"age": 82, "nicknames": ["Bob", "Bobby"]})
    s2 = _st(tf).from_pyval([{"age": 12, "nicknames": ["Josaphine"]}, {"age": 82, "nicknames": ["Bob", "Bobby"]},
                             {"age": 42, "nicknames": ["Elmo"]}])
    return [repr(s1.shape), repr(s1["age"]), repr(s2.shape), repr(s2[0]["age"])]


@program
def p_st_doc_from_fields(tf):
    return [repr(_st(tf).from_fields({"x": 1, "y": [1, 2, 3]})),
            repr(_st(tf).from_fields({"foo": [1, 2], "bar": [3, 4]}, shape=[2]))]


@program
def p_st_doc_from_fields_and_rank(tf):
    return [repr(_st(tf).from_fields_and_rank({"x": 1, "y": [1, 2, 3]}, 0)),
            repr(_st(tf).from_fields_and_rank({"foo": [1, 2], "bar": [3, 4]}, 1))]


@program
def p_st_doc_with_updates(tf):
    shoes_us = _st(tf).from_pyval([
        {"age": 12, "nicknames": ["Josaphine"], "shoes": {"sizes": [8.0, 7.5, 7.5]}},
        {"age": 82, "nicknames": ["Bob", "Bobby"], "shoes": {"sizes": [11.0, 11.5, 12.0]}},
        {"age": 42, "nicknames": ["Elmo"], "shoes": {"sizes": [9.0, 9.5, 10.0]}}])

    def us_to_europe(t):
        return tf.round(t * 2.54 + 17.0)  # Rough approximation.

    shoe_sizes_key = ("shoes", "sizes")
    shoes_eu = shoes_us.with_updates({shoe_sizes_key: us_to_europe})
    return repr(shoes_eu.field_value(shoe_sizes_key))


@program
def p_st_doc_promote(tf):
    d = [{"docs": [{"tokens": [1, 2]}, {"tokens": [3]}]}, {"docs": [{"tokens": [7]}]}]
    st = _st(tf).from_pyval(d)
    st2 = st.promote(("docs", "tokens"), "docs_tokens")
    return [repr(st2[0]["docs_tokens"]), repr(st2[1]["docs_tokens"])]


@program
def p_st_doc_row_partitions(tf):
    x = {"a": 1, "b": ["foo", "bar", "baz"]}
    s1 = [[x, x, x, x], [x, x, x, x]]
    s2 = [[x, x], [x, x], [x, x], [x, x]]
    s3 = [[x, x, x], [], [x, x, x, x], [x]]
    s4 = [[[x, x], [x, x]], [[x, x], [x, x]]]
    s5 = [[[x, x], [x]], [[x, x]], [[x, x], [x]]]
    return [repr(_st(tf).from_pyval(s).row_partitions) for s in (s1, s2, s3, s4, s5)]


@program
def p_st_doc_to_pyval(tf):
    return _st(tf).from_fields({"a": [1, 2, 3]}, [3]).to_pyval()


@program
def p_st_doc_from_pyval(tf):
    return repr(_st(tf).from_pyval({"a": [1, 2, 3], "b": [[4, 5], [6, 7]]}))


@program
def p_st_doc_partition_outer_dimension(tf):
    st = _st(tf).from_pyval([{"foo": 12}, {"foo": 33}, {"foo": 99}])
    partition = tf.experimental.RowPartition.from_row_lengths([2, 0, 1])
    struct_value = _st(tf).from_pyval([{"x": 1}, {"x": 2}, {"x": 3}])
    return [repr(st.partition_outer_dimension(partition)), repr(struct_value.partition_outer_dimension(partition))]


@program
def p_st_doc_merge_dims(tf):
    st = _st(tf).from_pyval([[{"foo": 12}, {"foo": 33}], [], [{"foo": 99}]])
    return repr(st.merge_dims(0, 1))


# --- round trips and fields -------------------------------------------------------------------------------------
_PYVALS = [
    {"a": 1, "b": [1.5, 2.5], "c": "text", "d": True},
    [{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}, {"a": 3, "b": []}],
    [[{"a": 1}], [], [{"a": 2}, {"a": 3}]],
    {"outer": {"inner": {"x": [[1, 2], [3]]}, "y": [b"p", b"q"]}},
    [{"p": {"q": 1.0, "r": [1, 2, 3]}}, {"p": {"q": 2.0, "r": [4]}}],
    [{}, {}, {}],
    [[{}, {}], [{}]],
    {"m": [[1, 2], [3, 4]], "s": [["a"], ["b", "c"]]},
]


@program
def p_st_pyval_round_trips(tf):
    out = []
    for pyval in _PYVALS:
        st = _st(tf).from_pyval(pyval)
        back = st.to_pyval()
        out.append([back == pyval, st.rank, str(st.shape), sorted(st.field_names()),
                    None if st.nrows() is None else val(st.nrows())])
    return out


@program
def p_st_nested_ragged_fields(tf):
    # (no spec repr here: TF orders the fields of a list of dicts as a Python set, by string hash)
    st = _st(tf).from_pyval([
        {"name": "a", "scores": [1.0, 2.0], "tags": [["x"], ["y", "z"]], "info": {"id": 7, "ids": [1, 2]}},
        {"name": "b", "scores": [], "tags": [], "info": {"id": 8, "ids": [3]}}])
    return [repr(st), val(st.field_value(("info", "id"))), repr(st.field_value(["info", "ids"])),
            repr(st.field_value("tags")), repr(st.field_value("info")), str(st.field_value("info").shape)]


@program
def p_st_from_fields_shapes(tf):
    rt = tf.ragged.constant([[1, 2], [3]])
    dense = tf.reshape(tf.range(6), [2, 3])
    a = _st(tf).from_fields({"r": rt, "d": tf.constant([1.0, 2.0])}, shape=[2])
    b = _st(tf).from_fields({"d": dense}, shape=[2, 3])
    c = _st(tf).from_fields({"r": rt}, shape=[2, None])
    d = _st(tf).from_fields({}, shape=[4])
    e = _st(tf).from_fields({"r": tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32)}, shape=[2, None])
    return [repr(a), repr(b), repr(b.row_partitions), repr(c), repr(c.row_partitions), val(c.nrows()),
            repr(d), val(d.nrows()), d.to_pyval(), val(e.nrows()), repr(e.row_partitions),
            repr(tf.type_spec_from_value(b)), repr(tf.type_spec_from_value(_st(tf).from_fields({"x": 1})))]


@program
def p_st_with_updates_variants(tf):
    st = _st(tf).from_pyval([{"a": 1, "b": {"c": 2.0}}, {"a": 3, "b": {"c": 4.0}}])
    added = st.with_updates({"z": tf.constant([True, False])})
    removed = st.with_updates({"a": None})
    nested = st.with_updates({("b", "d"): tf.constant([5, 6])})
    doubled = st.with_updates({"a": lambda t: t * 2})
    return [_plain(added.to_pyval()), removed.to_pyval(), nested.to_pyval(), doubled.to_pyval(),
            outcome(lambda: st.with_updates({"b": None, ("b", "c"): None}), "both parent and child"),
            outcome(lambda: st.with_updates({"q": None}), "cannot delete field"),
            outcome(lambda: st.with_updates({"q": lambda t: t}), "does not already exist"),
            outcome(lambda: st.with_updates({("q", "r"): tf.constant([1, 2])}), "parent field"),
            outcome(lambda: st.with_updates({("a", "r"): tf.constant([1, 2])}), "can contain sub-structures"),
            outcome(lambda: st.with_updates({"w": tf.constant([1, 2, 3])}), "with_updates` failed")]


# --- indexing ---------------------------------------------------------------------------------------------------
@program
def p_st_indexing(tf):
    st = _st(tf).from_pyval([{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}, {"a": 3, "b": []},
                             {"a": 4, "b": [4, 5, 6]}])
    m = _st(tf).from_pyval([[{"x": 1}, {"x": 2}], [{"x": 3}]])
    scalar = st[0]
    return [repr(scalar), _plain(scalar.to_pyval()), st[1:3].to_pyval(), str(st[1:3].shape),
            _plain(st[-1].to_pyval()), st[::2].to_pyval(), outcome(lambda: st["a"], "valid indices"),
            repr(st[:, "b"]), val(st[1, "a"]), repr(st[tf.constant(3)]), val(st[0]["b"]), m[0].to_pyval(),
            _plain(m[1, 0].to_pyval()), val(m[0, 1, "x"]), repr(m[:, :, "x"]), _plain(scalar[:].to_pyval()),
            st[()].to_pyval(),
            outcome(lambda: scalar[0], "must be a string or a full slice"),
            outcome(lambda: st[0, 0], "must be a string"),
            outcome(lambda: st[tf.newaxis], "tf.newaxis")]


# --- merge_dims and partition_outer_dimension ---------------------------------------------------------------------
@program
def p_st_merge_dims_variants(tf):
    x = {"v": 1, "w": [1.0]}
    st = _st(tf).from_pyval([[[x, x], [x]], [], [[x], [x, x, x]]])
    dense = _st(tf).from_fields({"d": tf.reshape(tf.range(24), [2, 3, 4])}, shape=[2, 3, 4])
    out = []
    for outer, inner in [(0, 1), (1, 2), (0, 2), (-2, -1), (0, -1)]:
        merged = st.merge_dims(outer, inner)
        out.append([str(merged.shape), repr(merged.row_partitions), merged.to_pyval() == _merge(st.to_pyval(),
                                                                                                outer, inner, 3)])
    for outer, inner in [(0, 1), (1, 2), (0, 2)]:
        merged = dense.merge_dims(outer, inner)
        out.append([str(merged.shape), val(merged.field_value("d"))])
    out.append(outcome(lambda: st.merge_dims(2, 1), "less than or equal"))
    out.append(outcome(lambda: st.merge_dims(1, 1), ""))  # TF asserts outer < inner
    out.append(outcome(lambda: st.merge_dims(0, 3), "out of bounds"))
    return out


def _merge(pyval, outer, inner, rank):
    outer, inner = outer % rank, inner % rank
    if outer == inner:
        return pyval
    if outer > 0:
        return [_merge(row, outer - 1, inner - 1, rank - 1) for row in pyval]
    for _ in range(inner - outer):
        pyval = [item for row in pyval for item in row]
    return pyval


@program
def p_st_partition_outer_variants(tf):
    st = _st(tf).from_pyval([{"a": i, "b": list(range(i))} for i in range(6)])
    ragged = st.partition_outer_dimension(tf.experimental.RowPartition.from_row_lengths([1, 3, 0, 2]))
    uniform = st.partition_outer_dimension(tf.experimental.RowPartition.from_uniform_row_length(2, nvals=6))
    twice = uniform.partition_outer_dimension(tf.experimental.RowPartition.from_row_lengths([2, 1]))
    return [repr(ragged), ragged.to_pyval(), repr(uniform), uniform.to_pyval(), str(twice.shape),
            twice.to_pyval(), repr(twice.row_partitions), val(twice.nrows()),
            outcome(lambda: st.partition_outer_dimension([1, 2]), "must be a RowPartition"),
            outcome(lambda: st[0].partition_outer_dimension(
                tf.experimental.RowPartition.from_row_lengths([1])), "rank at least 1")]


# --- composite behaviour: tf.nest and tf.function --------------------------------------------------------------
@program
def p_st_nest_components(tf):
    st = _st(tf).from_pyval([[{"a": 1, "b": [1.0]}], [{"a": 2, "b": []}, {"a": 3, "b": [2.0, 3.0]}]])
    flat = tf.nest.flatten(st, expand_composites=True)
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, st, expand_composites=True)
    packed = tf.nest.pack_sequence_as(st, flat, expand_composites=True)
    scalar = tf.nest.flatten(_st(tf).from_pyval({"x": 1.5}), expand_composites=True)
    return [val(flat), doubled.to_pyval(), packed.to_pyval(), val(scalar)]


@program
def p_st_in_tf_function(tf):
    traces = []

    @tf.function
    def total(st):
        traces.append(1)
        return tf.reduce_sum(st.field_value("a")) + tf.cast(tf.reduce_sum(st[:, "b"].flat_values), tf.int32)

    @tf.function
    def scaled(st):
        return st.with_updates({"a": st.field_value("a") * 10})

    one = _st(tf).from_pyval([{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}])
    same_spec = _st(tf).from_pyval([{"a": 5, "b": [1]}, {"a": 6, "b": [7, 8]}])
    other = _st(tf).from_pyval([{"a": 1, "b": [1]}, {"a": 2, "b": []}, {"a": 3, "b": [4]}])
    results = [val(total(one)), val(total(same_spec)), len(traces), val(total(other)), len(traces)]
    out = scaled(one)
    results += [type(out).__name__, out.to_pyval(), str(out.shape)]
    spec = tf.type_spec_from_value(one)
    sig = tf.function(lambda st: st.field_value("a") + 1, input_signature=[spec])
    results.append(val(sig(same_spec)))
    results.append(outcome(lambda: sig(other), ""))
    return results


@program
def p_st_tf_function_ragged_rank2(tf):
    @tf.function
    def flatten(st):
        merged = st.merge_dims(0, 1)
        return merged.field_value("x"), merged.nrows(), st.row_partitions[0].row_lengths()

    st = _st(tf).from_pyval([[{"x": 1.0}, {"x": 2.0}], [], [{"x": 3.0}]])
    x, n, lengths = flatten(st)
    return [val(x), val(n), val(lengths)]


# --- errors ---------------------------------------------------------------------------------------------------
@program
def p_st_errors(tf):
    st_cls = _st(tf)
    return [outcome(lambda: st_cls.from_fields([1, 2]), "fields must be a dictionary"),
            outcome(lambda: st_cls.from_fields({"1bad": 1}), "is not currently allowed"),
            outcome(lambda: st_cls.from_fields({3: 1}), "Unexpected type for key"),
            outcome(lambda: st_cls.from_fields({"a": object()}), "Unexpected type for value"),
            outcome(lambda: st_cls.from_fields({"a": [1, 2], "b": [1, 2, 3]}, shape=[None]), ""),
            outcome(lambda: st_cls.from_fields({"a": 1}, shape=None), "known rank"),
            outcome(lambda: st_cls.from_fields({"a": 1}, nrows=3), "nrows must be None"),
            outcome(lambda: st_cls.from_fields({}, shape=[None]), "Must specify `nrows`"),
            outcome(lambda: st_cls.from_fields_and_rank({}, 1), "at least one field"),
            outcome(lambda: st_cls.from_fields_and_rank({"a": 1}, -1), "nonnegative"),
            outcome(lambda: st_cls.from_fields_and_rank({"a": 1}, 1.0), "must be an integer"),
            outcome(lambda: st_cls.from_pyval([{"a": 1}, [{"a": 2}]]), "Inconsistent depth"),
            outcome(lambda: st_cls.from_pyval({"a": 1}).promote(("a",), "b"), "length at least two"),
            outcome(lambda: st_cls.from_pyval({"a": 1}).promote("a", "b"), "list or tuple"),
            outcome(lambda: st_cls.from_pyval({"a": {"b": 1}}).promote(("a", "b"), 3), "new_name is not a string"),
            outcome(lambda: st_cls.from_pyval({"a": 1}).field_value(("a", "b")), "not found"),
            outcome(lambda: st_cls.from_pyval({"a": 1})["zz"], "zz")]


# --- tf.data ----------------------------------------------------------------------------------------------------
@program
def p_st_in_datasets(tf):
    # from_fields, not from_pyval: TF orders a list of dicts' fields by string hash, and the spec prints them
    st = _st(tf).from_fields({"a": [1, 2, 3, 4], "b": tf.ragged.constant([[1.0], [], [2.0, 3.0], [4.0]])},
                             shape=[4])
    nested = _st(tf).from_pyval([[{"x": 1}, {"x": 2}], [], [{"x": 3}]])
    out = []
    for ds in [tf.data.Dataset.from_tensors(st), tf.data.Dataset.from_tensor_slices(st),
               tf.data.Dataset.from_tensor_slices(st).batch(3),
               tf.data.Dataset.from_tensor_slices(st).batch(2).unbatch(),
               tf.data.Dataset.from_tensor_slices(st).batch(2).map(
                   lambda s: s.with_updates({"a": s.field_value("a") * 10})),
               tf.data.Dataset.from_tensor_slices(nested)]:
        out.append([repr(ds.element_spec), [_plain(x.to_pyval()) for x in ds]])
    return out


@program
def p_st_validate_in_graph(tf):
    # TF 2.21's StructuredTensor ignores validate: mismatched row counts known only at run time pass
    def build(validate):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.float32)])
        def f(a, b):
            st = _st(tf).from_fields({"a": a, "b": b}, shape=[None], validate=validate)
            return st.nrows(), st.field_value("a")
        return f

    checked, unchecked = build(True), build(False)
    a, b = tf.constant([1, 2, 3]), tf.constant([1.0, 2.0, 3.0])
    return [val(checked(a, b)), val(unchecked(a, b)), val(unchecked(a, b[:2])[1]),
            outcome(lambda: checked(a, b[:2]), "incompatible nrows")]


@program
def p_st_from_shape(tf):
    out = []
    for lengths in ([3, (2, 0, 1)], [3], [2, 2]):
        st = _st(tf).from_shape(tf.experimental.DynamicRaggedShape.from_lengths(lengths))
        out.append([repr(st), repr(st.row_partitions), val(st.nrows()), st.to_pyval()])
    return out
