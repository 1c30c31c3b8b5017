"""keras.utils' custom-object registry: get_custom_objects (the live dict deserialization consults: add a class or
function to it and configs that name it load) and custom_object_scope / CustomObjectScope, which make objects
known for the duration of a `with` block only."""

from __future__ import annotations

from ..serialization import custom_objects as _registry


def get_custom_objects() -> dict:
    """The global dict of custom objects, by name; writing to it registers an object for deserialization."""
    return _registry()


class CustomObjectScope:
    """`with CustomObjectScope({"MyLayer": MyLayer}):` -- the objects are known to deserialization inside the
    block; what they shadowed is restored on exit."""

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})
        self._saved: dict = {}

    def __enter__(self):
        registry = _registry()
        self._saved = {name: registry[name] for name in self.custom_objects if name in registry}
        registry.update(self.custom_objects)
        return self

    def __exit__(self, *exc_info):
        registry = _registry()
        for name in self.custom_objects:
            registry.pop(name, None)
        registry.update(self._saved)
        return False


custom_object_scope = CustomObjectScope  # Keras exports the class under both names

__all__ = ["CustomObjectScope", "custom_object_scope", "get_custom_objects"]
