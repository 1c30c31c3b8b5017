"""keras.utils.legacy: Keras 2's serialization (keras/src/legacy/saving/serialization.py), as TF 2.21's Keras 3.15
keeps it: an object becomes {"class_name", "config"} (no "module" or "registered_name"), its config's non-string
items serialized the same way and marked "__passive_serialization__"; a plain function becomes its (registered)
name. Deserializing looks names up in `custom_objects`, the registry, then the caller's `module_objects` (nothing
built in: Keras' own `keras.layers.deserialize` and kin know Keras' classes)."""

from __future__ import annotations

import inspect

from .. import serialization
from .custom_objects import CustomObjectScope, get_custom_objects


def serialize_keras_object(instance):
    """The Keras 2 dict of an object with get_config, the name of a function, None for None."""
    instance = inspect.unwrap(instance) if callable(instance) else instance
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
                    serialized["__passive_serialization__"] = True
                config[key] = serialized
            except ValueError:  # numbers, lists, dicts: kept as they are
                config[key] = item
        return {"class_name": serialization.get_registered_name(type(instance)), "config": config}
    if hasattr(instance, "__name__"):
        return serialization.get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement `get_config()`.")


def _unknown(what: str, name: str) -> ValueError:
    return ValueError(f"Unknown {what}: '{name}'. Please ensure you are using a `keras.utils.custom_object_scope` "
                      "and that this object is included in the scope. See "
                      "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for "
                      "details.")


def _class_and_config(config, module_objects, custom_objects, what):
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict contains `class_name` and "
                         "`config` as keys")
    class_name = config["class_name"]
    cls = serialization.get_registered_object(class_name, custom_objects, module_objects)
    if cls is None:
        raise _unknown(what, class_name)
    cls_config = config["config"]
    if isinstance(cls_config, list):  # Keras 2.0's Sequential: a list of layer configs
        return cls, cls_config
    for key, item in list(cls_config.items()):
        if key == "name":
            continue
        if isinstance(item, dict) and "__passive_serialization__" in item:
            cls_config[key] = deserialize_keras_object(item, module_objects=module_objects,
                                                       custom_objects=custom_objects,
                                                       printable_module_name="config_item")
        elif isinstance(item, str) and inspect.isfunction(
                serialization.get_registered_object(item, custom_objects, module_objects)):
            cls_config[key] = serialization.get_registered_object(item, custom_objects, module_objects)
    return cls, cls_config


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None, printable_module_name="object"):
    """An object from its Keras 2 form: a {"class_name", "config"} dict, a name, or a function (returned as is)."""
    module_objects = module_objects or {}
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, cls_config = _class_and_config(identifier, module_objects, custom_objects, printable_module_name)
        custom_objects = custom_objects or {}
        if hasattr(cls, "from_config"):
            if "custom_objects" in inspect.getfullargspec(cls.from_config).args:
                return cls.from_config(cls_config, custom_objects={**get_custom_objects(), **custom_objects})
            with CustomObjectScope(custom_objects):
                return cls.from_config(cls_config)
        with CustomObjectScope(custom_objects):
            return cls(**cls_config)
    if isinstance(identifier, str):
        if custom_objects and identifier in custom_objects:
            found = custom_objects[identifier]
        else:
            found = serialization.get_registered_object(identifier, None, module_objects)
            if found is None:
                raise _unknown(printable_module_name, identifier)
        return found() if inspect.isclass(found) else found
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")


__all__ = ["serialize_keras_object", "deserialize_keras_object"]
