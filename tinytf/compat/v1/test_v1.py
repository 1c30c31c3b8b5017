"""tf.compat.v1.test's own names: compute_gradient / compute_gradient_error (TF1's gradient checker: tensors of a
graph, evaluated in the default Session by feeding x), assert_equal_graph_def (TF1's argument order, with TF's
checkpoint and hash-table name stripping), StubOutForTesting and test_src_dir_path, as TF's
ops/gradient_checker.py, framework/test_util.py and platform/googletest.py."""

from __future__ import annotations

import inspect
import os
import re

import numpy as np

_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _tf():
    import tinytf

    return tinytf


def _session():
    from .session import get_default_session

    sess = get_default_session()
    if sess is None:
        raise ValueError("compute_gradient needs a default Session: call it inside `with tf.compat.v1.Session():`")
    return sess


def _feeds(extra, new):
    return {**(extra or {}), **new}


def _dx_and_dy(x, y, y_shape):
    """The gradient of y w.r.t. x for a fed upstream gradient dy (ones unless fed), as TF's _compute_dx_and_dy."""
    tf = _tf()
    from tinytf.runtime.autodiff.graph_gradients import gradients

    dy = tf.compat.v1.placeholder_with_default(tf.ones(y_shape, dtype=y.dtype), y_shape)
    (dx,) = gradients(y, [x], dy)
    return dx, dy


def _theoretical(x, x_shape, x_data, dy, dy_shape, dx, extra):
    """Column j is the gradient when dy is the j-th one-hot (the backward pass, one run per output element)."""
    sess = _session()
    complex_x, complex_dy = x.dtype.is_complex, dy.dtype.is_complex
    shape = tuple(x_shape) + ((2,) if complex_x else ())
    real = x.dtype.real_dtype.as_numpy_dtype
    dy_size = int(np.prod(dy_shape, dtype=np.int64)) * (2 if complex_dy else 1)
    jacobian = np.zeros((int(np.prod(shape, dtype=np.int64)), dy_size), dtype=real)
    dy_data = np.zeros(dy_shape, dtype=dy.dtype.as_numpy_dtype)
    dy_flat = dy_data.ravel().view(dy.dtype.real_dtype.as_numpy_dtype)
    for column in range(dy_size):
        dy_flat[column] = 1
        backprop = sess.run(dx, feed_dict=_feeds(extra, {x: x_data, dy: dy_data}))
        if hasattr(backprop, "indices"):  # IndexedSlices: rows of x
            values = np.asarray(backprop.values)
            row_size = int(np.prod(shape[1:], dtype=np.int64))
            for i, v in zip(np.asarray(backprop.indices), values):
                jacobian[i * row_size:(i + 1) * row_size, column] += v.ravel().view(real)
        else:
            jacobian[:, column] = np.asarray(backprop).ravel().view(real)
        dy_flat[column] = 0
    if not dy_size:
        backprop = np.asarray(sess.run(dx, feed_dict=_feeds(extra, {x: x_data, dy: dy_data})))
        if backprop.shape != np.shape(x_data):
            raise ValueError(f"Empty gradient has wrong shape: expected {np.shape(x_data)}, got {backprop.shape}")
        if np.any(backprop):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _numeric(x, x_shape, x_data, y, y_shape, delta, extra):
    """Row i is (y(x + delta e_i) - y(x - delta e_i)) / (2 delta): central differences, in the Session."""
    sess = _session()
    x_real = x.dtype.real_dtype.as_numpy_dtype
    y_real = y.dtype.real_dtype.as_numpy_dtype
    x_size = int(np.prod(x_shape, dtype=np.int64)) * (2 if x.dtype.is_complex else 1)
    y_size = int(np.prod(y_shape, dtype=np.int64)) * (2 if y.dtype.is_complex else 1)
    x_data = np.asarray(x_data, dtype=x.dtype.as_numpy_dtype)
    scale = np.asarray(2 * delta, dtype=y_real)[()]
    jacobian = np.zeros((x_size, y_size), dtype=x_real)
    for row in range(x_size):
        plus, minus = x_data.copy(), x_data.copy()
        plus.ravel().view(x_real)[row] += delta
        minus.ravel().view(x_real)[row] -= delta
        y_plus = np.asarray(sess.run(y, feed_dict=_feeds(extra, {x: plus})))
        y_minus = np.asarray(sess.run(y, feed_dict=_feeds(extra, {x: minus})))
        jacobian[row, :] = ((y_plus - y_minus) / scale).ravel().view(y_real)
    return jacobian


def _one(x, x_shape, dx, y, y_shape, dy, x_init_value, delta, extra):
    assert x.dtype.base_dtype.name in _FLOATS, f"Don't support type {x.dtype.name} for x"
    assert y.dtype.base_dtype.name in _FLOATS, f"Don't support type {y.dtype.name} for y"
    if x_init_value is not None:
        assert list(x_shape) == list(np.shape(x_init_value)), \
            f"x_shape = {x_shape}, init_data shape = {list(np.shape(x_init_value))}"
        x_data = x_init_value
    else:
        x_data = np.random.random_sample(x_shape).astype(x.dtype.as_numpy_dtype)
        if x.dtype.is_complex:
            x_data.imag = np.random.random_sample(x_shape)
    return (_theoretical(x, x_shape, x_data, dy, y_shape, dx, extra),
            _numeric(x, x_shape, x_data, y, y_shape, delta, extra))


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """(theoretical, numerical) Jacobians of y w.r.t. x, each [x size, y size] (a list of pairs for a list x),
    evaluated in the default Session; a random x in [0, 1) unless `x_init_value` is given."""
    extra = extra_feed_dict or {}
    if init_targets is not None:
        assert isinstance(init_targets, (list, tuple))
        for init in init_targets:
            _session().run(init)
    if isinstance(x, list):
        x_init_value = [None] * len(x) if x_init_value is None else x_init_value
        pairs = [_dx_and_dy(xi, y, y_shape) for xi in x]
        return [_one(xi, shape, dx, y, y_shape, dy, value, delta, extra)
                for xi, shape, (dx, dy), value in zip(x, x_shape, pairs, x_init_value)]
    dx, dy = _dx_and_dy(x, y, y_shape)
    return _one(x, x_shape, dx, y, y_shape, dy, x_init_value, delta, extra)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """The largest absolute difference between the theoretical and numerical Jacobians."""
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                            extra_feed_dict=extra_feed_dict)
    if isinstance(grad, tuple):
        grad = [grad]
    error = 0
    for theoretical, numeric in grad:
        if theoretical.size or numeric.size:
            error = np.maximum(error, np.fabs(theoretical - numeric).max())
    return error


_SHARDED_SAVE = rb"^s3://.*|^_temp_[0-9a-f]{32}/part$|.*_temp/part$"  # TF's _SHARDED_SAVE_OP_PATTERN
_TABLE_SHARED_NAME = rb"hash_table_[0-9a-z\-]+"


def assert_equal_graph_def(actual, expected, checkpoint_v2=False, hash_table_shared_name=False):
    """AssertionError when two GraphDefs differ (node order ignored); TF1's order is (actual, expected).
    `checkpoint_v2` ignores the randomized temp names of V2 checkpoint saves, `hash_table_shared_name` the
    generated shared names of hash tables."""
    from tensorboard.compat.proto import graph_pb2

    from ...test.graph_def_compare import assert_equal_graph_def as compare

    if not isinstance(actual, graph_pb2.GraphDef):
        raise TypeError(f"Expected tf.GraphDef for actual, got {type(actual).__name__}")
    if not isinstance(expected, graph_pb2.GraphDef):
        raise TypeError(f"Expected tf.GraphDef for expected, got {type(expected).__name__}")
    for graph_def in (actual, expected):
        for node in graph_def.node:
            if checkpoint_v2:
                for key in [k for k in node.attr if len(node.attr[k].tensor.string_val) == 1
                            and re.match(_SHARDED_SAVE, node.attr[k].tensor.string_val[0])]:
                    del node.attr[key]
            if hash_table_shared_name and node.op == "HashTableV2" and "shared_name" in node.attr \
                    and re.match(_TABLE_SHARED_NAME, node.attr["shared_name"].s):
                del node.attr["shared_name"]
    compare(expected, actual)


class StubOutForTesting:
    """Replace attributes for a test and put them back (`Set`/`UnsetAll`, `SmartSet`/`SmartUnsetAll`, CleanUp
    on exit of a `with` block or when the object is collected)."""

    def __init__(self):
        self.cache = []
        self.stubs = []

    def __del__(self):
        self.CleanUp()

    def __enter__(self):
        return self

    def __exit__(self, unused_exc_type, unused_exc_value, unused_tb):
        self.CleanUp()

    def CleanUp(self):
        """Undo every SmartSet() and Set()."""
        self.SmartUnsetAll()
        self.UnsetAll()

    def SmartSet(self, obj, attr_name, new_attr):
        """Replace obj.attr_name: on a module, a class, or an instance that holds it itself; otherwise on the
        instance's class (so inheritance is kept). A staticmethod stays a staticmethod when put back."""
        obj = inspect.unwrap(obj) if callable(obj) and hasattr(obj, "__wrapped__") else obj
        if inspect.ismodule(obj) or inspect.isclass(obj) or attr_name in getattr(obj, "__dict__", {}):
            target = obj
        else:
            target = type(obj)
        try:
            original = getattr(obj, attr_name)
        except AttributeError:
            raise AttributeError("Attribute not found.") from None
        held = getattr(obj, "__dict__", {}).get(attr_name)
        if isinstance(held, staticmethod):
            original = staticmethod(original)
        self.stubs.append((target, attr_name, original))
        setattr(target, attr_name, new_attr)

    def SmartUnsetAll(self):
        """Undo the SmartSet() calls, last first."""
        for target, attr_name, original in reversed(self.stubs):
            setattr(target, attr_name, original)
        self.stubs = []

    def Set(self, parent, child_name, new_child):
        """parent.child_name = new_child, remembering the old definition for UnsetAll()."""
        old = getattr(parent, child_name)
        held = getattr(parent, "__dict__", {}).get(child_name)
        if isinstance(held, staticmethod):
            old = staticmethod(old)
        elif isinstance(held, classmethod):
            old = classmethod(old.__func__)
        self.cache.append((parent, old, child_name))
        setattr(parent, child_name, new_child)

    def UnsetAll(self):
        """Undo the Set() calls, last first."""
        for parent, old, child_name in reversed(self.cache):
            setattr(parent, child_name, old)
        self.cache = []


def test_src_dir_path(relative_path):
    """TEST_SRCDIR/TEST_WORKSPACE/tensorflow/relative_path (Bazel's runfiles; KeyError when Bazel did not set
    them, as in TF)."""
    return os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"], "tensorflow", relative_path)


NAMES = ("compute_gradient", "compute_gradient_error", "assert_equal_graph_def", "StubOutForTesting",
         "test_src_dir_path")
