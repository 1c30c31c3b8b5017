"""tf.compat.v1.data's iterator functions for TF1 graphs: `make_one_shot_iterator(dataset).get_next()` and
`make_initializable_iterator(dataset)` (run its `initializer` first, and again to start over). `get_next()`
is a stateful op of the graph: each Session.run that computes it takes the dataset's next element, and the
run after the last raises tf.errors.OutOfRangeError, which ends a TF1 input loop. The other names of
tf.compat.v1.data that are TF2's own objects come from tf1_aliases.py."""

from __future__ import annotations

import contextlib

import numpy as np

from .tf1_aliases import install


def _tf():
    import tinytf

    return tinytf


class _GraphIterator:
    """An iterator over a dataset whose elements a TF1 graph reads (its get_next ops pull them when run)."""

    def __init__(self, dataset, initializable: bool):
        self._dataset = dataset
        self._python_iterator = None
        self._started = False  # a one-shot iterator starts at its first get_next run
        self._initializable = initializable
        self._initializer = None

    @property
    def element_spec(self):
        return self._dataset.element_spec

    @property
    def output_types(self):
        return get_output_types(self._dataset)

    @property
    def output_shapes(self):
        return get_output_shapes(self._dataset)

    @property
    def output_classes(self):
        return get_output_classes(self._dataset)

    @property
    def initializer(self):
        """The op that (re)starts the iteration (only an initializable iterator has one, as in TF)."""
        if not self._initializable:
            raise ValueError("Iterator does not have an initializer.")
        if self._initializer is None:
            tf = _tf()
            from .ops import group

            def restart():
                with _eagerly():
                    self._python_iterator = iter(self._dataset)
                return np.int32(0)

            self._initializer = group(tf.numpy_function(restart, [], tf.int32, stateful=True), name="MakeIterator")
        return self._initializer

    def get_next(self, name=None):
        """The next element, as tensors of the graph (a new op each call, which advances the iterator)."""
        tf = _tf()
        from tinytf.runtime import nest

        specs = nest.flatten(self._dataset.element_spec)

        def pull():
            if not self._initializable and not self._started:
                self._started = True
                with _eagerly():
                    self._python_iterator = iter(self._dataset)
            if self._python_iterator is None:
                raise tf.errors.FailedPreconditionError(None, None, "GetNext() failed because the iterator has not "
                                                                    "been initialized. Ensure that you have run the "
                                                                    "initializer operation for this iterator before "
                                                                    "getting the next element.")
            try:
                with _eagerly():
                    element = next(self._python_iterator)
            except StopIteration:
                raise tf.errors.OutOfRangeError(None, None, "End of sequence") from None
            return [np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype=s.dtype.as_numpy_dtype)
                    for t, s in zip(nest.flatten(element), specs)]

        flat = tf.numpy_function(pull, [], [s.dtype for s in specs], stateful=True, name=name or "IteratorGetNext")
        flat = [flat] if not isinstance(flat, (list, tuple)) else list(flat)
        flat = [tf.ensure_shape(t, s.shape) for t, s in zip(flat, specs)]
        return nest.pack_sequence_as(self._dataset.element_spec, flat)


@contextlib.contextmanager
def _eagerly():
    """The dataset's pipeline runs eagerly, also while a Session runs the graph of a `with graph.as_default()`
    block (its ops must compute values, not add nodes to that graph)."""
    from tinytf.runtime.context import state

    saved, state.graph = state.graph, None
    try:
        yield
    finally:
        state.graph = saved


def make_one_shot_iterator(dataset):
    """An iterator that goes through `dataset` once, from the first get_next run."""
    return _GraphIterator(dataset, initializable=False)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator that starts (again) each time its `initializer` runs."""
    return _GraphIterator(dataset, initializable=True)


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
