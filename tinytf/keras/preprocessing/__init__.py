"""keras.preprocessing: the `sequence` helpers TF 2.21 still ships under this name (pad_sequences is
keras.utils.pad_sequences itself)."""

from . import sequence

__all__ = ["sequence"]
