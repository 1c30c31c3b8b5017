"""The TF2 names of tf.compat.v1 and its namespaces (tf2_same_objects.py: the names TF 2.21 gives as the very
TF2 objects, or as the TF2 function re-wrapped with its signature). A namespace module gets a module-level
`__getattr__` that finds such a name in tinytf's TF2 namespace when first read (and keeps it): the table is
TF's, the objects are tinytf's, so a TF2 name that tinytf lacks is missing here too, never a stub. Names the
module defines itself (TF1's own versions, with v1 arguments) are found first, as module attributes are."""

from __future__ import annotations

import sys
import types

from .tf2_same_objects import SAME_OBJECTS, SAME_SIGNATURE

# namespaces of tf.compat.v1 that are only TF2 names here (the others are modules of their own: nn, losses, ...)
ALIAS_ONLY_NAMESPACES = ("math", "linalg", "random", "sparse", "strings", "io", "config", "dtypes",
                         "errors", "lookup", "bitwise", "saved_model", "debugging", "ragged", "distribute",
                         "graph_util")


def tf2_paths(namespace: str) -> dict:
    """{TF1 name: the TF2 path of its object} for one namespace ("" is tf.compat.v1 itself)."""
    paths = {}
    for entry in [*SAME_OBJECTS.get(namespace, ()), *SAME_SIGNATURE.get(namespace, ())]:
        name, _, path = entry.partition("=")
        paths[name] = path or (f"{namespace}.{name}" if namespace else name)
    return paths


def resolve(path: str):
    """tinytf's object at a TF2 path ("nn.relu"); AttributeError when tinytf has no such name."""
    import tinytf

    obj = tinytf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def install(module_globals: dict, namespace: str) -> None:
    """Give a module (its globals) the module `__getattr__` and `__dir__` of `namespace`'s TF2 names."""
    paths = tf2_paths(namespace)
    module_name = module_globals["__name__"]

    def __getattr__(name):
        path = paths.get(name)
        if path is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        try:
            value = resolve(path)
        except AttributeError:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r} (in TF it is tf.{path}, which "
                                 "tinytf does not have)") from None
        module_globals[name] = value
        return value

    def __dir__():
        found = [name for name in paths if name not in module_globals and _has(path_of=paths[name])]
        return sorted(set(module_globals) | set(found))

    module_globals["__getattr__"] = __getattr__
    module_globals["__dir__"] = __dir__


def _has(path_of: str) -> bool:
    try:
        resolve(path_of)
        return True
    except AttributeError:
        return False


def alias_namespace(package_globals: dict, namespace: str) -> types.ModuleType:
    """A module `tf.compat.v1.<namespace>` holding only TF2 names (importable: it is in sys.modules)."""
    name = f"{package_globals['__name__']}.{namespace}"
    module = types.ModuleType(name, f"tf.compat.v1.{namespace}: TF 2.21's names here are those of "
                                    f"tf.{namespace} (see tinytf/compat/v1/tf1_aliases.py).")
    install(module.__dict__, namespace)
    sys.modules[name] = module
    package_globals[namespace] = module
    return module


def alias_nested_namespaces(package_globals: dict) -> None:
    """The dotted namespaces of the table (`tf.compat.v1.config.experimental`, `data.experimental.service`):
    each becomes a module under its parent, made when the parent lacks it, or its table installed on the
    module the parent already has (a TF1 module of its own keeps its names, found first)."""
    dotted = {key for table in (SAME_OBJECTS, SAME_SIGNATURE) for key in table if "." in key}
    for namespace in sorted(dotted, key=lambda key: key.count(".")):  # parents before children
        parent = sys.modules[package_globals["__name__"]]
        *heads, last = namespace.split(".")
        for head in heads:
            parent = _namespace_child(parent, head, package_globals["__name__"])
        existing = parent.__dict__.get(last)
        if isinstance(existing, types.ModuleType):
            install(existing.__dict__, namespace)
            continue
        name = f"{parent.__name__}.{last}"
        module = types.ModuleType(name, f"tf.compat.v1.{namespace}: TF 2.21's names here are TF2 objects "
                                        "(see tinytf/compat/v1/tf1_aliases.py).")
        install(module.__dict__, namespace)
        sys.modules[name] = module
        setattr(parent, last, module)


def _namespace_child(parent: types.ModuleType, head: str, package: str) -> types.ModuleType:
    """The module `parent.head`, made empty (only its nested namespaces) when TF1 has it and tinytf did not."""
    child = parent.__dict__.get(head)
    if isinstance(child, types.ModuleType):
        return child
    name = f"{parent.__name__}.{head}"
    child = types.ModuleType(name, f"tf.compat.v1.{name[len(package) + 1:]}")
    sys.modules[name] = child
    setattr(parent, head, child)
    return child

