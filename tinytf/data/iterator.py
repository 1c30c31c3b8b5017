"""Iterators over datasets (tf.data.Iterator), as_numpy_iterator, and tf.experimental.Optional."""

from __future__ import annotations

import weakref

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.context import state
from tinytf.runtime.errors import OutOfRangeError
from tinytf.runtime.tensor import EagerTensor

from .iteration_seeds import Pulling, Reservations, release_passes, reserve_passes
from .structure import ElementError, as_numpy, describe, pack


class Iterator:
    """`iter(dataset)`: elements as tensors. Eagerly it pulls from the pipeline's Python generators; inside a
    tf.function, `next()`/`get_next()` become a stateful iterator op of the graph (graph_loop.py)."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._structure = dataset._spec_inside
        self._epochs = _epochs(dataset)  # before _flat_iter: what a checkpoint replays from
        self._reserve(dataset)
        self._items = dataset._flat_iter()
        self._lookahead = None  # an element a graph loop's test looked at (_peek_flat) but did not consume
        self._consumed = 0  # elements handed out: a checkpoint's position

    def _reserve(self, dataset):
        """The random stages' passes are drawn now, as TF's iterator draws their seeds when it is made."""
        reservations = Reservations(reserve_passes(dataset))
        self._release = weakref.finalize(self, release_passes, reservations)
        self._unclaimed = reservations  # begin_pass takes them out as the stages start

    def _pull(self):
        with Pulling(self._unclaimed):
            return next(self._items, None)

    @property
    def element_spec(self):
        return self._structure

    def __iter__(self):
        return self

    def _next_flat(self):
        """The next flat element, None at the end; a failed element raises its error."""
        if self._lookahead is not None:
            item, self._lookahead = self._lookahead, None
        else:
            item = self._pull()
        if item is not None:
            self._consumed += 1
        if type(item) is ElementError:
            raise item.error
        return item

    def _peek_flat(self):
        """The next element (None at the end), left for the next _next_flat."""
        if self._lookahead is None:
            self._lookahead = self._pull()
        return self._lookahead

    def __next__(self):
        if state.graph is not None:
            from .graph_loop import iterator_get_next

            return iterator_get_next(self)
        item = self._next_flat()
        if item is None:
            raise StopIteration
        return pack(self._structure, item)

    def next(self):
        """Python 2's spelling, which TF's iterators keep."""
        return self.__next__()

    def get_next(self, name=None):
        """The next element; tf.errors.OutOfRangeError at the end (TF's "End of sequence")."""
        if state.graph is not None:
            from .graph_loop import iterator_get_next

            return iterator_get_next(self)
        item = self._next_flat()
        if item is None:
            raise OutOfRangeError("End of sequence")
        return pack(self._structure, item)

    def get_next_as_optional(self):
        if state.graph is not None:
            from .graph_loop import iterator_get_next_as_optional

            return iterator_get_next_as_optional(self)
        item = self._next_flat()
        if item is None:
            return Optional.empty(self._structure)
        return Optional.from_value(pack(self._structure, item))

    def _graph_iterator(self):
        return self

    def _tinytf_graph_loop_source(self, name: str):
        if state.graph is None:
            return None
        from .graph_loop import DatasetSource

        return DatasetSource(self, self._structure)

    def close(self):
        self._items.close()

    # --- tf.train.Checkpoint(iterator=it): the position, restored by replay -----------------------------------
    def _checkpoint_children(self):
        return []

    def _checkpoint_state(self) -> dict:
        """TF saves the pipeline's internal state (buffers included); tinytf saves how many elements were handed
        out and the epoch counters of the pipeline's random stages (shuffle, sample_from_datasets) when this
        iterator began, which is enough to replay the same elements when every random stage has a seed."""
        return {"ITERATOR_STATE": np.array([self._consumed, *self._epochs], np.int64)}

    def _restore_checkpoint_state(self, state: dict) -> None:
        """Rewind: restart the pipeline with the saved epoch counters and skip the elements handed out before
        the save (so a seeded shuffle gives the same order; a stage without a seed draws anew)."""
        saved = np.asarray(state["ITERATOR_STATE"], np.int64).reshape(-1)
        consumed, epochs = int(saved[0]), [int(e) for e in saved[1:]]
        stages = list(self._dataset._lineage())
        if len(epochs) != len(stages):
            from tinytf.runtime.errors import NotFoundError

            raise NotFoundError(f"Failed to restore dataset iterator from checkpoint: the saved iterator was over a "
                                f"pipeline of {len(epochs)} datasets, this one ({self!r}) over {len(stages)}. Make "
                                f"sure the dataset definition has not changed between the process that saved the "
                                f"checkpoint and the process that is restoring it.")
        self._items.close()  # stops the old pipeline's prefetch and parallel-map threads
        self._release()
        for d, epoch in zip(stages, epochs):
            if epoch >= 0 and hasattr(d, "_epoch"):
                d._epoch = epoch
        self._reserve(self._dataset)
        self._items, self._lookahead = self._dataset._flat_iter(), None
        # the counters are the saved ones: the replay (and each stage started later, as the repetitions of a
        # repeat) draws what the saved iterator drew, as TF's restored seed generators do
        for _ in range(consumed):
            if self._pull() is None:
                break
        self._consumed, self._epochs = consumed, epochs

    def __repr__(self):
        return f"<tinytf.data.Iterator element_spec={describe(self._structure)}>"


OwnedIterator = Iterator


def _epochs(dataset) -> list:
    """The epoch counter of each dataset of the pipeline (-1 for a stage without one)."""
    return [getattr(d, "_epoch", -1) for d in dataset._lineage()]


def make_iterator(dataset):
    """iter(dataset): a Python iterator eagerly, iterator ops while tracing."""
    if state.graph is not None:
        from .graph_loop import GraphIterator

        return GraphIterator(dataset)
    return Iterator(dataset)


class NumpyIterator:
    """`dataset.as_numpy_iterator()`: numpy values in the element's nest."""

    def __init__(self, dataset):
        self._iterator = Iterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return as_numpy(next(self._iterator))

    def next(self):
        return self.__next__()

    def __repr__(self):
        return f"<tinytf.data.NumpyIterator element_spec={describe(self._iterator.element_spec)}>"


class Optional:
    """tf.experimental.Optional: a value, or nothing, with its element spec."""

    def __init__(self, value, element_spec, has_value):
        self._value = value
        self.element_spec = element_spec
        self._has_value = has_value

    @staticmethod
    def from_value(value):
        from .structure import normalize, spec_of

        value = normalize(value)
        has_value = EagerTensor(np.bool_(True), dtypes.bool_) if state.graph is None else True
        return Optional(value, spec_of(value), has_value)

    @staticmethod
    def empty(element_spec):
        return Optional(None, element_spec, EagerTensor(np.bool_(False), dtypes.bool_))

    @property
    def _type_spec(self):
        """Its OptionalSpec: an Optional is a composite (has_value, then the value's tensors)."""
        from ..optional_spec import OptionalSpec

        return OptionalSpec(self.element_spec)

    def _to_components(self) -> list:
        return self._type_spec._to_components(self)

    def _from_components(self, components):
        return self._type_spec._from_components(components)

    def has_value(self, name=None):
        return self._has_value

    def get_value(self, name=None):
        if self._value is None or (isinstance(self._has_value, EagerTensor) and not bool(self._has_value._value)):
            from tinytf.runtime.errors import InvalidArgumentError

            raise InvalidArgumentError("The optional does not have a value.")
        if isinstance(self._has_value, (bool, EagerTensor)):
            return self._value
        # in a graph, whether there is a value is known when it runs: TF's OptionalGetValue fails then
        from tinytf.runtime import nest
        from tinytf.runtime.ops.array import identity
        from tinytf.runtime.ops.debugging import Assert

        from ..control_dependencies import control_dependencies

        check = Assert(self._has_value, ["The optional does not have a value."])
        with control_dependencies([check]):  # composites (PerReplica values of a distributed iterator) by part
            return nest.map_structure(identity, self._value, expand_composites=True)

    def __repr__(self):
        return f"<tinytf.experimental.Optional element_spec={describe(self.element_spec)}>"
