"""tf.experimental.extension_type: helpers for ExtensionType values."""

from ..extension_type.as_dict import as_dict  # noqa: F401
