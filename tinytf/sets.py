"""`tf.sets`: set operations on the last dimension of dense tensors and SparseTensors (runtime/ops/sets.py).
Results are SparseTensors whose rows hold each result set, sorted."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import sets as _ops

from .sparse import SparseTensor


def _parts(x):
    if isinstance(x, SparseTensor):
        return (x.indices, x.values, x.dense_shape), True
    return (convert_to_tensor(x),), False


def _set_operation(a, b, operation):
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        if operation in ("a-b", "b-a"):
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip the order of your "
                             "inputs.")
        a, b = b, a  # intersection and union do not care about the order
    parts_a, sparse_a = _parts(a)
    parts_b, sparse_b = _parts(b)
    dtype_a, dtype_b = parts_a[1 if sparse_a else 0].dtype, parts_b[1 if sparse_b else 0].dtype
    if dtype_a is not dtype_b:  # TF refuses while converting the inputs, before any op
        raise TypeError(f"Types don't match, {dtype_a.name} vs {dtype_b.name}.")
    indices, values, shape = apply(_ops.set_operation_op, parts_a + parts_b,
                                   {"operation": operation, "sparse": (sparse_a, sparse_b)})
    return SparseTensor(indices, values, shape)


def intersection(a, b, validate_indices=True):
    """The intersection of the sets in the last dimension of `a` and `b` (a SparseTensor, rows sorted)."""
    return _set_operation(a, b, "intersection")


def union(a, b, validate_indices=True):
    """The union of the sets in the last dimension of `a` and `b`."""
    return _set_operation(a, b, "union")


def difference(a, b, aminusb=True, validate_indices=True):
    """The elements of each set of `a` not in `b` (aminusb), or of `b` not in `a`."""
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b, aminusb = b, a, not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a")


def size(a, validate_indices=True):
    """The number of distinct values in each set (row) of the SparseTensor `a`, int32."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    return apply(_ops.set_size_op, (a.indices, a.values, a.dense_shape))


__all__ = ["intersection", "union", "difference", "size"]
