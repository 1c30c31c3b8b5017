"""tf.variable_creator_scope: creator functions that every tf.Variable construction goes through. The innermost
scope's creator is called first, as `creator(next_creator, **kwargs)` with TF's keyword arguments; calling
`next_creator(**kwargs)` goes on to the enclosing scope's creator, and the last one makes the variable. Creators
are kept per thread, as TF keeps them per graph and eager context."""

from __future__ import annotations

import contextlib
import threading

_stack = threading.local()

# the keywords TF 2.21 hands every creator (experimental_enable_variable_lifting is TF's, tinytf ignores it)
_ARGUMENTS = ("initial_value", "trainable", "validate_shape", "caching_device", "name", "variable_def", "dtype",
              "import_scope", "constraint", "synchronization", "aggregation", "shape")


def _creators() -> list:
    if not hasattr(_stack, "creators"):
        _stack.creators = []
        _stack.making = 0
    return _stack.creators


def active() -> bool:
    """Whether a Variable being constructed now must go through the creators (not when the last creator is
    constructing it)."""
    return bool(_creators()) and not _stack.making


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Scope which defines a variable creation function to be used by variable(): `variable_creator` is
    called as `variable_creator(next_creator, **kwargs)` for each tf.Variable made inside the scope."""
    creators = _creators()
    creators.append(variable_creator)
    try:
        yield
    finally:
        creators.remove(variable_creator)


def _keywords(cls):
    """The keyword names cls(...) accepts, or None when it takes any (**kwargs)."""
    import inspect

    parameters = inspect.signature(cls.__init__).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}


def create(cls, args, kwargs):
    """What the creators make of a `cls(*args, **kwargs)` call."""
    fields = dict.fromkeys(_ARGUMENTS)
    fields.update(trainable=None, validate_shape=True, experimental_enable_variable_lifting=True)
    fields.update(zip(_ARGUMENTS, args))
    fields.update(kwargs)
    named = set(kwargs) | set(_ARGUMENTS[:len(args)])

    def make(**given):
        given.pop("experimental_enable_variable_lifting", None)
        if given.get("trainable") is None:  # TF's default: trainable unless synchronized ON_READ
            given["trainable"] = True
        # a variable class with its own signature (a Keras weight) gets the keywords it takes; TF's other fields,
        # unset by its caller, are left to the class's defaults
        accepted = _keywords(cls)
        given = {k: v for k, v in given.items()
                 if (accepted is None or k in accepted) and (v is not None or k in named)}
        _stack.making += 1
        try:
            return cls(**given)
        finally:
            _stack.making -= 1

    chain = make
    for creator in list(_creators()):
        chain = (lambda c, following: lambda **given: c(following, **given))(creator, chain)
    _stack.classes = getattr(_stack, "classes", [])
    _stack.classes.append(cls)
    try:
        return chain(**fields)
    finally:
        _stack.classes.pop()


def class_being_made():
    """The variable class whose construction the creators are handling now (a creator may treat a Keras weight
    differently from a tf.Variable); None outside a creator."""
    classes = getattr(_stack, "classes", None)
    return classes[-1] if classes else None
