"""Helpers shared by the Keras conformance modules (no programs here)."""

from __future__ import annotations

from . import data, val

TOKENS = [[1, 2, 0, 3, 0], [4, 0, 0, 5, 2], [0, 1, 1, 0, 0]]


def _fix(model, scale=0.5):
    """Deterministic weights, in the model's weight order (the same in Keras 3 and tinytf)."""
    model.set_weights([data(w.shape, seed=i, scale=scale) for i, w in enumerate(model.get_weights())])
    return model


def _mask(tensor):
    mask = getattr(tensor, "_keras_mask", None)
    return None if mask is None else val(mask)
