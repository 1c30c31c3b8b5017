"""tf.saved_model.experimental: the fingerprint of a SavedModel."""

from .fingerprint import Fingerprint, read_fingerprint  # noqa: F401
