"""flat_map / interleave trace their function at construction, as TF does (recorded TF outputs in
tests/conformance/data_construction_tracing.py): errors surface when the pipeline is built, the function runs
once, and the elements match a numpy reference eagerly and inside tf.function."""

import numpy as np
import pytest

import tinytf as tf


def _make(calls):
    def make(x):
        calls.append(1)
        return tf.data.Dataset.range(x).map(lambda y: y * 10 + x)
    return make


@pytest.mark.parametrize("method", ["flat_map", "interleave"])
def test_function_runs_once_at_construction(method):
    calls = []
    ds = getattr(tf.data.Dataset.range(4), method)(_make(calls))
    assert len(calls) == 1 and ds.element_spec == tf.TensorSpec([], tf.int64)
    got = sorted(int(v) for v in ds)
    assert got == sorted(y * 10 + x for x in range(4) for y in range(x))
    assert len(calls) == 1  # iterating never calls the Python function again


@pytest.mark.parametrize("method", ["flat_map", "interleave"])
def test_errors_surface_at_construction(method):
    def bad(x):
        return tf.data.Dataset.range(x).map(lambda y: tf.reshape(y, [2]))  # a scalar cannot become [2]
    with pytest.raises(ValueError, match="[Rr]eshape"):
        getattr(tf.data.Dataset.range(3), method)(bad)
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        getattr(tf.data.Dataset.range(3), method)(lambda x: x)


def test_same_elements_eager_and_in_function():
    rows = np.arange(12, dtype=np.float32).reshape(4, 3)

    def build():
        ds = tf.data.Dataset.from_tensor_slices(rows)
        return ds.interleave(lambda r: tf.data.Dataset.from_tensor_slices(r * 2.0), cycle_length=2, block_length=2)

    @tf.function
    def total():
        return build().reduce(tf.constant(0.0), lambda s, x: s + x)

    eager = [float(v) for v in build()]
    # numpy reference of interleave(cycle 2, block 2): rows 0,1 alternate in blocks of two, then rows 2,3
    expected = []
    for a, b in ((rows[0], rows[1]), (rows[2], rows[3])):
        expected += [*a[:2] * 2, *b[:2] * 2, *a[2:] * 2, *b[2:] * 2]
    np.testing.assert_allclose(eager, expected)
    np.testing.assert_allclose(total().numpy(), rows.sum() * 2)
