"""numpy values given a dtype: TF casts them as numpy does (floats truncate, integers wrap, text parses,
complex drops its imaginary part), eagerly and in graphs, where Python numbers of the wrong kind are refused;
numbers never become strings. Mixed numpy/tensor arithmetic follows (the "type promotion" guide's cells)."""

from __future__ import annotations

import warnings

import numpy as np

from . import program


def _convert(tf, value, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's overflow and complex-cast warnings: not compared
        try:
            t = tf.convert_to_tensor(value, dtype)
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            return type(e).__name__
    return [t.dtype.name, np.asarray(t).tolist()]


@program
def p_numpy_values_cast_to_the_requested_dtype(tf):
    cases = [(np.array(3.2, np.float16), tf.int8), (np.array([1.7, -2.7]), tf.int32), (np.float32(2.5), tf.int32),
             (np.array([300]), tf.int8), (np.array([3]), tf.float32), (np.array([1e6]), tf.float16),
             (np.array([True]), tf.int32), (np.array([2]), tf.bool), (np.array([1 + 2j]), tf.float32),
             (np.array(["1"]), tf.int32), (np.array([b"2.5"]), tf.float32), (np.array([200], np.uint8), tf.int8),
             (np.array([1.5], dtype=object), tf.int32)]
    out = [_convert(tf, v, d) for v, d in cases]
    refused = [(2.5, tf.int32), ([2.5], tf.int32), (np.array([1.5]), tf.string), (np.array([1]), tf.string),
               (np.array([True]), tf.string), (np.array(["a"]), tf.int32)]
    out += [_convert(tf, v, d) for v, d in refused]
    return out


@program
def p_mixed_numpy_and_tensor_arithmetic(tf):
    out = [(tf.constant([1, 2], tf.int8) + np.array([1.9, 2.9])).numpy().tolist(),
           (np.array([1.9, 2.9]) * tf.constant([1, 2])).numpy().tolist(),
           (np.array(3.2, np.float16) + tf.constant(1, tf.int8)).numpy().tolist()]

    @tf.function
    def f(x):
        return x + np.array([1.9, 2.9]), tf.constant(np.array([1.9]), tf.int32)

    a, b = f(tf.constant([1, 2]))
    out += [a.numpy().tolist(), a.dtype.name, b.numpy().tolist()]
    try:
        np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)
    except Exception as e:  # noqa: BLE001
        out.append(type(e).__name__)
    return out
