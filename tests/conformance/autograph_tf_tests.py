"""TensorFlow's own AutoGraph integration tests (tensorflow/python/autograph/tests/*_test.py) that
autograph_fidelity.py does not port yet, as conformance programs. TF's tests run each function through
reference_test_base.assertFunctionMatchesEager: once under tf.function (with the test's autograph options),
once as plain Python, and with `all_inputs_tensors` numbers, lists and arrays become tf.constant first. Each
program here records both runs ("compiled", "native") on the inputs the TF test uses, so tinytf must give
TensorFlow's answer (or its error class) both ways. The functions are module-level, as in TF's files, so
AutoGraph reads their source."""

from __future__ import annotations

import collections

import numpy as np

from . import outcome, program

# The library under test (tensorflow or tinytf), bound by each program: the functions below read `tf` as a
# module global, as TF's test files do, because AutoGraph resolves directives such as
# tf.autograph.experimental.set_loop_options through the function's globals (not through a parameter).
tf = None


def _bind(library):
    global tf
    tf = library


def _tensors(tf, args):
    """reference_test_base._as_tensors: numbers, lists and arrays become constants, dicts recursively."""
    out = []
    for a in args:
        if isinstance(a, (int, float, list, np.ndarray)) and not isinstance(a, bool):
            out.append(tf.constant(a))
        elif isinstance(a, dict):
            out.append(dict(zip(a, _tensors(tf, list(a.values())))))
        else:
            out.append(a)
    return out


def _match(tf, fn, *args, features=None, tensors=False):
    """assertFunctionMatchesEager's two runs of fn(*args): under tf.function, and as Python."""
    if tensors:
        args = _tensors(tf, args)
    traced = tf.function(fn, experimental_autograph_options=features)
    return {"compiled": outcome(lambda: traced(*args), ""), "native": outcome(lambda: fn(*args), "")}


def _stateful(tf, fn, make_args):
    """assertFunctionMatchesEagerStatefulInput: fresh inputs for each run."""
    return {"compiled": outcome(lambda: tf.function(fn)(*make_args()), ""),
            "native": outcome(lambda: fn(*make_args()), "")}


# --- call_to_builtin_function_test.py ---------------------------------------------------------------------
def dict_call(x):
    return dict(foo=x)


def dict_call_aliased(x):
    def fake_dict(x):
        return x

    dict = fake_dict  # noqa: A001 - the test shadows the builtin on purpose
    return dict(x)


def dict_call_dynamic(x):
    def gen_dict():
        return dict

    d = gen_dict()
    return d(foo=x)


def len_call(x):
    return len(x)


def nested_call(x):
    return list(range(len(x)))


def nested_cast(x):
    return float(int(x))


def len_call_aliased(x):
    def fake_len(x):
        return x

    len = fake_len  # noqa: A001
    return len(x)


def len_call_dynamic(x):
    def gen_len():
        return len

    f = gen_len()
    return f(x)


def _builtin_cases(tf, tensors):
    return [_match(tf, fn, *args, tensors=tensors) for fn, args in [
        (dict_call, [1]), (len_call, [[1, 2]]), (dict_call_aliased, [1]), (len_call_aliased, [[1, 2]]),
        (dict_call_dynamic, [1]), (len_call_dynamic, [[1, 2]]), (nested_call, [[]]), (nested_call, [[1, 2, 3]]),
        (nested_cast, [3])]]


@program
def p_agtf_call_to_builtin_function_basic(tf):
    _bind(tf)
    return _builtin_cases(tf, tensors=False)


@program
def p_agtf_call_to_builtin_function_basic_tensor(tf):
    _bind(tf)
    return _builtin_cases(tf, tensors=True)


# --- datasets_test.py -------------------------------------------------------------------------------------
def dataset_no_vars_loop(ds):
    for e in ds:
        print(e)  # TF's test uses tf.print (stderr from C++, not capturable here); `print` runs while tracing


def iterator_no_vars_loop(ds):
    for e in iter(ds):
        print(e)


def dataset_single_var_loop(ds):
    s = tf.constant(0, dtype=tf.int64)
    for e in ds:
        s = s * 10 + e
    return s


def iterator_single_var_loop(ds):
    s = tf.constant(0, dtype=tf.int64)
    for e in iter(ds):
        s = s * 10 + e
    return s


def dataset_two_vars_loop(ds):
    s = tf.constant(0, dtype=tf.int64)
    p = tf.constant(1, dtype=tf.int64)
    for e in ds:
        s += e
        p *= e
    return s, p


def iterator_two_vars_loop(ds):
    s = tf.constant(0, dtype=tf.int64)
    p = tf.constant(1, dtype=tf.int64)
    for e in iter(ds):
        s += e
        p *= e
    return s, p


def dataset_loop_with_break(ds):
    s = tf.constant(0, dtype=tf.int64)
    for e in ds:
        s = s * 10 + e
        if s > 100:
            break
    return s


def iterator_loop_with_break(ds):
    s = tf.constant(0, dtype=tf.int64)
    for e in iter(ds):
        s = s + e
        if s > 100:
            break
    return s


def iterator_resuming_loop(ds):
    s = tf.constant(0, dtype=tf.int64)
    itr = iter(ds)
    for e in itr:
        s = s * 10 + e
        break
    for e in itr:
        s = s * 10 + e
        break
    for e in itr:
        s = s * 10 + e
    return s


def dataset_loop_with_return(ds):
    y = tf.constant(0, dtype=tf.int64)
    for e in ds:
        y = e
        return y
    return y


def iterator_loop_with_return(ds):
    y = tf.constant(0, dtype=tf.int64)
    for e in iter(ds):
        y = e
        return y
    return y


def iterator_next(ds):
    itr = iter(ds)
    return next(itr)


def iterator_next_multiple_calls(ds):
    itr = iter(ds)
    return 10 * next(itr) + next(itr)


def iterator_next_in_loop(ds, n):
    itr = iter(ds)
    s = tf.constant(0, dtype=tf.int64)
    for _ in range(n):
        s = s * 10 + next(itr)
    return s


def iterator_next_stopping(ds, cond):
    itr = iter(ds)
    while cond:
        next(itr)


def iterator_next_with_catching_stop_iteration(ds, cond):
    itr = iter(ds)
    try:
        while cond:
            next(itr)
    except StopIteration:
        pass


@program
def p_agtf_datasets_loops(tf):
    _bind(tf)
    ds = tf.data.Dataset.range(7)
    out = {fn.__name__: _match(tf, fn, ds) for fn in (dataset_no_vars_loop, iterator_no_vars_loop, iterator_next,
                                                      iterator_next_multiple_calls)}
    for fn in (dataset_single_var_loop, iterator_single_var_loop, dataset_two_vars_loop, iterator_two_vars_loop,
               dataset_loop_with_break, iterator_loop_with_break, iterator_resuming_loop):
        out[fn.__name__] = _match(tf, fn, ds)
    out["iterator_next_in_loop"] = _match(tf, iterator_next_in_loop, ds, 7)
    return out


@program
def p_agtf_datasets_errors(tf):
    _bind(tf)
    ds = tf.data.Dataset.range(7)
    phrase = "a return statement cannot be placed inside this TensorFlow loop"
    return {
        "dataset_loop_with_return": outcome(lambda: tf.function(dataset_loop_with_return)(ds), phrase),
        "iterator_loop_with_return": outcome(lambda: tf.function(iterator_loop_with_return)(ds), phrase),
        # graph iterators raise OutOfRangeError, and the `except StopIteration` cannot catch it
        "iterator_next_stopping": outcome(lambda: tf.function(iterator_next_stopping)(ds, tf.constant(True)), ""),
        "iterator_next_with_catching_stop_iteration": outcome(
            lambda: tf.function(iterator_next_with_catching_stop_iteration)(ds, tf.constant(True)), ""),
    }


# --- basic_list_test.py -----------------------------------------------------------------------------------
# Only test_tensor_mutation runs under TF 2.21: the others call tensorflow.python.autograph.stack and
# set_element_type, which TF 2.21 no longer has.
def mutation(t, n):
    for i in range(n):
        t[i] = i
    return t


@program
def p_agtf_basic_list_tensor_mutation(tf):
    """assertConvertedMatchesNative: tf.autograph.to_graph (Feature.LISTS) on a Python list, as Python."""
    _bind(tf)
    converted = tf.autograph.to_graph(mutation,
                                      experimental_optional_features=tf.autograph.experimental.Feature.LISTS)
    return {"compiled": outcome(lambda: converted([0] * 10, 10), ""),
            "native": outcome(lambda: mutation([0] * 10, 10), "")}


# --- loop_with_variable_type_test.py ----------------------------------------------------------------------
def while_with_variable_shape_growing_vector(n):
    v = tf.constant([0, 0])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
        i += 1
    return v


def for_with_variable_shape_growing_vector(values):
    v = tf.constant([0, 0])
    for i in values:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
    return v


def while_with_variable_shape_growing_matrix_rows(n):
    m = tf.constant([[0]])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([None, 1]))])
        m = tf.concat((m, [[i]]), 0)
        i += 1
    return m


def for_with_variable_shape_growing_matrix_rows(values):
    m = tf.constant([[0]])
    for i in values:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([None, 1]))])
        m = tf.concat((m, [[i]]), 0)
    return m


def while_with_variable_shape_growing_matrix_cols(n):
    m = tf.constant([[0, 0]])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([1, None]))])
        m = tf.concat((m, [[i]]), 1)
        i += 1
    return m


def for_with_variable_shape_growing_matrix_cols(values):
    m = tf.constant([[0, 0]])
    for i in values:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([1, None]))])
        m = tf.concat((m, [[i]]), 1)
    return m


def while_with_variable_shape_growing_matrix(n):
    m = tf.constant([[0, 0], [0, 0]])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape(None))])
        m = tf.pad(m, [[1, 1], [1, 1]], constant_values=i)
        i += 1
    return m


def for_with_variable_shape_growing_matrix(values):
    m = tf.constant([[0, 0], [0, 0]])
    for i in values:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape(None))])
        m = tf.pad(m, [[1, 1], [1, 1]], constant_values=i)
    return m


def while_with_variable_shape_inside_if(n):
    v = tf.constant([0, 0])
    i = 0
    if n > 1:
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
            i += 1
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_with_variable_shape_inside_if(n):
    v = tf.constant([0, 0])
    if n > 1:
        for i in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
            i += 1  # noqa: PLW2901 - as in TF's test
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_with_nested_variable_shape_inside_if(n):
    Test = collections.namedtuple("Test", ["var"])
    t = Test(var=tf.constant([0]))
    v = tf.constant([0, 0])
    if n > 1:
        for i in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
            t = Test(var=t.var + 1)
            i += 1  # noqa: PLW2901
    else:
        v = tf.constant([1, 2, 3])
        t = Test(var=tf.constant([3]))
    return v


def while_with_variable_shape_and_break(n):
    v = tf.constant([0, 0])
    i = 0
    if n > 1:
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
            i += 1
            if i > 3:
                break
    else:
        v = tf.constant([1, 2, 3])
    return v


def for_with_variable_shape_and_break(n):
    v = tf.constant([0, 0])
    if n > 1:
        for i in range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
            i += 1  # noqa: PLW2901
            if i > 3:
                break
    else:
        v = tf.constant([1, 2, 3])
    return v


def while_with_composite_tensor_shape_invariant(n):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
        i += 1
    return v


def for_with_composite_tensor_shape_invariant(values):
    v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
    for _ in values:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
        v = tf.sparse.expand_dims(v)
    return v



def _typed_loops(tf, fn, ns, kinds):
    """fn on each n in ns made by each kind (int, tf.constant, range, tf.range, datasets)."""
    return [_match(tf, fn, kind(n)) for n in ns for kind in kinds]


def _int_dataset_range(tf):
    return lambda n: tf.data.Dataset.range(n).map(lambda x: tf.cast(x, tf.int32))


@program
def p_agtf_loop_with_variable_type_while(tf):
    _bind(tf)
    kinds = (int, tf.constant)
    return {fn.__name__: _typed_loops(tf, fn, (0, 1, 2), kinds) for fn in (
        while_with_variable_shape_growing_vector, while_with_variable_shape_growing_matrix_rows,
        while_with_variable_shape_growing_matrix_cols, while_with_variable_shape_growing_matrix,
        while_with_variable_shape_inside_if, for_with_variable_shape_inside_if,
        for_with_nested_variable_shape_inside_if, while_with_variable_shape_and_break)} | {
        "for_with_variable_shape_and_break": _typed_loops(tf, for_with_variable_shape_and_break, (0, 1, 2, 5),
                                                          kinds)}


@program
def p_agtf_loop_with_variable_type_for(tf):
    _bind(tf)
    int_ds = _int_dataset_range(tf)
    return {
        "vector": _typed_loops(tf, for_with_variable_shape_growing_vector, (0, 1, 2),
                               (range, tf.range, tf.data.Dataset.range)),
        "matrix_rows": _typed_loops(tf, for_with_variable_shape_growing_matrix_rows, (0, 1, 2),
                                    (range, tf.range, int_ds)),
        "matrix_cols": _typed_loops(tf, for_with_variable_shape_growing_matrix_cols, (0, 1, 2),
                                    (range, tf.range, tf.data.Dataset.range)),
        "matrix": _typed_loops(tf, for_with_variable_shape_growing_matrix, (0, 1, 2), (range, tf.range, int_ds)),
    }



@program
def p_agtf_loop_with_variable_type_composite(tf):
    _bind(tf)
    def run(fn, n):
        return {key: outcome(lambda r=r: tf.sparse.to_dense(r()), "") for key, r in (
            ("compiled", lambda: tf.function(fn)(n)), ("native", lambda: fn(n)))}

    return {
        "while": [run(while_with_composite_tensor_shape_invariant, k(n)) for n in (0, 1, 2, 5)
                  for k in (int, tf.constant)],
        "for": [run(for_with_composite_tensor_shape_invariant, k(n)) for n in (0, 1, 2)
                for k in (range, tf.range, _int_dataset_range(tf))],
    }


def growing_vector_library_as_parameter(n, library):
    """set_loop_options reached through a parameter: AutoGraph cannot resolve it while converting, so it is no
    directive (TF runs it as the no-op function it is, and the loop keeps its fixed shapes)."""
    v = library.constant([0, 0])
    i = 0
    while i < n:
        library.autograph.experimental.set_loop_options(shape_invariants=[(v, library.TensorShape([None]))])
        v = library.concat((v, [i]), 0)
        i += 1
    return v


def _set_loop_options_of_mine(**options):
    return options


def growing_vector_other_set_loop_options(n):
    """A user's own function named set_loop_options is no directive either: it is called, and the loop has
    no shape invariants."""
    v = tf.constant([0, 0])
    i = 0
    while i < n:
        set_loop_options = _set_loop_options_of_mine
        set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
        i += 1
    return v


@program
def p_agtf_loop_options_only_when_resolved(tf):
    _bind(tf)
    return {"parameter": [_match(tf, growing_vector_library_as_parameter, k(n), tf) for n in (0, 2)
                          for k in (int, tf.constant)],
            "other_function": [_match(tf, growing_vector_other_set_loop_options, k(n)) for n in (0, 2)
                               for k in (int, tf.constant)]}

# --- call_to_named_tuple_test.py --------------------------------------------------------------------------
def inline_namedtuple(x):
    nt = collections.namedtuple("TestNamedTuple", ("a", "b"))
    n = nt(a=1, b=x)
    return n


def external_namedtuple(x, nt):
    return nt(a=1, b=x)


class NamedTupleSubclass(collections.namedtuple("TestNamedTuple", ("a",))):
    def foo(self):
        return self.a + 1


def namedtuple_subclass(x):
    nt = NamedTupleSubclass(x)
    return nt.foo()


def _fields(result):
    """A namedtuple result with its type's name and fields (val() would make it a plain list)."""
    if isinstance(result, tuple) and hasattr(result, "_fields"):
        return {"type": type(result).__name__, **{f: getattr(result, f) for f in result._fields}}
    return result


@program
def p_agtf_call_to_named_tuple(tf):
    _bind(tf)
    nt = collections.namedtuple("TestNamedTuple", ("a", "b"))
    out = {}
    for name, fn, extra in (("inline", inline_namedtuple, ()), ("external", external_namedtuple, (nt,)),
                            ("subclass", namedtuple_subclass, ())):
        out[name] = []
        for x in (1, tf.constant(1)):
            args = (x, *extra)
            traced = tf.function(fn)
            out[name].append({"compiled": outcome(lambda a=args, t=traced: _fields(t(*a)), ""),
                              "native": outcome(lambda a=args, f=fn: _fields(f(*a)), "")})
    return out


# --- call_to_numpy_function_test.py -----------------------------------------------------------------------
def numpy_binomial():
    np.random.seed(1)
    return 2 * np.random.binomial(1, 0.5, size=(10,)) - 1


@program
def p_agtf_call_to_numpy_function(tf):
    _bind(tf)
    return _match(tf, numpy_binomial)


# --- call_to_tf_api_test.py -------------------------------------------------------------------------------
def core_tf_call(x):
    return x * tf.constant(2)


@program
def p_agtf_call_to_tf_api(tf):
    _bind(tf)
    return [_match(tf, core_tf_call, 1), _match(tf, core_tf_call, tf.constant(1))]


# --- ext_slice_test.py ------------------------------------------------------------------------------------
def basic_ext_slice(n):
    return n[:, :], n[0, :], n[:, 0]


def basic_expand_dims(n):
    return n[:, tf.newaxis] - n[tf.newaxis, :]


def slice_of_application(n, x):
    return n(x)[:, tf.newaxis] - n(x)[tf.newaxis, :]


@program
def p_agtf_ext_slice(tf):
    _bind(tf)
    return {"basic_ext_slice": _match(tf, basic_ext_slice, tf.eye(3)),
            "basic_expand_dims": _match(tf, basic_expand_dims, tf.eye(3)),
            "slice_of_application": _match(tf, slice_of_application, lambda x: x, tf.eye(3))}


# --- type_annotations_test.py -----------------------------------------------------------------------------
def pure_declaration():
    n: int  # noqa: F842 - a bare annotation, which AutoGraph must leave alone
    return 1


@program
def p_agtf_type_annotations(tf):
    _bind(tf)
    return _match(tf, pure_declaration)


# --- assertion_test.py ------------------------------------------------------------------------------------
def simple_assertion(x):
    assert x > 0
    return x


@program
def p_agtf_assertion(tf):
    _bind(tf)
    feature = tf.autograph.experimental.Feature.ASSERT_STATEMENTS
    traced = tf.function(simple_assertion, experimental_autograph_options=feature)
    return {"match": [_match(tf, simple_assertion, x, features=feature) for x in (1, tf.constant(1))],
            # a Python 0 fails the Python assert while tracing; a tensor 0 fails tf.debugging.Assert
            "python_zero": outcome(lambda: traced(0), ""),
            "tensor_zero": outcome(lambda: traced(tf.constant(0)), "")}
