"""tf.compat.v1.data's iterator functions for TF1 graphs: `make_one_shot_iterator(dataset).get_next()` and
`make_initializable_iterator(dataset)` (run its `initializer` first, and again to start over), on the Iterator of
data_iterator_v1.py; TF1's Dataset class and reader classes (data_v1.py). The other names of tf.compat.v1.data
that are TF2's own objects come from tf1_aliases.py."""

from __future__ import annotations

from tinytf.runtime.context import state

from .data_iterator_v1 import Iterator
from .data_v1 import DatasetV1 as Dataset  # noqa: F401
from .data_v1 import FixedLengthRecordDatasetV1 as FixedLengthRecordDataset  # noqa: F401
from .data_v1 import TextLineDatasetV1 as TextLineDataset  # noqa: F401
from .data_v1 import TFRecordDatasetV1 as TFRecordDataset  # noqa: F401
from .tf1_aliases import install


def make_one_shot_iterator(dataset):
    """An iterator that goes through `dataset` once, from the first get_next run; eagerly (as TF) the TF2
    iterator, `iter(dataset)`."""
    if state.graph is None:
        return iter(dataset)
    return Iterator(dataset.element_spec, dataset, initializable=False)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator that starts (again) each time its `initializer` runs (TF1 graphs only, as in TF)."""
    if state.graph is None:
        raise RuntimeError("`make_initializable_iterator()` is not supported in eager mode. Use Python-style "
                           "iteration instead.")
    return Iterator(dataset.element_spec, dataset, initializable=True)


def get_output_types(dataset_or_iterator):
    from tinytf.runtime import nest

    return nest.map_structure(lambda spec: spec.dtype, dataset_or_iterator.element_spec)


def get_output_shapes(dataset_or_iterator):
    from tinytf.runtime import nest

    return nest.map_structure(lambda spec: spec.shape, dataset_or_iterator.element_spec)


def get_output_classes(dataset_or_iterator):
    from tinytf.runtime import nest

    return nest.map_structure(lambda spec: spec.value_type, dataset_or_iterator.element_spec)


install(globals(), "data")
