"""tf.feature_column: TF's declarative descriptions of model inputs (numeric, bucketized, categorical by
identity / hash / vocabulary, crossed, weighted, indicator, embedding, shared and sequence columns), consumed by
tf.compat.v1.feature_column.input_layer and linear_model, as TF 2.21 (without Keras 2) consumes them.
See docs/feature_column.md."""

from .base import CategoricalColumn as _CategoricalColumn
from .categorical import (  # noqa: F401
    categorical_column_with_hash_bucket,
    categorical_column_with_identity,
    categorical_column_with_vocabulary_file,
    categorical_column_with_vocabulary_list,
    weighted_categorical_column,
)
from .crossed import crossed_column  # noqa: F401
from .embedding import IndicatorColumn as _IndicatorColumn
from .embedding import embedding_column, shared_embeddings  # noqa: F401
from .numeric import bucketized_column, numeric_column  # noqa: F401
from .parse_spec import make_parse_example_spec  # noqa: F401
from .sequence import (  # noqa: F401
    sequence_categorical_column_with_hash_bucket,
    sequence_categorical_column_with_identity,
    sequence_categorical_column_with_vocabulary_file,
    sequence_categorical_column_with_vocabulary_list,
    sequence_numeric_column,
)


def indicator_column(categorical_column):
    """`tf.feature_column.indicator_column`: a multi-hot dense view of a categorical column."""
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: {categorical_column}")
    return _IndicatorColumn(categorical_column)


def _mark_deprecated() -> None:
    """Every public function logs TF's deprecation notice once (feature_column/deprecation.py)."""
    from .deprecation import HASHED_CROSSING_INSTEAD, KERAS_INSTEAD, SEQUENCE_MODULE, V2_MODULE, deprecated

    namespace = globals()
    for name in ("bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
                 "categorical_column_with_vocabulary_file", "categorical_column_with_vocabulary_list",
                 "embedding_column", "indicator_column", "make_parse_example_spec", "numeric_column",
                 "shared_embeddings", "weighted_categorical_column"):
        namespace[name] = deprecated(namespace[name])
    namespace["crossed_column"] = deprecated(crossed_column, V2_MODULE, HASHED_CROSSING_INSTEAD)
    for name in ("sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
                 "sequence_categorical_column_with_vocabulary_file",
                 "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"):
        namespace[name] = deprecated(namespace[name], SEQUENCE_MODULE, KERAS_INSTEAD)


_mark_deprecated()
