"""The lists and dicts a tf.Module or tf.train.Checkpoint holds in its attributes: TF's ListWrapper and
DictWrapper. They behave as the list or dict they wrap (equal to it, JSON-able, `+` gives a plain list) and
announce each change, so a value a checkpoint restore left waiting reaches an object appended later
(`ckpt.listed = []; ckpt.listed.append(v)` restores v, as in TF's checkpoint guide). Always trackable, even empty."""

from __future__ import annotations

# Called as hook(container) after a change. tinytf.train registers its deferred restoration here (it imports
# this module, so this module cannot import it).
mutation_hooks: list = []


def _changed(container) -> None:
    for hook in mutation_hooks:
        hook(container)


class ListWrapper(list):
    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"

    def append(self, value):
        list.append(self, value)
        _changed(self)

    def extend(self, values):
        list.extend(self, values)
        _changed(self)

    def insert(self, index, value):
        list.insert(self, index, value)
        _changed(self)

    def __setitem__(self, index, value):
        list.__setitem__(self, index, value)
        _changed(self)

    def __iadd__(self, values):
        list.extend(self, values)
        _changed(self)
        return self


class DictWrapper(dict):
    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        _changed(self)

    def update(self, *args, **kwargs):
        dict.update(self, *args, **kwargs)
        _changed(self)

    def setdefault(self, key, default=None):
        value = dict.setdefault(self, key, default)
        _changed(self)
        return value


def wrap(value):
    """A plain list or dict assigned to a tracking attribute becomes its wrapper; anything else stays."""
    kind = type(value)
    if kind is list:
        return ListWrapper(value)
    if kind is dict:
        return DictWrapper(value)
    return value
