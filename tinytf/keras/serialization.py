"""Keras 3's serialized form of an object: {"module", "class_name", "config", "registered_name"}, and the
inverse lookup through a table of known classes plus the user's custom_objects."""

from __future__ import annotations

_custom_objects: dict = {}  # registered classes and functions, by "package>name" and by bare name
_registered_names: dict = {}  # object -> its "package>name"


def serialize(obj, module: str):
    """The Keras 3 dict of an object with get_config (None stays None)."""
    if obj is None:
        return None
    if not hasattr(obj, "get_config") and callable(obj):  # a plain function (kernel_initializer=tf.random.normal)
        return {"module": "builtins", "class_name": "function", "config": getattr(obj, "__name__", repr(obj)),
                "registered_name": "function"}  # Keras 3's form for functions
    return {"module": module, "class_name": type(obj).__name__, "config": obj.get_config(),
            "registered_name": None}


def deserialize(config: dict, known: dict, what: str, custom_objects=None):
    """An instance from a Keras 3 dict, looking the class up in `known`, then in the custom objects."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or known.get(name) or _custom_objects.get(name)
    if cls is None:
        raise ValueError(f"Could not deserialize {what} {name!r}: unknown class; pass it in custom_objects")
    return cls.from_config(config.get("config") or {})


def get_object(identifier, what: str, classes: dict, aliases: dict, base=None, custom_objects=None):
    """The `get` of a Keras registry (initializers, regularizers, constraints): a name (Keras' snake_case alias
    or class name) makes a default instance, a config dict is deserialized, a `base` subclass is
    instantiated, a callable is kept, None stays None; anything else is Keras' ValueError."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        cls = aliases.get(identifier) or classes.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret {what} identifier: {identifier}")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier, classes, what, custom_objects)
    if base is not None and isinstance(identifier, type) and issubclass(identifier, base):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret {what} identifier: {identifier}")


def register_keras_serializable(package: str = "Custom", name=None):
    """`keras.utils.register_keras_serializable`: make a custom class or function known to deserialization,
    under "package>name" (what a saved file records as its registered_name)."""
    def decorator(obj):
        registered = f"{package}>{name or obj.__name__}"
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError(f"Cannot register a class that does not have a get_config() method: {obj}")
        _custom_objects[name or obj.__name__] = obj
        _custom_objects[registered] = obj
        _registered_names[obj] = registered
        return obj
    return decorator


def registered_name(obj):
    """The "package>name" an object was registered under, or None."""
    return _registered_names.get(obj)


def get_registered_name(obj) -> str:
    """The name an object was registered under, else its own name (Keras 3)."""
    return _registered_names.get(obj) or obj.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or passed in custom_objects / module_objects) under `name`, else None."""
    for table in (custom_objects or {}, _custom_objects, module_objects or {}):
        if name in table:
            return table[name]
    return None


def custom_objects() -> dict:
    return _custom_objects
