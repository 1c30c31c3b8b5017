"""keras.legacy.saving (TF 2.21's tf.keras.legacy.saving, also keras.utils.legacy): Keras 2's serialization of
objects as {"class_name": ..., "config": ...}, without Keras 3's "module" and "registered_name" keys.
serialize_keras_object serializes the config's entries that are themselves Keras objects (marking them
"__passive_serialization__") and keeps the rest as they are; deserialize_keras_object finds the class by name in
custom_objects, the registered custom objects, then `module_objects`, and builds it with from_config. The shared-
object scopes of Keras 2's model saving are not here (no caller in tinytf needs them)."""

from __future__ import annotations

import inspect

from ..serialization import custom_objects as _global_custom_objects
from ..serialization import get_registered_name, get_registered_object
from ..utils.custom_objects import CustomObjectScope

_PASSIVE = "__passive_serialization__"


def serialize_keras_object(instance):
    """A Keras object as Keras 2's {"class_name", "config"}; a function as its (registered) name."""
    instance = inspect.unwrap(instance)
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        config = {}
        for key, item in instance.get_config().items():
            if isinstance(item, str):
                config[key] = item
                continue
            try:
                serialized = serialize_keras_object(item)
                if isinstance(serialized, dict) and not isinstance(item, dict):
                    serialized[_PASSIVE] = True
                config[key] = serialized
            except ValueError:
                config[key] = item
        return {"class_name": get_registered_name(instance.__class__), "config": config}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement `get_config()`.")


def class_and_config_for_serialized_keras_object(config, module_objects=None, custom_objects=None,
                                                 printable_module_name="object"):
    """(class, config) of a serialized object, its passively serialized entries deserialized."""
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict contains `class_name` and "
                         "`config` as keys")
    class_name = config["class_name"]
    cls = get_registered_object(class_name, custom_objects, module_objects)
    if cls is None:
        raise ValueError(f"Unknown {printable_module_name}: '{class_name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    cls_config = config["config"]
    if isinstance(cls_config, list):
        return cls, cls_config
    for key, item in list(cls_config.items()):
        if key == "name":
            continue
        if isinstance(item, dict) and _PASSIVE in item:
            cls_config[key] = deserialize_keras_object(item, module_objects=module_objects,
                                                       custom_objects=custom_objects,
                                                       printable_module_name="config_item")
        elif isinstance(item, str) and inspect.isfunction(get_registered_object(item, custom_objects,
                                                                                 module_objects)):
            cls_config[key] = get_registered_object(item, custom_objects, module_objects)
    return cls, cls_config


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None, printable_module_name="object"):
    """The object a Keras 2 serialization describes (look classes up in `module_objects` and custom_objects)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, cls_config = class_and_config_for_serialized_keras_object(identifier, module_objects, custom_objects,
                                                                       printable_module_name)
        custom_objects = custom_objects or {}
        if hasattr(cls, "from_config"):
            if "custom_objects" in inspect.signature(cls.from_config).parameters:
                return cls.from_config(cls_config, custom_objects={**_global_custom_objects(), **custom_objects})
            with CustomObjectScope(custom_objects):
                return cls.from_config(cls_config)
        with CustomObjectScope(custom_objects):
            return cls(**cls_config)
    if isinstance(identifier, str):
        if custom_objects and identifier in custom_objects:
            obj = custom_objects[identifier]
        elif identifier in _global_custom_objects():
            obj = _global_custom_objects()[identifier]
        else:
            obj = (module_objects or {}).get(identifier)
            if obj is None:
                raise ValueError(f"Unknown {printable_module_name}: '{identifier}'. Please ensure you are using a "
                                 "`keras.utils.custom_object_scope` and that this object is included in the scope. "
                                 "See https://www.tensorflow.org/guide/keras/save_and_serialize"
                                 "#registering_the_custom_object for details.")
        return obj() if inspect.isclass(obj) else obj
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")


__all__ = ["deserialize_keras_object", "serialize_keras_object"]
