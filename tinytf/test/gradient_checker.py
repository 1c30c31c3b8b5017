"""tf.test.compute_gradient: a function's Jacobians, from its gradients and from central differences, laid out as
TF 2 lays them out: for each x, a [y.size, x.size] matrix whose column j is how y moves when element j of x
moves (row i: the gradient of y's element i)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf


def _to_numpy(value):
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def _theoretical(f, xs, index):
    x = xs[index]
    y_value = _to_numpy(f(*[_tf.convert_to_tensor(v) for v in xs]))
    jacobian = np.zeros((y_value.size, x.size), dtype=_real_dtype(x.dtype))
    for row in range(y_value.size):
        upstream = np.zeros(y_value.shape, dtype=y_value.dtype)
        upstream.flat[row] = 1
        tensors = [_tf.convert_to_tensor(v) for v in xs]
        with _tf.GradientTape() as tape:
            tape.watch(tensors[index])
            y = f(*tensors)
        grad = tape.gradient(y, tensors[index], output_gradients=_tf.constant(upstream))
        if grad is not None:
            jacobian[row, :] = _to_numpy(_tf.convert_to_tensor(grad)).ravel()
    return jacobian


def _numerical(f, xs, index, delta):
    x = xs[index]
    y_value = _to_numpy(f(*[_tf.convert_to_tensor(v) for v in xs]))
    jacobian = np.zeros((y_value.size, x.size), dtype=_real_dtype(x.dtype))
    scale = np.asarray(2 * delta, dtype=y_value.dtype)[()]
    for column in range(x.size):
        shifted = []
        for sign in (1, -1):
            moved = x.copy()
            moved.ravel()[column] += sign * delta
            args = [_tf.convert_to_tensor(moved if i == index else v) for i, v in enumerate(xs)]
            shifted.append(_to_numpy(f(*args)))
        jacobian[:, column] = ((shifted[0] - shifted[1]) / scale).ravel()
    return jacobian


def _real_dtype(dtype):
    return np.float32 if dtype == np.float16 else dtype


def compute_gradient(f, x, delta=None):
    """(theoretical, numerical): tuples with one Jacobian per element of `x` (a list or tuple of tensors or arrays),
    from tf.GradientTape and from central differences with step `delta` (default 1/1024, exact in binary)."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of Tensors or numpy arrays, not {type(x).__name__}")
    xs = [np.array(_to_numpy(v)) for v in x]  # copies: shifting one entry must not touch the caller's array
    for v in xs:
        if np.iscomplexobj(v):
            raise NotImplementedError("tf.test.compute_gradient: complex inputs are not supported by tinytf's "
                                      "gradient checker (TF splits them into real and imaginary parts)")
        if not np.issubdtype(v.dtype, np.floating):
            raise ValueError(f"tf.test.compute_gradient: inputs must be floating point, got {v.dtype}")
    if delta is None:
        delta = 1.0 / 1024
    theoretical = tuple(_theoretical(f, xs, i) for i in range(len(xs)))
    numerical = tuple(_numerical(f, xs, i, delta) for i in range(len(xs)))
    return theoretical, numerical
