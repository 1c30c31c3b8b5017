"""The small names of tf.compat.v1 that TF1 programs still call: TF1's scopes under their old names (op_scope,
variable_op_scope), colocate_with, get_seed, the sparse_* and scatter_nd_* functions with their TF1 arguments,
setdiff1d, batch_gather, sparse_to_dense, multinomial, random_poisson, clip_by_average_norm,
verify_tensor_all_finite, hessians, the convert_to_tensor_or_* helpers, SparseTensorValue, the switches to
behaviour that is always on here (control flow v2, resource variables, tensor equality, v2 TensorShape), and the
protocol buffer classes TF1 exports (GraphDef, NodeDef, ...: the tensorboard package's compiled TF messages)."""

from __future__ import annotations

import collections
import contextlib

from tensorboard.compat.proto.attr_value_pb2 import AttrValue, NameAttrList  # noqa: F401
from tensorboard.compat.proto.event_pb2 import LogMessage  # noqa: F401
from tensorboard.compat.proto.graph_pb2 import GraphDef  # noqa: F401
from tensorboard.compat.proto.meta_graph_pb2 import MetaGraphDef, TensorInfo  # noqa: F401
from tensorboard.compat.proto.node_def_pb2 import NodeDef  # noqa: F401

from tinytf.runtime.ops import random as _random

from .deprecated_args import one_of
from .variable_scope import variable_scope


def _tf():
    import tinytf

    return tinytf


newaxis = None


class SparseTensorValue(collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])):
    """What a Session gives back for a SparseTensor: its three numpy arrays."""


# --- scopes ---------------------------------------------------------------------------------------------------
def op_scope(values, name, default_name=None):
    """TF1's old name_scope(name, default_name, values), arguments in the old order."""
    return _tf().compat.v1.name_scope(name, default_name, values)


def variable_op_scope(values, name_or_scope, default_name=None, initializer=None, regularizer=None,
                      caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                      use_resource=None):
    """TF1's old variable_scope(name_or_scope, default_name, values, ...), arguments in the old order."""
    return variable_scope(name_or_scope, default_name=default_name, values=values, initializer=initializer,
                          regularizer=regularizer, caching_device=caching_device, partitioner=partitioner,
                          custom_getter=custom_getter, reuse=reuse, dtype=dtype, use_resource=use_resource)


@contextlib.contextmanager
def colocate_with(op, ignore_existing=False):
    """Place the ops made inside on `op`'s device. tinytf runs everything on the one CPU device, so every op is
    already colocated with every other: the ops are made exactly as without it (as TF does eagerly)."""
    yield


def get_seed(op_seed):
    """(graph-level seed, op seed) of a random op made now: (None, None) when neither seed is set; an op seed
    alone pairs with TF's default graph seed 87654321."""
    seeds = _random.get_seed(op_seed)
    return (None, None) if seeds is None else seeds


# --- switches to behaviour that is always on in tinytf -------------------------------------------------------
def enable_control_flow_v2():
    """tinytf's cond and while_loop are TF2's (functional, differentiable): nothing to switch."""


def control_flow_v2_enabled() -> bool:
    return True


def enable_resource_variables():
    """Every tinytf variable is a resource variable: nothing to switch."""


def resource_variables_enabled() -> bool:
    return True


def enable_tensor_equality():
    """tinytf's tensors compare elementwise with == and are unhashable, as with TF2's tensor equality."""


def enable_v2_tensorshape():
    """tinytf's TensorShape is TF2's (dimensions are ints or None): nothing to switch."""


# --- array and sparse functions with TF1 arguments -----------------------------------------------------------
def setdiff1d(x, y, index_dtype=None, name=None):
    """(the values of 1-D `x` that are not in `y`, in x's order, and their indices in x): TF's ListDiff."""
    tf = _tf()
    with tf.name_scope(name or "ListDiff"):
        x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
        if x.shape.rank not in (None, 1) or y.shape.rank not in (None, 1):
            raise ValueError(f"setdiff1d: x and y must be 1-D, got shapes {x.shape} and {y.shape}")
        kept = tf.logical_not(tf.reduce_any(tf.equal(tf.expand_dims(x, 1), tf.expand_dims(y, 0)), axis=1))
        index_dtype = tf.int32 if index_dtype is None else index_dtype
        return tf.boolean_mask(x, kept), tf.cast(tf.reshape(tf.where(kept), [-1]), index_dtype)


def batch_gather(params, indices, name=None):
    """gather along the first axis after the batch axes of `indices` (tf.gather with batch_dims=rank - 1)."""
    tf = _tf()
    indices = tf.convert_to_tensor(indices)
    return tf.gather(params, indices, batch_dims=indices.shape.rank - 1, name=name)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    return ref.scatter_nd_add(indices, updates, name=name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    return ref.scatter_nd_sub(indices, updates, name=name)


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    return ref.scatter_nd_update(indices, updates, name=name)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True,
                    name=None):
    """A dense tensor of `output_shape` holding sparse_values at sparse_indices (a scalar, a vector of
    positions for a 1-D output, or rows of coordinates) and default_value elsewhere; an index out of bounds is
    an InvalidArgumentError whatever validate_indices says."""
    tf = _tf()
    with tf.name_scope(name or "SparseToDense"):
        indices = tf.convert_to_tensor(sparse_indices)
        values = tf.convert_to_tensor(sparse_values)
        shape = tf.cast(tf.convert_to_tensor(output_shape), indices.dtype)
        if indices.shape.rank == 0:
            indices = tf.reshape(indices, [1, 1])
        elif indices.shape.rank == 1:
            indices = tf.expand_dims(indices, 1)
        default = tf.cast(default_value, values.dtype)
        count = tf.shape(indices)[0]
        values = tf.broadcast_to(values, tf.reshape(count, [1])) if values.shape.rank == 0 else values
        return tf.tensor_scatter_nd_update(tf.fill(tf.reshape(shape, [-1]), default), indices, values)


def sparse_add(a, b, threshold=None, thresh=None):
    threshold = one_of("threshold", threshold, "thresh", thresh)
    return _tf().sparse.add(a, b, threshold=0 if threshold is None else threshold)


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    axis = one_of("axis", axis, "concat_dim", concat_dim)
    expand = one_of("expand_nonconcat_dims", expand_nonconcat_dims, "expand_nonconcat_dim", expand_nonconcat_dim)
    return _tf().sparse.concat(axis, sp_inputs, expand_nonconcat_dims=bool(expand), name=name)


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """TF's SparseMatMul: a dense float matmul; the *_is_sparse hints only chose TF's algorithm."""
    return _tf().matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)


def _sparse_reduce(reduce, sp_input, axis, keepdims, reduction_axes, keep_dims, output_is_sparse):
    axis = one_of("axis", axis, "reduction_axes", reduction_axes)
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return reduce(sp_input, axis=axis, keepdims=keepdims, output_is_sparse=output_is_sparse)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    return _sparse_reduce(_tf().sparse.reduce_max, sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    return _sparse_reduce(_tf().sparse.reduce_max, sp_input, axis, keepdims, reduction_axes, keep_dims, True)


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    return _sparse_reduce(_tf().sparse.reduce_sum, sp_input, axis, keepdims, reduction_axes, keep_dims, False)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    return _sparse_reduce(_tf().sparse.reduce_sum, sp_input, axis, keepdims, reduction_axes, keep_dims, True)


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
    return _tf().sparse.segment_sum(data, indices, segment_ids, num_segments=num_segments, name=name)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
    return _tf().sparse.segment_mean(data, indices, segment_ids, num_segments=num_segments, name=name)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
    return _tf().sparse.segment_sqrt_n(data, indices, segment_ids, num_segments=num_segments, name=name)


def sparse_split(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None, split_dim=None):
    """TF1's sparse_split, whose arguments must be given by keyword."""
    if keyword_required is not None:
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:  # checked before split_dim is looked at, as TF 2.21 does: split_dim alone is refused
        raise ValueError("axis is required")
    axis = one_of("axis", axis, "split_dim", split_dim)
    return _tf().sparse.split(sp_input=sp_input, num_split=num_split, axis=axis, name=name)


# --- math and random with TF1 arguments ----------------------------------------------------------------------
def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """TF1's name of tf.random.categorical."""
    return _tf().random.categorical(logits, num_samples, dtype=output_dtype, seed=seed, name=name)


def random_poisson(lam, shape, dtype=None, seed=None, name=None):
    """TF1's argument order of tf.random.poisson (the rates first)."""
    tf = _tf()
    return tf.random.poisson(shape, lam, dtype=tf.float32 if dtype is None else dtype, seed=seed, name=name)


def clip_by_average_norm(t, clip_norm, name=None):
    """t scaled so that its L2 norm divided by its number of elements is at most clip_norm."""
    tf = _tf()
    with tf.name_scope(name or "clip_by_average_norm"):
        t = tf.convert_to_tensor(t)
        inverse_norm = tf.math.rsqrt(tf.reduce_sum(t * t))
        size = tf.cast(tf.size(t), tf.float32)
        return tf.identity(t * clip_norm * tf.minimum(inverse_norm * size, 1.0 / clip_norm))


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`x`, checked: InvalidArgumentError with `message` when it holds a NaN or an infinity."""
    x = one_of("x", x, "t", t)
    message = one_of("message", message, "msg", msg)
    return _tf().debugging.check_numerics(x, message, name=name)


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """For each x, the second derivatives of sum(ys) with respect to x: shape x.shape + x.shape (TF1 graphs:
    built with tf.gradients of each element of the gradient, x's size known while the graph is built)."""
    tf = _tf()
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    with tf.name_scope(name):
        first = tf.compat.v1.gradients(ys, xs)
        result = []
        for gradient, x in zip(first, xs):
            if not x.shape.is_fully_defined():
                raise ValueError(f"hessians: the shape of {x.name} must be known, got {x.shape}")
            flat = tf.reshape(gradient, [-1])
            rows = [tf.compat.v1.gradients(flat[i], x)[0] for i in range(x.shape.num_elements())]
            rows = [tf.zeros_like(x) if r is None else r for r in rows]
            result.append(tf.reshape(tf.stack(rows), x.shape.as_list() * 2))
        return result


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    tf = _tf()
    if isinstance(value, tf.IndexedSlices):
        if dtype is not None and dtype != value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {tf.as_dtype(dtype).name} for IndexedSlices with "
                             f"dtype {value.dtype.name}")
        return value
    return tf.convert_to_tensor(value, dtype=dtype, name=name)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    tf = _tf()
    if isinstance(value, SparseTensorValue):
        value = tf.SparseTensor(*value)
    if isinstance(value, tf.SparseTensor):
        if dtype is not None and tf.as_dtype(dtype) != value.dtype:
            raise ValueError(f"Sparse dtype mismatch. Requested: {tf.as_dtype(dtype).name},  Actual: "
                             f"{value.dtype.name}")
        return value
    return tf.convert_to_tensor(value, dtype=dtype, name=name)


__all__ = ["AttrValue", "GraphDef", "LogMessage", "MetaGraphDef", "NameAttrList", "NodeDef", "SparseTensorValue",
           "TensorInfo", "batch_gather", "clip_by_average_norm", "colocate_with", "control_flow_v2_enabled",
           "convert_to_tensor_or_indexed_slices", "convert_to_tensor_or_sparse_tensor", "enable_control_flow_v2",
           "enable_resource_variables", "enable_tensor_equality", "enable_v2_tensorshape", "get_seed", "hessians",
           "multinomial", "newaxis", "op_scope", "random_poisson", "resource_variables_enabled", "scatter_nd_add",
           "scatter_nd_sub", "scatter_nd_update", "setdiff1d", "sparse_add", "sparse_concat", "sparse_matmul",
           "sparse_reduce_max", "sparse_reduce_max_sparse", "sparse_reduce_sum", "sparse_reduce_sum_sparse",
           "sparse_segment_mean", "sparse_segment_sqrt_n", "sparse_segment_sum", "sparse_split", "sparse_to_dense",
           "variable_op_scope", "verify_tensor_all_finite"]
