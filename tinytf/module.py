"""tf.Module: a container that finds the variables and submodules in its attributes."""

from __future__ import annotations

import re

from .scopes import name_scope
from .trackable_structures import wrap
from .variables import Variable

# Called as hook(module) after a module gets an attribute. tinytf.train registers the deferred restoration
# of checkpoint values here (it imports this module, so this module cannot import it).
attribute_hooks: list = []


class Module:
    """Tracks variables and submodules assigned to its attributes (also inside lists, tuples and dicts)."""

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            value = wrap(value)  # TF's ListWrapper / DictWrapper: changes to them reach deferred restores
        object.__setattr__(self, name, value)
        for hook in attribute_hooks:
            hook(self)

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        if not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid module name: use a Python identifier")
        self._name = name
        self._scope = name_scope(name)

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self):
        return self._scope

    @property
    def variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and not v.trainable))

    @property
    def submodules(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate) -> list:
        """Matching values reachable from this module's attributes, depth first, each once."""
        found, seen = [], {id(self)}
        self._walk(self, predicate, found, seen)
        return found

    @staticmethod
    def _children(obj):
        if isinstance(obj, Module):
            return [v for k, v in sorted(vars(obj).items()) if not k.startswith("_scope")]
        if isinstance(obj, dict):
            return list(obj.values())
        if isinstance(obj, (list, tuple)):
            return list(obj)
        return []

    def _walk(self, obj, predicate, found, seen):
        for child in self._children(obj):
            if id(child) in seen:
                continue
            if isinstance(child, (Module, Variable, list, tuple, dict)):
                seen.add(id(child))
            if predicate(child):
                found.append(child)
            if isinstance(child, (Module, list, tuple, dict)):
                self._walk(child, predicate, found, seen)

    @classmethod
    def with_name_scope(cls, method):
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        wrapped.__name__ = method.__name__
        return wrapped


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
