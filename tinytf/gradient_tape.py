"""tf.GradientTape (and tf.gradients, tf.stop_gradient, tf.custom_gradient): records the ops run on
watched values, eagerly or while tracing a tf.function, and differentiates them with the registered rules.
Inside a tf.function the backward pass becomes nodes of the same graph."""

from __future__ import annotations

import contextlib
import enum
import warnings

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.autodiff.custom import custom_gradient
from tinytf.runtime.autodiff.graph_gradients import gradients
from tinytf.runtime.autodiff.tape import Tape
from tinytf.runtime.autodiff.util import fill_unconnected, seed_for, unconnected_mode
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops.array import reshape, stack, zeros_like
from tinytf.runtime.ops.gradient_helpers import broadcast_to_like, stop_gradient
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import Tensor

from .indexed_slices import as_indexed_slices


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class GradientTape:
    """Record operations for automatic differentiation (TensorFlow's tf.GradientTape)."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._tape = Tape(watch_accessed_variables)
        self._persistent = persistent
        self._recording = False
        self._used = False

    # --- context -----------------------------------------------------------------------------------
    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.")
        self._tape.push()
        self._recording = True
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._recording:
            self._tape.pop()
            self._recording = False

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stop recording: ops run inside are not differentiated."""
        if not self._recording:
            raise ValueError("Tape.stop_recording() can only be called when the tape is recording.")
        self._tape.pop()
        try:
            yield
        finally:
            self._tape.push()

    def reset(self) -> None:
        """Forget everything recorded so far (and what was watched); recording goes on if active."""
        self._tape.reset()
        self._used = False

    # --- watching ----------------------------------------------------------------------------------
    def watch(self, tensor) -> None:
        """Watch a tensor (or a structure of tensors / variables) so that gradients can be taken for it."""
        for value in nest.flatten(tensor):
            # a composite's float component (TF watches every component of a composite)
            value = value.values if type(value).__name__ == "SparseTensor" else _gradient_component(value)
            if not isinstance(value, (Tensor, Resource)):
                raise ValueError(at_user_line(
                    f"Passed in object {value!r} of type {type(value).__name__!r}, not tf.Tensor or tf.Variable"))
            if not value.dtype.is_inexact:
                warnings.warn(f"The dtype of the watched tensor must be floating (e.g. tf.float32), got "
                              f"{value.dtype.name}", stacklevel=2)
            self._tape.watch(value)

    def watched_variables(self) -> tuple:
        return tuple(self._tape.watched_variables)

    # --- gradients ---------------------------------------------------------------------------------
    def _begin_backward(self, what: str) -> None:
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        if state.graph is not self._tape.graph:
            raise RuntimeError(f"GradientTape.{what} must be called where the tape recorded: eagerly for a tape "
                               "used eagerly, inside the same tf.function for a tape created there")
        if self._recording and not self._persistent:
            # TF stops recording a non-persistent tape whose gradient is taken inside its context
            self._tape.pop()
            self._recording = False
        self._used = True

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of `target` (summed if not scalar; a structure of targets is summed too) with respect
        to `sources` (a tensor, variable, or nested structure of them), packed like `sources`."""
        mode = unconnected_mode(unconnected_gradients)
        self._begin_backward("gradient")
        flat_targets = [self._as_tensor(_gradient_component(t)) for t in nest.flatten(target)]
        composite_sources = nest.flatten(sources)
        flat_sources = [_gradient_component(s) for s in composite_sources]
        for s in flat_sources:
            if not isinstance(s, (Tensor, Resource)):
                raise TypeError(at_user_line(
                    f"GradientTape.gradient: every source must be a tf.Tensor or tf.Variable, got {s!r} of type "
                    f"{type(s).__name__}"))
        if output_gradients is None:
            given = [None] * len(flat_targets)
        else:
            given = nest.flatten(output_gradients)
            if len(given) != len(flat_targets):
                raise ValueError(at_user_line(
                    f"GradientTape.gradient: {len(given)} output_gradients for {len(flat_targets)} targets"))
        seeds = [seed_for(t, g) for t, g in zip(flat_targets, given)]
        keys = [self._tape.canonical(s) for s in flat_sources]
        grads = [as_indexed_slices(g) for g in self._tape.backward_from(flat_targets, seeds, keys, keep_sparse=True)]
        # d v / d v is the seed even when nothing read v under the tape (TF: tape.gradient(v, v) is ones)
        grads = [_seed_of_variable(s, flat_targets, seeds) if g is None and isinstance(s, Resource) else g
                 for s, g in zip(keys, grads)]
        grads = [None if not _float(s) else g for s, g in zip(flat_sources, grads)]
        grads = fill_unconnected(grads, flat_sources, mode)
        grads = [_as_composite_gradient(s, g) for s, g in zip(composite_sources, grads)]
        return nest.pack_sequence_as(sources, grads)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...] for each source: shape target.shape + source.shape."""
        mode = unconnected_mode(unconnected_gradients)
        self._begin_backward("jacobian")
        target = self._as_tensor(target)
        flat_sources = nest.flatten(sources)
        target_shape = _static_shape(target, "jacobian", "target")
        size = int(np.prod(target_shape, dtype=np.int64))
        keys = [self._tape.canonical(s) for s in flat_sources]
        rows = [[] for _ in flat_sources]
        eye = np.eye(size, dtype=target.dtype.np)
        for j in range(size):
            seed = convert_to_tensor(eye[j].reshape(target_shape))
            for row, g in zip(rows, self._tape.backward_from([target], [seed], keys)):
                row.append(g)
        return nest.pack_sequence_as(sources, [
            _stack_rows(row, s, target_shape, mode, size) for row, s in zip(rows, flat_sources)])

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: for target [b, y...] and source [b, x...], a [b, y..., x...] tensor
        (example i of the target depends only on example i of the source)."""
        mode = unconnected_mode(unconnected_gradients)
        self._begin_backward("batch_jacobian")
        target = self._as_tensor(target)
        if target.ndim is None or target.ndim < 1 or source.ndim is None or source.ndim < 1:
            raise ValueError(at_user_line("batch_jacobian needs a target and a source of known rank >= 1"))
        inner = _static_shape(target, "batch_jacobian", "target")[1:] if target._shape[0] is not None else \
            tuple(target._shape[1:])
        if None in inner or None in source._shape[1:]:
            raise ValueError(at_user_line("batch_jacobian needs the non-batch dimensions to be known"))
        size = int(np.prod(inner, dtype=np.int64))
        eye = np.eye(size, dtype=target.dtype.np)
        key = self._tape.canonical(source)
        columns = []
        for j in range(size):
            seed = broadcast_to_like(convert_to_tensor(eye[j].reshape((1,) + inner)), target)
            (g,) = self._tape.backward_from([target], [seed], [key])
            if g is None:
                if mode == "none":
                    return None
                g = zeros_like(source)
            columns.append(g)
        batch = -1 if source._shape[0] is None else source._shape[0]
        return reshape(stack(columns, axis=1), (batch,) + inner + tuple(source._shape[1:]))

    def _as_tensor(self, value):
        """A target as the backward walk knows it: a tensor, or a variable itself (d v / d v is ones)."""
        if isinstance(value, Resource):
            return self._tape.canonical(value)
        return convert_to_tensor(value)


def _gradient_component(value):
    """The tensor a gradient flows through for a composite value, as TF's composite gradient protocol: a
    RaggedTensor's flat values (its row partition is integers). TF refuses a SparseTensor."""
    if hasattr(value, "with_flat_values") and hasattr(value, "flat_values"):
        return value.flat_values
    if type(value).__name__ == "SparseTensor":
        raise ValueError(at_user_line("Type SparseTensor is not supported as a gradient source or gradient "
                                      "target."))
    return value


def _as_composite_gradient(source, grad):
    """A gradient with respect to a RaggedTensor source, with its row partition (as TF)."""
    if grad is None or not hasattr(source, "with_flat_values"):
        return grad
    return source.with_flat_values(grad)


def _seed_of_variable(source, targets, seeds):
    """The seed of a trainable variable that is itself a target, else None."""
    for target, seed in zip(targets, seeds):
        if target is source and getattr(source, "trainable", False):
            return seed
    return None


def _float(source) -> bool:
    return source.dtype.is_inexact


def _static_shape(tensor, what, role):
    shape = tensor._shape
    if shape is None or None in shape:
        raise ValueError(at_user_line(f"{what} needs the {role}'s shape to be fully known, got {tensor.shape}"))
    return tuple(shape)


def _stack_rows(row, source, target_shape, mode, size):
    """One source's jacobian from its gradient rows (one per target element)."""
    value = source.read_value() if isinstance(source, Resource) else source
    if all(g is None for g in row) and mode == "none":
        return None
    row = [zeros_like(value) if g is None else g for g in row]
    source_shape = _static_shape(value, "jacobian", "source")
    if size == 0:
        return convert_to_tensor(np.zeros(target_shape + source_shape, value.dtype.np))
    return reshape(stack(row), target_shape + source_shape)


__all__ = ["GradientTape", "UnconnectedGradients", "custom_gradient", "gradients", "stop_gradient"]
