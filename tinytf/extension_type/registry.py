"""Extension types by name, for SavedModels: a class declaring `__name__` in its body is registered under it
(its Spec as `<name>.Spec`), as TF registers them; later definitions replace earlier ones."""

from __future__ import annotations

import weakref

_SPECS = weakref.WeakValueDictionary()  # "<name>.Spec" -> Spec class (a dropped class leaves the registry)


def register(value_cls) -> None:
    name = value_cls.__dict__.get("__name__")
    if isinstance(name, str):
        _SPECS[f"{name}.Spec"] = value_cls.Spec


def registered_name(spec_cls):
    name = spec_cls.value_type.__dict__.get("__name__") if spec_cls.value_type is not None else None
    return f"{name}.Spec" if isinstance(name, str) and _SPECS.get(f"{name}.Spec") is spec_cls else None


def spec_class_named(name: str):
    return _SPECS.get(name)
