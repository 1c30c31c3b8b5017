"""Linear algebra: matmul (batched, broadcasting), matvec, tensordot, einsum, norms, and matrix functions
(transpose, diag, trace, inverse, determinant, solve, cholesky). Matrices are the last two axes; any axes
before them are batch axes."""

from __future__ import annotations

import numpy as np

from .. import blas_threads, dtypes, shapes
from ..dispatch import apply, convert_inputs, convert_to_tensor, convert_with_first_as_hint
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from ..tensor import Tensor
from .array_dynamic import eye as dynamic_eye
from .common import as_int_tuple, normalize_axis, require, same_dtype
from .complex import conj
from .math import cast
from .reduce import canonical_axis, reduced_shape
from .shape_args import scalar_arg

fmt = shapes.fmt


def _batch_broadcast(what, a_batch, b_batch, a_shape, b_shape):
    try:
        return shapes.broadcast(a_batch, b_batch)
    except ValueError:
        raise ValueError(f"the batch dimensions of {fmt(a_shape)} and {fmt(b_shape)} ({what}) cannot be "
                         "broadcast together") from None


def _matrix_rank_check(x, what, minimum=2):
    if x._shape is not None and len(x._shape) < minimum:
        raise ValueError(f"{what} must have rank >= {minimum}, got shape {fmt(x._shape)}")


def _lapack_dtype(x, what):
    """numpy's LAPACK routines take float32 and float64 only."""
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"{what} needs a float32 or float64 tensor, got {x.dtype.name}")


def _square(x, what):
    shape = x._shape
    _matrix_rank_check(x, what)
    if shape is not None and None not in shape[-2:] and shape[-1] != shape[-2]:
        raise ValueError(f"{what} needs square matrices in the last two dimensions, got shape {fmt(shape)}")


def _transposed(value, flag):
    return np.swapaxes(value, -1, -2) if flag else value


# --- matmul -------------------------------------------------------------------------------------------
def _half_matmul(a, b):
    """float16 a @ b as numpy's (BLAS-less) and TF's CPU kernels compute it: products and sums in float32, over
    the inner dimension in order, rounded to float16 once. One vectorized multiply-add per inner index, which is
    several times faster than numpy's float16 matmul (a float32 BLAS product would block the sum differently)."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    total = np.zeros(shape, np.float32)
    for k in range(a.shape[-1]):
        total += a32[..., :, k, None] * b32[..., None, k, :]
    return total.astype(np.float16)


def _matmul_kernel(a, b, *, transpose_a, transpose_b):
    if a.dtype == np.float16:
        return _half_matmul(_transposed(a, transpose_a), _transposed(b, transpose_b))
    # BLAS's thread count by the shapes, not by when the last convolution ran (runtime/blas_threads.py)
    product = blas_threads.matmul(_transposed(a, transpose_a), _transposed(b, transpose_b))
    # ml_dtypes' bfloat16 matmul accumulates and answers in float32; TF's answer is bfloat16
    return product if product.dtype == a.dtype else product.astype(a.dtype)


def _infer_matmul(a, b, *, transpose_a, transpose_b):
    dtype = same_dtype(a, b)
    require(dtype, "number", "matmul")
    sa, sb = a._shape, b._shape
    for shape in (sa, sb):
        if shape is not None and len(shape) < 2:
            raise ValueError(f"both inputs must have rank >= 2, got shapes {fmt(sa)} and {fmt(sb)} "
                             "(for a vector use tf.linalg.matvec or tf.tensordot)")
    if sa is None or sb is None:
        return dtype, None
    m, k = sa[-2:][::-1] if transpose_a else sa[-2:]
    k2, n = sb[-2:][::-1] if transpose_b else sb[-2:]
    if k is not None and k2 is not None and k != k2:
        flags = "".join(f", {f}=True" for f, on in (("transpose_a", transpose_a), ("transpose_b", transpose_b)) if on)
        raise ValueError(f"inner dimensions {k} and {k2} do not match (shapes {fmt(sa)} and {fmt(sb)}{flags})")
    return dtype, _batch_broadcast("matmul", sa[:-2], sb[:-2], sa, sb) + (m, n)


def _operand(template, shape, flag):
    if not flag:
        return template
    if shape is not None and len(shape) == 2:
        return template + ".T"
    return f"np.swapaxes({template}, -1, -2)"


def single_threaded_gemm(node) -> bool:
    """Whether the matmul `node`'s GEMMs are small enough for OpenBLAS to run on one thread whatever its
    count (runtime/blas_threads.py): known shapes of at most THREADED_MAX M*K*N per matrix."""
    a, b = node.inputs
    sa, sb = a._shape, b._shape
    if sa is None or sb is None or None in sa[-2:] or None in sb[-2:]:
        return False
    m, k = sa[-2:][::-1] if node.attrs["transpose_a"] else sa[-2:]
    n = sb[-2] if node.attrs["transpose_b"] else sb[-1]
    return m * k * n <= blas_threads.THREADED_MAX


def in_blas_region(node) -> bool:
    """Whether the matmul `node` runs inside its loop's one-thread BLAS region (passes/loop_blas_region.py)."""
    return id(node) in getattr(node.graph, "region_gemms", ())


def _render_matmul(node):
    """`a @ b`, as numpy code reads; a transposed operand as `.T` (rank 2) or np.swapaxes. GEMMs OpenBLAS may
    thread call the kernel, which sets BLAS's thread count by their shapes, unless their loop runs in a
    one-thread region."""
    a, b = node.inputs
    if a.dtype.name in ("bfloat16", "float16") or not (single_threaded_gemm(node) or in_blas_region(node)):
        return None  # the kernel (16-bit floats: it rounds the float32 product back to 16 bits)
    left = _operand("{0}", a._shape, node.attrs["transpose_a"])
    right = _operand("{1}", b._shape, node.attrs["transpose_b"])
    return f"{left} @ {right}"


matmul_op = register(OpDef("matmul", _matmul_kernel, _infer_matmul, render=_render_matmul))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """The matrix product of the last two axes of `a` and `b`; batch axes broadcast. Real dtypes only, so
    `adjoint_*` is the same as `transpose_*`. `output_type` casts the inputs first (e.g. int8 -> int32)."""
    if transpose_a and adjoint_a or transpose_b and adjoint_b:
        raise ValueError("tf.linalg.matmul: only one of transpose_a and adjoint_a (or _b) can be True")
    a, b = convert_with_first_as_hint(a, b)  # as TF's math_ops.matmul
    if output_type is not None:
        a, b = cast(a, output_type), cast(b, output_type)
    attrs = {"transpose_a": bool(transpose_a or adjoint_a), "transpose_b": bool(transpose_b or adjoint_b)}
    return apply(matmul_op, (a, b), attrs, name=name)


# --- matvec -------------------------------------------------------------------------------------------
def _matvec_kernel(a, b, *, transpose_a):
    a = _transposed(a, transpose_a)
    if b.ndim == 1:
        return a @ b
    return np.matmul(a, b[..., None])[..., 0]


def _infer_matvec(a, b, *, transpose_a):
    dtype = same_dtype(a, b)
    require(dtype, "number", "matvec")
    sa, sb = a._shape, b._shape
    if sa is not None and len(sa) < 2 or sb is not None and len(sb) < 1:
        raise ValueError(f"needs a matrix (rank >= 2) and a vector (rank >= 1), got shapes {fmt(sa)} and {fmt(sb)}")
    if sa is None or sb is None:
        return dtype, None
    m, k = sa[-2:][::-1] if transpose_a else sa[-2:]
    if k is not None and sb[-1] is not None and k != sb[-1]:
        raise ValueError(f"inner dimensions {k} and {sb[-1]} do not match (shapes {fmt(sa)} and {fmt(sb)})")
    return dtype, _batch_broadcast("matvec", sa[:-2], sb[:-1], sa, sb) + (m,)


def _render_matvec(node):
    a, b = node.inputs
    if a.dtype.name == "bfloat16":
        return None  # the kernel, which rounds the float32 product back to bfloat16
    left = _operand("{0}", a._shape, node.attrs["transpose_a"])
    if b._shape is not None and len(b._shape) == 1:
        return f"{left} @ {{1}}"
    return f"({left} @ {{1}}[..., None])[..., 0]"


matvec_op = register(OpDef("matvec", _matvec_kernel, _infer_matvec, render=_render_matvec))


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """The product of the matrices `a` (..., M, N) and the vectors `b` (..., N): shape (..., M)."""
    a, b = convert_inputs((a, b), True)
    return apply(matvec_op, (a, b), {"transpose_a": bool(transpose_a or adjoint_a)}, name=name)


# --- tensordot ------------------------------------------------------------------------------------------
def _tensordot_axes(axes, rank_a, rank_b):
    """(axes of a, axes of b) as tuples of non-negative ints, from TF's forms: N, or [a_axes, b_axes]."""
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"axes must be a non-negative integer, got {axes}")
        if rank_a is not None and axes > rank_a or rank_b is not None and axes > rank_b:
            raise ValueError(f"axes={axes} is more than the rank of an input (ranks {rank_a} and {rank_b})")
        if rank_a is None:
            return None
        return tuple(range(rank_a - axes, rank_a)), tuple(range(axes))
    a_axes, b_axes = ((x,) if isinstance(x, int) else tuple(x) for x in axes)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"axes must list as many axes of a as of b, got {list(a_axes)} and {list(b_axes)}")
    if rank_a is None or rank_b is None:
        return None
    return (tuple(normalize_axis(x, rank_a) for x in a_axes), tuple(normalize_axis(x, rank_b) for x in b_axes))


def _tensordot_kernel(a, b, *, axes):
    return np.tensordot(a, b, _tensordot_axes(axes, a.ndim, b.ndim))


def _infer_tensordot(a, b, *, axes):
    dtype = same_dtype(a, b)
    require(dtype, "number", "tensordot")
    sa, sb = a._shape, b._shape
    pairs = _tensordot_axes(axes, None if sa is None else len(sa), None if sb is None else len(sb))
    if pairs is None or sa is None or sb is None:
        return dtype, None
    a_axes, b_axes = pairs
    for i, j in zip(a_axes, b_axes):
        if sa[i] is not None and sb[j] is not None and sa[i] != sb[j]:
            raise ValueError(f"contracted dimensions do not match: axis {i} of {fmt(sa)} is {sa[i]}, "
                             f"axis {j} of {fmt(sb)} is {sb[j]}")
    free_a = tuple(d for i, d in enumerate(sa) if i not in a_axes)
    free_b = tuple(d for j, d in enumerate(sb) if j not in b_axes)
    return dtype, free_a + free_b


tensordot_op = register(OpDef("tensordot", _tensordot_kernel, _infer_tensordot))


def tensordot(a, b, axes, name=None):
    """Contract `axes` of `a` with `axes` of `b`: an int N (last N of a with first N of b) or a pair of
    axis lists."""
    a, b = convert_inputs((a, b), True)
    axes = as_int_tuple(axes) if hasattr(axes, "numpy") else axes
    if not isinstance(axes, int):
        if len(axes) != 2:
            raise ValueError(f"tf.tensordot: axes must be an int or a pair of axis lists, got {axes!r}")
        axes = tuple(as_int_tuple(x) if not isinstance(x, int) else x for x in axes)
    return apply(tensordot_op, (a, b), {"axes": axes}, name=name)


# --- einsum ---------------------------------------------------------------------------------------------
def _parse_einsum(equation, n_inputs):
    """(input terms, output term) with '...' kept as one token '.', and the implicit output filled in."""
    equation = equation.replace(" ", "")
    inputs_part, arrow, output = equation.partition("->")
    terms = inputs_part.split(",")
    if len(terms) != n_inputs:
        raise ValueError(f"the equation {equation!r} names {len(terms)} inputs, but {n_inputs} were given")
    terms = [t.replace("...", ".") for t in terms]
    for term in terms + [output.replace("...", ".")]:
        if any(not (c.isalpha() or c == ".") for c in term) or term.count(".") > 1:
            raise ValueError(f"invalid einsum equation {equation!r}: use letters and at most one '...' per term")
    if arrow:
        output = output.replace("...", ".")
        if len(set(output)) != len(output):
            raise ValueError(f"an output label appears twice in {equation!r}")
        missing = set(output) - set("".join(terms)) - {"."}
        if missing:
            raise ValueError(f"output labels {sorted(missing)} of {equation!r} appear in no input")
    else:  # implicit: broadcast axes, then the labels used once, in alphabetical order
        letters = "".join(terms).replace(".", "")
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        output = ("." if any("." in t for t in terms) else "") + "".join(once)
    return terms, output


def _infer_einsum(*operands, equation):
    dtype = same_dtype(*operands)
    require(dtype, "number", "einsum")
    terms, output = _parse_einsum(equation, len(operands))
    sizes: dict = {}
    ellipsis_shape = ()
    unknown = False
    for term, x in zip(terms, operands):
        shape = x._shape
        labels = term.replace(".", "")
        if shape is None:
            unknown = True
            continue
        if "." in term:
            if len(shape) < len(labels):
                raise ValueError(f"the term {term.replace('.', '...')!r} needs rank >= {len(labels)}, "
                                 f"got shape {fmt(shape)}")
            head, tail = term.split(".")
            extra = len(shape) - len(labels)
            ellipsis_shape = shapes.broadcast(ellipsis_shape, shape[len(head):len(head) + extra])
            dims = shape[:len(head)] + shape[len(head) + extra:]
        else:
            if len(shape) != len(labels):
                raise ValueError(f"the term {term!r} has {len(labels)} labels, but its input has shape {fmt(shape)}")
            dims = shape
        for label, dim in zip(labels, dims):
            known = sizes.get(label)
            if dim is not None and known is not None and dim != known:
                raise ValueError(f"label {label!r} has dimension {known} in one input and {dim} in another")
            if known is None:
                sizes[label] = dim
    if ellipsis_shape and "." not in output and any(d != 1 for d in ellipsis_shape):
        raise ValueError(f"the inputs have broadcast axes '...' but the output of {equation!r} does not")
    if unknown:
        return dtype, None
    out = []
    for label in output:
        out.extend(ellipsis_shape if label == "." else (sizes.get(label),))
    return dtype, tuple(out)


def _einsum_kernel(*operands, equation):
    if operands and operands[0].dtype.name == "bfloat16":  # numpy's einsum has no bfloat16 loop: sum in float32
        return np.einsum(equation, *(o.astype(np.float32) for o in operands)).astype(operands[0].dtype)
    return np.einsum(equation, *operands)


def _render_einsum(node):
    if node.inputs[0].dtype.name == "bfloat16":
        return None  # the kernel, which sums bfloat16 in float32
    return "np.einsum({equation}, " + ", ".join(f"{{{i}}}" for i in range(len(node.inputs))) + ")"


einsum_op = register(OpDef("einsum", _einsum_kernel, _infer_einsum, render=_render_einsum))


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, as numpy's einsum: e.g. `einsum('bij,bjk->bik', a, b)`."""
    if not isinstance(equation, str):
        raise TypeError(f"tf.einsum: the equation must be a string, got {type(equation).__name__}")
    if not inputs:
        raise ValueError("tf.einsum needs at least one input tensor")
    operands = convert_inputs(list(inputs), True)
    return apply(einsum_op, operands, {"equation": equation.replace(" ", "")})


# --- norm -----------------------------------------------------------------------------------------------
_MATRIX_ORDS = ("euclidean", "fro", 1.0, 2.0, np.inf)


def _canonical_ord(ord):
    if isinstance(ord, str):
        return ord
    try:
        return float(ord)
    except (TypeError, ValueError):
        raise ValueError(f"ord must be 'euclidean', 'fro' or a positive number, got {ord!r}") from None


def _check_norm(ord, axis, rank):
    matrix = isinstance(axis, tuple)
    if matrix:
        if len(axis) != 2:
            raise ValueError(f"axis must be None, an integer or a pair of integers, got {axis}")
        if rank is not None and normalize_axis(axis[0], rank) == normalize_axis(axis[1], rank):
            raise ValueError(f"the two axes of a matrix norm must differ, got {axis}")
        if ord not in _MATRIX_ORDS:
            raise ValueError(f"ord={ord!r} is not a supported matrix norm; use 'euclidean', 'fro', 1, 2 or inf")
    elif ord == "fro" or (ord != "euclidean" and (isinstance(ord, str) or not ord > 0)):
        raise ValueError(f"ord={ord!r} is not a supported vector norm; use 'euclidean', a positive number or inf")


def _vector_norm(x, ord, axis):
    a = np.abs(x)
    if ord in ("euclidean", 2.0):
        return np.sqrt(np.sum(a * a, axis=axis, keepdims=True))
    if ord == np.inf:
        return np.max(a, axis=axis, keepdims=True)
    if ord == 1.0:
        return np.sum(a, axis=axis, keepdims=True)
    return np.sum(a ** ord, axis=axis, keepdims=True) ** (1.0 / ord)


def _matrix_norm(x, ord, rows, cols):
    a = np.abs(x)
    if ord in ("euclidean", "fro"):
        return np.sqrt(np.sum(a * a, axis=(rows, cols), keepdims=True))
    if ord == 1.0:  # the largest column sum
        return np.max(np.sum(a, axis=rows, keepdims=True), axis=cols, keepdims=True)
    if ord == np.inf:  # the largest row sum
        return np.max(np.sum(a, axis=cols, keepdims=True), axis=rows, keepdims=True)
    return np.linalg.norm(x, 2, axis=(rows, cols), keepdims=True)  # the largest singular value


def _norm_kernel(x, *, ord, axis, keepdims):
    if axis is None:  # the whole tensor as one vector
        out = _vector_norm(np.reshape(x, -1), ord, 0).reshape((1,) * x.ndim)
        axis = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        out = _matrix_norm(x, ord, axis[0] % x.ndim, axis[1] % x.ndim)
    else:
        out = _vector_norm(x, ord, axis)
    out = out.astype(x.dtype, copy=False)
    if not keepdims:
        out = np.squeeze(out, axis=axis)
    return out[()] if out.ndim == 0 else out


def _infer_norm(x, *, ord, axis, keepdims):
    require(x.dtype, "float", "norm")
    rank = None if x._shape is None else len(x._shape)
    _check_norm(ord, axis, rank)
    if ord == 2.0 and isinstance(axis, tuple):
        _lapack_dtype(x, "the spectral norm (ord=2)")
    return x.dtype, reduced_shape(x._shape, axis, keepdims)


norm_op = register(OpDef("norm", _norm_kernel, _infer_norm))


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002 - TF's name
    """A vector norm (axis None: of all elements; axis an int) or a matrix norm (axis a pair of ints)."""
    axis = canonical_axis(axis)
    attrs = {"ord": _canonical_ord(ord), "axis": axis, "keepdims": bool(keepdims)}
    return apply(norm_op, (convert_to_tensor(tensor),), attrs, name=name)


# --- matrix functions -----------------------------------------------------------------------------------
def _infer_matrix_transpose(x):
    _matrix_rank_check(x, "the input")
    shape = x._shape
    return x.dtype, None if shape is None else shape[:-2] + (shape[-1], shape[-2])


def _matrix_transpose_kernel(x):
    return np.swapaxes(x, -1, -2)


matrix_transpose_op = register(OpDef("matrix_transpose", _matrix_transpose_kernel, _infer_matrix_transpose,
                                     render="np.swapaxes({0}, -1, -2)"))


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two axes (the matrices of a batch); `conjugate=True` also conjugates complex values."""
    result = apply(matrix_transpose_op, (convert_to_tensor(a),), name=name)
    return conj(result) if conjugate and result.dtype.is_complex else result


def adjoint(matrix, name=None):
    """The conjugate transpose of the matrices of a batch (the transpose for real dtypes)."""
    return matrix_transpose(matrix, name or "adjoint", conjugate=True)


def _diag_kernel(x, *, k):
    n = x.shape[-1]
    size = n + abs(k)
    out = np.zeros(x.shape[:-1] + (size, size), dtype=x.dtype)
    index = np.arange(n)
    out[..., index + max(-k, 0), index + max(k, 0)] = x
    return out


def _infer_diag(x, *, k):
    _matrix_rank_check(x, "the diagonal", 1)
    shape = x._shape
    if shape is None:
        return x.dtype, None
    size = None if shape[-1] is None else shape[-1] + abs(k)
    return x.dtype, shape[:-1] + (size, size)


matrix_diag_op = register(OpDef("matrix_diag", _diag_kernel, _infer_diag))


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Square matrices with `diagonal` (..., N) on diagonal `k` and zeros elsewhere: shape (..., N+|k|, N+|k|)."""
    if num_rows != -1 or num_cols != -1 or padding_value != 0 or not isinstance(k, int):
        raise NotImplementedError("tf.linalg.diag: tinytf supports one integer k, with square outputs padded "
                                  "with zeros (num_rows, num_cols and padding_value are not supported)")
    return apply(matrix_diag_op, (convert_to_tensor(diagonal),), {"k": k}, name=name)


def _diag_part_kernel(x, *, k):
    return np.diagonal(x, offset=k, axis1=-2, axis2=-1).copy()


def _diagonal_length(rows, cols, k):
    if rows is None or cols is None:
        return None
    return max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols))


def _infer_diag_part(x, *, k):
    _matrix_rank_check(x, "the input")
    shape = x._shape
    if shape is None:
        return x.dtype, None
    return x.dtype, shape[:-2] + (_diagonal_length(shape[-2], shape[-1], k),)


matrix_diag_part_op = register(OpDef("matrix_diag_part", _diag_part_kernel, _infer_diag_part,
                                     render="np.diagonal({0}, offset={k}, axis1=-2, axis2=-1).copy()"))


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002 - TF's name
    """Diagonal `k` of the matrices in the last two axes: shape (..., length of that diagonal)."""
    if not isinstance(k, int) or padding_value != 0:
        raise NotImplementedError("tf.linalg.diag_part: tinytf supports one integer k and no padding_value")
    return apply(matrix_diag_part_op, (convert_to_tensor(input),), {"k": k}, name=name)


def _trace_kernel(x):
    return np.trace(x, axis1=-2, axis2=-1, dtype=x.dtype)


def _infer_trace(x):
    require(x.dtype, "numeric", "trace")
    _matrix_rank_check(x, "the input")
    return x.dtype, None if x._shape is None else x._shape[:-2]


trace_op = register(OpDef("trace", _trace_kernel, _infer_trace,
                          render="np.trace({0}, axis1=-2, axis2=-1, dtype={0}.dtype)"))


def trace(x, name=None):
    """The sum of the main diagonal of each matrix in the last two axes."""
    return apply(trace_op, (convert_to_tensor(x),), name=name)


def _square_matrix_op(name, kernel, out_shape, n_outputs=1, render=None):
    """An op on batches of square float matrices (inv, det, cholesky ...)."""

    def infer(x, **attrs):
        _lapack_dtype(x, name)
        _square(x, name)
        shape = None if x._shape is None else out_shape(x._shape)
        return [(x.dtype, shape)] * n_outputs if n_outputs > 1 else (x.dtype, shape)

    return register(OpDef(name, kernel, infer, render=render))


def _inv_kernel(x, *, adjoint):
    try:
        return np.linalg.inv(_transposed(x, adjoint))
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Input is not invertible.") from None


def _cholesky_kernel(x):
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Cholesky decomposition was not successful: the input might not be "
                                   "positive definite.") from None


def _slogdet_kernel(x):
    sign, log_abs = np.linalg.slogdet(x)
    return sign, log_abs


def _keep(shape):
    return shape


def _drop_matrix(shape):
    return shape[:-2]


matrix_inverse_op = _square_matrix_op("matrix_inverse", _inv_kernel, _keep)
matrix_determinant_op = _square_matrix_op("matrix_determinant", np.linalg.det, _drop_matrix,
                                          render="np.linalg.det({0})")
log_matrix_determinant_op = _square_matrix_op("log_matrix_determinant", _slogdet_kernel, _drop_matrix, 2)
cholesky_op = _square_matrix_op("cholesky", _cholesky_kernel, _keep)


def inv(input, adjoint=False, name=None):  # noqa: A002 - TF's name
    """The inverse of each square matrix; a singular matrix raises InvalidArgumentError."""
    return apply(matrix_inverse_op, (convert_to_tensor(input),), {"adjoint": bool(adjoint)}, name=name)


def det(input, name=None):  # noqa: A002 - TF's name
    """The determinant of each square matrix: shape (...)."""
    return apply(matrix_determinant_op, (convert_to_tensor(input),), name=name)


def slogdet(input, name=None):  # noqa: A002 - TF's name
    """(sign, log|det|) of each square matrix: the determinant without overflow."""
    return apply(log_matrix_determinant_op, (convert_to_tensor(input),), name=name)


def logdet(matrix, name=None):
    """log(det) of Hermitian positive definite matrices."""
    return slogdet(matrix)[1]


def cholesky(input, name=None):  # noqa: A002 - TF's name
    """The lower-triangular Cholesky factor of each symmetric positive definite matrix."""
    return apply(cholesky_op, (convert_to_tensor(input),), name=name)


def _solve_kernel(matrix, rhs, *, adjoint):
    try:
        return np.linalg.solve(_transposed(matrix, adjoint), rhs)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("Input matrix is not invertible.") from None


def _infer_solve(matrix, rhs, *, adjoint):
    dtype = same_dtype(matrix, rhs)
    _lapack_dtype(matrix, "solve")
    _square(matrix, "solve")
    _matrix_rank_check(rhs, "the right-hand side")
    sm, sr = matrix._shape, rhs._shape
    if sm is None or sr is None:
        return dtype, None
    if sm[-1] is not None and sr[-2] is not None and sm[-1] != sr[-2]:
        raise ValueError(f"the matrix {fmt(sm)} and the right-hand side {fmt(sr)} must have the same number "
                         "of rows")
    return dtype, _batch_broadcast("solve", sm[:-2], sr[:-2], sm, sr) + sr[-2:]


matrix_solve_op = register(OpDef("matrix_solve", _solve_kernel, _infer_solve))


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs, for square `matrix` (..., M, M) and `rhs` (..., M, K)."""
    matrix, rhs = convert_inputs((matrix, rhs), True)
    return apply(matrix_solve_op, (matrix, rhs), {"adjoint": bool(adjoint)}, name=name)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Identity matrices (a constant): shape batch_shape + [num_rows, num_columns]."""
    dtype = dtypes.as_dtype(dtype)
    rows = scalar_arg(num_rows, "tf.eye: num_rows")  # sizes may be tensors, known now or only when the graph runs
    cols = rows if num_columns is None else scalar_arg(num_columns, "tf.eye: num_columns")
    if batch_shape is None and (isinstance(rows, Tensor) or isinstance(cols, Tensor)):
        return dynamic_eye(rows, cols, dtype)
    matrix = np.eye(rows, cols, dtype=dtype.np)
    if batch_shape is not None:
        batch = as_int_tuple(batch_shape)
        matrix = np.broadcast_to(matrix, tuple(batch) + matrix.shape).copy()
    return convert_to_tensor(matrix, dtype)


__all__ = [
    "adjoint", "cholesky", "det", "diag", "diag_part", "einsum", "eye", "inv", "logdet", "matmul",
    "matrix_transpose", "matvec", "norm", "slogdet", "solve", "tensordot", "trace",
]
