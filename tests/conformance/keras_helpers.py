"""Helpers shared by the Keras conformance modules (no programs here)."""

from __future__ import annotations

from . import val

TOKENS = [[1, 2, 0, 3, 0], [4, 0, 0, 5, 2], [0, 1, 1, 0, 0]]


def _mask(tensor):
    mask = getattr(tensor, "_keras_mask", None)
    return None if mask is None else val(mask)
