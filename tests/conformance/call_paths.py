"""tf.function calls with the kinds of arguments TF2 code passes (tensors, numpy arrays and scalars, Python
scalars, keywords, nested tuples, lists and dicts, and mixes): the results and how many traces each
sequence of calls makes, as TensorFlow 2.21 retraces. tinytf answers repeated calls through a cached call
pattern (tinytf/signature.CallPattern); these programs pin that it retraces exactly when TF does."""

from __future__ import annotations

import numpy as np

from . import program, val


@program
def p_numpy_arrays_key_by_dtype_and_shape(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2

    out = []
    for x in [np.ones(3, np.float32), np.zeros(3, np.float32), np.ones(4, np.float32), np.ones(3, np.float64),
              tf.ones(3), np.arange(3, dtype=np.int64), np.arange(3, dtype=np.int64) + 5]:
        out.append([val(f(x)), len(traces)])
    return out


@program
def p_numpy_scalars_are_rank0_tensors_python_scalars_are_values(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x + 1

    out = []
    for x in [np.float32(2.0), np.float32(3.0), np.array(4.0, np.float32), tf.constant(5.0), 2.0, 3.0, 3.0,
              np.int32(7), 7, True]:
        out.append([val(f(x)), len(traces)])
    return out


@program
def p_nested_tuples_lists_and_dicts(tf):
    traces = []

    @tf.function
    def f(data):
        traces.append(1)
        return data["a"] - data["b"] if isinstance(data, dict) else data[0] + data[1]

    a, b = np.ones((2, 2), np.float32), np.full((2, 2), 3.0, np.float32)
    out = []
    for data in [(a, b), (a + 1, b), [a, b], (tf.constant(a), b), {"a": a, "b": b}, {"b": b, "a": a},
                 (a[:1], b[:1]), (a, b)]:
        out.append([val(f(data)), len(traces)])
    return out


@program
def p_python_values_inside_structures_are_keyed_by_value(tf):
    traces = []

    @tf.function
    def f(data):
        traces.append(1)
        return data[0] * data[1]

    x = np.ones(2, np.float32)
    out = []
    for data in [(x, 2.0), (x, 2.0), (x, 3.0), [x, 3.0], (x, 3), (tf.constant(x), 2.0)]:
        out.append([val(f(data)), len(traces)])
    return out


@program
def p_keyword_only_and_var_positional(tf):
    traces = []

    @tf.function
    def f(x, *rest, scale=1.0, shift):
        traces.append(1)
        return (x + sum(rest)) * scale + shift

    x, y = tf.constant([1.0, 2.0]), np.array([3.0, 4.0], np.float32)
    out = []
    for args, kwargs in [((x,), {"shift": 1.0}), ((x,), {"shift": 1.0, "scale": 1.0}), ((x, y), {"shift": 1.0}),
                         ((x, y), {"shift": y}), ((x, y), {"shift": y + 1})]:
        out.append([val(f(*args, **kwargs)), len(traces)])
    return out


@program
def p_keywords_and_defaults_bind_to_one_trace(tf):
    traces = []

    @tf.function
    def f(x, y=None, scale=1.0):
        traces.append(1)
        return x * scale if y is None else (x + y) * scale

    x, y = tf.constant([1.0, 2.0]), np.array([3.0, 4.0], np.float32)
    out = []
    for args, kwargs in [((x,), {}), ((x, None), {}), ((x,), {"y": y}), ((x, y), {}), ((), {"y": y, "x": x}),
                         ((x,), {"scale": 2.0, "y": y}), ((x, y, 2.0), {}), ((x,), {"scale": 3.0})]:
        out.append([val(f(*args, **kwargs)), len(traces)])
    return out


@program
def p_keras_like_step_with_reduce_retracing(tf):
    traces = []

    @tf.function(reduce_retracing=True)
    def f(data):
        traces.append(1)
        x, y = data
        return {"loss": tf.reduce_mean(x - y), "n": tf.size(y)}

    out = []
    for rows in [8, 8, 8, 3, 8, 5]:
        x = np.arange(rows * 2, dtype=np.float32).reshape(rows, 2)
        y = np.ones((rows, 2), np.float32)
        out.append([val(f((x, y))), len(traces)])
    return out


@program
def p_input_signature_converts_numpy_and_lists(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        traces.append(1)
        return x * 2

    out = []
    for x in [np.ones(2, np.float64), np.ones(2, np.float64), [1.0, 2.0], np.ones(3, np.float32), tf.ones(4)]:
        out.append([val(f(x)), len(traces)])
    return out


@program
def p_mixed_call_many_times(tf):
    traces = []

    @tf.function
    def f(data, scale, offset=None):
        traces.append(1)
        (a, b), (c,) = data
        return a * scale + b + c + offset

    x, y = tf.constant(1.5), np.zeros((3, 1), np.float32)
    out = []
    for _ in range(3):
        out.append([val(f(((x, y), [tf.constant([1.0, 2.0])]), 3.0, offset=y + 1)), len(traces)])
    out.append([val(f(((x, y), [tf.constant([1.0, 2.0])]), 4.0, offset=y + 1)), len(traces)])
    return out
