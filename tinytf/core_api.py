"""TF's top-level names that TF2 programs use daily and that belong to no namespace of their own (tf.repeat,
tf.sequence_mask, tf.group, tf.fingerprint, ...). Each is built on registered ops (runtime/ops/core_array.py,
string_hash.py) or on other public functions; tinytf/__init__.py exports them."""

from __future__ import annotations

import builtins
import logging

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.context import executing_eagerly, state
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.graph import SymbolicTensor
from tinytf.runtime.naming import current_scope
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import core_array as _ops
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import string_hash as _hash_ops
from tinytf.runtime.ops.array import identity
from tinytf.runtime.ops.random import normal, uniform
from tinytf.runtime.ops.stateless_random import stateless_normal, stateless_uniform
from tinytf.runtime.ops.static_value import constant_value
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.shapes import broadcast as _broadcast_shapes

from .gradient_tape import GradientTape, custom_gradient, gradients


def fingerprint(data, method: str = "farmhash64", name=None):
    """One FarmHash Fingerprint64 per row of `data` (its first axis), as uint8 of shape [rows, 8]: the 8 bytes of
    the fingerprint, little-endian. Numeric rows hash their bytes; string rows hash their strings' fingerprints."""
    return apply(_hash_ops.fingerprint_op, (convert_to_tensor(data),), {"method": method}, name=name)


# --- array ops ------------------------------------------------------------------------------------------------
def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TF's argument name
    """Each element of `input` repeated `repeats` times (an int, or one count per element along `axis`); with
    axis=None the input is flattened first, as np.repeat."""
    x = convert_to_tensor(input)
    r = convert_to_tensor(repeats, dtype=dtypes.int32) if not hasattr(repeats, "dtype") else convert_to_tensor(
        repeats)
    if axis is not None:
        axis = int(axis)
    return apply(_ops.repeat_op, (x, r), {"axis": axis}, name=name)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name=None):
    """mask[i1, ..., ik, j] = j < lengths[i1, ..., ik], for j below maxlen (default: the largest length)."""
    lengths = convert_to_tensor(lengths)
    if not lengths.dtype.is_integer:
        raise TypeError(f"sequence_mask: lengths must be integers, got {lengths.dtype.name}")
    if maxlen is None:
        maxlen = _math.maximum(_array_max(lengths), _array.zeros_like(_array_max(lengths)))
    else:
        maxlen = convert_to_tensor(maxlen)
        if maxlen._shape is not None and len(maxlen._shape) != 0:
            raise ValueError(f"sequence_mask: maxlen must be scalar, got shape {list(maxlen._shape)}")
    maxlen = _math.cast(maxlen, lengths.dtype)
    positions = _array.range(_array.zeros_like(maxlen), maxlen, _array.ones_like(maxlen))
    mask = _math.less(positions, _array.expand_dims(lengths, -1))
    dtype = dtypes.as_dtype(dtype)
    return mask if dtype is dtypes.bool_ else _math.cast(mask, dtype)


def _array_max(x):
    from tinytf.runtime.ops.reduce import reduce_max

    return reduce_max(x)


def ensure_shape(x, shape, name=None):
    """`x` unchanged, after checking that its shape is compatible with `shape` (None entries match anything):
    at trace time against the static shape (which it refines), at run time against the value's."""
    t = convert_to_tensor(x)
    shape = TensorShape(shape)
    dims = None if shape.rank is None else tuple(shape.as_list())
    return apply(_ops.ensure_shape_op, (t,), {"shape": dims}, name=name)


def identity_n(input, name=None):  # noqa: A002
    """A list of identities of the tensors of `input`."""
    return [identity(convert_to_tensor(t)) for t in input]


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """tf.shape of each tensor of `input`."""
    return [_array.shape(convert_to_tensor(t), out_type=out_type) for t in input]


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """For each row b along batch_axis, its first seq_lengths[b] elements along seq_axis reversed."""
    x = convert_to_tensor(input)
    rank = None if x._shape is None else len(x._shape)
    seq_axis = 0 if seq_axis is None else int(seq_axis)
    batch_axis = 0 if batch_axis is None else int(batch_axis)
    if rank is not None:
        seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    return apply(_ops.reverse_sequence_op, (x, convert_to_tensor(seq_lengths)),
                 {"seq_axis": seq_axis, "batch_axis": batch_axis}, name=name)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """The rows of `data` (indexed like `partitions`) split into `num_partitions` tensors by partition number."""
    out = apply(_ops.dynamic_partition_op, (convert_to_tensor(data), convert_to_tensor(partitions)),
                {"num_partitions": int(num_partitions)}, name=name)
    return list(out) if isinstance(out, tuple) else [out]


def dynamic_stitch(indices, data, name=None):
    """merged[indices[m][i, ...], ...] = data[m][i, ..., ...]: the inverse of dynamic_partition; where indices
    repeat, the later list wins."""
    indices, data = [convert_to_tensor(i) for i in indices], [convert_to_tensor(d) for d in data]
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch: needs as many data tensors as index tensors (at least one), got "
                         f"{len(indices)} and {len(data)}")
    return apply(_ops.dynamic_stitch_op, tuple(indices) + tuple(data), name=name)


def unravel_index(indices, dims, name=None):
    """Flat indices into an array of shape `dims` as coordinates: shape [len(dims)] + indices.shape."""
    return apply(_ops.unravel_index_op, (convert_to_tensor(indices), convert_to_tensor(dims)), name=name)


def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two TensorShapes (partial shapes allowed); ValueError when they cannot broadcast."""
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    try:
        return TensorShape(_broadcast_shapes(tuple(x.as_list()), tuple(y.as_list())))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         f"pair they are either equal or one of them is 1. Received: {x} and {y}.") from None


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shapes given as 1-D integer tensors (TF's BroadcastArgs)."""
    x = convert_to_tensor(shape_x)
    y = convert_to_tensor(shape_y, dtype=x.dtype) if not hasattr(shape_y, "dtype") else convert_to_tensor(shape_y)
    return apply(_ops.broadcast_args_op, (x, y))


def bitcast(input, type, name=None):  # noqa: A002
    """The same bytes as dtype `type`: a wider type eats the last dimension, a narrower one adds one."""
    return apply(_ops.bitcast_op, (convert_to_tensor(input),), {"type": dtypes.as_dtype(type)}, name=name)


def timestamp(name=None):
    """The time when the op runs (in a tf.function: at each call), in seconds since the epoch, float64."""
    return apply(_ops.timestamp_op, (), name=name)


def parallel_stack(values, name="parallel_stack"):
    """tf.stack along a new first axis; the inputs' shapes must be fully known (as TF requires)."""
    tensors = [convert_to_tensor(v) for v in values]
    for t in tensors:
        if t._shape is None or None in t._shape:
            raise ValueError(f"parallel_stack needs fully defined input shapes, got {TensorShape(t._shape)}")
    return _array.stack(tensors, axis=0)


# --- space_to_batch ---------------------------------------------------------------------------------------------
def _static_ints(value, what, op_name):
    known = constant_value(convert_to_tensor(value)) if not isinstance(value, (list, tuple, int)) else value
    if known is None:
        raise ValueError(f"{op_name}: {what} must be known when the function is traced (a constant), got a tensor "
                         f"computed at run time")
    return np.asarray(known, np.int64)


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Zero-pads the spatial dimensions (1..M) of `input`, then moves each block_shape block into the batch."""
    block = tuple(int(b) for b in _static_ints(block_shape, "block_shape", "space_to_batch_nd").reshape(-1))
    pads = tuple(tuple(int(v) for v in p) for p in
                 _static_ints(paddings, "paddings", "space_to_batch_nd").reshape(-1, 2))
    return apply(_ops.space_to_batch_nd_op, (convert_to_tensor(input),), {"block_shape": block, "paddings": pads},
                 name=name)


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """TF2's tf.space_to_batch: space_to_batch_nd."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd: batch blocks moved back into space, then `crops` cut off."""
    block_value = _static_ints(block_shape, "block_shape", "batch_to_space")
    if block_value.ndim == 0:  # TF1's int block size: the same for both spatial dimensions
        block_value = np.full((2,), int(block_value))
    block = tuple(int(b) for b in block_value.reshape(-1))
    cut = tuple(tuple(int(v) for v in p) for p in _static_ints(crops, "crops", "batch_to_space").reshape(-1, 2))
    return apply(_ops.batch_to_space_nd_op, (convert_to_tensor(input),), {"block_shape": block, "crops": cut},
                 name=name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making each padded input size a multiple of its block size: paddings start with
    base_paddings and end with the smallest extra; crops cut that extra off again."""
    shape = _static_ints(input_shape, "input_shape", "required_space_to_batch_paddings").reshape(-1)
    block = _static_ints(block_shape, "block_shape", "required_space_to_batch_paddings").reshape(-1)
    if shape.shape != block.shape:
        raise ValueError(f"required_space_to_batch_paddings: input_shape {shape.tolist()} and block_shape "
                         f"{block.tolist()} must have the same length")
    base = (np.zeros((len(block), 2), np.int64) if base_paddings is None else
            _static_ints(base_paddings, "base_paddings", "required_space_to_batch_paddings").reshape(-1, 2))
    full = shape + base[:, 0] + base[:, 1]
    extra = (block - full % block) % block
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1).astype(np.int32).reshape(len(block), 2)
    crops = np.stack([np.zeros_like(extra), extra], axis=1).astype(np.int32).reshape(len(block), 2)
    return convert_to_tensor(paddings), convert_to_tensor(crops)


# --- graph structure: group, tuple, no_op --------------------------------------------------------------------
def no_op(name=None):
    """Does nothing: None eagerly; in a graph, an Operation (tinytf runs stateful nodes in program order, so it
    orders nothing by itself)."""
    if executing_eagerly():
        return None
    from .compat.v1.ops import group as _v1_group

    return _v1_group(name=name or "NoOp")


def group(*inputs, **kwargs):
    """An op that runs all of `inputs` (nested structures allowed): None eagerly, where every op has run
    already; in a graph, a NoOp depending on them (an Operation)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Unknown keyword arguments: {sorted(kwargs)}")
    if executing_eagerly():
        return None
    from .compat.v1.ops import group as _v1_group

    items = [x for x in nest.flatten(list(inputs)) if hasattr(x, "node") or hasattr(x, "_v1_node")]
    if not items:
        return no_op(name=name)
    return _v1_group(*items, name=name)


def tuple_(tensors, control_inputs=None, name=None):
    """`tf.tuple`: the tensors of `tensors` (None entries kept), each available only after all of them (and
    control_inputs) are computed: identities, since tinytf computes a graph's nodes in program order."""
    if executing_eagerly():  # as TF: every op has run, control_inputs are not even checked
        return tensors
    if control_inputs is not None and not isinstance(control_inputs, (list, builtins.tuple)):
        raise TypeError(f"'control_inputs' must be a list or tuple, got {type(control_inputs).__name__}")
    from .control_dependencies import control_dependencies

    def operation(t):  # a TF1 graph's Operation (an assign, a group) passes through, a dependency of the rest
        return hasattr(t, "_v1_node") and not hasattr(t, "dtype")

    converted = [t if t is None or operation(t) else convert_to_tensor(t) for t in tensors]
    # in a TF1 graph a session runs only what a fetch needs: the identities depend on every tensor and every
    # control input (fetching one runs the group's updates first, as TF's gate does)
    with control_dependencies([t for t in converted if t is not None] + list(control_inputs or [])):
        return [t if t is None or operation(t) else identity(t) for t in converted]



def get_static_value(tensor, partial=False):
    """The value of `tensor` as a numpy array if it is known without running anything (an eager tensor, a
    constant, the shape of a known shape, small ops of those), else None. Non-tensors come back as numpy."""
    if isinstance(tensor, np.ndarray):
        return tensor
    if not hasattr(tensor, "dtype") or not hasattr(tensor, "_shape"):
        value = getattr(tensor, "value", None)  # a Variable: its value is not constant in TF either
        if value is not None and hasattr(tensor, "assign"):
            return None
        return np.asarray(tensor) if tensor is not None else None
    value = constant_value(tensor)
    return None if value is None else np.asarray(value)


def is_symbolic_tensor(tensor) -> bool:
    """True for a tensor of a graph being built (inside tf.function), False for eager values and others."""
    return isinstance(tensor, SymbolicTensor)


def inside_function() -> bool:
    """True while a tf.function's graph is being built (not in a TF1 Graph's `as_default()`)."""
    graph = state.graph
    return graph is not None and not hasattr(graph, "collections")


def get_current_name_scope() -> str:
    """The current name scope as TF shows it: 'a/b' inside name_scope('a') and name_scope('b'), '' at the top."""
    return current_scope().rstrip("/")


def get_logger():
    """TF's logger, the Python logger named 'tensorflow' (tinytf logs its warnings there too)."""
    return logging.getLogger("tensorflow")


# --- gradients ------------------------------------------------------------------------------------------------
def grad_pass_through(f):
    """A function computing f(*args) whose gradient is that of the identity: the gradient flows to the inputs
    as if f were not there (variables f uses get none)."""

    @custom_gradient
    def passed(*args, **kwargs):
        def grad(*upstream, variables=None):
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream

        return f(*args, **kwargs), grad

    passed.__name__ = getattr(f, "__name__", "grad_pass_through")
    passed.__doc__ = getattr(f, "__doc__", None)
    return passed


def recompute_grad(f):
    """f with the same values and gradients, whose intermediate results are not kept for the backward pass:
    the gradient runs f again under a tape of its own (less memory, one more forward pass)."""

    @custom_gradient
    def recomputed(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad(*upstream, variables=None):
            inputs = [convert_to_tensor(a) for a in args]
            watched = list(variables or [])
            with GradientTape() as tape:
                tape.watch(inputs)
                for v in watched:
                    tape.watch(v)
                again = f(*inputs, **kwargs)
            flat = nest.flatten(again)
            grads = tape.gradient(flat, inputs + watched, output_gradients=list(upstream))
            if variables is not None:
                return grads[:len(inputs)], grads[len(inputs):]
            return grads[:len(inputs)]

        return result, grad

    recomputed.__name__ = getattr(f, "__name__", "recompute_grad")
    return recomputed


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """The Hessian of sum(ys) with respect to each x of xs, of shape x.shape + x.shape (inside a tf.function,
    as TF's symbolic tf.gradients; each x's shape must be known)."""
    if executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    single = not isinstance(xs, (list, builtins.tuple))
    xs = [xs] if single else list(xs)
    firsts = gradients(ys, xs)
    out = []
    for x, first in zip(xs, firsts):
        shape = x._shape
        if shape is None or None in shape:
            raise ValueError(f"tf.hessians needs the shape of each x to be known, got {TensorShape(shape)}")
        if first is None:
            out.append(None)
            continue
        size = int(np.prod(shape))
        flat = _array.reshape(first, [size])
        rows = []
        for i in range(size):
            (row,) = gradients(flat[i], [x])
            rows.append(_array.zeros_like(x) if row is None else row)
        out.append(_array.reshape(_array.stack(rows), list(shape) + list(shape)))
    return out


# --- initializers (TF2's init_ops_v2, the ones under tf.*) ---------------------------------------------------
class _RandomInitializer:
    """A seeded initializer draws with the stateless ops and seed [seed, 0] (the same numbers at every call, TF's
    numbers); an unseeded one from the global random stream."""

    def __init__(self, seed=None):
        self.seed = seed

    def _stateless_seed(self):
        return None if self.seed is None else [int(self.seed), 0]

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


class random_normal_initializer(_RandomInitializer):  # noqa: N801 - TF's name
    """`tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)`: initial values from a normal
    distribution; floating dtypes only."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"Expected floating point type, got {dtype.name}.")
        seed = self._stateless_seed()
        if seed is None:
            return normal(shape, self.mean, self.stddev, dtype)
        return stateless_normal(shape, seed, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class random_uniform_initializer(_RandomInitializer):  # noqa: N801 - TF's name
    """`tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)`: initial values uniform in
    [minval, maxval); floating and integer dtypes."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = dtypes.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype.name}.")
        seed = self._stateless_seed()
        if seed is None:
            return uniform(shape, self.minval, self.maxval, dtype)
        return stateless_uniform(shape, seed, self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
