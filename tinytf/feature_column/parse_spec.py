"""make_parse_example_spec: the tf.io.parse_example spec that feeds a list of columns."""

from __future__ import annotations

from .base import FeatureColumn


def make_parse_example_spec(feature_columns) -> dict:
    """One dict of FixedLenFeature / VarLenFeature by feature key, merged over the columns; two columns that want
    the same key parsed differently raise ValueError (`tf.feature_column.make_parse_example_spec`)."""
    result = {}
    for column in feature_columns:
        if not isinstance(column, FeatureColumn):
            raise ValueError(f"All feature_columns must be FeatureColumn instances. Given: {column}")
        for key, spec in column.parse_example_spec.items():
            if key in result and result[key] != spec:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. Given {spec} and "
                                 f"{result[key]}")
            result[key] = spec
    return result
