"""TF1's renamed arguments: a TF1 function takes its old argument name and the TF2 one (`keep_dims` and
`keepdims`, `dim` and `axis`, `filter` and `filters`), and raises TF's ValueError when both are given."""

from __future__ import annotations


def one_of(new_name: str, new_value, old_name: str, old_value):
    """The value given under either name (TF's deprecation.deprecated_argument_lookup)."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'")
        return old_value
    return new_value
