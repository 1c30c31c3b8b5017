"""tf.autodiff: forward-mode differentiation (ForwardAccumulator) next to the reverse-mode GradientTape.

A ForwardAccumulator gives Jacobian-vector products. tinytf has one set of differentiation rules, the
reverse-mode ones, so a JVP is computed by the "double VJP" identity instead of per-op tangent rules: for
y = f(x) the vector-Jacobian product g(u) = J^T u is linear in the cotangent u, so the gradient of
<g(u), v> with respect to u is J v. The accumulator records the forward computation on a persistent tape
watching the primals; `jvp(y)` runs that tape's backward pass under a second tape watching u, then
differentiates once more. Every op with a reverse-mode rule whose backward pass is itself differentiable
(what higher-order gradients already need) therefore has a JVP, eagerly and inside tf.function."""

from __future__ import annotations

from tinytf.runtime import nest
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops.array import zeros_like
from tinytf.runtime.ops.math import multiply
from tinytf.runtime.ops.reduce import reduce_sum
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import Tensor

from .gradient_tape import GradientTape, UnconnectedGradients
from .indexed_slices import IndexedSlices

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """Computes Jacobian-vector products of what runs inside its context with respect to `primals`,
    in the directions `tangents` (TensorFlow's tf.autodiff.ForwardAccumulator)."""

    def __init__(self, primals, tangents):
        self._primals = nest.flatten(primals)
        flat_tangents = nest.flatten(tangents)
        if len(flat_tangents) != len(self._primals):
            raise ValueError(at_user_line(
                f"ForwardAccumulator: {len(flat_tangents)} tangents for {len(self._primals)} primals; primals "
                "and tangents must have the same structure"))
        seen = set()
        for primal in self._primals:
            if not isinstance(primal, (Tensor, Resource)):
                raise TypeError(at_user_line(
                    f"ForwardAccumulator: primals must be tf.Tensor or tf.Variable, got {type(primal).__name__}"))
            if id(primal) in seen:
                raise ValueError(at_user_line(
                    f"Tensor {primal!r} was specified as a primal multiple times. This may indicate an error. "
                    "If it was intended, please sum the corresponding tangents."))
            seen.add(id(primal))
        self._tangents = [_tangent_for(p, t) for p, t in zip(self._primals, flat_tangents)]
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)
        self._entered = False

    def __enter__(self) -> ForwardAccumulator:
        if self._entered:
            raise ValueError("ForwardAccumulator: an accumulator can be entered only once")
        self._entered = True
        self._tape.__enter__()
        self._tape.watch([p for p in self._primals if p.dtype.is_inexact])
        return self

    def __exit__(self, exc_type, exc, tb):
        self._tape.__exit__(exc_type, exc, tb)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The Jacobian-vector product of each tensor in `primals` (a tensor or nested structure):
        d primal / d (watched primals) applied to the tangents. Tensors that do not depend on the watched
        primals give None, or zeros with `unconnected_gradients=tf.UnconnectedGradients.ZERO`."""
        zero_if_unconnected = UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
        results = [self._jvp_of(convert_to_tensor(t), zero_if_unconnected) for t in nest.flatten(primals)]
        return nest.pack_sequence_as(primals, results)

    def _jvp_of(self, target: Tensor, zero_if_unconnected: bool):
        if not target.dtype.is_inexact:
            return zeros_like(target) if zero_if_unconnected else None
        with GradientTape() as outer:
            cotangent = zeros_like(target)
            outer.watch(cotangent)
            with self._paused():
                pulled_back = self._tape.gradient(target, self._primals, output_gradients=cotangent)
            pairing = [reduce_sum(multiply(_dense(g), v)) for g, v in zip(pulled_back, self._tangents)
                       if g is not None]
            if not pairing:
                return zeros_like(target) if zero_if_unconnected else None
            inner_product = pairing[0]
            for term in pairing[1:]:
                inner_product = inner_product + term
        tangent = outer.gradient(inner_product, cotangent)
        if tangent is None:
            return zeros_like(target) if zero_if_unconnected else None
        return tangent

    def _paused(self):
        """The backward pass runs off the accumulator's own tape (it is not part of the forward computation)."""
        if self._tape._recording:
            return self._tape.stop_recording()
        return _NO_PAUSE


class _NoPause:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NO_PAUSE = _NoPause()


def _tangent_for(primal, tangent) -> Tensor:
    tangent = convert_to_tensor(tangent)
    if tangent.dtype != primal.dtype:
        raise ValueError(at_user_line(
            f"ForwardAccumulator: tangent of dtype {tangent.dtype.name} for a primal of dtype {primal.dtype.name}; "
            "Tensor conversion requested dtype must match"))
    primal_shape, tangent_shape = primal.shape, tangent.shape
    if primal_shape.rank is not None and tangent_shape.rank is not None and \
            not primal_shape.is_compatible_with(tangent_shape):
        raise ValueError(at_user_line(
            f"ForwardAccumulator: tangent of shape {tangent_shape} for a primal of shape {primal_shape}; "
            "each tangent must have its primal's shape"))
    return tangent


def _dense(gradient):
    return gradient._to_tensor() if isinstance(gradient, IndexedSlices) else gradient
