"""The call paths of tf.function (tinytf/function.py's module docstring): every kind of argument TF2 code
passes gives the same result and the same traces through the cached call pattern as through the full key,
eagerly and in graphs, from several threads at once. TensorFlow's own trace counts for these kinds are in
tests/conformance/call_paths.py."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinytf as tf

X = tf.constant([1.0, 2.0])
XN = np.array([3.0, 4.0], np.float32)


def _body(data, scale=1.0, offset=None):
    """A function of every argument kind: a nest of tensors/arrays, a Python scale, an optional offset."""
    leaves = tf.nest.flatten(data)
    total = leaves[0] * scale
    for leaf in leaves[1:]:
        if not isinstance(leaf, (int, float, str)):
            total = total + tf.cast(leaf, total.dtype)
    return total if offset is None else {"sum": total + offset, "scale": scale, "none": None}


CALLS = [  # (args, kwargs): tensors, numpy arrays and scalars, Python values, nests, keywords, mixes
    ((X,), {}),
    ((XN,), {}),
    ((np.float32(2.0),), {}),
    ((X, 2.0), {}),
    ((X,), {"scale": 2.0}),
    ((X,), {"scale": 3}),
    ((), {"data": X, "scale": 2.0}),
    (((X, XN),), {}),
    (([X, XN],), {}),
    (((XN, XN * 2),), {}),
    (({"a": X, "b": XN},), {}),
    (({"b": XN, "a": X},), {}),
    ((((X, XN), [X, 2.0]),), {"offset": XN}),
    ((((X, XN), [X, 2.0]), 3.0), {"offset": X}),
    (((X, np.arange(2, dtype=np.int32)),), {}),
    (((np.ones((3, 2), np.float64), np.ones(2)),), {}),
]


def _fresh(pattern=True, **options):
    traces = []

    def fn(data, scale=1.0, offset=None):
        traces.append(1)
        return _body(data, scale, offset)

    f = tf.function(fn, **options)
    if not pattern:
        f._pattern = None  # every call takes the full key: the general path alone
    return f, traces


def _numpy(result):
    return tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, result)


def _assert_same(a, b):
    """Equal structures and values; dtypes too, except against a Python number (which an eager run returns
    where a function returns it as a tensor)."""
    a, b = _numpy(a), _numpy(b)
    if isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            _assert_same(a[key], b[key])
    elif a is None or b is None:
        assert a is b
    else:
        if not isinstance(b, (int, float)):
            assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("reduce_retracing", [False, True])
def test_each_kind_gives_the_general_paths_results_and_traces(reduce_retracing):
    fast, fast_traces = _fresh(reduce_retracing=reduce_retracing)
    general, general_traces = _fresh(pattern=False, reduce_retracing=reduce_retracing)
    for _ in range(3):  # the first round traces, the next ones take the cached patterns
        for args, kwargs in CALLS:
            _assert_same(fast(*args, **kwargs), general(*args, **kwargs))
            assert len(fast_traces) == len(general_traces)
    assert fast.experimental_get_tracing_count() == general.experimental_get_tracing_count()
    assert fast._fast_cache  # the patterns were cached...
    assert not general._fast_cache  # ...and the twin took the general path every time


def test_each_kind_matches_the_eager_python_function():
    f, _ = _fresh()
    for args, kwargs in CALLS:
        graph = f(*args, **kwargs)
        graph_again = f(*args, **kwargs)
        tf.config.run_functions_eagerly(True)
        try:
            eager = f(*args, **kwargs)
        finally:
            tf.config.run_functions_eagerly(False)
        _assert_same(graph, eager)
        _assert_same(graph_again, eager)


def test_a_cached_pattern_serves_new_values_of_the_same_kind():
    f, traces = _fresh()
    f(((X, XN), [X, 2.0]), offset=XN)
    for i in range(5):
        a, b = tf.constant([float(i), 1.0]), np.full(2, i, np.float32)
        out = f(((a, b), [a, 2.0]), offset=b)
        np.testing.assert_allclose(out["sum"].numpy(), a.numpy() + b + a.numpy() + b)
    assert len(traces) == 1


def test_python_values_and_structure_are_part_of_the_pattern():
    f, traces = _fresh()
    f((X, 2.0))
    f((X, 2.0))
    assert len(traces) == 1
    f((X, 3.0))  # another Python value: a trace of its own, as TF
    f([X, 3.0])  # a list where a tuple was: another structure
    assert len(traces) == 3
    f((X, 3))  # 3 == 3.0: TF keys Python values by value, so this shares the (X, 3.0) trace
    assert len(traces) == 3
    box = [X, 1.0]
    f(box)
    box[1] = 5.0  # the same list object, mutated: keyed by what it holds now
    np.testing.assert_allclose(f(box).numpy(), X.numpy())
    assert len(traces) == 5


def test_numpy_arrays_and_tensors_of_one_dtype_and_shape_share_a_trace():
    f, traces = _fresh()
    f(XN)
    f(X)
    f(np.float32(1.0))
    f(np.array(2.0, np.float32))
    assert len(traces) == 2  # [2] float32, and the rank-0 float32 of the numpy scalar and 0-d array
    out = f(np.array([1, 2], np.int64), 2)
    assert out.dtype == tf.int64 and len(traces) == 3


def test_input_signature_conversions_are_not_bypassed():
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        traces.append(1)
        return x * 2

    for x in [np.ones(2, np.float64), np.ones(2, np.float64), [1.0, 2.0], [1.0, 2.0], XN, X]:
        out = f(x)
        assert out.dtype == tf.float32
        np.testing.assert_allclose(out.numpy(), np.asarray(x, np.float32) * 2)
    assert len(traces) == 1
    with pytest.raises(TypeError):
        f(np.ones((2, 2), np.float32))


def test_bad_calls_raise_as_before_when_a_pattern_is_cached():
    @tf.function
    def f(x, y):
        return x + y

    f(X, XN)
    f(X, XN)
    with pytest.raises(TypeError, match="missing a required argument"):
        f(X)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        f(X, XN, z=1)
    with pytest.raises(TypeError, match="multiple values"):
        f(X, XN, x=X)


def test_arguments_the_pattern_does_not_cover_take_the_full_key():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x, words=None):
        return x * 2 if words is None else x + tf.cast(tf.strings.length(words), tf.float32)

    np.testing.assert_allclose(f(v).numpy(), [2.0, 4.0])  # a variable argument
    v.assign([3.0, 4.0])
    np.testing.assert_allclose(f(v).numpy(), [6.0, 8.0])
    np.testing.assert_allclose(f(X, np.array(["ab", "c"])).numpy(), [3.0, 3.0])  # a string array
    np.testing.assert_allclose(f(X, words=np.array(["abc", ""])).numpy(), [4.0, 2.0])
    assert not any(isinstance(k, tuple) and v in k for k in f._fast_cache)


def test_keyword_only_var_positional_and_kwargs_functions():
    @tf.function
    def starred(x, *rest, scale=1.0):
        return (x + sum(rest)) * scale

    @tf.function
    def keywords(x, **options):
        return x * options.get("scale", 1.0)

    for _ in range(2):
        np.testing.assert_allclose(starred(X, XN, XN, scale=2.0).numpy(), (X.numpy() + 2 * XN) * 2)
        np.testing.assert_allclose(starred(XN).numpy(), XN)
        np.testing.assert_allclose(keywords(XN, scale=3.0).numpy(), XN * 3)
    assert starred.experimental_get_tracing_count() == 2
    assert keywords._pattern is None  # **kwargs: the general path


def test_structured_outputs_keep_their_order_and_constants():
    @tf.function
    def f(data):
        x, y = data
        return {"z": x, "a": (y, None, [x + y]), "m": {"k": 1.5, "b": y * 2}}

    for _ in range(3):
        out = f((XN, X))
        assert list(out) == ["z", "a", "m"] and list(out["m"]) == ["k", "b"]
        assert out["a"][1] is None and isinstance(out["a"], tuple) and isinstance(out["a"][2], list)
        assert out["m"]["k"].numpy() == 1.5
        np.testing.assert_allclose(out["a"][2][0].numpy(), XN + X.numpy())
        np.testing.assert_allclose(out["m"]["b"].numpy(), X.numpy() * 2)


def test_tapes_record_calls_with_nested_numpy_arguments():
    w = tf.Variable([0.5, -1.0])

    @tf.function
    def loss(data):
        x, y = data
        return tf.reduce_sum((x * w - y) ** 2)

    data = (XN, np.array([1.0, 1.0], np.float32))
    loss(data)
    loss(data)
    with tf.GradientTape() as tape:
        value = loss(data)
    grad = tape.gradient(value, w)
    np.testing.assert_allclose(grad.numpy(), 2 * (XN * w.numpy() - 1.0) * XN, rtol=1e-6)


def test_calls_from_an_outer_trace_are_inlined():
    inner_traces = []

    @tf.function
    def inner(data, scale=1.0):
        inner_traces.append(1)
        return data[0] * scale + data[1]

    @tf.function
    def outer(x):
        return inner((x, XN), scale=2.0) + inner((x, XN), scale=2.0)

    inner((X, XN), scale=2.0)
    inner((X, XN), scale=2.0)
    np.testing.assert_allclose(outer(X).numpy(), 2 * (X.numpy() * 2 + XN))
    assert len(inner_traces) == 1  # the eager calls' trace serves the outer graph too, as in TF


def test_concurrent_calls_of_every_kind_from_threads():
    f, traces = _fresh(reduce_retracing=False)
    general, _ = _fresh(pattern=False)
    expected = [_numpy(general(*args, **kwargs)) for args, kwargs in CALLS]
    errors = []

    def worker(seed):
        order = np.random.default_rng(seed).permutation(len(CALLS))
        try:
            for _ in range(10):
                for i in order:
                    args, kwargs = CALLS[i]
                    _assert_same(f(*args, **kwargs), expected[i])
        except Exception as e:  # noqa: BLE001 - reported below with its thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(traces) == general.experimental_get_tracing_count()
