"""tf.nn names built from other ops (their gradients follow): batch_norm_with_global_normalization,
approx_max_k / approx_min_k (exact top-k, which is what TF computes on CPU), space_to_batch and
with_space_to_batch (an op on a dilated input run as the op on a space-to-batch'ed one, TF's _WithSpaceToBatch)."""

from __future__ import annotations

import collections

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops.sorting import top_k
from tinytf.runtime.ops.window_argmax import dilation2d

from .core_api import batch_to_space, space_to_batch_nd
from .nn_core_api import batch_normalization

ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])
_APPROX_TOP_K_DTYPES = ("float16", "bfloat16", "float32")


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,  # noqa: A002
                                         scale_after_normalization, name=None):
    """`tf.nn.batch_norm_with_global_normalization`: batch_normalization with offset `beta`, and scale `gamma`
    only when scale_after_normalization."""
    return batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name)


def _approx_top_k(operand, k, reduction_dimension, largest, what):
    operand = convert_to_tensor(operand)
    if operand.dtype.name not in _APPROX_TOP_K_DTYPES:
        raise InvalidArgumentError(f"{what}: Value for attr 'T' of {operand.dtype.name} is not in the list of "
                                   "allowed values: half, bfloat16, float")
    rank = None if operand._shape is None else len(operand._shape)
    if rank is None:
        raise ValueError(f"{what} needs an operand of known rank")
    axis = reduction_dimension + rank if reduction_dimension < 0 else reduction_dimension
    if not 0 <= axis < rank:
        raise InvalidArgumentError(f"{what}: reduction_dimension {reduction_dimension} is out of range for an "
                                   f"operand of rank {rank}")
    perm = [d for d in range(rank) if d != axis] + [axis]
    moved = operand if axis == rank - 1 else _a.transpose(operand, perm)
    values, indices = top_k(moved if largest else -moved, k)
    values = values if largest else -values
    if axis != rank - 1:
        back = list(np.argsort(perm))
        values, indices = _a.transpose(values, back), _a.transpose(indices, back)
    return ApproxTopK(values, indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """`tf.math.approx_max_k`: the k largest values along `reduction_dimension` and their int32 indices. On CPU
    TF computes them exactly (recall 1), as here: largest first, equal values by lower index."""
    return _approx_top_k(operand, int(k), int(reduction_dimension), True, "approx_max_k")


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """`tf.math.approx_min_k`: the k smallest values along `reduction_dimension` and their int32 indices, exactly
    (TF 2.21 has no CPU kernel for it; this is what its TPU/XLA kernel approximates)."""
    return _approx_top_k(operand, int(k), int(reduction_dimension), False, "approx_min_k")


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """`tf.nn.space_to_batch`: tf.space_to_batch_nd (TF 2's form)."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def _adjusted(values, fill, spatial_dims):
    """TF's _with_space_to_batch_adjust: per dimension 1..spatial_dims[-1], the spatial dimension's value or fill."""
    out = []
    for d in range(1, spatial_dims[-1] + 1):
        out.append(values[spatial_dims.index(d)] if d in spatial_dims else fill)
    return np.array(out)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """`tf.nn.with_space_to_batch`: op(input, num_spatial_dims, padding) on a dilated input, computed as TF does:
    space_to_batch by dilation_rate (padding so that each spatial size is a multiple of it, plus the filter's
    reach for "SAME"), op with "VALID" padding, batch_to_space back."""
    input = convert_to_tensor(input)
    rate = np.asarray(convert_to_tensor(dilation_rate).numpy() if hasattr(dilation_rate, "numpy") else dilation_rate,
                      np.int64).reshape(-1)
    num_spatial_dims = rate.shape[0]
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"Invalid padding method {padding!r}")
    if (rate < 1).any():
        raise ValueError(f"dilation_rate must be positive, got {rate.tolist()}")
    if spatial_dims is None:
        starts_at = 2 if data_format is not None and data_format.startswith("NC") else 1
        spatial_dims = list(range(starts_at, starts_at + num_spatial_dims))
    spatial_dims = sorted(int(d) for d in spatial_dims)
    if len(spatial_dims) != num_spatial_dims or spatial_dims[0] < 1:
        raise ValueError(f"spatial_dims {spatial_dims} do not match dilation_rate {rate.tolist()}")
    if (rate == 1).all():
        return op(input, num_spatial_dims, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        reach = (np.asarray(filter_shape, np.int64).reshape(-1)[:num_spatial_dims] - 1) * rate
        base = np.stack([reach // 2, reach - reach // 2], 1)
    else:
        base = np.zeros((num_spatial_dims, 2), np.int64)
    if input._shape is None or any(input._shape[d] is None for d in spatial_dims):
        raise ValueError("with_space_to_batch needs the spatial dimensions of its input known while tracing")
    spatial_shape = [input._shape[d] for d in spatial_dims]
    # TF's required_space_to_batch_paddings, on the static shape: pad each size up to a multiple of its rate
    extra = (rate - (np.asarray(spatial_shape) + base.sum(1)) % rate) % rate
    paddings = np.stack([base[:, 0], base[:, 1] + extra], 1)
    crops = np.stack([np.zeros_like(extra), extra], 1)
    rate_all = _adjusted(list(rate), 1, spatial_dims)
    pad_all = _adjusted(list(paddings), [0, 0], spatial_dims)
    crop_all = _adjusted(list(crops), [0, 0], spatial_dims)
    converted = space_to_batch_nd(input, rate_all.astype(np.int32), pad_all.astype(np.int32))
    result = op(converted, num_spatial_dims, "VALID")
    return batch_to_space(result, rate_all.astype(np.int32), crop_all.astype(np.int32))


__all__ = ["batch_norm_with_global_normalization", "approx_max_k", "approx_min_k", "space_to_batch",
           "with_space_to_batch", "erosion2d"]


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """`tf.nn.erosion2d`: grayscale erosion, -dilation2d(-value, filters reversed in height and width), as TF
    computes it: output[b, y, x, c] = min over (dy, dx) of value[...] - filters[dy, dx, c]."""
    filters = convert_to_tensor(filters)
    return -dilation2d(-convert_to_tensor(value), _a.reverse(filters, [0, 1]), strides, padding, data_format,
                       dilations, name)
