"""`tf.ragged`: RaggedTensor construction and the helpers around it."""

from . import dispatch, indexing  # noqa: F401  (install the operators and `rt[key]` of RaggedTensor)
from .constant import constant, map_flat_values  # noqa: F401
from .ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: F401


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=None) -> RaggedTensor:  # noqa: A001
    """`tf.ragged.range`: row i is tf.range(starts[i], limits[i], deltas[i])."""
    import numpy as np

    from tinytf.runtime.dispatch import convert_to_tensor
    from tinytf.runtime.ops.array import concat
    from tinytf.runtime.ops.array import range as dense_range

    if limits is None:
        starts, limits = 0, starts
    starts, limits, deltas = (convert_to_tensor(x) for x in (starts, limits, deltas))
    size = max(int(np.size(v.numpy())) for v in (starts, limits, deltas))
    s, lim, d = (np.broadcast_to(v.numpy(), [size]) for v in (starts, limits, deltas))
    # a row whose limit lies behind its start (for the delta's sign) is empty, as in TF
    rows = [dense_range(s[i], lim[i] if (lim[i] - s[i]) * d[i] > 0 else s[i], d[i], dtype=dtype)
            for i in builtins_range(size)]
    lengths = [int(r.shape[0]) for r in rows]
    return RaggedTensor.from_row_lengths(concat(rows, 0), lengths)


def builtins_range(n):
    import builtins

    return builtins.range(n)


# --- the nn / sparse / ragged leftovers slice ---
from .more import (  # noqa: E402,F401
    boolean_mask,
    cross,
    cross_hashed,
    row_splits_to_segment_ids,
    segment_ids_to_row_splits,
    stack,
    stack_dynamic_partitions,
)
