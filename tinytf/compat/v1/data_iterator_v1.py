"""tf.compat.v1.data.Iterator: TF1's graph iterator. It is made by `make_one_shot_iterator` (starts at its first
get_next run), `make_initializable_iterator` (starts again each time its `initializer` runs), `from_structure`
(reinitializable: `make_initializer(dataset)` gives the op that points it at a dataset of that structure) or
`from_string_handle` (feedable: each run reads the iterator whose `string_handle()` value is fed).

`get_next()` is a stateful op of the graph (a numpy_function): each Session.run that computes it takes the next
element, the run after the last raises tf.errors.OutOfRangeError, a run before initialization
FailedPreconditionError, as TF's IteratorGetNext."""

from __future__ import annotations

import contextlib
import itertools
import weakref

import numpy as np

from .legacy_output_properties import LegacyOutputProperties

_HANDLES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # string handle -> Iterator
_COUNTER = itertools.count()


def _tf():
    import tinytf

    return tinytf


@contextlib.contextmanager
def eagerly():
    """The dataset's pipeline runs eagerly, also while a Session runs the graph of a `with graph.as_default()`
    block (its ops must compute values, not add nodes to that graph)."""
    from tinytf.runtime.context import state

    saved, state.graph = state.graph, None
    try:
        yield
    finally:
        state.graph = saved


def _structure_spec(output_types, output_shapes, output_classes=None):
    """The element_spec of TF1's (output_types, output_shapes) pair: TensorSpecs of the types' nest (a shape may
    be given as a list, `[]` for a scalar, as in TF)."""
    tf = _tf()

    def up_to(types, shapes):
        if isinstance(types, dict):
            return {k: up_to(v, None if shapes is None else shapes[k]) for k, v in types.items()}
        if isinstance(types, (list, tuple)):
            shapes = [None] * len(types) if shapes is None else shapes
            return type(types)(up_to(t, s) for t, s in zip(types, shapes))
        return tf.TensorSpec(tf.TensorShape(shapes), tf.as_dtype(types))

    return up_to(output_types, output_shapes)


class Iterator(LegacyOutputProperties):
    """An iterator over datasets whose elements a TF1 graph reads (see the module docstring)."""

    def __init__(self, element_spec, dataset=None, initializable: bool = True, handle=None):
        self._element_spec = element_spec
        self._dataset = dataset  # the dataset being read (a reinitializable one: the last initialized)
        self._python_iterator = None
        self._one_shot = not initializable and dataset is not None
        self._started = False  # a one-shot iterator starts at its first get_next run
        self._initializable = initializable and dataset is not None
        self._initializer = None
        self._handle_tensor = handle  # a feedable iterator reads the iterator this handle names, per run
        self._handle_value = None

    # --- TF1's constructors ------------------------------------------------------------------------------
    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        """A reinitializable iterator of this element structure, not bound to a dataset yet."""
        return Iterator(_structure_spec(output_types, output_shapes, output_classes), initializable=False)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """A feedable iterator: each run reads the iterator whose `string_handle()` is `string_handle`'s value."""
        return Iterator(_structure_spec(output_types, output_shapes, output_classes), initializable=False,
                        handle=string_handle)

    # --- description -------------------------------------------------------------------------------------
    @property
    def element_spec(self):
        return self._element_spec

    # --- ops ---------------------------------------------------------------------------------------------
    @property
    def initializer(self):
        """The op that (re)starts the iteration (only make_initializable_iterator's iterators have one)."""
        if not self._initializable:
            raise ValueError("The iterator does not have an initializer. This means it was likely created using "
                             "`tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        if self._initializer is None:
            self._initializer = self._restart_op(self._dataset, "MakeIterator")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """The op that points this iterator at `dataset` (same types, compatible shapes) and starts it."""
        from tinytf.runtime import nest

        from .data import get_output_shapes, get_output_types

        want_types, got_types = self.output_types, get_output_types(dataset)
        try:
            nest.assert_same_structure(want_types, got_types)
        except (ValueError, TypeError) as e:
            raise TypeError(f"Expected output types {want_types} but got dataset with output types "
                            f"{got_types}.") from e
        if any(a != b for a, b in zip(nest.flatten(want_types), nest.flatten(got_types))):
            raise TypeError(f"Expected output types {want_types} but got dataset with output types {got_types}.")
        want_shapes, got_shapes = self.output_shapes, get_output_shapes(dataset)
        if not all(a.is_compatible_with(b) for a, b in zip(nest.flatten(want_shapes), nest.flatten(got_shapes))):
            raise TypeError(f"Expected output shapes compatible with {want_shapes} but got dataset with output "
                            f"shapes {got_shapes}.")
        return self._restart_op(dataset, name or "MakeIterator")

    def _restart_op(self, dataset, name):
        tf = _tf()
        from .ops import group

        def restart():
            with eagerly():
                self._dataset = dataset
                self._python_iterator = iter(dataset)
            return np.int32(0)

        return group(tf.numpy_function(restart, [], tf.int32, stateful=True), name=name)

    def string_handle(self, name=None):
        """A string tensor naming this iterator, to feed to a `from_string_handle` iterator's handle."""
        tf = _tf()
        if self._handle_value is None:
            self._handle_value = f"tinytf-iterator-{next(_COUNTER)}".encode()
            _HANDLES[self._handle_value] = self
        return tf.constant(self._handle_value, name=name or "IteratorToStringHandle")

    def _next_flat(self, specs):
        """The next element's flat numpy values (the kernel of get_next)."""
        tf = _tf()
        from tinytf.runtime import nest

        if self._one_shot and not self._started:
            self._started = True
            with eagerly():
                self._python_iterator = iter(self._dataset)
        if self._python_iterator is None:
            raise tf.errors.FailedPreconditionError(
                None, None, "GetNext() failed because the iterator has not been initialized. Ensure that you have "
                            "run the initializer operation for this iterator before getting the next element.")
        try:
            with eagerly():
                element = next(self._python_iterator)
        except StopIteration:
            raise tf.errors.OutOfRangeError(None, None, "End of sequence") from None
        return [np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype=s.dtype.as_numpy_dtype)
                for t, s in zip(nest.flatten(element), specs)]

    def get_next(self, name=None):
        """The next element, as tensors of the graph (a new op each call, which advances the iterator)."""
        tf = _tf()
        from tinytf.runtime import nest

        specs = nest.flatten(self._element_spec)
        dtypes = [s.dtype for s in specs]
        if self._handle_tensor is None:
            flat = tf.numpy_function(lambda: self._next_flat(specs), [], dtypes, stateful=True,
                                     name=name or "IteratorGetNext")
        else:
            def pull(handle):
                handle = bytes(np.asarray(handle).item())
                target = _HANDLES.get(handle)
                if target is None:
                    raise tf.errors.InvalidArgumentError(None, None, f"Could not parse an iterator string handle "
                                                                     f"from {handle!r}")
                return target._next_flat(specs)

            flat = tf.numpy_function(pull, [self._handle_tensor], dtypes, stateful=True,
                                     name=name or "IteratorGetNext")
        flat = [flat] if not isinstance(flat, (list, tuple)) else list(flat)
        flat = [tf.ensure_shape(t, s.shape) for t, s in zip(flat, specs)]
        return nest.pack_sequence_as(self._element_spec, flat)
