"""The variables of ParameterServerStrategy: made under its scope, each is placed on one parameter server (round
robin over the ps tasks, as TF places them) and its value lives in that server's store, not in the variable.

Graphs and eager ops read and write a variable through its `_array` attribute (runtime/ops/state.py), so the
value's home is a property: a ps task served by this process keeps the arrays in its Server's `variables` dict
(workers, threads of this process, read and update them there, without copies); a ps task in another process is
reached over TCP (server.py's "read" and "assign" requests, one round trip per read or write)."""

from __future__ import annotations

import itertools
import uuid

from tinytf.variables import creation_class_hooks

from . import context

_keys = itertools.count()
_PROCESS = uuid.uuid4().hex[:12]  # keys of two coordinator processes sharing a ps task never collide


class LocalStore:
    """The variables dict of a Server of this process."""

    def __init__(self, server):
        self.server = server

    def get(self, key):
        return self.server.variables[key]

    def set(self, key, value) -> None:
        self.server.variables[key] = value


class RemoteStore:
    """A ps task of another process, over a Connection."""

    def __init__(self, connection):
        self.connection = connection

    def get(self, key):
        return self.connection.call(("read", key))

    def set(self, key, value) -> None:
        self.connection.call(("assign", key, value))


class ParameterServerVariable:
    """Mixed in before the class of the variable being made (tf.Variable, a Keras weight): see the module."""

    _ps_task = 0
    _store = None
    _key = None

    def __init__(self, *args, **kwargs):
        if self.__dict__.get("_made_by_creator"):  # a variable creator made it: Python's second __init__ call
            super().__init__(*args, **kwargs)
            return
        self._strategy = context.current_frame().strategy
        self._ps_task, self._store = self._strategy._place_variable()
        self._key = f"{_PROCESS}/{next(_keys)}"
        super().__init__(*args, **kwargs)

    @property
    def _array(self):
        return self._store.get(self._key)

    @_array.setter
    def _array(self, value):
        self._store.set(self._key, value)

    @property
    def device(self) -> str:
        return f"/job:ps/replica:0/task:{self._ps_task}/device:CPU:0"

    def __reduce_ex__(self, protocol):
        """Pickled (and deep-copied) as the plain variable class it mixes into, holding its current value: the
        strategy and the servers belong to this process."""
        base = next(c for c in type(self).__mro__ if not issubclass(c, ParameterServerVariable))
        state = {k: v for k, v in self.__dict__.items() if k not in ("_strategy", "_store", "_ps_task", "_key")}
        state["_array"] = self._array
        return _plain_variable, (base,), state


def _plain_variable(cls):
    return object.__new__(cls)


_classes: dict = {}


def _ps_class(cls):
    made = _classes.get(cls)
    if made is None:
        made = _classes[cls] = type(cls.__name__, (ParameterServerVariable, cls), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "__doc__": f"{cls.__name__} on a parameter server (see tinytf.distribute.ps_variable)"})
    return made


def _class_under_scope(cls):
    """Variable.__new__'s hook: under a ParameterServerStrategy (its scope, or a replica of its run), a variable
    is placed on a parameter server."""
    frame = context.current_frame()
    strategy = frame.strategy if frame is not None else None
    if strategy is None or not getattr(strategy, "_places_on_ps", False) or issubclass(cls, ParameterServerVariable):
        return cls
    return _ps_class(cls)


def install() -> None:
    if _class_under_scope not in creation_class_hooks:
        creation_class_hooks.append(_class_under_scope)
