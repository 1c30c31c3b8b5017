"""`tf.sparse`: SparseTensor and the functions over it."""

from .join import concat, slice  # noqa: F401,A004 - TF's names
from .ops import (  # noqa: F401
    add,
    from_dense,
    map_values,
    reduce_max,
    reduce_sum,
    reorder,
    sparse_dense_matmul,
    to_dense,
)
from .reshape import expand_dims, eye, transpose  # noqa: F401
from .sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: F401

matmul = sparse_dense_matmul

# --- the nn / sparse / ragged leftovers slice (tf.sparse.reshape replaces the submodule of that name here) ---
from .combine import (  # noqa: E402,F401
    bincount,
    cross,
    cross_hashed,
    mask,
    maximum,
    minimum,
    sampled_addmm,
    softmax,
    split,
    to_indicator,
)
from .entries import (  # noqa: E402,F401
    fill_empty_rows,
    reset_shape,
    reshape,
    retain,
    segment_mean,
    segment_sqrt_n,
    segment_sum,
)
