"""tf.data.Dataset: the base class. A dataset is a recipe: `_flat_iter()` makes a fresh Python generator
of elements (flat tuples of numpy values, one per leaf of `element_spec`). Transformations are subclasses
in their own modules (sources, transforms, batching, shuffling, parallel, windows, ...).

The public methods that build a subclass (`map`, `batch`, `from_tensor_slices`, ...) are defined in the
subclass's module and attached to DatasetV2 there (`@dataset_methods`, the install pattern ragged and sparse
use too): imports point one way, from the subclasses to this base, and tinytf/data/__init__.py imports the
modules in order so that every method is in place before `tf.data.Dataset` is used."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.context import state
from tinytf.runtime.errors import user_location
from tinytf.runtime.ops.data import dataset_cardinality
from tinytf.runtime.tensor import EagerTensor

from .extension_elements import restore_spec
from .graph_loop import dataset_loop_source
from .iterator import Iterator, NumpyIterator, make_iterator
from .options import Options
from .structure import DatasetSpec, describe

INFINITE = -1
UNKNOWN = -2
AUTOTUNE = -1


class DatasetV2:
    """A sequence of elements, each a nest of tensors described by `element_spec`."""

    _tf_name = "_Dataset"  # the class name TF prints
    _what = None  # the transformation named in error messages, when the class name does not say it

    def __init__(self, element_spec, inputs: tuple = ()):
        self._element_spec = element_spec
        self._inputs = tuple(inputs)
        self._where = user_location()
        self._options = None

    # --- what subclasses provide --------------------------------------------------------------------
    def _flat_iter(self):
        raise NotImplementedError

    def _cardinality(self) -> int:
        return UNKNOWN

    # --- description --------------------------------------------------------------------------------
    @property
    def element_spec(self):
        return restore_spec(self._spec_inside)

    @property
    def _spec_inside(self):
        """The element structure the pipeline's stages work with: an ExtensionType as its component specs
        (extension_elements.py); `element_spec` is what users see."""
        spec = self._element_spec
        if spec is None and type(self).element_spec is not DatasetV2.element_spec:
            spec = self.element_spec  # a dataset computing its spec on first use
        return spec

    def cardinality(self):
        """The number of elements, or INFINITE_CARDINALITY (-1) / UNKNOWN_CARDINALITY (-2), as an int64. A
        dataset built from graph tensors (a tf.function's arguments) counts when the graph runs, as TF does."""
        inputs = self._graph_inputs()
        if inputs and state.graph is not None:
            return dataset_cardinality(self, inputs)
        return EagerTensor(np.int64(self._cardinality()), dtypes.int64)

    def __len__(self) -> int:
        n = self._cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self) -> bool:
        return True  # as TF: a dataset is truthy whatever its length (__len__ must not decide)

    def __repr__(self) -> str:
        return f"<{self._tf_name} element_spec={describe(self._element_spec)}>"

    def _error_context(self) -> str:
        where = f"\n  dataset created at {self._where}" if self._where is not None else ""
        return f"in {self._what or self._tf_name.lstrip('_')}{where}"

    # --- iteration ----------------------------------------------------------------------------------
    def __iter__(self):
        return make_iterator(self)

    def as_numpy_iterator(self):
        """Elements as numpy values (scalars as numpy scalars), in the element's nest."""
        return NumpyIterator(self)

    def _tinytf_graph_loop_source(self, name: str):
        """AutoGraph's hook: inside a graph, `for x in dataset` is one loop node over an iterator op."""
        return dataset_loop_source(self)

    def _graph_iterator(self):
        """The runtime iterator op's protocol (runtime/ops/data.py): a fresh iterator per run."""
        return Iterator(self)

    # A dataset passed to a tf.function is keyed by its DatasetSpec; the components (one variant tensor) and
    # the graph tensors a recipe depends on are symbolic.py's, which installs _to_components, _graph_inputs
    # and _bind.
    @property
    def _type_spec(self):
        return DatasetSpec(self._spec_inside)

    def _from_components(self, components):
        return self._type_spec._from_components(components)

    # --- options ------------------------------------------------------------------------------------
    def options(self):
        for ds in self._lineage():
            if ds._options is not None:
                return ds._options
        return Options()

    def _lineage(self):
        yield self
        for d in self._inputs:
            yield from d._lineage()

    def _inputs_started_at_creation(self):
        """The inputs whose iterators this stage's iterator makes when it is made (iteration_seeds.py)."""
        return self._inputs

    def apply(self, transformation_func):
        result = transformation_func(self)
        if not isinstance(result, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object.")
        return result


class UnaryDataset(DatasetV2):
    """A transformation of one input dataset, with the input's cardinality unless it says otherwise."""

    def __init__(self, input_dataset, element_spec=None):
        super().__init__(input_dataset._spec_inside if element_spec is None else element_spec, (input_dataset,))
        self._input = input_dataset

    def _cardinality(self):
        return self._input._cardinality()


def dataset_methods(methods: type) -> type:
    """Attach the attributes defined in the body of class `methods` to DatasetV2 (methods, staticmethods,
    properties): a subclass's module installs the public methods that build it. The body of a class keeps
    their names (`map`, `zip`, `range`, `filter`) from shadowing the builtins of the module."""
    for name, value in vars(methods).items():
        if name.startswith("__"):
            continue
        function = getattr(value, "__func__", value)
        if hasattr(function, "__qualname__"):
            function.__qualname__ = f"DatasetV2.{name}"
        setattr(DatasetV2, name, value)
    return methods


Dataset = DatasetV2
