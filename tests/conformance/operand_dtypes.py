"""Operands without a tensor among them, and operands mixing tensors, numpy values, Python values and variables:
which dtype each binary op gives or which error it raises. TF's rules differ per API: most ops convert the
first operand as it is and the others to its dtype (numpy values are cast, a Python float for an integer dtype is
a TypeError); tf.add, `x + y` and tf.matmul let the second keep its own dtype when it cannot take the first's, so
the kernel reports the mismatch (InvalidArgumentError); tf.add_n converts each operand as it is. The "customization
basics" tutorial's first cell, `tf.math.multiply(float64_array, 42)`, is float64."""

from __future__ import annotations

import numpy as np

from . import program


def _value_kinds(tf):
    return {"f64": np.array([1.5, 2.0]), "f32": np.array([1.5, 2.0], np.float32), "i64": np.array([1, 2]),
            "i32": np.array([1, 2], np.int32), "1": 1, "2.5": 2.5, "npf64": np.float64(2.0),
            "npf32": np.float32(2.0), "npi32": np.int32(3), "list_i": [1, 2], "list_f": [1.0, 2.0]}


def _outcome(fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__
    return [r.dtype.name, np.asarray(r).tolist()]


def _grid(tf, op):
    kinds = _value_kinds(tf)
    return {f"{a} {b}": _outcome(lambda a=a, b=b: op(kinds[a], kinds[b])) for a in kinds for b in kinds}


@program
def p_add_without_tensors(tf):
    return _grid(tf, tf.add)


@program
def p_multiply_without_tensors(tf):
    return _grid(tf, tf.math.multiply)


@program
def p_maximum_without_tensors(tf):
    return _grid(tf, tf.maximum)


@program
def p_pow_and_comparisons_without_tensors(tf):
    return {"pow": _grid(tf, tf.pow), "less": _grid(tf, tf.less), "subtract": _grid(tf, tf.subtract)}


@program
def p_add_n_converts_each_operand_as_it_is(tf):
    kinds = _value_kinds(tf)
    return {f"{a} {b}": _outcome(lambda a=a, b=b: tf.add_n([kinds[a], kinds[b]])) for a in kinds for b in kinds}


@program
def p_operators_and_apis_with_tensors(tf):
    c = tf.constant([1, 2])
    f = tf.constant([1.5, 2.5])
    cases = {
        "c+2.5": lambda: c + 2.5, "2.5+c": lambda: 2.5 + c, "c*2.5": lambda: c * 2.5, "2.5*c": lambda: 2.5 * c,
        "c-2.5": lambda: c - 2.5, "c/2.5": lambda: c / 2.5, "c//2.5": lambda: c // 2.5, "c**2.5": lambda: c ** 2.5,
        "c%2.5": lambda: c % 2.5, "c<2.5": lambda: c < 2.5, "c+[1.5]": lambda: c + [1.5], "[1.5]+c": lambda: [1.5] + c,
        "c@f": lambda: tf.reshape(c, (1, 2)) @ tf.reshape(f, (2, 1)), "add(c,f)": lambda: tf.add(c, f),
        "mul(c,f)": lambda: tf.multiply(c, f), "add(np_f64,c)": lambda: tf.add(np.array([1.5, 2.5]), c),
        "sub(np_f64,c)": lambda: tf.subtract(np.array([1.5, 2.5]), c),
        "add(c,np_f64)": lambda: tf.add(c, np.array([1.5, 2.5])),
        "add(c,var)": lambda: tf.add(c, tf.Variable([1.0, 2.0])),
        "add(var,np64)": lambda: tf.add(tf.Variable([1.0, 2.0]), np.array([1.5, 2.5])),
        "add(2,var)": lambda: tf.add(2, tf.Variable([1.0, 2.0])),
        "add(2.5,var_i)": lambda: tf.add(2.5, tf.Variable([1, 2])),
        "mul(2,var)": lambda: tf.multiply(2, tf.Variable([1.0, 2.0])),
        "matmul(np64,t32)": lambda: tf.matmul(np.ones((1, 2)), tf.ones((2, 1))),
        "matmul(t32,np64)": lambda: tf.matmul(tf.ones((1, 2)), np.ones((2, 1))),
        "matmul(li,np64)": lambda: tf.matmul([[1, 2]], np.ones((2, 1))),
        "matmul(li,lf)": lambda: tf.matmul([[1, 2]], [[1.5], [2.0]]),
        "matmul(f64,i32)": lambda: tf.matmul(np.ones((2, 2)), np.ones((2, 2), np.int32)),
        "where": lambda: tf.where([True, False], np.array([1, 2]), 0.5),
        "concat": lambda: tf.concat([np.array([1.5]), [1]], 0), "concat2": lambda: tf.concat([[1], np.array([1.5])], 0),
        "stack": lambda: tf.stack([np.array([1.5]), [1]]), "clip": lambda: tf.clip_by_value(np.array([1.5, 2.5]), 0, 2),
        "clip2": lambda: tf.clip_by_value([1, 5], 0.5, 2),
        "tutorial": lambda: tf.math.multiply(np.ones([3, 3]), 42),
    }
    return {k: _outcome(fn) for k, fn in cases.items()}


@program
def p_operand_rules_inside_a_function(tf):
    out = {}

    @tf.function
    def f(x):
        return tf.math.multiply(np.ones([2]), 42) + tf.cast(x, tf.float64), tf.add(x, np.array([1.5, 2.5]))

    a, b = f(tf.constant([1, 2]))
    out["values"] = [a.dtype.name, a.numpy().tolist(), b.dtype.name, b.numpy().tolist()]

    @tf.function
    def g(x):
        return x * 2.5

    out["int_times_float"] = _outcome(lambda: g(tf.constant([1, 2])))
    return out
