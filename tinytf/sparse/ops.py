"""The tf.sparse functions: conversions to and from dense, reordering, addition, reductions and products.
Reductions and products densify the operand first (exact, and simple; not memory-frugal for huge shapes)."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import sparse as kernels
from tinytf.runtime.ops.array import ones_like, zeros_like
from tinytf.runtime.ops.array import shape as _shape
from tinytf.runtime.ops.indexing import gather, gather_nd, where
from tinytf.runtime.ops.linalg import matmul as _matmul
from tinytf.runtime.ops.math import cast, greater, multiply, not_equal, truediv
from tinytf.runtime.ops.reduce import reduce_max as _reduce_max
from tinytf.runtime.ops.reduce import reduce_sum as _reduce_sum
from tinytf.runtime.tensor import Tensor

from .sparse_tensor import SparseTensor


def _require_sparse(value, what: str) -> SparseTensor:
    if not isinstance(value, SparseTensor):
        raise TypeError(f"{what}: expected a SparseTensor, got {type(value).__name__}")
    return value


def from_dense(tensor, name=None) -> SparseTensor:
    """`tf.sparse.from_dense`: the non-zero entries of `tensor`, in row-major order."""
    tensor = convert_to_tensor(tensor)
    zero = convert_to_tensor(tensor.dtype.np.type(0) if not tensor.dtype.is_bool else False)
    indices = where(not_equal(tensor, zero))
    return SparseTensor._make(indices, gather_nd(tensor, indices), _shape(tensor, out_type=dtypes.int64),
                              tensor._shape)


def to_dense(sp_input, default_value=None, validate_indices=True, name=None) -> Tensor:
    """`tf.sparse.to_dense`: the values at their indices, `default_value` (0) elsewhere."""
    sp = _require_sparse(sp_input, "tf.sparse.to_dense")
    if default_value is None:  # 0, or "" for strings (TF's zero of the dtype)
        default_value = convert_to_tensor(b"", sp.dtype) if sp.dtype.is_string else sp.dtype.np.type(0)
    return kernels.sparse_to_dense(sp.indices, sp.values, sp.dense_shape, default_value)


def reorder(sp_input, name=None) -> SparseTensor:
    """`tf.sparse.reorder`: the same entries sorted into row-major (lexicographic) order of their indices."""
    sp = _require_sparse(sp_input, "tf.sparse.reorder")
    order = kernels.reorder_permutation(sp.indices, sp.dense_shape)
    return SparseTensor._make(gather(sp.indices, order), gather(sp.values, order), sp.dense_shape, sp._shape)


def add(a, b, threshold=0, name=None):
    """`tf.sparse.add`: sparse + sparse is sparse (sums with |sum| < threshold dropped); sparse + dense is dense."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        if a.dtype is not b.dtype:
            raise TypeError(f"tf.sparse.add: operands have dtypes {a.dtype.name} and {b.dtype.name}")
        threshold = float(threshold.numpy()) if isinstance(threshold, Tensor) else threshold
        indices, values = kernels.sparse_add(a.indices, a.values, a.dense_shape, b.indices, b.values,
                                             b.dense_shape, threshold)
        static = a._shape if a._shape is not None and None not in a._shape else b._shape
        return SparseTensor._make(indices, values, a.dense_shape, static)
    if isinstance(a, SparseTensor):
        return to_dense(a) + convert_to_tensor(b, dtype_hint=a.dtype)
    if isinstance(b, SparseTensor):
        return convert_to_tensor(a, dtype_hint=b.dtype) + to_dense(b)
    raise TypeError("tf.sparse.add: at least one operand must be a SparseTensor")


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_sum`: the sum of the entries over `axis` (a dense tensor, or sparse when asked)."""
    sp = _require_sparse(sp_input, "tf.sparse.reduce_sum")
    result = _reduce_sum(to_dense(sp), axis, keepdims=bool(keepdims))
    return _groups_with_entries(sp, result, axis, keepdims) if output_is_sparse else result


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_max`: the max over the present entries (absent entries count as missing, not 0); a
    group with no entry is 0 in the dense result and absent from the sparse one, as TF's kernels give it."""
    sp = _require_sparse(sp_input, "tf.sparse.reduce_max")
    lowest = sp.dtype.np.type(sp.dtype.min) if not sp.dtype.is_floating else sp.dtype.np.type("-inf")
    result = _reduce_max(to_dense(sp, lowest), axis, keepdims=bool(keepdims))
    if output_is_sparse:
        return _groups_with_entries(sp, result, axis, keepdims)
    return where(_has_entries(sp, axis, keepdims), result, zeros_like(result))


def _has_entries(sp: SparseTensor, axis, keepdims):
    """Whether each group of a reduction over `axis` holds at least one entry of `sp`."""
    present = SparseTensor._make(sp.indices, ones_like(sp.values, dtype=dtypes.int32), sp.dense_shape, sp._shape)
    return greater(_reduce_sum(to_dense(present), axis, keepdims=bool(keepdims)), 0)


def _groups_with_entries(sp: SparseTensor, result, axis, keepdims) -> SparseTensor:
    """The reduction's sparse form: one entry per group that held entries (a sum of 0 included)."""
    indices = where(_has_entries(sp, axis, keepdims))
    return SparseTensor._make(indices, gather_nd(result, indices), cast(_shape(result), dtypes.int64), result._shape)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None) -> Tensor:
    """`tf.sparse.sparse_dense_matmul`: a product where either operand may be a SparseTensor."""
    a = to_dense(sp_a) if isinstance(sp_a, SparseTensor) else sp_a
    b = to_dense(b) if isinstance(b, SparseTensor) else b
    return _matmul(a, b, transpose_a=adjoint_a, transpose_b=adjoint_b)


def map_values(op, *args, **kwargs) -> SparseTensor:
    """`tf.sparse.map_values`: `op` applied to the values of the SparseTensor arguments (same indices)."""
    sparse = [x for x in list(args) + list(kwargs.values()) if isinstance(x, SparseTensor)]
    if not sparse:
        raise ValueError("tf.sparse.map_values: no SparseTensor among the arguments")
    first = sparse[0]
    values = op(*[x.values if isinstance(x, SparseTensor) else x for x in args],
                **{k: (v.values if isinstance(v, SparseTensor) else v) for k, v in kwargs.items()})
    return first.with_values(values)


def _dense_operand(sp: SparseTensor, other):
    other = convert_to_tensor(other, dtype_hint=sp.dtype)
    if other._shape is not None and len(other._shape) == 0:
        return other
    return gather_nd(other, sp.indices) if other._shape == sp._shape else None


def mul_dense(sp: SparseTensor, other) -> SparseTensor:
    """sp * dense: only the entries of sp can be non-zero, so the product keeps sp's indices."""
    picked = _dense_operand(sp, other)
    if picked is None:
        raise ValueError(f"SparseTensor * dense: the dense operand must be a scalar or of shape {list(sp._shape)}")
    return sp.with_values(multiply(sp.values, picked))


def div_dense(sp: SparseTensor, other) -> SparseTensor:
    picked = _dense_operand(sp, other)
    if picked is None:
        raise ValueError(f"SparseTensor / dense: the dense operand must be a scalar or of shape {list(sp._shape)}")
    return sp.with_values(truediv(sp.values, picked))


def _install():
    """`sp * dense` and `sp / dense` on every SparseTensor (this module builds on the class)."""
    SparseTensor.__mul__ = mul_dense
    SparseTensor.__truediv__ = div_dense


_install()
