"""keras.ops' core functions on tinytf (Keras 3's TensorFlow backend semantics): conversion and dtypes, shapes,
slicing and scatter, and the functional control flow (cond, while_loop, fori_loop, scan, associative_scan, map,
switch, vectorized_map) built on tf.cond / tf.while_loop, so they work eagerly, in tf.function and in layers."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from ..models.keras_tensor import KerasTensor
from .dtype_rules import dtype_of, is_int_dtype, standardize_dtype
from .symbolic import export_all


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """A tensor of x; with a dtype, Keras casts where TF's conversion would refuse (floats to ints, ints to bool)."""
    if dtype is not None:
        dtype = standardize_dtype(dtype)
    if isinstance(x, tf.Variable):
        x = x.read_value() if dtype is None or x.dtype.name == dtype else tf.cast(x, dtype)
        return x
    if not tf.is_tensor(x):
        if dtype == "bool" or (dtype is not None and is_int_dtype(dtype)):
            return tf.cast(tf.convert_to_tensor(x), dtype)
        return tf.convert_to_tensor(x, dtype=dtype)
    if dtype is not None and x.dtype.name != dtype:
        return tf.cast(x, dtype)
    return x


def convert_to_numpy(x):
    """x's value as a numpy array."""
    if tf.is_tensor(x) or isinstance(x, tf.Variable):
        return np.asarray(x.numpy())
    return np.asarray(x)


def is_tensor(x) -> bool:
    """Whether x is a backend tensor (not a numpy array or Python value)."""
    return tf.is_tensor(x)


def dtype(x) -> str:
    """x's dtype as Keras' string name."""
    return standardize_dtype(dtype_of(x))


def cast(x, dtype):
    """x as `dtype` (Keras' names or tinytf dtypes)."""
    return tf.cast(convert_to_tensor(x), standardize_dtype(dtype))


def saturate_cast(x, dtype):
    """x as `dtype`, clipped to that dtype's range first (no wrap-around)."""
    return tf.saturate_cast(convert_to_tensor(x), standardize_dtype(dtype))


def shape(x):
    """x's shape as a tuple: ints where static, scalar tensors where known only at run time (None for a
    KerasTensor's unknown dimensions, as Keras gives them)."""
    if isinstance(x, KerasTensor):
        return tuple(x.shape)
    x = convert_to_tensor(x) if not hasattr(x, "shape") else x
    static = list(x.shape)
    if all(d is not None for d in static):
        return tuple(int(d) for d in static)
    dynamic = tf.shape(x)
    return tuple(dynamic[i] if d is None else int(d) for i, d in enumerate(static))


def slice(inputs, start_indices, shape):  # noqa: A001 - Keras' name
    """inputs[start : start + shape] along every axis."""
    return tf.slice(convert_to_tensor(inputs), start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """inputs with the block at start_indices replaced by updates (a functional dynamic_update_slice)."""
    inputs, updates = convert_to_tensor(inputs), convert_to_tensor(updates, inputs.dtype)
    block = tf.shape(updates)
    ranges = [tf.range(block[i]) + tf.cast(start_indices[i], "int32") for i in range(len(updates.shape))]
    grids = tf.meshgrid(*ranges, indexing="ij")
    indices = tf.stack(grids, axis=-1)
    return tf.tensor_scatter_nd_update(inputs, indices, updates)


def scatter(indices, values, shape):
    """A zero tensor of `shape` with values added at indices (duplicates add, as in tf.scatter_nd)."""
    return tf.scatter_nd(convert_to_tensor(indices), convert_to_tensor(values), shape)


def scatter_update(inputs, indices, updates, reduction=None):
    """inputs with the elements at indices replaced by updates, or combined with them by `reduction` ("add",
    "max", "min", "mul") where several updates reach one index."""
    if reduction is not None:
        reduction = reduction.lower()
        if reduction not in ("add", "max", "min", "mul"):
            raise ValueError(f"Invalid reduction: {reduction}. Supported values are: None, 'add', 'max', 'min', "
                             f"'mul'.")
    inputs = convert_to_tensor(inputs)
    indices, updates = convert_to_tensor(indices), convert_to_tensor(updates, inputs.dtype)
    if reduction is None:
        return tf.tensor_scatter_nd_update(inputs, indices, updates)
    if reduction == "mul":  # no tensor_scatter_nd_mul: one update at a time, as Keras' TF backend does
        result = inputs
        for i in range(int(indices.shape[0])):
            index = indices[i:i + 1]
            result = tf.tensor_scatter_nd_update(result, index, tf.gather_nd(result, index) * updates[i:i + 1])
        return result
    scatter = {"add": tf.tensor_scatter_nd_add, "max": tf.tensor_scatter_nd_max, "min": tf.tensor_scatter_nd_min}
    return scatter[reduction](inputs, indices, updates)


def stop_gradient(variable):
    return tf.stop_gradient(variable)


def custom_gradient(f):
    """Keras' decorator: f returns (output, grad_fn); the same contract as tf.custom_gradient."""
    return tf.custom_gradient(f)


def cond(pred, true_fn, false_fn):
    """true_fn() if pred else false_fn(): a graph branch when pred is symbolic."""
    return tf.cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """branches[index](*operands), index clamped into range as Keras (and lax.switch) does."""
    index = convert_to_tensor(index, "int32")
    index = tf.clip_by_value(index, 0, len(branches) - 1)
    return tf.switch_case(index, [lambda b=b: b(*operands) for b in branches])


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Keras' while_loop: loop_vars is a tuple/list (or a single value), body returns the same structure."""
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = tuple(loop_vars) if is_tuple else (loop_vars,)

    def _body(*args):
        out = body(*args)
        return tuple(out) if is_tuple else (out,)

    outputs = tf.while_loop(cond, _body, loop_vars, maximum_iterations=maximum_iterations)
    return tuple(outputs) if is_tuple else outputs[0]


def fori_loop(lower, upper, body_fun, init_val):
    """for i in range(lower, upper): val = body_fun(i, val); returns val."""
    def _cond(i, _):
        return i < upper

    def _body(i, val):
        return i + 1, body_fun(i, val)

    return tf.while_loop(_cond, _body, (convert_to_tensor(lower, "int32"), init_val))[1]


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """lax.scan: carry, y = f(carry, x) over the leading axis of xs; returns (final carry, stacked ys)."""
    if xs is None:
        if length is None:
            raise ValueError("Got no `xs` to scan over and `length` not provided.")
        xs_flat, n = [], length
    else:
        xs_flat = tf.nest.flatten(xs)
        xs_flat = [convert_to_tensor(x) for x in xs_flat]
        n = xs_flat[0].shape[0] if xs_flat[0].shape[0] is not None else tf.shape(xs_flat[0])[0]
        if length is not None and isinstance(n, int) and length != n:
            raise ValueError(f"`length` {length} does not match the leading dimension of xs ({n}).")
    carry_flat = [convert_to_tensor(c) for c in tf.nest.flatten(init)]
    # Trace one step to learn the structure and dtypes of ys.
    sample_x = None if xs is None else tf.nest.pack_sequence_as(xs, [x[0] for x in xs_flat])
    sample_carry, sample_y = f(init, sample_x)
    ys_template = [convert_to_tensor(y) for y in tf.nest.flatten(sample_y)]
    arrays = [tf.TensorArray(y.dtype, size=n) for y in ys_template]

    def _cond(i, *_):
        return i < n

    def _body(i, *state):
        carry = tf.nest.pack_sequence_as(init, list(state[:len(carry_flat)]))
        index = n - 1 - i if reverse else i
        x = None if xs is None else tf.nest.pack_sequence_as(xs, [t[index] for t in xs_flat])
        new_carry, y = f(carry, x)
        new_arrays = [a.write(index, convert_to_tensor(v)) for a, v in
                      zip(state[len(carry_flat):], tf.nest.flatten(y))]
        return (i + 1, *[convert_to_tensor(c) for c in tf.nest.flatten(new_carry)], *new_arrays)

    out = tf.while_loop(_cond, _body, (tf.constant(0), *carry_flat, *arrays))
    final_carry = tf.nest.pack_sequence_as(init, list(out[1:1 + len(carry_flat)]))
    del sample_carry
    ys = [a.stack() for a in out[1 + len(carry_flat):]]
    return final_carry, (None if sample_y is None else tf.nest.pack_sequence_as(sample_y, ys))


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of an associative f along `axis` (Hillis-Steele: log2(n) rounds of f on shifted
    halves), for nests of tensors with the same length on that axis."""
    flat = [convert_to_tensor(e) for e in tf.nest.flatten(elems)]
    if reverse:
        flat = [tf.reverse(e, [axis]) for e in flat]
    n = flat[0].shape[axis]
    if n is None:
        raise ValueError("associative_scan needs a static length along `axis`.")
    rank = len(flat[0].shape)
    axis = axis % rank

    def take(t, start, stop):
        begin = [0] * rank
        size = [-1] * rank
        begin[axis], size[axis] = start, stop - start
        return tf.slice(t, begin, size)

    shift = 1
    while shift < n:
        left = tf.nest.pack_sequence_as(elems, [take(e, 0, n - shift) for e in flat])
        right = tf.nest.pack_sequence_as(elems, [take(e, shift, n) for e in flat])
        combined = [convert_to_tensor(c) for c in tf.nest.flatten(f(left, right))]
        flat = [tf.concat([take(e, 0, shift), c], axis=axis) for e, c in zip(flat, combined)]
        shift *= 2
    if reverse:
        flat = [tf.reverse(e, [axis]) for e in flat]
    return tf.nest.pack_sequence_as(elems, flat)


def map(f, xs):  # noqa: A001 - Keras' name
    """[f(x) for x in xs] along the leading axis, stacked (tf.map_fn)."""
    sample = f(tf.nest.map_structure(lambda x: convert_to_tensor(x)[0], xs))
    signature = tf.nest.map_structure(lambda y: tf.TensorSpec(convert_to_tensor(y).shape,
                                                              convert_to_tensor(y).dtype), sample)
    return tf.map_fn(f, xs, fn_output_signature=signature)


def vectorized_map(function, elements):
    return tf.vectorized_map(function, elements)


def jvp(fun, primals, tangents, has_aux=False):
    """Forward-mode Jacobian-vector product (fun(*primals), J @ tangents), by reverse mode twice: J^T u is
    linear in u, so the gradient of <J^T u, tangents> with respect to u is J @ tangents."""
    flat_primals = [convert_to_tensor(p) for p in tf.nest.flatten(primals)]
    flat_tangents = [convert_to_tensor(t, p.dtype) for t, p in zip(tf.nest.flatten(tangents), flat_primals)]
    if len(flat_tangents) != len(flat_primals):
        raise ValueError("`tangents` must have the same structure as `primals`.")
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(flat_primals)
            result = fun(*tf.nest.pack_sequence_as(primals, flat_primals))
        outputs, aux = result if has_aux else (result, None)
        flat_outputs = [convert_to_tensor(o) for o in tf.nest.flatten(outputs)]
        cotangents = [tf.zeros_like(o) for o in flat_outputs]
        outer.watch(cotangents)
        pulled = inner.gradient(flat_outputs, flat_primals, output_gradients=cotangents,
                                unconnected_gradients=tf.UnconnectedGradients.ZERO)
        product = tf.add_n([tf.reduce_sum(g * t) for g, t in zip(pulled, flat_tangents)])
    pushed = outer.gradient(product, cotangents, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    tangents_out = tf.nest.pack_sequence_as(outputs, pushed)
    return (outputs, tangents_out, aux) if has_aux else (outputs, tangents_out)


def unstack(x, num=None, axis=0):
    return tf.unstack(convert_to_tensor(x), num=num, axis=axis)


__all__ = ["associative_scan", "cast", "cond", "convert_to_numpy", "convert_to_tensor", "custom_gradient", "dtype",
           "fori_loop", "is_tensor", "jvp", "map", "saturate_cast", "scan", "scatter", "scatter_update",
           "shape", "slice", "slice_update", "stop_gradient", "switch", "unstack", "vectorized_map", "while_loop"]
export_all(globals(), ["cast", "saturate_cast", "slice", "slice_update", "scatter", "scatter_update",
                       "stop_gradient", "switch", "unstack", "vectorized_map"])
