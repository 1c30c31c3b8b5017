"""tf.compat.v1.data.Dataset: TF1's dataset class. As in TF (DatasetV1Adapter), a V1 dataset wraps a TF2 dataset
and every method that builds a dataset gives a V1 one again, so `Dataset.range(3).map(f).make_one_shot_iterator()`
works; it adds TF1's iterator factories and the `output_types/_shapes/_classes` properties. The V1 forms of the
file readers and of experimental CsvDataset/RandomDataset/SqlDataset are V1 wrappers of tinytf.data's."""

from __future__ import annotations

import functools
import inspect

from ...data import experimental as _experimental
from ...data.dataset import DatasetV2
from ...data.readers import TextLineDataset as _TextLineV2
from ...data.readers import TFRecordDataset as _TFRecordV2
from ...data.record_sources import FixedLengthRecordDataset as _FixedLengthV2
from .legacy_output_properties import LegacyOutputProperties


def _v1(result):
    """A TF2 dataset as a V1 one (anything else passes through: reduce's tensors, iterators)."""
    if isinstance(result, DatasetV2) and not isinstance(result, DatasetV1):
        return DatasetV1Adapter(result)
    return result


class DatasetV1(LegacyOutputProperties, DatasetV2):
    """TF1's Dataset: TF2's methods (each result a V1 dataset) plus TF1's iterators and output_* properties."""

    def make_one_shot_iterator(self):
        """Eagerly, the TF2 iterator (as TF); in a TF1 graph, an Iterator that starts at its first get_next."""
        from .data import make_one_shot_iterator

        return make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        """An Iterator that starts (again) each time its `initializer` runs; TF1 graphs only (RuntimeError eagerly)."""
        from .data import make_initializable_iterator

        return make_initializable_iterator(self, shared_name)

    def map_with_legacy_function(self, map_func, num_parallel_calls=None, deterministic=None):
        """TF traces `map_func` as a TF1 graph function (no AutoGraph); tinytf's map gives the same elements."""
        return self.map(map_func, num_parallel_calls, deterministic=deterministic)

    def filter_with_legacy_function(self, predicate):
        return self.filter(predicate)


def _wrap_method(name: str, attribute):
    """DatasetV2's method or staticmethod `name`, returning V1 datasets."""
    function = attribute.__func__ if isinstance(attribute, staticmethod) else attribute

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return _v1(function(*args, **kwargs))

    wrapper.__qualname__ = f"DatasetV1.{name}"
    return staticmethod(wrapper) if isinstance(attribute, staticmethod) else wrapper


for _name in dir(DatasetV2):
    _attribute = inspect.getattr_static(DatasetV2, _name)
    if _name.startswith("_") or _name in vars(DatasetV1) or not callable(getattr(_attribute, "__func__", _attribute)):
        continue
    setattr(DatasetV1, _name, _wrap_method(_name, _attribute))
del _name, _attribute


class DatasetV1Adapter(DatasetV1):
    """A TF2 dataset seen as a V1 one: same elements, cardinality, options and printed form."""

    def __init__(self, dataset):
        super().__init__(dataset._spec_inside, (dataset,))
        self._dataset = dataset

    def _flat_iter(self):
        return self._dataset._flat_iter()

    def _cardinality(self):
        return self._dataset._cardinality()

    def __repr__(self):
        if "_tf_name" in self.__dict__:  # named as a fused stage (map_and_batch's _MapAndBatchDataset)
            return super().__repr__()
        return repr(self._dataset)  # TF prints the wrapped dataset


def _v1_class(v2_class, name: str, doc: str):
    """The V1 form of a dataset class: constructing it builds the V2 dataset with the same arguments and wraps it."""

    def __init__(self, *args, **kwargs):
        DatasetV1Adapter.__init__(self, v2_class(*args, **kwargs))

    __init__.__signature__ = inspect.signature(v2_class.__init__)
    return type(name, (DatasetV1Adapter,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


TextLineDatasetV1 = _v1_class(_TextLineV2, "TextLineDatasetV1", "tf.compat.v1.data.TextLineDataset.")
TFRecordDatasetV1 = _v1_class(_TFRecordV2, "TFRecordDatasetV1", "tf.compat.v1.data.TFRecordDataset.")
FixedLengthRecordDatasetV1 = _v1_class(_FixedLengthV2, "FixedLengthRecordDatasetV1",
                                       "tf.compat.v1.data.FixedLengthRecordDataset.")
CsvDatasetV1 = _v1_class(_experimental.CsvDataset, "CsvDatasetV1", "tf.compat.v1.data.experimental.CsvDataset.")
RandomDatasetV1 = _v1_class(_experimental.RandomDataset, "RandomDatasetV1",
                            "tf.compat.v1.data.experimental.RandomDataset.")
SqlDatasetV1 = _v1_class(_experimental.SqlDataset, "SqlDatasetV1", "tf.compat.v1.data.experimental.SqlDataset.")


# tf.compat.v1.data.experimental's deprecated *Structure functions: the TypeSpec of each kind (TF's data/util/
# structure.py), with TF1's argument order (dtype first)
def TensorStructure(dtype, shape):
    from ...tensor_spec import TensorSpec

    return TensorSpec(shape, dtype)


def SparseTensorStructure(dtype, shape):
    from ...sparse.sparse_tensor import SparseTensorSpec

    return SparseTensorSpec(shape, dtype)


def RaggedTensorStructure(dtype, shape, ragged_rank):
    from ...ragged.ragged_tensor import RaggedTensorSpec

    return RaggedTensorSpec(shape, dtype, ragged_rank)


def TensorArrayStructure(dtype, element_shape, dynamic_size, infer_shape):
    from ...tensor_array_spec import TensorArraySpec

    return TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)


def map_and_batch_with_legacy_function(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                                       num_parallel_calls=None):
    """map_and_batch whose map function TF traces as a TF1 graph function; the elements are map_and_batch's."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch_with_legacy_function` allows only one of `num_parallel_batches` and "
                         "`num_parallel_calls` to be set, but `num_parallel_batches` was set to "
                         f"{num_parallel_batches} and `num_parallel_calls` as set to {num_parallel_calls}.")
    fused = _experimental.map_and_batch(map_func, batch_size, num_parallel_batches, drop_remainder,
                                        num_parallel_calls)
    return lambda dataset: _v1(fused(dataset)) if isinstance(dataset, DatasetV1) else fused(dataset)


EXPERIMENTAL = {"CsvDataset": CsvDatasetV1, "RandomDataset": RandomDatasetV1, "SqlDataset": SqlDatasetV1,
                "TensorStructure": TensorStructure, "SparseTensorStructure": SparseTensorStructure,
                "RaggedTensorStructure": RaggedTensorStructure, "TensorArrayStructure": TensorArrayStructure,
                "map_and_batch_with_legacy_function": map_and_batch_with_legacy_function}
