"""The train, test and predict steps as tf.functions of flat tensors.

A step takes one batch, `(x,)`, `(x, y)` or `(x, y, sample_weight)`, where x and y may be nested. Passing that
tuple to a tf.function makes every call build the nested key of its arguments (the general call path). Here
each batch structure gets a tf.function whose parameters are the batch's leaves, in `nest.flatten` order; it
rebuilds the structure inside the trace, so the user's overridden `train_step(data)` still receives the tuple.
A call is then positional eager tensors, the case the tf.function fast paths serve. A structure is seen
once per fit for arrays (and the template object is the same every step, so the lookup is by identity);
generators may change it from batch to batch, and then it is looked up by its nesting."""

from __future__ import annotations

import inspect

import tinytf as _tf
from tinytf.runtime import nest

_LEAF = 0  # the leaves of a template: any non-nested placeholder will do


def template_of(data):
    """The structure of a batch (or of a tuple of batches) with its leaves replaced by placeholders."""
    return nest.map_structure(lambda _: _LEAF, data)


def _with_arity(body, n: int):
    """`body(*flat)` with a signature of `n` named positional parameters: tf.function's fast call paths key
    on plain positional parameters, and its traces are named by them (data_0, data_1, ...)."""
    parameter = inspect.Parameter.POSITIONAL_OR_KEYWORD
    body.__signature__ = inspect.Signature([inspect.Parameter(f"data_{i}", parameter) for i in range(n)])
    return body


class StepFunctions:
    """`run(data)`, one batch (or one tuple of batches for several steps per execution), as a tf.function per
    batch structure; or `run` itself with run_eagerly."""

    def __init__(self, run, eager: bool):
        self._run = run
        self.eager = eager
        self._by_identity: dict = {}  # id(template) -> (template, function): the template is kept alive
        self._by_nesting: dict = {}  # nest.structure_signature(template) -> function

    def for_template(self, template, relax_batch: bool = False):
        """The function taking the flat leaves of batches shaped like `template`. With `relax_batch` its first
        call traces it for any batch size (see BatchRelaxed)."""
        entry = self._by_identity.get(id(template))
        if entry is not None and entry[0] is template and (not relax_batch or entry[2] is not None):
            return entry[2] if relax_batch else entry[1]
        nesting = nest.structure_signature(template)
        function = self._by_nesting.get(nesting)
        if function is None:
            function = self._by_nesting[nesting] = self._make(template)
        if len(self._by_identity) > 64:  # generators make a new template per batch: keep the table small
            self._by_identity.clear()
        relaxed = BatchRelaxed(function) if relax_batch and not self.eager else function
        self._by_identity[id(template)] = (template, function, relaxed if relax_batch else None)
        return relaxed if relax_batch else function

    def _make(self, template):
        run = self._run
        if self.eager:
            def eager_step(*flat):
                return run(nest.pack_sequence_as(template, flat))
            return eager_step

        def step(*flat):
            return run(nest.pack_sequence_as(template, flat))

        return _tf.function(_with_arity(step, len(nest.flatten(template))), reduce_retracing=True)

    def __call__(self, data):
        """One call with a structured batch (train_on_batch, distribution workers): flattened here."""
        if self.eager:
            return self._run(data)
        return self.for_template(template_of(data))(*nest.flatten(data))

    def discard_relaxed(self) -> None:
        """Forget the relaxed wrappers (not the traces): a new fit traces its first call relaxed again."""
        self._by_identity.clear()

    # --- what tests and users inspect: every trace of every structure ------------------------------------------
    def _functions(self) -> list:
        return [] if self.eager else list(self._by_nesting.values())

    def experimental_get_tracing_count(self) -> int:
        return sum(f.experimental_get_tracing_count() for f in self._functions())

    def experimental_get_concrete_functions(self) -> list:
        return [c for f in self._functions() for c in f.experimental_get_concrete_functions()]


class BatchRelaxed:
    """Keras 3 runs fit's and evaluate's step on the batches of a tf.data iterator, whose element spec has a
    batch dimension of None (arrays and generators are batched without drop_remainder): the step is traced once
    with `(None, ...)` shapes, which `call()` sees, and the short last batch reuses that trace. The first call
    here traces the function for the leaves with their batch dimension unknown; later calls of any batch size
    find that trace (a cached supertype)."""

    __slots__ = ("function", "traced")

    def __init__(self, function):
        self.function = function
        self.traced = False

    def __call__(self, *leaves):
        if not self.traced:
            self.traced = True
            self.function.get_concrete_function(*(_unknown_batch_spec(leaf) for leaf in leaves))
        return self.function(*leaves)


def _unknown_batch_spec(leaf):
    """A TensorSpec of the leaf with dimension 0 unknown; a leaf that is not an array passes through."""
    shape = getattr(leaf, "shape", None)
    if shape is None or not hasattr(leaf, "dtype"):
        return leaf
    dims = list(shape.as_list()) if hasattr(shape, "as_list") else list(shape)
    if not dims:
        return _tf.TensorSpec([], _tf.as_dtype(leaf.dtype))
    return _tf.TensorSpec([None] + dims[1:], _tf.as_dtype(leaf.dtype))
