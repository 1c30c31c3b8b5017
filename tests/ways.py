"""Run one computation several ways and compare: eagerly, as @tf.function with all graph passes, as
@tf.function with none, and (optionally) against an expected numpy value. `check` adds the inferred
types of a trace, `check_partial` partial input shapes, `raises` the error of bad input both ways."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime import nest, shapes
from tinytf.runtime.errors import InvalidArgumentError


def _numpy(value):
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return value.numpy(), value.dtype
    return value, None


def _assert_same(a, b, what, rtol, atol):
    flat_a, flat_b = nest.flatten(a), nest.flatten(b)
    assert len(flat_a) == len(flat_b), f"{what}: {len(flat_a)} vs {len(flat_b)} outputs"
    for x, y in zip(flat_a, flat_b):
        (xv, xd), (yv, yd) = _numpy(x), _numpy(y)
        assert xd is yd, f"{what}: dtype {xd} vs {yd}"
        assert np.shape(xv) == np.shape(yv), f"{what}: shape {np.shape(xv)} vs {np.shape(yv)}"
        if _exact_or_complex(xv, yv, what, rtol, atol):
            continue
        np.testing.assert_allclose(np.asarray(xv, dtype=np.float64) if np.asarray(xv).dtype != bool else xv,
                                   np.asarray(yv, dtype=np.float64) if np.asarray(yv).dtype != bool else yv,
                                   rtol=rtol, atol=atol, err_msg=what)


def _exact_or_complex(x, y, what, rtol, atol) -> bool:
    """Strings (bytes, object arrays) compare exactly and complex numbers as complex; True when handled."""
    kinds = {np.asarray(x).dtype.kind, np.asarray(y).dtype.kind}
    if kinds & {"O", "S"}:
        np.testing.assert_array_equal(np.asarray(x, dtype=object), np.asarray(y, dtype=object), err_msg=what)
        return True
    if "c" in kinds:
        np.testing.assert_allclose(np.asarray(x, np.complex128), np.asarray(y, np.complex128), rtol=rtol, atol=atol,
                                   err_msg=what)
        return True
    return False


def run_all_ways(fn, *args, expected=None, rtol=1e-6, atol=1e-6, **kwargs):
    """Run `fn(*args, **kwargs)` eagerly, as an optimized graph and as an unoptimized graph; assert the
    three agree (dtype, shape, values) and match `expected` (numpy) when given. Returns the eager result."""
    eager = fn(*args, **kwargs)
    graph = tf.function(fn)(*args, **kwargs)
    _assert_same(eager, graph, "eager vs graph", rtol, atol)
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": True})
    try:
        plain = tf.function(fn)(*args, **kwargs)
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    _assert_same(eager, plain, "eager vs unoptimized graph", rtol, atol)
    if expected is not None:
        flat_e = nest.flatten(eager)
        flat_x = nest.flatten(expected)
        assert len(flat_e) == len(flat_x), f"against numpy: {len(flat_e)} outputs, {len(flat_x)} expected"
        for value, want in zip(flat_e, flat_x):
            if _exact_or_complex(_numpy(value)[0], want, "against numpy", rtol, atol):
                continue
            np.testing.assert_allclose(np.asarray(_numpy(value)[0], dtype=np.float64),
                                       np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol,
                                       err_msg="against numpy")
    return eager


def graph_ops(fn, *args):
    """The op names of fn's traced graph, nested graphs included, in order."""
    return tf.function(fn).get_concrete_function(*args).graph.op_types()


def check(fn, *args, expected=None, exact=True):
    """run_all_ways, plus: a graph traced for these arguments infers the eager result's dtype and shape
    (exactly, unless the shape depends on values)."""
    eager = run_all_ways(fn, *args, expected=expected)
    concrete = tf.function(fn).get_concrete_function(*args)
    values = nest.flatten(eager)
    assert len(concrete.outputs) == len(values), f"{len(concrete.outputs)} traced outputs, {len(values)} eager"
    for out, value in zip(concrete.outputs, values):
        assert out.dtype is value.dtype, (out.dtype, value.dtype)
        if exact:
            assert out._shape == value._shape, (out._shape, value._shape)
        else:
            assert shapes.compatible(out._shape, value._shape), (out._shape, value._shape)
    return eager


def check_partial(fn, spec, value, inferred):
    """Trace with a partial TensorSpec, check the inferred output shape, call it, compare with eager."""
    concrete = tf.function(fn).get_concrete_function(spec)
    assert concrete.outputs[0]._shape == inferred, concrete.outputs[0]._shape
    value = tf.constant(value)
    got, want = concrete(value), fn(value)
    assert got.dtype is want.dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    return got


def raises(fn, *words, error=(InvalidArgumentError, ValueError, TypeError)):
    """fn() raises, eagerly and while tracing, with every word in the message."""
    for run in (fn, lambda: tf.function(fn)()):
        with pytest.raises(error) as info:
            run()
        for word in words:
            assert word in str(info.value), str(info.value)


def traced_with(fn, args, **options):
    """`tf.function(fn)` traced for `args` under the graph-pass `options` (e.g. disable_all=True,
    buffer_planning=False); the options in force before are put back whatever happens."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(options)
    try:
        compiled = tf.function(fn)
        compiled.get_concrete_function(*args)
    finally:
        tf.config.optimizer.set_experimental_options({key: saved.get(key, key != "disable_all") for key in options})
    return compiled


def in_threads(worker, count=4):
    """worker(k) for k in range(count), each on a thread of its own, all at once; the first exception any
    of them raised is raised here (after all have ended)."""
    errors = []

    def guarded(k):
        try:
            worker(k)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]

