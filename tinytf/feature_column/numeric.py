"""numeric_column and bucketized_column: real-valued features, as they are or cut into buckets."""

from __future__ import annotations

import collections
import math

import tinytf as _tf

from .base import CategoricalColumn, DenseColumn, dtype_text


def _shape_tuple(shape, key) -> tuple:
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    for dim in shape:
        if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    return shape


def _default_tuple(default_value, dtype, shape, key):
    if default_value is None:
        return None
    import numpy as np
    flat = np.asarray(default_value).ravel().tolist()
    if dtype.is_integer and not all(isinstance(v, int) for v in flat):
        raise TypeError(f"default_value must be compatible with dtype. default_value: {default_value}, dtype: "
                        f"{dtype_text(dtype)}, key: {key}")
    if isinstance(default_value, (int, float)) and not isinstance(default_value, bool):
        return (default_value,) * math.prod(shape) if len(shape) == 1 else \
            _nested_fill(default_value, shape)
    array = np.asarray(default_value)
    if array.shape != shape:
        raise ValueError(f"The shape of default_value must be equal to given shape. default_value: "
                         f"{default_value}, shape: {shape}, key: {key}")
    return _as_tuple(array.tolist())


def _nested_fill(value, shape):
    return (value,) * shape[0] if len(shape) == 1 else tuple(_nested_fill(value, shape[1:]) for _ in range(shape[0]))


def _as_tuple(value):
    return tuple(_as_tuple(v) for v in value) if isinstance(value, list) else value


class NumericColumn(DenseColumn, collections.namedtuple(
        "NumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
    """A real-valued feature of a fixed shape, normalized by `normalizer_fn` and cast to float32."""

    __slots__ = ()

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.FixedLenFeature(self.shape, self.dtype, self.default_value)}

    @property
    def variable_shape(self):
        return _tf.TensorShape(self.shape)

    def _transform_feature(self, cache, state_manager):
        tensor = cache.get(self.key, state_manager)
        if isinstance(tensor, _tf.SparseTensor):
            raise ValueError(f"The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
                             f"supported. key: {self.key}")
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return _tf.cast(tensor, _tf.float32)

    def get_dense_tensor(self, cache, state_manager):
        return cache.get(self, state_manager)


def numeric_column(key, shape=(1,), default_value=None, dtype=_tf.float32, normalizer_fn=None) -> NumericColumn:
    """A dense real-valued column (`tf.feature_column.numeric_column`)."""
    shape = _shape_tuple(shape, key)
    dtype = _tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype_text(dtype)}, key: {key}")
    default_value = _default_tuple(default_value, dtype, shape, key)
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key!r}")
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


class BucketizedColumn(DenseColumn, CategoricalColumn, collections.namedtuple(
        "BucketizedColumn", ("source_column", "boundaries"))):
    """A numeric column's values as bucket ids: dense as one-hot per element, categorical as ids that number each
    element's buckets separately (element j's bucket b is id j * (len(boundaries) + 1) + b)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.source_column.name}_bucketized"

    @property
    def parse_example_spec(self) -> dict:
        return self.source_column.parse_example_spec

    @property
    def parents(self) -> list:
        return [self.source_column]

    @property
    def num_buckets(self) -> int:
        return (len(self.boundaries) + 1) * self.source_column.shape[0]

    @property
    def variable_shape(self):
        return _tf.TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def _transform_feature(self, cache, state_manager):
        values = cache.get(self.source_column, state_manager)
        boundaries = _tf.constant(self.boundaries, _tf.float32)
        # TF's Bucketize is upper_bound: the count of boundaries b with not (x < b), so NaN falls in the last bucket.
        below = _tf.logical_not(_tf.less(_tf.expand_dims(values, -1), boundaries))
        return _tf.reduce_sum(_tf.cast(below, _tf.int32), axis=-1)

    def get_dense_tensor(self, cache, state_manager):
        buckets = cache.get(self, state_manager)
        return _tf.one_hot(buckets, depth=len(self.boundaries) + 1, on_value=1.0, off_value=0.0)

    def get_sparse_tensors(self, cache, state_manager):
        buckets = cache.get(self, state_manager)
        width = self.source_column.shape[0]
        batch = _tf.shape(buckets, out_type=_tf.int64)[0]
        offsets = _tf.range(width, dtype=_tf.int64) * (len(self.boundaries) + 1)
        ids = _tf.reshape(_tf.cast(buckets, _tf.int64) + offsets, [-1])
        rows = _tf.reshape(_tf.tile(_tf.reshape(_tf.range(batch), [-1, 1]), [1, width]), [-1])
        cols = _tf.tile(_tf.range(width, dtype=_tf.int64), [batch])
        indices = _tf.stack([rows, cols], axis=1)
        from .base import IdWeightPair
        return IdWeightPair(_tf.SparseTensor(indices, ids, _tf.stack([batch, _tf.constant(width, _tf.int64)])), None)


def bucketized_column(source_column, boundaries) -> BucketizedColumn:
    """A numeric column cut at `boundaries` (`tf.feature_column.bucketized_column`): bucket i holds
    boundaries[i-1] <= x < boundaries[i]."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, (list, tuple)) or any(a >= b for a, b in zip(boundaries, boundaries[1:])):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))
