"""tf.compat: `v1` (TF1's graphs and sessions)."""

from . import v1  # noqa: F401
from .text_and_versions import (  # noqa: F401,E402
    as_bytes,
    as_str,
    as_str_any,
    as_text,
    bytes_or_text_types,
    complex_types,
    dimension_at_index,
    dimension_value,
    forward_compatibility_horizon,
    forward_compatible,
    integral_types,
    path_to_str,
    real_types,
)
