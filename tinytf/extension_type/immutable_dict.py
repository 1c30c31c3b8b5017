"""The read-only mapping an ExtensionType stores a `typing.Mapping` field as (TF's ImmutableDict)."""

from __future__ import annotations

from collections.abc import Mapping


class ImmutableDict(Mapping):
    """A dict that cannot change after construction: fields of immutable values must not change either."""

    __slots__ = ("_items",)

    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "_items", dict(*args, **kwargs))

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __contains__(self, key):
        return key in self._items

    def __setattr__(self, name, value):
        raise AttributeError("ImmutableDict cannot be modified")

    def __repr__(self):
        return f"ImmutableDict({self._items!r})"
