"""`tf.ragged`: RaggedTensor construction and the helpers around it."""

from . import dispatch, indexing  # noqa: F401  (install the operators and `rt[key]` of RaggedTensor)
from .constant import constant, map_flat_values  # noqa: F401

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
from .ragged_range import range  # noqa: F401,A004
from .ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: F401
