"""keras.StatelessScope and keras.SymbolicScope, with Keras 3's semantics
(keras/src/backend/common/stateless_scope.py): inside a StatelessScope, a Keras variable reads the value its
`state_mapping` gives it (or its own when unmapped), an assignment is recorded in the scope instead of changing
the variable (`scope.get_current_value(variable)` returns it, and later reads in the scope see it), and
`add_loss` adds to the scope's `losses` only when `collect_losses=True`. This is how a stateless call is
written: the model's weights are passed in, the updated values come out, nothing is changed in place.
SymbolicScope only marks the symbolic stage (`in_symbolic_scope()`), as in Keras.

The variables module consults `current()` on every read and assignment; scopes nest (each restores the one
it replaced). Unlike Keras, a variable created inside the scope (a layer built there) is initialised at once
rather than at the scope's exit."""

from __future__ import annotations

import tinytf as _tf

_active = {"stateless": None, "symbolic": None}


def current():
    """The innermost StatelessScope, or None."""
    return _active["stateless"]


def get_stateless_scope():
    return _active["stateless"]


def in_stateless_scope() -> bool:
    return _active["stateless"] is not None


class StatelessScope:
    """Scope to prevent any update to Keras variables: `state_mapping` is a list of (variable, value) pairs."""

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}
        for variable, value in state_mapping or {}:
            if not getattr(type(variable), "_is_keras_variable", False):  # a Keras variable, not a bare tf.Variable
                raise ValueError("Invalid reference variable in StatelessScope: all keys in argument `mapping` "
                                 f"must be Variable instances. Received instead: {variable}")
            value = _as_value_of(variable, value)
            if tuple(variable.shape.as_list()) != tuple(value.shape.as_list()):
                raise ValueError("Invalid variable value in StatelessScope: all values in argument `mapping` must "
                                 "be tensors with a shape that matches the corresponding variable shape. For "
                                 f"variable {variable}, received invalid value {value} with shape "
                                 f"{tuple(value.shape.as_list())}.")
            self.state_mapping[id(variable)] = value

    def __enter__(self):
        self.original_scope = _active["stateless"]
        _active["stateless"] = self
        return self

    def __exit__(self, *exc):
        _active["stateless"] = self.original_scope
        return False

    def add_loss(self, loss) -> None:
        self.losses.append(loss)

    def add_update(self, update) -> None:
        variable, value = update
        self.state_mapping[id(variable)] = value

    def get_current_value(self, variable):
        return self.state_mapping.get(id(variable), None)


def _as_value_of(variable, value):
    """A mapping's value as a tensor of the variable's own dtype (Keras casts a variable's value, and converts
    anything else)."""
    dtype = variable._own_dtype
    if isinstance(value, _tf.Variable):
        value = value.read_value()
    value = _tf.convert_to_tensor(value)
    return value if value.dtype == dtype else _tf.cast(value, dtype)


def get_symbolic_scope():
    return _active["symbolic"]


def in_symbolic_scope() -> bool:
    return _active["symbolic"] is not None


class SymbolicScope:
    """Scope to indicate the symbolic stage."""

    def __enter__(self):
        self.original_scope = _active["symbolic"]
        _active["symbolic"] = self
        return self

    def __exit__(self, *exc):
        _active["symbolic"] = self.original_scope
        return False
