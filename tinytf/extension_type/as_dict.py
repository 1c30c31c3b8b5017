"""tf.experimental.extension_type.as_dict: an ExtensionType's (or its Spec's) fields as a plain dict, one
level deep (nested extension types stay objects, unlike dataclasses.asdict)."""

from __future__ import annotations


def as_dict(value) -> dict:
    """{field name: value} for an ExtensionType value or Spec; AttributeError for anything else, as TF."""
    return {f.name: getattr(value, f.name) for f in value._tf_extension_type_fields()}
