"""Keras 3's AutocastScope: while a mixed-precision layer runs its call, its float weights read as the compute
dtype (float16 or bfloat16) although they are kept in float32. Kept per thread, as Keras keeps it, so replica
threads of a distribution strategy each have their own."""

from __future__ import annotations

import threading

_state = threading.local()


def current_dtype():
    """The dtype float variables read as now, or None outside any autocast scope."""
    scope = getattr(_state, "scope", None)
    return None if scope is None else scope.dtype


def get_autocast_scope():
    return getattr(_state, "scope", None)


class AutocastScope:
    """Inside it, float variables made with autocast=True read as `dtype` (None: as themselves)."""

    def __init__(self, dtype):
        if dtype is not None:
            from ..dtype_policies.dtype_policy import is_float_dtype, standardize_dtype

            dtype = standardize_dtype(dtype)
            if not is_float_dtype(dtype):
                raise ValueError("`AutocastScope` can only be used with a floating-point target dtype, such as "
                                 f"'float16'. Received: dtype={dtype}")
        self.dtype = dtype
        self.original_scope = None

    def maybe_cast(self, value):
        import tinytf as _tf

        if self.dtype is not None and value.dtype.is_floating and value.dtype.name != self.dtype:
            return _tf.cast(value, self.dtype)
        return value

    def __enter__(self):
        self.original_scope = get_autocast_scope()
        _state.scope = self
        return self

    def __exit__(self, *exc):
        _state.scope = self.original_scope
        return False


def scope_for_layer(layer):
    """The scope a layer's call runs in (Keras 3's rule), or None to keep the current one: a mixed layer
    opens one of its compute dtype; inside one, a layer that does not autocast, or computes in a non-float
    dtype, clears it, and a layer of another compute dtype replaces it."""
    from ..dtype_policies.dtype_policy import is_float_dtype

    current = get_autocast_scope()
    compute = layer.compute_dtype
    if current is not None:
        if not layer.autocast or not is_float_dtype(compute):
            return AutocastScope(None)
        if current.dtype != compute:
            return AutocastScope(compute)
        return None
    if compute != layer.variable_dtype:
        return AutocastScope(compute)
    return None
