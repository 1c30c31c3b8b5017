"""Shared inference rules and wrapper helpers for op families."""

from __future__ import annotations

from .. import shapes
from ..errors import InvalidArgumentError


def same_dtype(*tensors):
    first = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype is not first:
            raise TypeError(
                f"inputs must have the same dtype, got {' and '.join(x.dtype.name for x in tensors)} "
                "(tinytf never promotes dtypes implicitly; use tf.cast to convert one of them)")
    return first


def same_shape(*tensors, note: str = ""):
    """The most specific shape all `tensors` can have (no broadcasting); `note` is added to the error."""
    shape = tensors[0]._shape
    for t in tensors[1:]:
        merged = shapes.merge(shape, t._shape)
        if merged is False:
            raise ValueError(f"all inputs must have the same shape{note}, got "
                             + ", ".join(shapes.fmt(x._shape) for x in tensors))
        shape = merged
    return shape


def require(dtype, allowed: str, what: str = "this op"):
    """Check a dtype against a family: 'float', 'numeric' (real numbers), 'number' (real or complex),
    'inexact' (floating or complex), 'int', 'bool', 'any'."""
    ok = {
        "float": dtype.is_floating and dtype.is_numeric,  # TF's kernels refuse float8/float4
        "numeric": dtype.is_numeric,
        "number": dtype.is_number,
        "inexact": dtype.is_inexact,
        "int": dtype.is_integer and dtype.is_numeric,
        "bool": dtype.is_bool,
        "any": True,
    }[allowed]
    if not ok:
        raise TypeError(f"{what} does not support dtype {dtype.name} (expected a {allowed} dtype)")


def broadcast(*tensors):
    shape = tensors[0]._shape
    try:
        for t in tensors[1:]:
            shape = shapes.broadcast(shape, t._shape)
    except ValueError:
        raise ValueError(
            "incompatible shapes: " + " vs ".join(shapes.fmt(t._shape) for t in tensors)
            + " cannot be broadcast together") from None
    return shape


def binary_infer(allowed: str, out_dtype=None):
    """Inference for an elementwise binary op: same dtypes from `allowed`, broadcast shapes."""

    def infer(x, y):
        dtype = same_dtype(x, y)
        require(dtype, allowed)
        return (out_dtype or dtype), broadcast(x, y)

    return infer


def unary_infer(allowed: str, out_dtype=None):
    def infer(x):
        require(x.dtype, allowed)
        return (out_dtype or x.dtype), x._shape

    return infer


def normalize_axis(axis, rank, what="axis"):
    """A non-negative axis, with a clear error when it is out of range."""
    if rank is None:
        if axis < 0:
            raise ValueError(f"negative {what} {axis} needs a known rank")
        return axis
    if not -rank <= axis < max(rank, 1):
        raise ValueError(f"{what} {axis} is out of range for a tensor of rank {rank}")
    return axis % rank if rank else 0


def as_int_tuple(value):
    """Attributes given as tensors or lists (e.g. a shape) become plain Python ints."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, int):
        return value
    return tuple(None if v is None else int(v) for v in value)


def unless_bfloat16(template: str):
    """A render hook: `template` for every dtype but bfloat16, whose numpy type (ml_dtypes) computes in float32
    when mixed with a Python float literal (`x * 0.5`); bfloat16 nodes call the kernel, which types its
    constants."""
    return lambda node: None if node.inputs[0].dtype.name == "bfloat16" else template


def check_mirror_padding(shape, paddings, mode):
    """REFLECT leaves out the edge, so it needs pad < dim; SYMMETRIC repeats it, so pad <= dim."""
    for d, (size, (before, after)) in enumerate(zip(shape, paddings)):
        if size is None:
            continue
        limit = size - 1 if mode == "REFLECT" else size
        if before > limit or after > limit:
            raise InvalidArgumentError(f"{mode} padding of dimension {d} (size {size}) must be at most {limit}, "
                                       f"got {[before, after]}")
